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
from minipaddle.core.tensor import Tensor
from minipaddle.tensor import (
    creation,
    indexing,
    logic,
    manipulation,
    math,
    reduce_extra,
    special_math,
)
from minipaddle.tensor.write_back import inplace_of, rebind, write_back

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

# The other in-place forms paddle 2.6 exports at the top level too (`paddle.sin_(x)`), not only as methods.
acos_ = inplace_of(math.acos, "acos_")
acosh_ = inplace_of(math.acosh, "acosh_")
addmm_ = inplace_of(math.addmm, "addmm_")
asin_ = inplace_of(math.asin, "asin_")
asinh_ = inplace_of(math.asinh, "asinh_")
atan_ = inplace_of(math.atan, "atan_")
atanh_ = inplace_of(math.atanh, "atanh_")
cos_ = inplace_of(math.cos, "cos_")
cosh_ = inplace_of(math.cosh, "cosh_")
cumsum_ = inplace_of(math.cumsum, "cumsum_")
erf_ = inplace_of(math.erf, "erf_")
expm1_ = inplace_of(math.expm1, "expm1_")
floor_divide_ = inplace_of(math.floor_divide, "floor_divide_")
floor_mod_ = inplace_of(math.floor_mod, "floor_mod_")
log10_ = inplace_of(math.log10, "log10_")
log1p_ = inplace_of(math.log1p, "log1p_")
log2_ = inplace_of(math.log2, "log2_")
mod_ = inplace_of(math.mod, "mod_")
remainder_ = inplace_of(math.remainder, "remainder_")
sin_ = inplace_of(math.sin, "sin_")
sinh_ = inplace_of(math.sinh, "sinh_")
square_ = inplace_of(math.square, "square_")
tan_ = inplace_of(math.tan, "tan_")
trunc_ = inplace_of(math.trunc, "trunc_")
bitwise_and_ = inplace_of(logic.bitwise_and, "bitwise_and_")
bitwise_not_ = inplace_of(logic.bitwise_not, "bitwise_not_")
bitwise_or_ = inplace_of(logic.bitwise_or, "bitwise_or_")
bitwise_xor_ = inplace_of(logic.bitwise_xor, "bitwise_xor_")
equal_ = inplace_of(logic.equal, "equal_")
greater_equal_ = inplace_of(logic.greater_equal, "greater_equal_")
greater_than_ = inplace_of(logic.greater_than, "greater_than_")
less_equal_ = inplace_of(logic.less_equal, "less_equal_")
less_than_ = inplace_of(logic.less_than, "less_than_")
logical_and_ = inplace_of(logic.logical_and, "logical_and_")
logical_not_ = inplace_of(logic.logical_not, "logical_not_")
logical_or_ = inplace_of(logic.logical_or, "logical_or_")
logical_xor_ = inplace_of(logic.logical_xor, "logical_xor_")
not_equal_ = inplace_of(logic.not_equal, "not_equal_")
cumprod_ = inplace_of(reduce_extra.cumprod, "cumprod_")
digamma_ = inplace_of(special_math.digamma, "digamma_")
frac_ = inplace_of(special_math.frac, "frac_")
gcd_ = inplace_of(special_math.gcd, "gcd_")
hypot_ = inplace_of(special_math.hypot, "hypot_")
i0_ = inplace_of(special_math.i0, "i0_")
lcm_ = inplace_of(special_math.lcm, "lcm_")
ldexp_ = inplace_of(special_math.ldexp, "ldexp_")
lgamma_ = inplace_of(special_math.lgamma, "lgamma_")
logit_ = inplace_of(special_math.logit, "logit_")
multigammaln_ = inplace_of(special_math.multigammaln, "multigammaln_")
nan_to_num_ = inplace_of(special_math.nan_to_num, "nan_to_num_")
polygamma_ = inplace_of(special_math.polygamma, "polygamma_")
index_add_ = inplace_of(indexing.index_add, "index_add_")
index_fill_ = inplace_of(indexing.index_fill, "index_fill_")
index_put_ = inplace_of(indexing.index_put, "index_put_")
masked_fill_ = inplace_of(indexing.masked_fill, "masked_fill_")
tril_ = inplace_of(creation.tril, "tril_")
triu_ = inplace_of(creation.triu, "triu_")
renorm_ = inplace_of(math.renorm, "renorm_")
TOP_LEVEL = [
    "acos_",
    "acosh_",
    "addmm_",
    "asin_",
    "asinh_",
    "atan_",
    "atanh_",
    "bitwise_and_",
    "bitwise_not_",
    "bitwise_or_",
    "bitwise_xor_",
    "cos_",
    "cosh_",
    "cumprod_",
    "cumsum_",
    "digamma_",
    "equal_",
    "erf_",
    "expm1_",
    "floor_divide_",
    "floor_mod_",
    "frac_",
    "gcd_",
    "greater_equal_",
    "greater_than_",
    "hypot_",
    "i0_",
    "index_add_",
    "index_fill_",
    "index_put_",
    "lcm_",
    "ldexp_",
    "less_equal_",
    "less_than_",
    "lgamma_",
    "log10_",
    "log1p_",
    "log2_",
    "logical_and_",
    "logical_not_",
    "logical_or_",
    "logical_xor_",
    "logit_",
    "masked_fill_",
    "mod_",
    "multigammaln_",
    "nan_to_num_",
    "not_equal_",
    "polygamma_",
    "remainder_",
    "renorm_",
    "sin_",
    "sinh_",
    "square_",
    "tan_",
    "tril_",
    "triu_",
    "trunc_",
]
__all__ += TOP_LEVEL


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
