"""Op-table section: paddle.geometric (segment_*, send_u_recv, send_ue_recv, send_uv, sampling, reindexing).

The numpy references loop over the output rows (or edges) one at a time, independently of the np.add.at /
np.maximum.at kernels in minipaddle/ops/graph_ops.py. Values are distinct (no ties), where max/min are
differentiable; the tie rule is pinned against Paddle in tests/geometric/test_geometric.py. Sampling with
sample_size -1 keeps every neighbor, so it is deterministic here; its randomness is tested there too.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, distinct, pos, r

G = paddle.geometric
_REDUCE = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}


def _reduce_rows(messages, index, rows, reduce_op):
    out = np.zeros((rows, *messages.shape[1:]), messages.dtype)
    for n in range(rows):
        picked = messages[index == n]
        if len(picked):
            out[n] = _REDUCE[reduce_op](picked, axis=0)
    return out


def segment_ref(reduce_op):
    def ref(data, segment_ids):
        return _reduce_rows(data, segment_ids, int(segment_ids.max()) + 1, reduce_op)

    return ref


def segment_samples(rng):
    return [
        Sample((distinct(rng, 6, 3), np.array([0, 0, 1, 3, 3, 3])), label="2-d, empty segment"),
        Sample((distinct(rng, 5), np.array([0, 1, 1, 1, 2], "int32")), label="1-d, int32 ids"),
        Sample((distinct(rng, 4, 2, 2), np.array([1, 1, 2, 2])), label="3-d, empty first segment"),
    ]


def _message(left, right, message_op):
    if message_op == "sub":
        return left - right
    if message_op == "div":
        return left * (1.0 / (right + 1e-12))
    return left + right if message_op == "add" else left * right


def _rows_alike(x, y):
    x = x.reshape(-1, 1) if x.ndim == 1 else x
    y = y.reshape(-1, 1) if y.ndim == 1 else y
    nd = max(x.ndim, y.ndim)
    return x.reshape(x.shape[0], *[1] * (nd - x.ndim), *x.shape[1:]), y.reshape(
        y.shape[0], *[1] * (nd - y.ndim), *y.shape[1:]
    )


def u_recv_ref(x, src_index, dst_index, reduce_op="sum", out_size=None):
    rows = x.shape[0] if out_size is None or out_size <= 0 else out_size
    return _reduce_rows(x[src_index], dst_index, rows, reduce_op)


def ue_recv_ref(x, y, src_index, dst_index, message_op="add", reduce_op="sum", out_size=None):
    rows = x.shape[0] if out_size is None or out_size <= 0 else out_size
    x, y = _rows_alike(x, y)
    return _reduce_rows(_message(x[src_index], y, message_op), dst_index, rows, reduce_op)


def uv_ref(x, y, src_index, dst_index, message_op="add"):
    x, y = _rows_alike(x, y)
    return _message(x[src_index], y[dst_index], message_op)


# Each destination hears distinct source rows (a row sent twice to one node would tie with itself under max/min).
SRC = np.array([0, 1, 2, 0, 3])
DST = np.array([1, 2, 1, 0, 1])


def u_recv_samples(reduce_op):
    def samples(rng):
        return [
            Sample((distinct(rng, 4, 3), SRC, DST), {"reduce_op": reduce_op}, "2-d"),
            Sample(
                (distinct(rng, 4), SRC.astype("int32"), DST.astype("int32")), {"reduce_op": reduce_op}, "1-d, int32"
            ),
            Sample((distinct(rng, 4, 2, 2), SRC, DST), {"reduce_op": reduce_op, "out_size": 6}, "3-d, out_size"),
        ]

    return samples


def ue_recv_samples(message_op, reduce_op):
    def samples(rng):
        return [
            Sample(
                (distinct(rng, 4, 3), pos(rng, 5, 3), SRC, DST),
                {"message_op": message_op, "reduce_op": reduce_op},
                "same features",
            ),  # fmt: skip
            Sample(
                (distinct(rng, 4, 3), pos(rng, 5), SRC, DST),
                {"message_op": message_op, "reduce_op": reduce_op, "out_size": 5},
                "1-d y, out_size",
            ),  # fmt: skip
            Sample(
                (distinct(rng, 4, 1, 3), pos(rng, 5, 2, 1), SRC, DST),
                {"message_op": message_op, "reduce_op": reduce_op},
                "broadcast",
            ),  # fmt: skip
        ]

    return samples


def uv_samples(message_op):
    def samples(rng):
        return [
            Sample((r(rng, 4, 3), pos(rng, 3, 3), SRC, np.array([1, 2, 1, 0, 0])), {"message_op": message_op}, "2-d"),
            Sample((r(rng, 4), pos(rng, 3), SRC, np.array([1, 2, 1, 0, 0])), {"message_op": message_op}, "1-d"),
            Sample(
                (r(rng, 4, 1, 3), pos(rng, 3, 2, 1), SRC, np.array([1, 2, 1, 0, 0])),
                {"message_op": message_op},
                "broadcast",
            ),  # fmt: skip
        ]

    return samples


# ---- sampling and reindexing: integer outputs, no gradient ------------------------------------------------------

ROW = np.array([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
COLPTR = np.array([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])


def sample_all_ref(row, colptr, *rest, sample_size=-1, return_eids=False, eids=None):
    nodes = rest[-1]
    return np.concatenate([row[colptr[n] : colptr[n + 1]] for n in nodes])


def sample_samples(rng):
    return [
        Sample((ROW, COLPTR, np.array([0, 8, 1, 2, 7])), {"sample_size": -1}, "all"),
        Sample(
            (ROW.astype("int32"), COLPTR.astype("int32"), np.array([5, 5, 3], "int32")),
            {"sample_size": 2},
            "int32, degree <= size",
        ),  # fmt: skip
    ]


def weighted_sample_samples(rng):
    return [Sample((*s.args[:2], pos(rng, 13), s.args[2]), s.kwargs, s.label) for s in sample_samples(rng)]


def reindex_ref(x, neighbors, count):
    numbers = {}
    for i, v in enumerate(x):
        numbers[v] = i
    order = list(x)
    for v in neighbors:
        if v not in numbers:
            numbers[v] = len(order)
            order.append(v)
    src = [numbers[v] for v in neighbors]
    dst = [numbers[x[i % len(x)]] for i, c in enumerate(count) for _ in range(c)]
    return np.concatenate([src, dst, order]).astype(x.dtype)


def reindex_samples(rng):
    return [
        Sample((np.array([0, 1, 2]), np.array([8, 9, 0, 4, 7, 6, 7]), np.array([2, 3, 2], "int32")), label="int64"),
        Sample((np.array([5, 3], "int32"), np.array([3, 1, 1, 6], "int32"), np.array([0, 4], "int32")), label="int32"),
    ]


def heter_ref(x, neighbors, count):
    return reindex_ref(x, np.concatenate(neighbors), np.concatenate(count))


def heter_samples(rng):
    x = np.array([0, 1, 2])
    nbs = [np.array([8, 9, 0, 4, 7, 6, 7]), np.array([0, 2, 3, 5, 1])]
    return [Sample((x, nbs, [np.array([2, 3, 2], "int32"), np.array([1, 3, 1], "int32")]), label="two edge types")]


def _flat(fn):
    """The three outputs of a reindexing as one Tensor, for the table's single-output checks."""
    return lambda *args, **kwargs: paddle.concat(list(fn(*args, **kwargs)))


ENTRIES = [OpInfo(f"segment_{op}", getattr(G, f"segment_{op}"), segment_ref(op), segment_samples) for op in _REDUCE]
ENTRIES += [
    OpInfo(f"send_u_recv_{op}", G.send_u_recv, u_recv_ref, u_recv_samples(op), double_grad=True) for op in _REDUCE
]
ENTRIES += [
    OpInfo(f"send_ue_recv_{m}_{op}", G.send_ue_recv, ue_recv_ref, ue_recv_samples(m, op))
    for m, op in [("add", "sum"), ("sub", "mean"), ("mul", "max"), ("div", "min"), ("mul", "sum"), ("div", "mean")]
]
ENTRIES += [OpInfo(f"send_uv_{m}", G.send_uv, uv_ref, uv_samples(m)) for m in ("add", "sub", "mul", "div")]
ENTRIES += [
    OpInfo(
        "sample_neighbors", lambda *a, **k: G.sample_neighbors(*a, **k)[0], sample_all_ref, sample_samples, grad=False
    ),  # fmt: skip
    OpInfo(
        "weighted_sample_neighbors",
        lambda *a, **k: G.weighted_sample_neighbors(*a, **k)[0],
        sample_all_ref,
        weighted_sample_samples,
        grad=False,
        dtypes=("float32",),
    ),  # fmt: skip
    OpInfo("reindex_graph", _flat(G.reindex_graph), reindex_ref, reindex_samples, grad=False),
    OpInfo("reindex_heter_graph", _flat(G.reindex_heter_graph), heter_ref, heter_samples, grad=False),
]
