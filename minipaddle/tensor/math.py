"""Elementwise math and reductions of the public API (paddle.tensor.math), with combinations, vander, renorm and
polar.

Each function checks its arguments, applies Paddle's dtype promotion, and calls the op. The ops themselves
live in minipaddle/ops/.
"""

from __future__ import annotations

import builtins
import itertools
import math
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.tensor import attribute
from minipaddle.tensor.checks import (
    MAX_ELEMENTS,
    _int_arg,
    check_bool,
    check_broadcast,
    check_dtype,
    check_float_tensor,
    check_int,
    check_not_empty,
    check_number,
    check_shape,
    check_size,
    check_tensor,
    normalize_axes,
    normalize_axis,
)
from minipaddle.tensor.creation import to_tensor
from minipaddle.tensor.dtype_support import ANY_DTYPE, PASSING, check_accepted

__all__ = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "pow",
    "scale",
    "sum",
    "mean",
    "neg",
    "conj",
    "abs",
    "sign",
    "exp",
    "log",
    "sqrt",
    "tanh",
    "max",
    "min",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "stanh",
    "floor",
    "ceil",
    "round",
    "trunc",
    "erf",
    "log2",
    "log10",
    "log1p",
    "expm1",
    "rsqrt",
    "reciprocal",
    "square",
    "clip",
    "increment",
    "floor_divide",
    "remainder",
    "mod",
    "floor_mod",
    "kron",
    "addmm",
    "add_n",
    "multiplex",
    "trace",
    "cumsum",
    "prod",
    "logsumexp",
    "all",
    "any",
    "amax",
    "amin",
    "broadcast_shape",
    "combinations",
    "vander",
    "renorm",
    "polar",
]


def binary_operands(x, y, fn: str) -> tuple[Tensor, Tensor]:
    """x and y as Tensors of one dtype, promoted as paddle 2.6's operators promote (see core/dtype.py): the one
    place where every binary function's mixed dtypes meet one rule (tests/tensor/test_binary_promotion.py). The
    dtypes paddle 2.6 accepts for `fn` (tensor/dtype_support.py) are checked on the promoted pair."""
    two_tensors = isinstance(x, Tensor) and isinstance(y, Tensor)
    if not (two_tensors and x._data.dtype == y._data.dtype):  # (the common case runs no further call)
        x, y = _promoted(x, y, fn)
    passing = PASSING.get(fn)
    if passing is not None and not (
        x._data.dtype in passing.get("x", ANY_DTYPE) and y._data.dtype in passing.get("y", ANY_DTYPE)
    ):
        # with a Python number on one side paddle's operators run a scale op, not the elementwise kernel: a bool
        # tensor + 1 works there although bool + bool has no kernel
        check_accepted(x, fn, "x", kernel_needed=two_tensors)
        check_accepted(y, fn, "y", kernel_needed=two_tensors)
    return x, y


def _promoted(x, y, fn: str) -> tuple[Tensor, Tensor]:
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        d = dtypes.promote_types(x.dtype, y.dtype)
        return (x if x.dtype is d else ops.cast(x, d)), (y if y.dtype is d else ops.cast(y, d))
    if isinstance(x, Tensor):
        return _with_scalar(x, y, fn, scalar_first=False)
    if isinstance(y, Tensor):
        y, x = _with_scalar(y, x, fn, scalar_first=True)
        return x, y
    raise TypeError(f"{fn}: x must be a Tensor, got {type(x).__name__}")


def _with_scalar(t: Tensor, v, fn: str, scalar_first: bool) -> tuple[Tensor, Tensor]:
    """A tensor with a Python number or numpy array on one side."""
    if isinstance(v, (np.ndarray, list, tuple)):
        try:
            array = np.asarray(v)
        except ValueError:
            array = np.asarray(None)
        if array.dtype == object:  # a ragged list, or one of things that are not numbers: a wrong type
            side = "x" if scalar_first else "y"
            raise TypeError(f"{fn}: {side} must be a Tensor, a number or a rectangular list of numbers, got {v!r:.60}")
        other = to_tensor(array)
        return binary_operands(other, t, fn)[::-1] if scalar_first else binary_operands(t, other, fn)
    if not isinstance(v, (numbers.Number, np.generic)):
        side = "x" if scalar_first else "y"
        raise TypeError(f"{fn}: {side} must be a Tensor or a number, got {type(v).__name__}")
    d = dtypes.scalar_result_dtype(t.dtype, v)
    if d is not t.dtype:
        t = ops.cast(t, d)
    return t, Tensor(np.asarray(v).astype(d.np))  # an int out of range wraps around, as in Paddle (uint8 + 300)


def broadcast_binary(op_fn, x, y, fn: str) -> Tensor:
    """op_fn(x, y) after the public checks of an elementwise binary function: operands promoted to one dtype
    (numbers allowed), shapes that broadcast. Used by paddle.add ... and the comparisons (tensor/logic.py)."""
    x, y = binary_operands(x, y, fn)
    check_broadcast(x, y, fn)
    return op_fn(x, y)


def add(x, y, name=None) -> Tensor:
    """x + y, elementwise, with broadcasting."""
    return broadcast_binary(ops.add, x, y, "add")


def subtract(x, y, name=None) -> Tensor:
    """x - y, elementwise, with broadcasting."""
    return broadcast_binary(ops.subtract, x, y, "subtract")


def multiply(x, y, name=None) -> Tensor:
    """x * y, elementwise, with broadcasting."""
    return broadcast_binary(ops.multiply, x, y, "multiply")


def divide(x, y, name=None) -> Tensor:
    """x / y, elementwise, with broadcasting. Integer tensors give integers (truncated), as in Paddle."""
    return broadcast_binary(ops.divide, x, y, "divide")


def true_divide(x, y) -> Tensor:
    """The `/` operator: integers are divided as floats (Paddle casts them to float32 first)."""
    x, y = binary_operands(x, y, "divide")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x, y = ops.cast(x, dtypes.default_float()), ops.cast(y, dtypes.default_float())
    return ops.divide(x, y)


def maximum(x, y, name=None) -> Tensor:
    """The larger of x and y, elementwise (ties send the gradient to y, as Paddle does)."""
    return broadcast_binary(ops.maximum, x, y, "maximum")


def minimum(x, y, name=None) -> Tensor:
    """The smaller of x and y, elementwise."""
    return broadcast_binary(ops.minimum, x, y, "minimum")


def pow(x, y, name=None) -> Tensor:  # noqa: A001 (Paddle's name)
    """x ** y, where y is a Python number or a Tensor."""
    check_tensor(x, "pow")
    if isinstance(y, Tensor):
        return broadcast_binary(ops.elementwise_pow, x, y, "pow")
    y = check_number(y, "pow", "y")
    if isinstance(y, float) and not (x.dtype.is_floating or x.dtype.is_complex):
        x = ops.cast(x, dtypes.default_float())
    return ops.pow(x, y)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None) -> Tensor:
    """scale * x + bias (or scale * (x + bias) when bias_after_scale is False)."""
    check_tensor(x, "scale")
    s, b = check_number(scale, "scale", "scale"), check_number(bias, "scale", "bias")
    out = ops.scale(x, s, b if check_bool(bias_after_scale, "scale", "bias_after_scale") else b * s)
    if act is not None:
        if not isinstance(act, str):
            raise TypeError(f"scale: act must be None or the name of an activation, got {type(act).__name__}")
        activation = getattr(ops, act, None) if act in _SCALE_ACTS else None
        if activation is None:
            raise ValueError(f"scale: act must be None or one of {sorted(_SCALE_ACTS)}, got {act!r}")
        out = activation(out)
    return out


# The activations `scale(act=...)` applies after scaling (Paddle's fused activation names that minipaddle has).
_SCALE_ACTS = {"relu", "sigmoid", "tanh", "exp", "abs", "sqrt", "square"}


def _unary_doc(fn: str, what: str | None, note: str = "") -> str:
    what = what or f"Elementwise {fn} of x."
    return (
        f"{what}{note}\n\n    Args:\n        x (Tensor): the input.\n        name: unused, for compatibility.\n\n"
        "    Returns:\n        Tensor of x's shape.\n\n"
        f"    Example:\n        >>> paddle.{fn}(paddle.to_tensor([0.5, 1.0]))\n"
    )


def _unary(op_fn, fn: str, what: str | None = None):
    def public(x, name=None) -> Tensor:
        check_tensor(x, fn)
        return op_fn(x)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = _unary_doc(fn, what, " The dtype is kept.")
    return public


def _float_unary(op_fn, fn: str, what: str | None = None):
    """Like _unary, but integer inputs are first cast to the default float dtype (exp of an int tensor)."""

    def public(x, name=None) -> Tensor:
        check_tensor(x, fn)
        if not (x.dtype.is_floating or x.dtype.is_complex):
            x = ops.cast(x, dtypes.default_float())
        return op_fn(x)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = _unary_doc(fn, what, " Integer and bool inputs are computed in the default float dtype.")
    return public


neg = _unary(ops.neg, "neg")
conj = _unary(ops.conj, "conj")
abs = _unary(ops.abs, "abs")  # noqa: A001
sign = _unary(ops.sign, "sign")
exp = _float_unary(ops.exp, "exp")
log = _float_unary(ops.log, "log")
sqrt = _float_unary(ops.sqrt, "sqrt")
tanh = _float_unary(ops.tanh, "tanh")


# ---- reductions --------------------------------------------------------------------------------------------


def _reduction(op_fn, fn: str, doc: str):
    def public(x, axis=None, keepdim=False, name=None) -> Tensor:
        check_not_empty(check_tensor(x, fn), fn)
        return op_fn(x, normalize_axes(axis, x.ndim, fn), check_bool(keepdim, fn, "keepdim"))

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = doc
    return public


def sum(x, axis=None, dtype=None, keepdim=False, name=None) -> Tensor:  # noqa: A001
    """Sum over `axis` (None: all axes, giving a 0-d tensor). bool and int32 inputs sum to int64."""
    check_not_empty(check_tensor(x, "sum"), "sum")  # (paddle 2.6 refuses to reduce an empty tensor)
    if dtype is not None:
        x = ops.cast(x, check_dtype(dtype, "sum"))
    axes = None if axis is None else normalize_axes(axis, x.ndim, "sum")  # (`loss = y.sum()` skips the call)
    return ops.sum(x, axes, check_bool(keepdim, "sum", "keepdim"))


def mean(x, axis=None, keepdim=False, name=None) -> Tensor:
    """Mean over `axis` (None: all axes, giving a 0-d tensor). Integer tensors give a truncated integer, as Paddle."""
    check_not_empty(check_tensor(x, "mean"), "mean")
    axes = None if axis is None else normalize_axes(axis, x.ndim, "mean")  # (`loss = y.mean()` skips the call)
    return ops.mean(x, axes, check_bool(keepdim, "mean", "keepdim"))


max = _reduction(ops.max, "max", "Largest element over `axis`; the gradient goes to every maximal element.")  # noqa: A001
min = _reduction(ops.min, "min", "Smallest element over `axis`; the gradient goes to every minimal element.")  # noqa: A001


def _float_reduction(op_fn, fn: str, doc: str):
    """A reduction computed in floating point: integer inputs are cast to the default float dtype first."""

    def public(x, axis=None, keepdim=False, name=None) -> Tensor:
        check_tensor(x, fn)
        if not (x.dtype.is_floating or x.dtype.is_complex):
            x = ops.cast(x, dtypes.default_float())
        return op_fn(x, normalize_axes(axis, x.ndim, fn), check_bool(keepdim, fn, "keepdim"))

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = doc
    return public


# ---- trigonometric and hyperbolic ------------------------------------------------------------------------------

sin = _float_unary(ops.sin, "sin", "Elementwise sine of x (in radians).")
cos = _float_unary(ops.cos, "cos", "Elementwise cosine of x (in radians).")
tan = _float_unary(ops.tan, "tan", "Elementwise tangent of x (in radians).")
asin = _float_unary(ops.asin, "asin", "Elementwise arcsine of x; nan outside [-1, 1].")
acos = _float_unary(ops.acos, "acos", "Elementwise arccosine of x; nan outside [-1, 1].")
atan = _float_unary(ops.atan, "atan", "Elementwise arctangent of x.")
sinh = _float_unary(ops.sinh, "sinh", "Elementwise hyperbolic sine of x.")
cosh = _float_unary(ops.cosh, "cosh", "Elementwise hyperbolic cosine of x.")
asinh = _float_unary(ops.asinh, "asinh", "Elementwise inverse hyperbolic sine of x.")
acosh = _float_unary(ops.acosh, "acosh", "Elementwise inverse hyperbolic cosine of x; nan below 1.")
atanh = _float_unary(ops.atanh, "atanh", "Elementwise inverse hyperbolic tangent of x; nan outside [-1, 1].")


def stanh(x, scale_a=0.67, scale_b=1.7159, name=None) -> Tensor:
    """The scaled tanh, scale_b * tanh(scale_a * x), elementwise.

    Args:
        x (Tensor): the input. scale_a, scale_b (float): the inner and outer scales.

    Example:
        >>> paddle.stanh(paddle.to_tensor([1.0]))        # 1.7159 * tanh(0.67)
    """
    check_tensor(x, "stanh")
    a, b = check_number(scale_a, "stanh", "scale_a"), check_number(scale_b, "stanh", "scale_b")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = ops.cast(x, dtypes.default_float())
    return ops.scale(ops.tanh(ops.scale(x, a)), b)


# ---- rounding, erf, logarithms, powers -------------------------------------------------------------------------

floor = _unary(ops.floor, "floor", "Round x down to a whole number, elementwise (integers are unchanged).")
ceil = _unary(ops.ceil, "ceil", "Round x up to a whole number, elementwise (integers are unchanged).")
round = _unary(ops.round, "round", "Round x to the nearest whole number, halves away from zero (2.5 -> 3).")  # noqa: A001
trunc = _unary(ops.trunc, "trunc", "Round x toward zero, elementwise (integers are unchanged).")
erf = _float_unary(ops.erf, "erf", "The error function 2/sqrt(pi) * integral_0^x exp(-t^2) dt, elementwise.")
log2 = _float_unary(ops.log2, "log2", "Elementwise base-2 logarithm of x.")
log10 = _float_unary(ops.log10, "log10", "Elementwise base-10 logarithm of x.")
log1p = _float_unary(ops.log1p, "log1p", "log(1 + x), elementwise, accurate for small x.")
expm1 = _float_unary(ops.expm1, "expm1", "exp(x) - 1, elementwise, accurate for small x.")
rsqrt = _float_unary(ops.rsqrt, "rsqrt", "1 / sqrt(x), elementwise.")
reciprocal = _float_unary(ops.reciprocal, "reciprocal", "1 / x, elementwise.")
square = _unary(ops.square, "square", "x * x, elementwise.")


def clip(x, min=None, max=None, name=None) -> Tensor:  # noqa: A002 (Paddle's names)
    """Limit x to [min, max] elementwise; a None bound is not applied.

    The gradient is 1 strictly inside (min, max) and 0 elsewhere, at the bounds included (as Paddle).
    Bounds may be numbers or one-element Tensors; for an integer x they are truncated to integers.

    Example:
        >>> paddle.clip(paddle.to_tensor([0.5, -1.5, 2.5]), min=0.0, max=1.0)     # [0.5, 0.0, 1.0]
    """
    check_tensor(x, "clip")
    lo = None if min is None else check_number(min, "clip", "min")
    hi = None if max is None else check_number(max, "clip", "max")
    if (lo is not None and lo != lo) or (hi is not None and hi != hi):  # NaN: every element would become NaN
        raise ValueError(f"clip: min and max must be numbers, not NaN, got min={lo} and max={hi}")
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"clip: max must be greater than or equal to min, got min={lo} and max={hi}")
    return ops.clip(x, lo, hi)


def increment(x, value=1.0, name=None) -> Tensor:
    """Add `value` to the one-element tensor x, in place, and return x (a loop counter, as in Paddle).

    Example:
        >>> i = paddle.zeros([1]); paddle.increment(i); i      # [1.]
    """
    check_tensor(x, "increment")
    value = check_number(value, "increment", "value")
    if x.size != 1:
        raise ValueError(f"increment: x must have exactly one element, got shape {x.shape}")
    return apply_inplace(get_op("scale"), x, (x,), {"scale": 1, "bias": value})


# ---- integer division ------------------------------------------------------------------------------------------


def floor_divide(x, y, name=None) -> Tensor:
    """x // y elementwise, rounding toward minus infinity (Python's rule: -3 // 2 == -2). No gradient.

    Integer division by zero raises ValueError (as paddle 2.6 refuses it). Example:
        >>> paddle.floor_divide(paddle.to_tensor([-3, 3]), paddle.to_tensor([2, -2]))    # [-2, -2]
    """
    return broadcast_binary(ops.floor_divide, x, y, "floor_divide")


def remainder(x, y, name=None) -> Tensor:
    """x % y elementwise, with the sign of y (Python's rule: -3 % 2 == 1). No gradient. Aliases: mod, floor_mod.

    Example:
        >>> paddle.remainder(paddle.to_tensor([-3, 3]), paddle.to_tensor([2, -2]))       # [1, -1]
    """
    return broadcast_binary(ops.remainder, x, y, "remainder")


def mod(x, y, name=None) -> Tensor:
    """The same as paddle.remainder."""
    return broadcast_binary(ops.remainder, x, y, "mod")


def floor_mod(x, y, name=None) -> Tensor:
    """The same as paddle.remainder."""
    return broadcast_binary(ops.remainder, x, y, "floor_mod")


# ---- products and sums of several tensors ----------------------------------------------------------------------


def kron(x, y, name=None) -> Tensor:
    """The Kronecker product: a block matrix whose block (i, j) is x[i, j] * y (any number of dimensions).

    Example:
        >>> paddle.kron(paddle.to_tensor([1, 2]), paddle.to_tensor([[1, 2], [3, 4]]))   # [[1, 2, 2, 4], [3, 4, 6, 8]]
    """
    check_tensor(x, "kron", "x")
    check_tensor(y, "kron", "y")
    return ops.kron(*binary_operands(x, y, "kron"))


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None) -> Tensor:  # noqa: A002 (Paddle's name)
    """beta * input + alpha * (x @ y), for matrices x [m, k] and y [k, n]; input broadcasts to [m, n].

    Example:
        >>> paddle.addmm(paddle.ones([2, 2]), paddle.ones([2, 3]), paddle.ones([3, 2]), beta=0.5, alpha=2.0)
    """
    for arg, t in (("input", input), ("x", x), ("y", y)):
        check_tensor(t, "addmm", arg)
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"addmm: x and y must be matrices (2-D), got shapes {x.shape} and {y.shape}")
    if x.shape[1] != y.shape[0]:
        raise ValueError(
            f"addmm: x has shape {x.shape} and y has shape {y.shape}; x's columns ({x.shape[1]}) must equal "
            f"y's rows ({y.shape[0]})"
        )
    out_shape = [x.shape[0], y.shape[1]]
    if input.ndim not in (1, 2):  # paddle 2.6 broadcasts a row or a matrix, not a 0-d input
        raise ValueError(f"addmm: input must be 1-D or 2-D, got shape {input.shape}")
    if input.ndim > 2 or builtins.any(d not in (1, o) for d, o in zip(reversed(input.shape), reversed(out_shape))):
        raise ValueError(f"addmm: input of shape {input.shape} does not broadcast to x @ y's shape {out_shape}")
    beta = check_number(beta, "addmm", "beta")
    alpha = check_number(alpha, "addmm", "alpha")
    x, y = binary_operands(x, y, "addmm")
    product = ops.matmul(x, y)
    if alpha != 1:
        product = ops.scale(product, alpha)
    return add(product, input if beta == 1 else ops.scale(input, beta))


def add_n(inputs, name=None) -> Tensor:
    """The elementwise sum of a list of same-shaped tensors (a single Tensor counts as a list of one).

    Example:
        >>> paddle.add_n([paddle.ones([2]), paddle.ones([2]), paddle.ones([2])])    # [3., 3.]
    """
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise TypeError(f"add_n: inputs must be a Tensor or a non-empty list of Tensors, got {inputs!r}")
    for i, t in enumerate(inputs):
        check_tensor(t, "add_n", f"inputs[{i}]")
        if t.shape != inputs[0].shape:
            raise ValueError(
                f"add_n: every input must have the same shape; inputs[0] has {inputs[0].shape}, inputs[{i}] has "
                f"{t.shape}"
            )
    total = ops.assign(inputs[0])
    for t in inputs[1:]:
        total = add(total, t)
    return total


def multiplex(inputs, index, name=None) -> Tensor:
    """Pick each row from one of several tensors: out[i] = inputs[index[i]][i].

    Args:
        inputs (list[Tensor]): at least two tensors of the same shape [N, ...].
        index (Tensor): int32 or int64 of shape [N, 1], each value in [0, len(inputs)).

    Example:
        >>> a, b = paddle.ones([2, 2]), paddle.zeros([2, 2])
        >>> paddle.multiplex([a, b], paddle.to_tensor([[1], [0]], dtype='int32'))    # row 0 of b, row 1 of a
    """
    if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
        raise ValueError(f"multiplex: inputs must be a list of at least 2 Tensors, got {inputs!r}")
    for i, t in enumerate(inputs):
        check_tensor(t, "multiplex", f"inputs[{i}]")
        if t.shape != inputs[0].shape or t.dtype != inputs[0].dtype:
            raise ValueError(
                f"multiplex: every input must match inputs[0] ({inputs[0].shape}, {inputs[0].dtype.name}); "
                f"inputs[{i}] is {t.shape}, {t.dtype.name}"
            )
    check_tensor(index, "multiplex", "index")
    n = inputs[0].shape[0] if inputs[0].ndim else 0
    if not index.dtype.is_integer or list(index.shape) != [n, 1]:
        raise ValueError(
            f"multiplex: index must be an int32/int64 tensor of shape [{n}, 1], got {index.dtype.name} {index.shape}"
        )
    rest = [1] * (inputs[0].ndim - 1)
    where = ops.expand(ops.reshape(index, [1, n] + rest), [1] + list(inputs[0].shape))
    picked = ops.gather_along_axis(ops.stack(list(inputs), 0), where, 0)
    return ops.reshape(picked, inputs[0].shape)


def trace(x, offset=0, axis1=0, axis2=1, name=None) -> Tensor:
    """The sum of the diagonal at `offset` of the matrices spanned by axes (axis1, axis2).

    Example:
        >>> paddle.trace(paddle.to_tensor([[1., 2.], [3., 4.]]))    # 5.
    """
    check_tensor(x, "trace")
    if x.ndim < 2:
        raise ValueError(f"trace: x needs at least 2 dimensions, got shape {x.shape}")
    a1, a2 = normalize_axis(axis1, x.ndim, "trace"), normalize_axis(axis2, x.ndim, "trace")
    if a1 == a2:
        raise ValueError(f"trace: axis1 and axis2 must be different dimensions, both are {a1}")
    if not isinstance(offset, (int, np.integer)) or isinstance(offset, bool):
        raise TypeError(f"trace: offset must be an int, got {type(offset).__name__}")
    out = ops.sum(ops.extract_diagonal(x, int(offset), a1, a2), (x.ndim - 2,), False)
    return ops.cast(out, x.dtype) if x.dtype == dtypes.int32 else out  # paddle's trace keeps int32 (sum gives int64)


# ---- more reductions -------------------------------------------------------------------------------------------


def cumsum(x, axis=None, dtype=None, name=None) -> Tensor:
    """Running sums along `axis` (None: over the flattened tensor). dtype casts x first; bool sums as int64.

    Example:
        >>> paddle.cumsum(paddle.to_tensor([[1, 2], [3, 4]]), axis=1)    # [[1, 3], [3, 7]]
    """
    check_tensor(x, "cumsum")
    if dtype is not None:
        x = ops.cast(x, check_dtype(dtype, "cumsum"))
    elif x.dtype is dtypes.bool_:
        x = ops.cast(x, dtypes.int64)
    if axis is None:
        return ops.cumsum(ops.reshape(x, (-1,)), 0)
    return ops.cumsum(x, normalize_axis(axis, x.ndim, "cumsum"))


def prod(x, axis=None, keepdim=False, dtype=None, name=None) -> Tensor:
    """The product over `axis` (None: all axes). dtype casts x first; bool multiplies as int64.

    Example:
        >>> paddle.prod(paddle.to_tensor([[1., 2.], [3., 4.]]), axis=0)    # [3., 8.]
    """
    check_not_empty(check_tensor(x, "prod"), "prod")
    if dtype is not None:
        x = ops.cast(x, check_dtype(dtype, "prod"))
    elif x.dtype is dtypes.bool_:
        x = ops.cast(x, dtypes.int64)
    return ops.prod(x, normalize_axes(axis, x.ndim, "prod"), check_bool(keepdim, "prod", "keepdim"))


logsumexp = _float_reduction(
    ops.logsumexp,
    "logsumexp",
    "log(sum(exp(x))) over `axis` (None: all axes), computed without overflow. Its gradient is the softmax.",
)
all = _reduction(ops.all, "all", "Whether every element over `axis` is nonzero (True), as a bool tensor.")  # noqa: A001
any = _reduction(ops.any, "any", "Whether some element over `axis` is nonzero (True), as a bool tensor.")  # noqa: A001
amax = _reduction(ops.amax, "amax", "Largest element over `axis`; tied maxima share the gradient equally.")
amin = _reduction(ops.amin, "amin", "Smallest element over `axis`; tied minima share the gradient equally.")


def broadcast_shape(x_shape, y_shape) -> list:
    """The shape that tensors of shapes x_shape and y_shape broadcast to (numpy's rule), as a list.

    Example:
        >>> paddle.broadcast_shape([2, 1, 3], [4, 1])    # [2, 4, 3]
    """
    x_shape, y_shape = check_shape(x_shape, "broadcast_shape"), check_shape(y_shape, "broadcast_shape")
    return list(broadcast_shapes(x_shape, y_shape, "broadcast_shape"))


def combinations(x, r=2, with_replacement=False, name=None) -> Tensor:
    """All r-element combinations of the 1-D x, one per row (in lexicographic order of positions).

    Example:
        >>> paddle.combinations(paddle.to_tensor([1, 2, 3]))    # [[1, 2], [1, 3], [2, 3]]
    """
    fn = "combinations"
    check_tensor(x, fn)
    if x.ndim != 1:
        raise TypeError(f"{fn}: x must be a 1-D Tensor, got shape {x.shape}")
    r = _int_arg(r, fn, "r")
    if r < 0:
        raise ValueError(f"{fn}: r must not be negative, got {r}")
    if r == 0:
        return ops.gather(x, Tensor(np.zeros(0, np.int64)), "axis", 0)
    n, r = x.shape[0], check_int(r, fn, "r", 0, MAX_ELEMENTS)
    count = math.comb(n + r - 1, r) if with_replacement else math.comb(n, r)
    check_size((count, r), fn)  # before itertools makes them one by one
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.array(list(pick(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    return ops.gather(x, Tensor(index), "axis", 0)


def vander(x, n=None, increasing=False, name=None) -> Tensor:
    """The Vandermonde matrix of the 1-D x: column j is x ** (n - 1 - j), or x ** j with increasing=True.

    Example:
        >>> paddle.vander(paddle.to_tensor([1.0, 2.0, 3.0]))    # [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    """
    fn = "vander"
    check_tensor(x, fn)
    if x.ndim != 1:
        raise ValueError(f"{fn}: x must be a 1-D Tensor, got shape {x.shape}")
    n = x.shape[0] if n is None else _int_arg(n, fn, "n")
    if n < 0:
        raise ValueError(f"{fn}: n must not be negative, got {n}")
    column = ops.reshape(x, (-1, 1))
    if n == 0:
        return ops.expand(column, (x.shape[0], 0))
    powers = [ops.full_like(column, 1, None)]  # x ** 0, x ** 1, ... by repeated multiplication (exact gradients)
    for _ in range(n - 1):
        powers.append(ops.multiply(powers[-1], column))
    out = ops.concat(powers, 1)
    return out if check_bool(increasing, fn, "increasing") else ops.flip(out, (1,))


# ---- paddle.* functions (also Tensor methods) ---------------------------------------------------------------------


def renorm(x, p, axis, max_norm) -> Tensor:
    """Rescale each slice of x along `axis` whose p-norm exceeds max_norm to have p-norm max_norm.

    The slice x[..., i, ...] (index i on `axis`) is multiplied by max_norm / norm_i when its p-norm norm_i (over all
    the other axes) is larger than max_norm, and left unchanged otherwise.

    Args:
        x (Tensor): float32 or float64, at least 1-D.
        p (float): the order of the norm (> 0).
        axis (int): the axis whose slices are renormalized (negative counts from the end).
        max_norm (float): the largest p-norm a slice keeps.

    Returns:
        Tensor: x's shape and dtype.

    Example:
        >>> paddle.renorm(paddle.to_tensor([[3.0, 4.0], [0.3, 0.4]]), p=2, axis=0, max_norm=1.0)
        >>> # [[0.6, 0.8], [0.3, 0.4]]
    """
    fn = "renorm"
    check_float_tensor(x, fn)
    p = float(check_number(p, fn, "p"))
    max_norm = float(check_number(max_norm, fn, "max_norm"))
    if x.ndim == 0:
        raise ValueError(f"{fn}: x must have at least 1 dimension to take slices along axis, got a 0-D tensor")
    if not 0 < p < np.inf:
        raise ValueError(f"{fn}: p must be a positive finite number, got {p}")
    axis = normalize_axis(axis, x.ndim, fn)
    others = tuple(i for i in range(x.ndim) if i != axis)
    norm = ops.pow(ops.sum(ops.pow(ops.abs(x), p), others, True), 1.0 / p)
    too_large = ops.greater_than(norm, ops.full_like(norm, max_norm, None))
    safe = ops.where(too_large, norm, ops.full_like(norm, 1.0, None))  # no division by a small, unused norm
    factor = ops.where(too_large, ops.divide(ops.full_like(norm, max_norm, None), safe), ops.full_like(norm, 1, None))
    return ops.multiply(x, factor)


def polar(abs, angle, name=None) -> Tensor:  # noqa: A002 (Paddle's names)
    """The complex tensor with magnitude `abs` and phase `angle`: abs * (cos(angle) + i sin(angle)).

    Args:
        abs (Tensor): float32 or float64 magnitudes.
        angle (Tensor): float32 or float64 phases in radians (broadcast against abs).

    Returns:
        Tensor: complex64 for float32 inputs, complex128 when either is float64.

    Example:
        >>> paddle.polar(paddle.to_tensor([2.0]), paddle.to_tensor([np.pi / 2]))    # [~0+2j]
    """
    check_float_tensor(abs, "polar", "abs")
    check_float_tensor(angle, "polar", "angle")
    return attribute.complex(multiply(abs, cos(angle)), multiply(abs, sin(angle)))
