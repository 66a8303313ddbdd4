"""Record what real Paddle 2.6 computes for paddle.geometric, as golden cases for tests/geometric/test_geometric.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/geometric/make_golden.py

It writes cases.json (each case's function, keyword arguments and input names) and arrays.npz (inputs, the output,
a cotangent `cot`, and the gradients of sum(out * cot) with respect to each float input). Tied values are recorded
on purpose: they pin Paddle's rule that every tied element of a max/min gets the whole gradient. Reindexing is
recorded too (no gradient). Sampling is random, so it is not recorded here.
"""

import json
import os

import numpy as np
import paddle
import paddle.geometric as G

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)

X = np.array([[0, 2, 3], [1, 4, 5], [2, 6, 7]], dtype="float64")
SRC, DST = np.array([0, 1, 2, 0]), np.array([1, 2, 1, 0])
TIES = np.array([[1.0, 2], [1, 3], [1, 1]])
SEG = np.array([[1.0, 2, 3], [3, 2, 1], [4, 5, 6], [4, 5, 6]])

# name -> (function, {input name: array}, keyword arguments); inputs are passed in the order given
CASES = {}
for reduce_op in ["sum", "mean", "max", "min"]:
    CASES[f"segment_{reduce_op}"] = (f"segment_{reduce_op}", {"data": SEG, "segment_ids": np.array([0, 0, 1, 3])}, {})
    CASES[f"segment_{reduce_op}_ties"] = (
        f"segment_{reduce_op}",
        {"data": TIES, "segment_ids": np.array([0, 0, 0])},
        {},
    )
    CASES[f"segment_{reduce_op}_int"] = (
        f"segment_{reduce_op}",
        {"data": np.array([-3, 0, 5, 2]), "segment_ids": np.array([0, 0, 1, 1])},
        {},
    )
    for out_size in [None, 5]:
        CASES[f"u_recv_{reduce_op}_{out_size}"] = (
            "send_u_recv",
            {"x": X, "src_index": SRC, "dst_index": DST},
            {"reduce_op": reduce_op, "out_size": out_size},
        )
    CASES[f"u_recv_{reduce_op}_ties"] = (
        "send_u_recv",
        {"x": TIES, "src_index": np.array([0, 1, 2, 0]), "dst_index": np.array([0, 0, 0, 1])},
        {"reduce_op": reduce_op},
    )
    for message_op in ["add", "sub", "mul", "div"]:
        y = rng.uniform(0.5, 2.0, (4, 3))
        CASES[f"ue_recv_{message_op}_{reduce_op}"] = (
            "send_ue_recv",
            {"x": rng.standard_normal((3, 3)), "y": y, "src_index": SRC, "dst_index": DST},
            {"message_op": message_op, "reduce_op": reduce_op, "out_size": 4},
        )
    CASES[f"ue_recv_bcast_{reduce_op}"] = (
        "send_ue_recv",
        {"x": rng.standard_normal((3, 1, 3)), "y": rng.uniform(0.5, 2, (4, 2, 1)), "src_index": SRC, "dst_index": DST},
        {"message_op": "mul", "reduce_op": reduce_op},
    )
CASES["ue_recv_y_1d"] = (
    "send_ue_recv",
    {"x": X, "y": np.array([1.0, 2, 3, 4]), "src_index": SRC, "dst_index": DST},
    {"message_op": "mul", "reduce_op": "sum"},
)
CASES["ue_recv_y_3d"] = (
    "send_ue_recv",
    {"x": X, "y": rng.standard_normal((4, 2, 3)), "src_index": SRC, "dst_index": DST},
    {"message_op": "add", "reduce_op": "mean"},
)
CASES["ue_recv_int"] = (
    "send_ue_recv",
    {
        "x": np.array([[1, 2], [3, 4]]),
        "y": np.array([[2], [3], [-4]]),
        "src_index": np.array([0, 1, 1]),
        "dst_index": np.array([0, 0, 1]),
    },
    {"message_op": "sub", "reduce_op": "mean"},
)
for message_op in ["add", "sub", "mul", "div"]:
    CASES[f"uv_{message_op}"] = (
        "send_uv",
        {"x": rng.standard_normal((3, 3)), "y": rng.uniform(0.5, 2, (3, 3)), "src_index": SRC, "dst_index": DST},
        {"message_op": message_op},
    )
CASES["uv_bcast"] = (
    "send_uv",
    {"x": rng.standard_normal((3, 1, 3)), "y": rng.standard_normal((3, 2, 1)), "src_index": SRC, "dst_index": DST},
    {"message_op": "mul"},
)
CASES["uv_1d"] = (
    "send_uv",
    {"x": np.array([1.0, 2, 3]), "y": np.array([4.0, 5, 6]), "src_index": SRC, "dst_index": DST},
    {"message_op": "sub"},
)

X3 = np.array([0, 1, 2])
NB = np.array([8, 9, 0, 4, 7, 6, 7])
REINDEX = {
    "reindex": ("reindex_graph", [X3, NB, np.array([2, 3, 2], "int32")]),
    "reindex_int32": ("reindex_graph", [X3.astype("int32"), NB.astype("int32"), np.array([2, 3, 2], "int32")]),
    "reindex_repeated_x": ("reindex_graph", [np.array([1, 1, 2]), NB, np.array([2, 3, 2], "int32")]),
    "reindex_no_neighbors": ("reindex_graph", [X3, np.zeros(0, "int64"), np.array([0, 0, 0], "int32")]),
    "reindex_heter": (
        "reindex_heter_graph",
        [X3, [NB, np.array([0, 2, 3, 5, 1])], [np.array([2, 3, 2], "int32"), np.array([1, 3, 1], "int32")]],
    ),
}


def record_message_passing(cases, arrays):
    for name, (fn, inputs, kwargs) in CASES.items():
        tensors = {k: paddle.to_tensor(v, stop_gradient=v.dtype.kind != "f") for k, v in inputs.items()}
        out = getattr(G, fn)(*tensors.values(), **kwargs)
        cot = rng.standard_normal(out.shape)
        leaves = [k for k, v in inputs.items() if v.dtype.kind == "f"]
        grads = paddle.grad([(out * paddle.to_tensor(cot)).sum()], [tensors[k] for k in leaves]) if leaves else []
        arrays.update({f"{name}.{k}": v for k, v in inputs.items()})
        arrays.update({f"{name}.out": out.numpy(), f"{name}.cot": cot})
        arrays.update({f"{name}.grad_{k}": g.numpy() for k, g in zip(leaves, grads)})
        cases[name] = {"fn": fn, "inputs": list(inputs), "kwargs": kwargs, "grads": leaves}
        print(name, out.shape)


def record_reindex(cases, arrays):
    for name, (fn, args) in REINDEX.items():

        def as_tensor(a):
            return [paddle.to_tensor(e) for e in a] if isinstance(a, list) else paddle.to_tensor(a)

        src, dst, nodes = getattr(G, fn)(*[as_tensor(a) for a in args])
        flat = {}
        for i, a in enumerate(args):
            for j, e in enumerate(a if isinstance(a, list) else [a]):
                flat[f"{name}.arg{i}_{j}"] = e
        arrays.update(flat)
        arrays.update({f"{name}.src": src.numpy(), f"{name}.dst": dst.numpy(), f"{name}.nodes": nodes.numpy()})
        cases[name] = {
            "fn": fn,
            "lists": [isinstance(a, list) for a in args],
            "lengths": [len(a) if isinstance(a, list) else 1 for a in args],
        }
        print(name, nodes.numpy())


def main():
    cases, arrays = {}, {}
    record_message_passing(cases, arrays)
    record_reindex(cases, arrays)
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump({"paddle_version": paddle.__version__, "cases": cases}, f, indent=1)
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)


if __name__ == "__main__":
    main()
