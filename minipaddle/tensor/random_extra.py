"""Random functions of paddle 2.6 shaped like a tensor: randint_like, poisson, and the in-place fills
uniform_, normal_, exponential_, cauchy_, geometric_ (Tensor methods; normal_, cauchy_ and geometric_ are also
`paddle.*` functions).

Every draw comes from the one generator in core/state.py (see ops/random_extra.py), so `paddle.seed(n)` makes
them repeat. A fill writes into x through tensor/inplace.py's write_back: x keeps its identity and storage (views
see the new values), and, as in Paddle, a tensor that needed a gradient gets a zero gradient through the fill.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor import math
from minipaddle.tensor.checks import check_number, check_tensor
from minipaddle.tensor.random import _int_range
from minipaddle.tensor.write_back import write_back

__all__ = ["randint_like", "poisson", "normal_", "cauchy_", "geometric_"]


def _int(v, fn: str, arg: str) -> int:
    # unlike random.py's _int, a Tensor of several elements is a TypeError here, not Tensor.item's ValueError
    v = v.item() if isinstance(v, Tensor) and v.size == 1 else v
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    return int(v)


def randint_like(x, low=0, high=None, dtype=None, name=None) -> Tensor:
    """Random integers drawn uniformly from [low, high) (with high None: from [0, low)), shaped like x and in
    `dtype` (default: x's dtype, so a float x gets whole-number floats). Never has a gradient.

    Example:
        >>> paddle.randint_like(paddle.zeros([2, 3]), low=0, high=10)
    """
    check_tensor(x, "randint_like")
    low, high = _int_range(low, high, "randint_like", as_int=_int)
    d = x.dtype if dtype is None else dtypes.to_dtype(dtype)
    if d.is_complex:
        raise TypeError(f"randint_like: dtype must be bool, an integer or a float dtype, got {d.name}")
    return ops.random_like(x, "randint", float(low), float(high), 0, d.np)


def poisson(x, name=None) -> Tensor:
    """A count drawn from the Poisson distribution with rate x[i], for each element, in x's dtype. As in
    Paddle, its gradient is zero (and a negative rate draws 0).

    Example:
        >>> paddle.poisson(paddle.full([2, 3], 4.0))
    """
    check_tensor(x, "poisson")
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"poisson: x must be float32 or float64, got {x.dtype.name}")
    return ops.poisson(x)


# ---- in-place fills ----------------------------------------------------------------------------------------------


def _fill(x, fn: str, distribution: str, a: float, b: float, seed: int = 0) -> Tensor:
    check_tensor(x, fn)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"{fn}: x must be float32 or float64, got {x.dtype.name}")
    return write_back(x, lambda old: ops.random_fill(old, distribution, a, b, seed), fn)


def _float(v, fn: str, arg: str) -> float:
    if isinstance(v, Tensor) and v.size != 1:
        raise TypeError(f"{fn}: {arg} must be a number, got a Tensor of shape {v.shape}")
    return float(check_number(v, fn, arg))


def uniform_(x, min=-1.0, max=1.0, seed=0, name=None) -> Tensor:  # noqa: A002 (Paddle's names)
    """Fill x in place with uniform random numbers in [min, max); returns x. A nonzero `seed` draws from a
    fresh generator of its own (the same numbers each time).

    Example:
        >>> paddle.zeros([2, 3]).uniform_(0.0, 1.0)
    """
    lo, hi = _float(min, "uniform_", "min"), _float(max, "uniform_", "max")
    if not lo < hi:
        raise ValueError(f"uniform_: min must be less than max, got min={lo} and max={hi}")
    return _fill(x, "uniform_", "uniform", lo, hi, _int(seed, "uniform_", "seed"))


def normal_(x, mean=0.0, std=1.0, name=None) -> Tensor:
    """Fill x in place with normal random numbers of the given mean and standard deviation; returns x.

    Example:
        >>> paddle.zeros([2, 3]).normal_(mean=1.0, std=0.1)
    """
    return _fill(x, "normal_", "normal", _float(mean, "normal_", "mean"), _float(std, "normal_", "std"))


def exponential_(x, lam=1.0, name=None) -> Tensor:
    """Fill x in place with exponential random numbers of rate `lam` (mean 1 / lam); returns x.

    Example:
        >>> paddle.zeros([2, 3]).exponential_(lam=2.0)
    """
    return _fill(x, "exponential_", "exponential", _float(lam, "exponential_", "lam"), 0.0)


def cauchy_(x, loc=0, scale=1, name=None) -> Tensor:
    """Fill x in place with Cauchy random numbers of location `loc` and scale `scale`; returns x.

    Example:
        >>> paddle.zeros([2, 3]).cauchy_(loc=0.0, scale=1.0)
    """
    return _fill(x, "cauchy_", "cauchy", _float(loc, "cauchy_", "loc"), _float(scale, "cauchy_", "scale"))


def geometric_(x, probs, name=None) -> Tensor:
    """Fill x in place as paddle 2.6's geometric_ does: log(u) / log(1 - probs) with u uniform in (0, 1), a
    continuous value that is not rounded to a whole number of trials. `probs` is a number or a float Tensor
    that broadcasts to x's shape. Returns x.

    Example:
        >>> paddle.zeros([2, 3]).geometric_(0.3)
    """
    if not isinstance(probs, Tensor) or probs.size == 1:
        return _fill(x, "geometric_", "geometric", _float(probs, "geometric_", "probs"), 0.0)
    check_tensor(x, "geometric_")
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"geometric_: x must be float32 or float64, got {x.dtype.name}")
    if not probs.dtype.is_floating:
        raise TypeError(f"geometric_: probs must be a float Tensor, got {probs.dtype.name}")
    tiny = float(np.finfo(x.dtype.np).tiny)
    rate = ops.log1p(ops.neg(ops.cast(probs, x.dtype)))
    return write_back(x, lambda old: math.divide(ops.log(ops.random_fill(old, "uniform", tiny, 1.0)), rate),
                      "geometric_")  # fmt: skip


# Tensor methods (tensor_methods.py binds them); uniform_ and exponential_ are methods only, as in paddle 2.6.
METHODS = {
    "uniform_": uniform_,
    "normal_": normal_,
    "exponential_": exponential_,
    "cauchy_": cauchy_,
    "geometric_": geometric_,
}
