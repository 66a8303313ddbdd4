"""How an in-place function writes its result into x (used by tensor/inplace.py and by every `_` function
elsewhere: scatter_, fill_diagonal_, the random fills).

Every in-place form is its out-of-place function run on x's current value, with the result then written back
into x through the door (`apply_inplace` with the `assign` op):
- `write_back` (most ops): the result must have x's shape and dtype, and is written into x's storage, so views of
  x see the change.
- `rebind` (reshape_, squeeze_, cast_, the comparisons, whose result has another shape or dtype by design): x
  itself becomes the result, keeping its identity.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.inplace import apply_inplace, check_not_leaf
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_tensor

# The in-place methods of paddle 2.6 that are their out-of-place function written back into x. Each becomes a
# Tensor method (tensor_methods.py) as soon as its out-of-place function exists.
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
