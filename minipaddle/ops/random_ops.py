"""Random ops: uniform, gaussian, randint, randperm, bernoulli, multinomial.

Every kernel draws from `STATE.rng` (core/state.py) when it runs, never when a static Program is built, so
`paddle.seed(n)` makes every later draw repeat, in both modes. An op given its own nonzero `seed` uses a fresh
generator from that seed instead (Paddle's `uniform(seed=...)`). Their infer_meta never draws: it reads the
shape and dtype from the attributes. None of them has a gradient.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = ["uniform", "gaussian", "randint", "randperm", "bernoulli", "multinomial"]  # the raw op functions


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed) if seed else STATE.rng


class _RandomOp(OpDef):
    differentiable = False
    random = True
    saves_inputs = False

    def infer_meta(self, *metas, shape=(), dtype=np.float32, **attrs) -> Meta:
        return Meta(tuple(shape), dtypes.from_numpy(np.dtype(dtype)))


@register
class Uniform(_RandomOp):
    name = "uniform"

    def kernel(self, shape, dtype, min=-1.0, max=1.0, seed=0):  # noqa: A002 (Paddle's names)
        # numpy's uniform(min, max) written out (the same numbers), because it refuses min > max and paddle does not
        return (min + (max - min) * _rng(seed).random(size=shape)).astype(dtype)


@register
class Gaussian(_RandomOp):
    name = "gaussian"

    def kernel(self, shape, dtype, mean=0.0, std=1.0, seed=0):
        return _rng(seed).normal(mean, std, size=shape).astype(dtype)


@register
class Randint(_RandomOp):
    """Integers drawn uniformly from [low, high)."""

    name = "randint"

    def kernel(self, shape, dtype, low, high):
        return STATE.rng.integers(low, high, size=shape).astype(dtype)


@register
class Randperm(_RandomOp):
    """A random permutation of 0..n-1."""

    name = "randperm"

    def kernel(self, n, dtype):
        return STATE.rng.permutation(n).astype(dtype)

    def infer_meta(self, n, dtype) -> Meta:
        return Meta((n,), dtypes.from_numpy(np.dtype(dtype)))


@register
class Bernoulli(_RandomOp):
    """1 with probability x, else 0, elementwise; x's dtype and shape."""

    name = "bernoulli"

    def kernel(self, x):
        if x.size and (np.min(x) < 0 or np.max(x) > 1):
            raise ValueError(
                f"bernoulli: x holds probabilities and must lie in [0, 1], got values from {np.min(x)} to {np.max(x)}"
            )
        return (STATE.rng.random(x.shape) < x).astype(x.dtype)

    def infer_meta(self, x: Meta) -> Meta:
        return x


@register
class Multinomial(_RandomOp):
    """`num_samples` category indices per row of x (weights: non-negative, not necessarily summing to 1).

    With replacement each draw inverts the row's cumulative distribution. Without replacement it uses the
    Gumbel top-k trick: adding Gumbel noise to log-weights and taking the k largest is the same as drawing k
    times, removing each pick. Both are vectorized over rows and samples.
    """

    name = "multinomial"

    def kernel(self, x, num_samples, replacement=False):
        rows = x.reshape(-1, x.shape[-1]).astype(np.float64)
        if np.any(rows < 0) or not np.all(np.isfinite(rows)):
            raise ValueError("multinomial: the weights in x must be finite and >= 0")
        totals = rows.sum(axis=-1, keepdims=True)
        if np.any(totals <= 0):
            raise ValueError("multinomial: every row of x needs at least one positive weight")
        if replacement:
            cdf = np.cumsum(rows / totals, axis=-1)
            u = STATE.rng.random((len(rows), num_samples, 1))
            picks = np.minimum((u >= cdf[:, None, :]).sum(axis=-1), rows.shape[-1] - 1)
        else:
            if np.any((rows > 0).sum(axis=-1) < num_samples):
                raise ValueError(
                    f"multinomial: without replacement, num_samples ({num_samples}) must not exceed the number of "
                    "categories with a positive weight"
                )
            with np.errstate(divide="ignore"):
                keys = np.log(rows) + STATE.rng.gumbel(size=rows.shape)
            picks = np.argsort(-keys, axis=-1, kind="stable")[:, :num_samples]
        return picks.reshape(x.shape[:-1] + (num_samples,)).astype(np.int64)

    def infer_meta(self, x: Meta, num_samples, replacement=False) -> Meta:
        return Meta(tuple(x.shape[:-1]) + (num_samples,), dtypes.int64)


def uniform(shape, dtype, min=-1.0, max=1.0, seed=0) -> Tensor:  # noqa: A002
    return apply(Uniform, (), {"shape": tuple(shape), "dtype": dtype, "min": min, "max": max, "seed": seed})


def gaussian(shape, dtype, mean=0.0, std=1.0, seed=0) -> Tensor:
    return apply(Gaussian, (), {"shape": tuple(shape), "dtype": dtype, "mean": mean, "std": std, "seed": seed})


def randint(shape, dtype, low, high) -> Tensor:
    return apply(Randint, (), {"shape": tuple(shape), "dtype": dtype, "low": low, "high": high})


def randperm(n: int, dtype) -> Tensor:
    return apply(Randperm, (), {"n": n, "dtype": dtype})


def bernoulli(x: Tensor) -> Tensor:
    return apply(Bernoulli, (x,))


def multinomial(x: Tensor, num_samples: int, replacement: bool = False) -> Tensor:
    return apply(Multinomial, (x,), {"num_samples": num_samples, "replacement": replacement})
