"""Random numbers of the public API (paddle.tensor.random and paddle.framework.random): seed and the generator
state, rand, randn, standard_normal, normal, uniform, randint, randperm, bernoulli, multinomial; the draws
shaped like a tensor, randint_like and poisson; and the in-place fills uniform_, normal_, exponential_, cauchy_,
geometric_ (Tensor methods, METHODS below; normal_, cauchy_ and geometric_ are also `paddle.*` functions), which
write into x through tensor/write_back.py: x keeps its identity and storage, and a tensor that needed a gradient
gets a zero gradient through the fill, as in Paddle.

Every draw comes from the one generator in core/state.py, drawn when the op runs (in static mode: when the
Executor runs the Program), so `paddle.seed(n)` makes everything after it repeat exactly.
"""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core import state
from minipaddle.core.tensor import Tensor
from minipaddle.tensor import math
from minipaddle.tensor.checks import (
    _int_scalar,
    check_bool,
    check_dtype,
    check_float_tensor,
    check_number,
    check_shape,
    check_tensor,
)
from minipaddle.tensor.runtime_creation import runtime_draw
from minipaddle.tensor.write_back import write_back

__all__ = [
    "seed",
    "get_rng_state",
    "set_rng_state",
    "get_cuda_rng_state",
    "set_cuda_rng_state",
    "rand",
    "randn",
    "standard_normal",
    "normal",
    "uniform",
    "randint",
    "randperm",
    "bernoulli",
    "multinomial",
    "randint_like",
    "poisson",
    "normal_",
    "cauchy_",
    "geometric_",
]


# ---- the generator ---------------------------------------------------------------------------------------------


def seed(seed) -> None:
    """Restart the random generator from `seed` (an int): every random function then repeats its numbers.

    Example:
        >>> paddle.seed(42); a = paddle.rand([2])
        >>> paddle.seed(42); b = paddle.rand([2])       # b equals a
    """
    if isinstance(seed, Tensor):
        seed = seed.item()
    try:
        value = int(seed)
    except (TypeError, ValueError):
        raise TypeError(f"seed: seed must be an int, got {seed!r}") from None
    if value < 0:
        raise ValueError(f"seed: seed must be >= 0, got {value}")
    state.seed(value)


def get_rng_state(device=None) -> list:
    """The generator's state, as a list with one entry (Paddle keeps one per device; minipaddle has the CPU).

    Pass it to `set_rng_state` to replay the numbers drawn since.
    """
    return [state.get_rng_state()]


def set_rng_state(state_list, device=None) -> None:
    """Put back a state returned by `get_rng_state`."""
    if isinstance(state_list, (list, tuple)):
        if len(state_list) != 1:
            raise ValueError(f"set_rng_state: expected the one-entry list from get_rng_state, got {len(state_list)}")
        state_list = state_list[0]
    if not isinstance(state_list, dict):
        raise TypeError(f"set_rng_state: expected a state from get_rng_state, got {type(state_list).__name__}")
    state.set_rng_state(state_list)


def get_cuda_rng_state() -> list:
    """The states of the CUDA generators: an empty list, since minipaddle has no GPU (as CPU-only Paddle)."""
    return []


def set_cuda_rng_state(state_list) -> None:
    """Accepts the empty list from get_cuda_rng_state; there are no CUDA generators to set."""
    if state_list:
        raise ValueError("set_cuda_rng_state: minipaddle runs on the CPU only and has no CUDA generator state")


# ---- argument checks -------------------------------------------------------------------------------------------


def _shape(shape, fn: str) -> tuple:
    shape = check_shape(shape, fn)
    if any(d < 0 for d in shape):
        raise ValueError(f"{fn}: dimensions must be >= 0, got {list(shape)}")
    return shape


def _draw(source: str, shape, fn: str, attrs: dict) -> Tensor:
    """Random op `source` (uniform, gaussian, randint) of `shape`; a shape holding sizes a Program computes is
    read when it runs (tensor/runtime_creation.py)."""
    drawn = runtime_draw(source, shape, fn, attrs)
    return drawn if drawn is not None else getattr(ops, source)(_shape(shape, fn), **attrs)


def _float_dtype(dtype, fn: str) -> np.dtype:
    d = dtypes.default_float() if dtype is None else dtypes.to_dtype(dtype)
    if not d.is_floating:
        raise TypeError(f"{fn}: dtype must be float16, float32 or float64, got {d.name}")
    return d.np


def _int(v, fn: str, arg: str) -> int:
    v = v.item() if isinstance(v, Tensor) else v
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    return int(v)


def _int_range(low, high, fn: str, as_int=_int) -> tuple:
    """The checked range [low, high) of randint and randint_like (with high None: [0, low)), each bound made
    an int by `as_int`."""
    low = as_int(low, fn, "low")
    if high is None:
        if low <= 0:
            raise ValueError(f"{fn}: with high=None, low must be > 0 (the range is [0, low)), got {low}")
        low, high = 0, low
    high = as_int(high, fn, "high")
    if low >= high:
        raise ValueError(f"{fn}: low must be less than high, got low={low} and high={high}")
    return low, high


# ---- continuous distributions ----------------------------------------------------------------------------------


def rand(shape, dtype=None, name=None) -> Tensor:
    """Uniform random numbers in [0, 1) of `shape` (the default float dtype unless given).

    Example:
        >>> paddle.rand([2, 3])
    """
    d = _float_dtype(dtype, "rand")
    attrs = {"dtype": d, "min": 0.0, "max": 1.0}
    return _draw("uniform", shape, "rand", attrs)


def uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None) -> Tensor:  # noqa: A002 (Paddle's names)
    """Uniform random numbers in [min, max) of `shape`. A nonzero `seed` draws from its own fresh generator
    (the same numbers every call); 0 draws from the global one. As in paddle 2.6, min > max is allowed: the numbers
    are min + (max - min) * u, so they fall in (max, min].

    Example:
        >>> paddle.uniform([2], min=2.0, max=3.0)
    """
    lo, hi = check_number(min, "uniform", "min"), check_number(max, "uniform", "max")
    seed = _int(seed, "uniform", "seed")
    attrs = {"dtype": _float_dtype(dtype, "uniform"), "min": float(lo), "max": float(hi), "seed": seed}
    return _draw("uniform", shape, "uniform", attrs)


def randn(shape, dtype=None, name=None) -> Tensor:
    """Standard normal random numbers (mean 0, std 1) of `shape`.

    Example:
        >>> paddle.randn([2, 3])
    """
    attrs = {"dtype": _float_dtype(dtype, "randn"), "mean": 0.0, "std": 1.0}
    return _draw("gaussian", shape, "randn", attrs)


def standard_normal(shape, dtype=None, name=None) -> Tensor:
    """The same as paddle.randn."""
    attrs = {"dtype": _float_dtype(dtype, "standard_normal"), "mean": 0.0, "std": 1.0}
    return _draw("gaussian", shape, "standard_normal", attrs)


def normal(mean=0.0, std=1.0, shape=None, name=None) -> Tensor:
    """Normal random numbers with the given mean and standard deviation.

    mean and std are numbers (then `shape` gives the shape) or float Tensors (elementwise parameters; the
    result has their broadcast shape).

    Example:
        >>> paddle.normal(shape=[2, 3])
        >>> paddle.normal(paddle.to_tensor([0., 100.]), 1.0)
    """
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        mean, std = check_number(mean, "normal", "mean"), check_number(std, "normal", "std")
        if std < 0:
            raise ValueError(f"normal: std must be >= 0, got {std}")
        if shape is None:
            raise ValueError("normal: give `shape` when mean and std are numbers")
        attrs = {"dtype": dtypes.default_float().np, "mean": float(mean), "std": float(std)}
        return _draw("gaussian", shape, "normal", attrs)
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    for t in tensors:
        check_float_tensor(t, "normal", "mean" if t is mean else "std")
    for v, arg in ((mean, "mean"), (std, "std")):
        if not isinstance(v, (Tensor, numbers.Number)):
            raise TypeError(f"normal: {arg} must be a number or a Tensor, got {type(v).__name__}")
    try:
        out_shape = np.broadcast_shapes(*(tuple(t.shape) for t in tensors))
    except ValueError:
        raise ValueError(f"normal: mean of shape {mean.shape} and std of shape {std.shape} do not broadcast") from None
    d = tensors[0].dtype
    noise = ops.gaussian(out_shape, d.np, 0.0, 1.0)
    scaled = ops.multiply(noise, std) if isinstance(std, Tensor) else ops.scale(noise, float(std))
    return ops.add(scaled, mean) if isinstance(mean, Tensor) else ops.scale(scaled, 1.0, float(mean))


# ---- integers --------------------------------------------------------------------------------------------------


def randint(low=0, high=None, shape=[1], dtype=None, name=None) -> Tensor:  # noqa: B006 (Paddle's default)
    """Random integers drawn uniformly from [low, high); with high None, from [0, low). int64 by default.

    Example:
        >>> paddle.randint(0, 10, [2, 3])
    """
    low, high = _int_range(low, high, "randint")
    d = dtypes.int64 if dtype is None else check_dtype(dtype, "randint")
    if not d.is_integer:
        raise TypeError(f"randint: dtype must be an integer dtype, got {d.name}")
    attrs = {"dtype": d.np, "low": low, "high": high}
    return _draw("randint", shape, "randint", attrs)


def randperm(n, dtype="int64", name=None) -> Tensor:
    """A random permutation of the integers 0 .. n-1.

    Example:
        >>> paddle.randperm(5)
    """
    n = _int(n, "randperm", "n")
    if n < 0:
        raise ValueError(f"randperm: n must be >= 0, got {n}")
    d = check_dtype(dtype, "randperm")
    if not (d.is_integer or d.is_floating):
        raise TypeError(f"randperm: dtype must be an integer or float dtype, got {d.name}")
    return ops.randperm(n, d.np)


# ---- sampling from tensors -------------------------------------------------------------------------------------


def bernoulli(x, name=None) -> Tensor:
    """1 with probability x, else 0, for each element of the float tensor x (values in [0, 1]).

    Example:
        >>> paddle.bernoulli(paddle.full([3], 0.5))
    """
    return ops.bernoulli(check_float_tensor(x, "bernoulli"))


def multinomial(x, num_samples=1, replacement=False, name=None) -> Tensor:
    """Draw category indices from the weights in x (1-D, or 2-D with one distribution per row).

    Args:
        x (Tensor): non-negative float weights (they need not sum to 1).
        num_samples (int): draws per distribution. replacement (bool): whether a category may be drawn again.

    Returns:
        int64 Tensor [num_samples] or [rows, num_samples].

    Example:
        >>> paddle.multinomial(paddle.to_tensor([0.2, 0.8]), 4, replacement=True)
    """
    x = check_float_tensor(x, "multinomial")
    if x.ndim not in (1, 2) or x.shape[-1] == 0:
        raise ValueError(f"multinomial: x must be 1-D or 2-D with at least one category, got shape {x.shape}")
    num_samples = _int(num_samples, "multinomial", "num_samples")
    if num_samples < 1:
        raise ValueError(f"multinomial: num_samples must be >= 1, got {num_samples}")
    return ops.multinomial(x, num_samples, check_bool(replacement, "multinomial", "replacement"))


def randint_like(x, low=0, high=None, dtype=None, name=None) -> Tensor:
    """Random integers drawn uniformly from [low, high) (with high None: from [0, low)), shaped like x and in
    `dtype` (default: x's dtype, so a float x gets whole-number floats). Never has a gradient.

    Example:
        >>> paddle.randint_like(paddle.zeros([2, 3]), low=0, high=10)
    """
    check_tensor(x, "randint_like")
    low, high = _int_range(low, high, "randint_like", as_int=_int)
    d = x.dtype if dtype is None else check_dtype(dtype, "randint_like")
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
    return _fill(x, "uniform_", "uniform", lo, hi, _int_scalar(seed, "uniform_", "seed"))


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
