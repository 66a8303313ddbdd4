"""paddle.linalg: the linear-algebra functions under their Paddle names (inv is paddle.inverse).

>>> import minipaddle as paddle
>>> paddle.linalg.inv(paddle.to_tensor([[2., 0.], [0., 4.]]))
"""

from minipaddle.tensor.linalg import (
    cholesky,
    cond,
    det,
    householder_product,
    matrix_power,
    multi_dot,
    norm,
)
from minipaddle.tensor.linalg import inverse as inv
from minipaddle.tensor.linalg_extra import (
    cholesky_solve,
    corrcoef,
    cov,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    lstsq,
    lu,
    lu_unpack,
    matrix_rank,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    triangular_solve,
)
from minipaddle.tensor.pca import pca_lowrank

__all__ = ["cholesky", "cond", "det", "inv", "matrix_power", "multi_dot", "norm"]
__all__ += ["svd", "qr", "eigh", "eigvalsh", "eig", "eigvals", "solve", "triangular_solve", "cholesky_solve"]
__all__ += ["lstsq", "pinv", "slogdet", "matrix_rank", "lu", "lu_unpack", "cov", "corrcoef"]
__all__ += ["householder_product"]
__all__ += ["pca_lowrank"]
