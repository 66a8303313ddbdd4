"""paddle.linalg: the linear-algebra functions under their Paddle names (inv is paddle.inverse).

>>> import minipaddle as paddle
>>> paddle.linalg.inv(paddle.to_tensor([[2., 0.], [0., 4.]]))
"""

from minipaddle.tensor.linalg import (
    cholesky,
    cond,
    det,
    matrix_power,
    multi_dot,
    norm,
)
from minipaddle.tensor.linalg import inverse as inv

__all__ = ["cholesky", "cond", "det", "inv", "matrix_power", "multi_dot", "norm"]
