"""paddle.linalg.cov and paddle.linalg.corrcoef: the covariance and correlation matrices of variables observed
many times (rows are variables unless rowvar=False), with frequency and importance weights for cov.

Both are compositions of ops (mean, subtract, matmul, divide), so their gradients come from those ops. As the
other paddle.linalg functions, they are reached through paddle.linalg and are Tensor methods (`x.cov()`).
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_bool, check_tensor
from minipaddle.tensor.decompositions import _REAL, _t

__all__ = [
    "cov",
    "corrcoef",
]


# ---- statistics ----------------------------------------------------------------------------------------------------


def _check_weights(w, fn: str, arg: str, observations: int) -> Tensor:
    check_tensor(w, fn, arg)
    if w.ndim > 1:
        raise ValueError(f"{fn}: {arg} must be a 1-D tensor, got shape {w.shape}")
    if w.size != observations:
        raise ValueError(f"{fn}: {arg} must have one weight per observation ({observations}), got {w.size}")
    if not STATE.static_mode:  # the values are known only in dynamic mode
        values = w.numpy()
        if values.size and values.min() < 0:
            raise ValueError(f"{fn}: {arg} must not be negative, got a smallest value of {values.min()}")
        if arg == "fweights" and not np.all(values == np.round(values)):
            raise ValueError(f"{fn}: fweights must hold integers, got {values.tolist()}")
    return w


def _check_variables(x, fn: str) -> None:
    """cov's and corrcoef's x: a 1-D or 2-D real float tensor of variables and their observations."""
    check_tensor(x, fn)
    if x.ndim not in (1, 2):
        raise ValueError(f"{fn}: x must be 1-D or 2-D, got shape {x.shape}")
    if x.dtype.name not in _REAL:
        raise TypeError(f"{fn}: x must be a float32 or float64 tensor, got {x.dtype.name}")


def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None) -> Tensor:
    """The covariance matrix of the variables in x (rows, or columns when rowvar=False).

    Args:
        x (Tensor): 1-D (one variable) or 2-D, float32/float64.
        rowvar (bool): each row is a variable (default), observations in the columns.
        ddof (bool): True divides by N - 1 (unbiased), False by N.
        fweights (Tensor): 1-D integer frequency weights, one per observation.
        aweights (Tensor): 1-D observation weights.

    Returns:
        The [variables, variables] covariance matrix, squeezed (0-d for one variable).

    Example:
        >>> paddle.linalg.cov(paddle.to_tensor([[0., 1., 2.], [2., 1., 0.]]))    # [[1., -1.], [-1., 1.]]
    """
    _check_variables(x, "cov")
    rowvar, ddof = check_bool(rowvar, "cov", "rowvar"), check_bool(ddof, "cov", "ddof")
    nx = ops.reshape(x, (1, -1)) if x.ndim == 1 else x
    if not rowvar and nx.shape[0] != 1:  # (a single row stays the one variable, as in Paddle)
        nx = _t(nx)
    observations = nx.shape[1]
    if observations == 0:
        raise ValueError(f"cov: x has no observations (shape {x.shape}); a covariance needs at least one")
    w = aw = None
    if fweights is not None:
        w = ops.cast(_check_weights(fweights, "cov", "fweights", observations), nx.dtype.np)
    if aweights is not None:
        aw = ops.cast(_check_weights(aweights, "cov", "aweights", observations), nx.dtype.np)
        w = aw if w is None else ops.multiply(w, aw)
    if w is None:
        avg = ops.scale(ops.sum(nx, (1,), False), 1.0 / observations)
        nx_w, norm = nx, float(max(observations - int(ddof), 0))  # none left: divide by 0, as Paddle does
    else:
        w_sum = ops.sum(w, None, False)
        if not STATE.static_mode and w_sum.item() == 0:
            raise ValueError("cov: the weights sum to zero, so the covariance cannot be normalized")
        nx_w = ops.multiply(nx, w)
        avg = ops.divide(ops.sum(nx_w, (1,), False), w_sum)
        if aw is not None and ddof:
            norm = ops.subtract(w_sum, ops.divide(ops.sum(ops.multiply(w, aw), None, False), w_sum))
        else:
            norm = ops.scale(w_sum, 1.0, -float(ddof))
        norm = ops.maximum(norm, ops.full_like(norm, 0.0))
    centered = ops.subtract(nx, ops.reshape(avg, (-1, 1)))
    product = ops.matmul(centered, ops.conj(nx_w), False, True)
    out = ops.divide(product, norm)
    return ops.reshape(out, ()) if tuple(out.shape) == (1, 1) else out


def corrcoef(x, rowvar=True, name=None) -> Tensor:
    """The Pearson correlation coefficients of the variables in x (cov normalized by the standard deviations),
    clipped to [-1, 1].

    Example:
        >>> paddle.linalg.corrcoef(paddle.to_tensor([[0., 1., 2.], [2., 1., 0.]]))    # [[1., -1.], [-1., 1.]]
    """
    _check_variables(x, "corrcoef")
    c = cov(x, rowvar)
    if c.ndim == 0:  # one variable: 1, or nan when its variance is 0, nan or inf
        return ops.divide(c, c)
    stddev = ops.sqrt(ops.extract_diagonal(c, 0, 0, 1))
    c = ops.divide(ops.divide(c, ops.reshape(stddev, (-1, 1))), ops.reshape(stddev, (1, -1)))
    return ops.clip(c, -1.0, 1.0)
