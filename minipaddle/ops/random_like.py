"""Random ops shaped like an input tensor: random_like (randint_like), random_fill (the in-place fills
uniform_, normal_, exponential_, cauchy_, geometric_) and poisson.

As in ops/random_ops.py, every kernel draws from `STATE.rng` when it runs (a nonzero `seed` draws from a fresh
generator of its own), so `paddle.seed(n)` makes the draws repeat in both modes. The input's values are not read
(except poisson's rates); its shape is, at run time, so static Programs with unknown sizes work too.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = ["random_like", "random_fill", "poisson"]  # the raw op functions; ops/__init__.py gathers them


def _draw(distribution: str, shape: tuple, a: float, b: float, seed: int) -> np.ndarray:
    """float64 draws of `shape` from one of the distributions named by Paddle's random functions."""
    rng = np.random.default_rng(seed) if seed else STATE.rng
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if distribution == "uniform":  # in [a, b)
            return rng.uniform(a, b, size=shape)
        if distribution == "normal":  # mean a, std b (a negative std flips the sign, as Paddle)
            return a + b * rng.standard_normal(size=shape)
        if distribution == "exponential":  # rate a
            return -np.log1p(-rng.random(size=shape)) / a
        if distribution == "cauchy":  # location a, scale b
            return a + b * np.tan(np.pi * (rng.random(size=shape) - 0.5))
        if distribution == "geometric":  # Paddle 2.6's geometric_: log(u) / log(1 - p), u in [tiny, 1): not rounded
            u = rng.uniform(np.finfo(np.float64).tiny, 1.0, size=shape)
            return np.log(u) / np.log1p(-a)
        if distribution == "randint":  # integers in [a, b)
            return rng.integers(int(a), int(b), size=shape)
    raise ValueError(f"random_like: unknown distribution {distribution!r}")


class _Shaped(OpDef):
    """Random numbers of x's shape in `dtype` (None: x's dtype); x's values are not read."""

    random = True
    saves_inputs = False

    def kernel(self, x, distribution, a=0.0, b=1.0, seed=0, dtype=None):
        return _draw(distribution, x.shape, a, b, seed).astype(x.dtype if dtype is None else dtype)

    def infer_meta(self, x: Meta, distribution, a=0.0, b=1.0, seed=0, dtype=None) -> Meta:
        return Meta(x.shape, x.dtype if dtype is None else dtypes.from_numpy(np.dtype(dtype)))


@register
class RandomLike(_Shaped):
    """randint_like's draws: no gradient."""

    name = "random_like"
    differentiable = False


@register
class RandomFill(_Shaped):
    """The in-place fills' draws, in x's dtype. As Paddle's *_inplace kernels, its gradient is zero:
    the old values of x no longer matter, yet a tensor that needed a gradient still gets one."""

    name = "random_fill"

    def grad(self, node, g):
        return (ops.full_like(g, 0),)


@register
class Poisson(OpDef):
    """Counts drawn from Poisson distributions with the rates in x, in x's dtype. Its gradient is zero (as
    Paddle's poisson_grad)."""

    name = "poisson"
    random = True

    def kernel(self, x):
        return np.asarray(STATE.rng.poisson(np.maximum(x, 0))).astype(x.dtype)  # a negative rate draws 0, as in Paddle

    def grad(self, node, g):
        return (ops.full_like(g, 0),)

    def infer_meta(self, x: Meta) -> Meta:
        return x


def random_like(x: Tensor, distribution: str, a=0.0, b=1.0, seed=0, dtype=None) -> Tensor:
    return apply(RandomLike, (x,), {"distribution": distribution, "a": a, "b": b, "seed": seed, "dtype": dtype})


def random_fill(x: Tensor, distribution: str, a=0.0, b=1.0, seed=0) -> Tensor:
    return apply(RandomFill, (x,), {"distribution": distribution, "a": a, "b": b, "seed": seed})


def poisson(x: Tensor) -> Tensor:
    return apply(Poisson, (x,))
