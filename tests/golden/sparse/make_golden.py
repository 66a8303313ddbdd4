"""Record what real Paddle 2.6 computes for paddle.sparse, as golden cases for tests/sparse/test_sparse_golden.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/sparse/make_golden.py

Each case is a small expression (evaluated with `paddle` and `S = paddle.sparse` in scope) whose result is a
sparse tensor; cases.json keeps its layout, shape, dtype, printed string and the index and value arrays. Paddle
2.6's CPU build has no kernels for matmul, mv, masked_matmul and addmm, so those are not recorded here.
"""

import json
import os

import numpy as np
import paddle
import paddle.sparse as S

HERE = os.path.dirname(os.path.abspath(__file__))

SETUP = """
a = paddle.to_tensor([[0., 1, 0], [2, 0, 3]])
b = paddle.to_tensor([[4., 0, 0], [5, 0, -1]])
h = paddle.to_tensor([[[0., 0], [1, 2], [0, 0]], [[3, 0], [0, 0], [0, 4]]])
n = paddle.to_tensor([[0.5, 0, -0.25], [0, 0.75, 0]])
"""

CASES = [
    "S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., 2., 3.], [3, 3])",
    "S.sparse_coo_tensor([[1, 0, 1], [0, 1, 0]], [1., 2, 3])",
    "S.sparse_coo_tensor([[0, 2]], [[1., 2], [3, 4]], [3, 2])",
    "S.sparse_coo_tensor([[0, 2]], [1, 2], dtype='float64')",
    "S.sparse_coo_tensor([[0, 2]], [1, 2])",
    "S.sparse_csr_tensor([0, 2, 3, 5], [1, 3, 2, 0, 1], [1., 2, 3, 4, 5], [3, 4])",
    "S.sparse_csr_tensor([0, 1, 2, 0, 1, 1], [1, 0, 1], [1., 2, 3], [2, 2, 2])",
    "S.sparse_csr_tensor([0, 1, 2, 0, 1, 1], [1, 0, 1], [1., 2, 3], [2, 2, 2]).to_sparse_coo(3)",
    "a.to_sparse_coo(2)",
    "a.to_sparse_coo(1)",
    "h.to_sparse_coo(2)",
    "a.to_sparse_csr()",
    "a.to_sparse_coo(2).to_sparse_csr()",
    "paddle.ones([2, 2, 2]).to_sparse_csr()",
    "S.coalesce(S.sparse_coo_tensor([[1, 0, 1], [0, 1, 0]], [1., 2, 3], [2, 2]))",
]
for fn in ["add", "subtract", "multiply", "divide"]:
    CASES += [f"S.{fn}(a.to_sparse_coo(2), b.to_sparse_coo(2))", f"S.{fn}(a.to_sparse_csr(), b.to_sparse_csr())"]
CASES += [
    "S.multiply(a.to_sparse_coo(2), 2.5)",
    "S.divide(a.to_sparse_csr(), 4.0)",
    "S.add(paddle.to_tensor([[1, 0]]).to_sparse_coo(2), paddle.to_tensor([[1.5, 0]]).to_sparse_coo(2))",
    "S.add(a.to_sparse_coo(2), paddle.ones([2, 3], 'float64').to_sparse_coo(2))",
    "S.add(h.to_sparse_coo(2), h.to_sparse_coo(2))",
]
for fn in ["neg", "abs", "sqrt", "square", "sin", "sinh", "asin", "asinh", "tan", "tanh", "atan", "atanh",
           "log1p", "expm1", "deg2rad", "rad2deg", "isnan"]:  # fmt: skip
    CASES += [f"S.{fn}(n.to_sparse_coo(2))", f"S.{fn}(n.to_sparse_csr())"]
CASES += [
    "S.pow(a.to_sparse_coo(2), 2)",
    "S.pow(a.to_sparse_csr(), 0.5)",
    "S.cast(a.to_sparse_coo(2), 'int32', 'float64')",
    "S.cast(a.to_sparse_csr(), 'int32', 'float64')",
    "S.cast(a.to_sparse_coo(2), value_dtype='int64')",
    "S.sum(a.to_sparse_coo(2), 0)",
    "S.sum(a.to_sparse_coo(2), 1, keepdim=True)",
    "S.sum(a.to_sparse_coo(2), -1)",
    "S.sum(h.to_sparse_coo(2), 2)",
    "S.sum(h.to_sparse_coo(2), 1)",
    "S.sum(a.to_sparse_coo(2), 0, dtype='float64')",
    "S.sum(paddle.to_tensor([[1, 0], [2, 3]], 'int32').to_sparse_coo(2), 1)",
    "S.sum(a.to_sparse_csr())",
    "S.sum(a.to_sparse_csr(), -1)",
    "S.sum(a.to_sparse_csr(), -1, keepdim=True)",
    "S.transpose(a.to_sparse_coo(2), [1, 0])",
    "S.transpose(a.to_sparse_csr(), [1, 0])",
    "S.transpose(h.to_sparse_coo(3), [2, 0, 1])",
    "S.transpose(h.to_sparse_csr(), [0, 2, 1])",
    "S.reshape(a.to_sparse_coo(2), [3, 2])",
    "S.reshape(a.to_sparse_coo(2), [-1])",
    "S.reshape(a.to_sparse_csr(), [-1, 2])",
    "S.reshape(a.to_sparse_csr(), [1, 3, 2])",
    "S.reshape(h.to_sparse_coo(3), [0, 2, 3])",
    "S.slice(a.to_sparse_coo(2), [1], [1], [3])",
    "S.slice(a.to_sparse_coo(2), [0, 1], [-1, 0], [100, -1])",
    "S.slice(a.to_sparse_csr(), [0, 1], [0, 0], [1, 2])",
    "S.slice(h.to_sparse_coo(3), [0, 2], [1, 1], [2, 2])",
    "S.nn.functional.relu(n.to_sparse_coo(2))",
    "S.nn.functional.relu6(paddle.to_tensor([[0., 7], [-1, 3]]).to_sparse_csr())",
    "S.nn.functional.leaky_relu(n.to_sparse_coo(2), 0.1)",
    "S.nn.functional.softmax(paddle.to_tensor([[0., 1, -2], [3, 0, 0]]).to_sparse_csr())",
    "S.nn.functional.softmax(paddle.to_tensor([[0., 1, -2], [3, 0, 0]]).to_sparse_coo(2))",
    "S.nn.functional.softmax(h.to_sparse_csr())",
    "S.nn.ReLU()(n.to_sparse_csr())",
    "S.nn.Softmax()(paddle.to_tensor([[0., 1, -2], [3, 0, 0]]).to_sparse_csr())",
]


def record(out) -> dict:
    parts = {"indices": out.indices()} if out.is_sparse_coo() else {"crows": out.crows(), "cols": out.cols()}
    parts["values"] = out.values()
    return {
        "layout": "coo" if out.is_sparse_coo() else "csr",
        "shape": list(out.shape),
        "dtype": str(out.dtype).replace("paddle.", ""),
        "string": str(out),
        "parts": {
            k: {"dtype": str(v.dtype).replace("paddle.", ""), "data": np.asarray(v.numpy()).tolist()}
            for k, v in parts.items()
        },  # fmt: skip
    }


def main() -> None:
    scope = {"paddle": paddle, "S": S}
    exec(SETUP, scope)
    recorded = {}
    for expr in CASES:
        try:
            recorded[expr] = record(eval(expr, scope))
        except Exception as e:  # a kernel Paddle's CPU build lacks: reported, not recorded
            print(f"not recorded: {expr}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
    cases = {"setup": SETUP, "cases": recorded}
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1, allow_nan=True)


if __name__ == "__main__":
    main()
