"""Matrix products of the public API (paddle.tensor.linalg)."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_tensor
from minipaddle.tensor.math import binary_operands

__all__ = ["matmul", "mm"]


def matmul(x, y, transpose_x: bool = False, transpose_y: bool = False, name=None) -> Tensor:
    """Matrix product with numpy's rules: 1-D operands are vectors, leading dimensions broadcast as batches.

    Example:
        >>> paddle.matmul(paddle.ones([2, 3]), paddle.ones([3, 4])).shape
        [2, 4]
    """
    check_tensor(x, "matmul", "x")
    check_tensor(y, "matmul", "y")
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(f"matmul: both operands need at least 1 dimension, got shapes {x.shape} and {y.shape}")
    xs, ys = list(x.shape), list(y.shape)
    if transpose_x and len(xs) >= 2:
        xs[-1], xs[-2] = xs[-2], xs[-1]
    if transpose_y and len(ys) >= 2:
        ys[-1], ys[-2] = ys[-2], ys[-1]
    k_y = ys[0] if len(ys) == 1 else ys[-2]
    if xs[-1] != k_y:
        raise ValueError(
            f"matmul: x has shape {x.shape} and y has shape {y.shape}"
            f"{' (transposed)' if transpose_x or transpose_y else ''}; x's last dimension ({xs[-1]}) "
            f"must equal y's {'first' if len(ys) == 1 else 'second-to-last'} ({k_y})"
        )
    x, y = binary_operands(x, y, "matmul")
    return ops.matmul(x, y, bool(transpose_x), bool(transpose_y))


def mm(input, mat2, name=None) -> Tensor:  # noqa: A002 (Paddle's name)
    return matmul(input, mat2)
