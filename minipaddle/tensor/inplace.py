"""In-place functions and methods: `x.add_(y)`, `x.exp_()`, `x.reshape_(shape)`, `paddle.tanh_(x)`, ...

Every in-place form is its out-of-place function run on x's current value, with the result then written back
into x through the door (`apply_inplace` with the `assign` op). So each one checks its arguments, promotes and
computes exactly like the out-of-place function, and autograd sees: x's old value -> op -> assign -> x.

Two kinds:
- `write_back` (most ops): the result must have x's shape and dtype, and is written into x's storage, so views of
  x see the change; an in-place op cannot broadcast x to a larger shape or change its dtype (as in PyTorch).
- `rebind` (reshape_, squeeze_, unsqueeze_, flatten_, transpose_, t_, cast_ and the comparisons, whose result has
  another shape or dtype by design): x itself becomes the result, keeping its identity.
Either way x's inplace_version goes up, and a leaf that requires grad refuses the change (outside no_grad).
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply_inplace, check_not_leaf
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.tensor import manipulation, math
from minipaddle.tensor.checks import check_tensor

__all__ = [
    "reshape_",
    "squeeze_",
    "unsqueeze_",
    "transpose_",
    "t_",
    "cast_",
    "tanh_",
    "abs_",
    "neg_",
    "log_",
    "multiply_",
    "divide_",
    "pow_",
    "where_",
]

# The in-place methods of paddle 2.6 that are their out-of-place function written back into x. Each becomes a
# Tensor method (tensor/methods.py) as soon as its out-of-place function exists.
WRITE_BACK = (
    "abs_ acos_ acosh_ add_ addmm_ asin_ asinh_ atan_ atanh_ bitwise_and_ bitwise_not_ bitwise_or_ bitwise_xor_ "
    "ceil_ clip_ cos_ cosh_ cumprod_ cumsum_ digamma_ divide_ erf_ erfinv_ exp_ expm1_ floor_ floor_divide_ "
    "floor_mod_ frac_ gcd_ hypot_ i0_ index_add_ index_fill_ index_put_ lcm_ ldexp_ lerp_ lgamma_ log10_ log1p_ "
    "log2_ log_ logit_ masked_fill_ mod_ multigammaln_ multiply_ nan_to_num_ neg_ polygamma_ pow_ put_along_axis_ "
    "reciprocal_ remainder_ renorm_ round_ rsqrt_ scale_ sigmoid_ sin_ sinh_ sqrt_ square_ subtract_ tan_ tanh_ "
    "tril_ triu_ trunc_ where_"
).split()
# Those whose result has another dtype (bool) by design: x becomes the result.
REBIND = (
    "equal_ not_equal_ greater_equal_ greater_than_ less_equal_ less_than_ logical_and_ logical_not_ logical_or_ "
    "logical_xor_"
).split()


def write_back(x: Tensor, compute, name: str) -> Tensor:
    """x := compute(x's current value), written into x's storage. Returns x."""
    check_tensor(x, name)
    out = compute(ops.assign(x) if STATE.grad_enabled else x)  # the old value, kept apart for the graph
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}: expected the result to be a Tensor, got {type(out).__name__}")
    if out.shape != x.shape:
        raise ValueError(
            f"{name}: the result has shape {out.shape} but the tensor has shape {x.shape}; an in-place op cannot "
            "change a tensor's shape (broadcasting must not enlarge it)"
        )
    if out.dtype is not x.dtype:
        raise TypeError(
            f"{name}: the result is {out.dtype.name} but the tensor is {x.dtype.name}; an in-place op cannot change "
            f"a tensor's dtype (cast first, or use the out-of-place form)"
        )
    if STATE.grad_enabled and (not out.stop_gradient or x._node is not None):
        check_not_leaf(name, x)
    return apply_inplace(get_op("assign"), x, (out,))


def rebind(x: Tensor, compute, name: str) -> Tensor:
    """x := compute(x), where the result may have another shape or dtype: x takes over its data and history."""
    check_tensor(x, name)
    out = compute(x)
    if STATE.grad_enabled and not out.stop_gradient:
        check_not_leaf(name, x)
    if out._version is x._version:  # a view (reshape_, transpose_): same storage, counted as a change
        x._bump_version()
    else:  # new storage: x leaves its old views behind
        x._version = [x._version[0] + 1]
    x._data = out._data
    if out._node is not None:
        x._node, x._out_index, x.stop_gradient = out._node, out._out_index, False
    return x


def inplace_of(fn, name: str):
    """The in-place form of the public function `fn` (x first): `x.exp_()` is `write_back(x, paddle.exp)`."""
    finish = rebind if name in REBIND else write_back

    def method(x, *args, **kwargs):
        return finish(x, lambda old: fn(old, *args, **kwargs), name)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place {fn.__name__}: computes paddle.{fn.__name__}(x, ...) and writes it into x; returns x."
    return method


# ---- the shape-changing ones --------------------------------------------------------------------------------------


def reshape_(x, shape, name=None) -> Tensor:
    """In-place reshape: x itself gets the new shape (same storage)."""
    return rebind(x, lambda t: manipulation.reshape(t, shape), "reshape_")


def squeeze_(x, axis=None, name=None) -> Tensor:
    """In-place squeeze."""
    return rebind(x, lambda t: manipulation.squeeze(t, axis), "squeeze_")


def unsqueeze_(x, axis, name=None) -> Tensor:
    """In-place unsqueeze."""
    return rebind(x, lambda t: manipulation.unsqueeze(t, axis), "unsqueeze_")


def flatten_(x, start_axis=0, stop_axis=-1, name=None) -> Tensor:
    """In-place flatten."""
    return rebind(x, lambda t: manipulation.flatten(t, start_axis, stop_axis), "flatten_")


def transpose_(x, perm, name=None) -> Tensor:
    """In-place transpose."""
    return rebind(x, lambda t: manipulation.transpose(t, perm), "transpose_")


def t_(input, name=None) -> Tensor:
    """In-place t (transpose of a tensor with at most 2 dimensions)."""
    return rebind(input, manipulation.t, "t_")


def cast_(x, dtype) -> Tensor:
    """In-place cast: x itself gets the new dtype."""
    return rebind(x, lambda t: manipulation.cast(t, dtype), "cast_")


tanh_ = inplace_of(math.tanh, "tanh_")
abs_ = inplace_of(math.abs, "abs_")
neg_ = inplace_of(math.neg, "neg_")
log_ = inplace_of(math.log, "log_")
multiply_ = inplace_of(math.multiply, "multiply_")
divide_ = inplace_of(math.divide, "divide_")
pow_ = inplace_of(math.pow, "pow_")


def where_(condition, x=None, y=None, name=None) -> Tensor:
    """In-place where: writes where(condition, x, y) into x (Paddle's argument order: condition first)."""
    return write_back(x, lambda old: manipulation.where(condition, old, y), "where_")


def fill_(x, value) -> Tensor:
    """Fill x with `value` in place (the old values get no gradient)."""
    return write_back(x, lambda old: ops.full_like(old, _number(value, "fill_"), None), "fill_")


def zero_(x) -> Tensor:
    """Fill x with zeros in place."""
    return write_back(x, lambda old: ops.full_like(old, 0, None), "zero_")


def _number(value, fn: str):
    if isinstance(value, Tensor):
        value = value.item()
    if not isinstance(value, bool | int | float | complex | np.number | np.bool_):
        raise TypeError(f"{fn}: value must be a number, got {type(value).__name__}")
    return value


# The in-place methods with a rule of their own (the rest are built from WRITE_BACK and REBIND).
SPECIAL = {
    "reshape_": reshape_,
    "squeeze_": squeeze_,
    "unsqueeze_": unsqueeze_,
    "flatten_": flatten_,
    "transpose_": transpose_,
    "t_": t_,
    "cast_": cast_,
    "where_": where_,
    "fill_": fill_,
    "zero_": zero_,
}
