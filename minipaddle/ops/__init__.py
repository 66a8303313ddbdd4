"""Every op, defined once (DESIGN.md, wall 2). Importing this package registers them all in core.op.OPS.

Grad rules call sibling ops through this package (`ops.multiply(g, y)`), so the modules can refer to each
other in any order. The names below are the raw op functions: they check nothing; `minipaddle.tensor` checks.
"""

from minipaddle.ops.activation import log_softmax, relu, sigmoid, softmax
from minipaddle.ops.broadcast import unbroadcast
from minipaddle.ops.compare import equal, greater_equal, greater_than, less_equal, less_than, not_equal
from minipaddle.ops.elementwise import (
    abs,
    add,
    conj,
    divide,
    elementwise_pow,
    exp,
    log,
    maximum,
    minimum,
    multiply,
    neg,
    pow,
    scale,
    sign,
    sqrt,
    subtract,
    tanh,
)
from minipaddle.ops.linalg import matmul
from minipaddle.ops.manipulation import (
    assign,
    cast,
    concat,
    expand,
    full_like,
    getitem,
    reshape,
    split,
    stack,
    transpose,
    unstack,
    where,
)
from minipaddle.ops.reduce import max, mean, min, sum

__all__ = [
    "abs", "add", "assign", "cast", "concat", "conj", "divide", "elementwise_pow", "equal", "exp", "expand",
    "full_like", "getitem",
    "greater_equal", "greater_than", "less_equal", "less_than", "log", "log_softmax", "matmul", "max", "maximum",
    "mean", "min", "minimum", "multiply", "neg", "not_equal", "pow", "relu", "reshape", "scale", "sigmoid", "sign",
    "softmax", "split", "sqrt", "stack", "subtract", "sum", "tanh", "transpose", "unbroadcast", "unstack", "where",
]  # fmt: skip
