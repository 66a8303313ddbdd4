"""paddle.sparse: tensors that store only their non-zeros (COO and CSR layouts) and the functions on them.

tensor.py    SparseCooTensor, SparseCsrTensor, and the conversions between layouts and dense
creation.py  sparse_coo_tensor, sparse_csr_tensor, Tensor.to_sparse_coo / to_sparse_csr
unary.py     element-wise math on the values; sum, transpose, reshape, slice, cast, coalesce
binary.py    add, subtract, multiply, divide; matmul, masked_matmul, mv, addmm; is_same_shape
linalg.py    pca_lowrank
nn/          ReLU, ReLU6, LeakyReLU, Softmax and their functional forms
"""

from minipaddle.sparse import nn
from minipaddle.sparse.binary import add, addmm, divide, is_same_shape, masked_matmul, matmul, multiply, mv, subtract
from minipaddle.sparse.creation import sparse_coo_tensor, sparse_csr_tensor
from minipaddle.sparse.linalg import pca_lowrank
from minipaddle.sparse.tensor import SparseCooTensor, SparseCsrTensor
from minipaddle.sparse.unary import (
    abs,  # noqa: A004 (Paddle's names)
    asin,
    asinh,
    atan,
    atanh,
    cast,
    coalesce,
    deg2rad,
    expm1,
    isnan,
    log1p,
    neg,
    pow,  # noqa: A004
    rad2deg,
    reshape,
    sin,
    sinh,
    slice,  # noqa: A004
    sqrt,
    square,
    sum,  # noqa: A004
    tan,
    tanh,
    transpose,
)

__all__ = [
    "pca_lowrank",
    "sparse_coo_tensor",
    "sparse_csr_tensor",
    "sin",
    "tan",
    "asin",
    "atan",
    "sinh",
    "tanh",
    "asinh",
    "atanh",
    "sqrt",
    "square",
    "log1p",
    "abs",
    "pow",
    "cast",
    "neg",
    "deg2rad",
    "rad2deg",
    "expm1",
    "mv",
    "matmul",
    "masked_matmul",
    "addmm",
    "add",
    "subtract",
    "transpose",
    "sum",
    "multiply",
    "divide",
    "coalesce",
    "is_same_shape",
    "reshape",
    "isnan",
    "slice",
]
