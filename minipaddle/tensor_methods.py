"""Bind the public functions onto Tensor as methods and Python operators, in one place (as Paddle's own
`math_op_patch` does). core/tensor.py stays free of imports from above the core. The methods come from every
floor (nn.functional's activations, sparse's to_sparse_coo), so the binder stands on the top floor and
minipaddle/__init__.py calls `bind()` once."""

from __future__ import annotations

import sys

import numpy as np

from minipaddle import ops, signal
from minipaddle.core import autograd
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import PER_THREAD, STATE
from minipaddle.core.tensor import Parameter, Tensor
from minipaddle.nn.functional import activation
from minipaddle.nn.param_attr import create_parameter
from minipaddle.profiler.events import RECORDING, backward_span
from minipaddle.sparse import creation as sparse_creation
from minipaddle.tensor import (
    attribute,
    covariance,
    creation,
    cumulative,
    decompositions,
    differences,
    indexing,
    inplace,
    linalg,
    logic,
    manipulation,
    math,
    pca,
    properties,
    random,
    search,
    special_math,
    stat,
    write_back,
)
from minipaddle.tensor.to_string import format_parameter, format_tensor

# ---- operators -------------------------------------------------------------------------------------------------


def _swap(fn):
    """The reflected operator (`2 - x` calls x.__rsub__(2)): same function, operands swapped."""

    def reflected(self, other):
        return fn(other, self)

    return reflected


def _identity_fallback(compare, same: bool):
    """`t == None`, `t == "text"`: not a number, so compare identities as Python does, instead of raising."""

    def operator(self, other):
        if other is None or isinstance(other, (str, bytes, dict, set)):
            return (self is other) == same
        return compare(self, other)

    return operator


OPERATORS = {
    "__add__": math.add,
    "__radd__": _swap(math.add),
    "__sub__": math.subtract,
    "__rsub__": _swap(math.subtract),
    "__mul__": math.multiply,
    "__rmul__": _swap(math.multiply),
    "__truediv__": math.true_divide,
    "__rtruediv__": _swap(math.true_divide),
    "__pow__": math.pow,
    "__rpow__": lambda self, other: math.pow(creation.full_like(self, other), self),
    "__matmul__": linalg.matmul,
    "__rmatmul__": _swap(linalg.matmul),
    "__eq__": _identity_fallback(logic.equal, True),
    "__ne__": _identity_fallback(logic.not_equal, False),
    "__lt__": logic.less_than,
    "__le__": logic.less_equal,
    "__gt__": logic.greater_than,
    "__ge__": logic.greater_equal,
    "__neg__": math.neg,
    "__abs__": math.abs,
    "__floordiv__": math.floor_divide,  # Python's floor rules; no reflected form, as in Paddle
    "__mod__": math.remainder,
    "__and__": logic.bitwise_and,  # on bool tensors these are the logical and/or/xor/not
    "__or__": logic.bitwise_or,
    "__xor__": logic.bitwise_xor,
    "__invert__": logic.bitwise_not,
}


# ---- conversions and Python protocols --------------------------------------------------------------------------


def _one_value(self, to, what: str):
    if self._data.size != 1:
        raise ValueError(
            f"{what}: only a tensor with exactly one element can be converted, but this one has shape {self.shape}"
        )
    return to(self._data.reshape(()).item())


def __bool__(self) -> bool:
    return _one_value(self, bool, "bool(Tensor)")


def __float__(self) -> float:
    return _one_value(self, float, "float(Tensor)")


def __int__(self) -> int:
    return _one_value(self, int, "int(Tensor)")


def __complex__(self) -> complex:
    return _one_value(self, complex, "complex(Tensor)")


def __index__(self) -> int:
    if self._data.dtype.kind not in "iu":
        raise TypeError(f"only integer tensors can be used as an index, got {self.dtype.name}")
    return _one_value(self, int, "Tensor.__index__")


def __len__(self) -> int:
    if self._data.ndim == 0:
        raise TypeError("len() of a 0-D tensor")
    return self._data.shape[0]


def __iter__(self):
    if self._data.ndim == 0:
        raise TypeError("iteration over a 0-D tensor")
    return iter(ops.unstack(self, 0) if self._data.shape[0] else ())


def __getitem__(self, index):
    return indexing.getitem(self, index)


def __setitem__(self, index, value) -> None:
    indexing.setitem(self, index, value)


def __format__(self, spec: str) -> str:
    if spec and self._data.size == 1:
        return format(self._data.reshape(()).item(), spec)
    return str(self)


def __repr__(self) -> str:
    if isinstance(self, Parameter):
        return format_parameter(self._data, dtype_name=self.dtype.name, stop_gradient=self.stop_gradient)
    return format_tensor(self._data, dtype_name=self.dtype.name, stop_gradient=self.stop_gradient)


# ---- methods -----------------------------------------------------------------------------------------------------


def astype(self, dtype) -> Tensor:
    """A copy converted to `dtype`."""
    return manipulation.cast(self, dtype)


def clone(self) -> Tensor:
    """A copy that stays in the graph: gradients flow back through it."""
    return ops.assign(self)


def detach(self) -> Tensor:
    """A tensor sharing this one's data but cut from the graph (stop_gradient=True). In static mode (a Variable,
    or to_static tracing) an assign op whose output stops gradients, as Paddle's Variable.detach: a Variable's
    data is only its stand-in, and detaching it must not bake that in as a constant."""
    if STATE.static_mode:
        out = ops.assign(self)
        out.stop_gradient = True
        return out
    return Tensor(self._data, stop_gradient=True, version=self._version)


def backward(self, grad_tensor=None, retain_graph: bool = False) -> None:
    """Compute the gradient of this tensor with respect to the leaves it depends on, adding into their `.grad`.

    Args:
        grad_tensor: the gradient of this tensor (default: ones of its shape).
        retain_graph: keep the graph so that backward can run through it again.
    """
    grads = None if grad_tensor is None else [grad_tensor]
    if RECORDING.recorder is not None:  # a paddle.profiler.Profiler records: time the backward as one event
        with backward_span():
            autograd.backward([self], grads, retain_graph)
    elif grad_tensor is None and not self.stop_gradient:  # the common case, `loss.backward()`, kept short
        seed = np.empty(self._data.shape, self._data.dtype)
        seed.fill(1)  # d(self)/d(self) = 1 (np.ones_like does the same, slower)
        autograd.run_backward([self], [Tensor(seed)], retain_graph)
    else:
        autograd.backward([self], grads, retain_graph)


def clear_grad(self, set_to_zero: bool = True) -> None:
    """Reset the accumulated gradient: to zeros in place (the default, as paddle 2.6) or to None.

    When nothing but this tensor holds the gradient or its storage (no Python name, view, or array of it) and no
    hook watches the door, the zeros are not written yet: the next backward writes its gradient straight into the
    storage (instead of adding it to zeros), and reading `.grad` first writes them (Tensor.grad). The step's
    values are the same bits either way; a training loop saves the fill and the read of the zeros."""
    g = self._grad
    if g is None:
        return
    if not set_to_zero or g._selected_rows is not None:  # (Paddle clears a sparse gradient to None either way)
        self._grad = None
        self._grad_cleared = False
        return
    state = PER_THREAD.__dict__["state"]  # this thread's state (see dispatch.apply)
    # (refcounts: self._grad, g and the call's argument; g._data and the argument)
    unshared = g._node is None and g._data.base is None and sys.getrefcount(g) == 3 and sys.getrefcount(g._data) == 2
    if unshared and not (state.static_mode or state.dynamic_hooks):
        self._grad_cleared = True
    else:  # full_like is not differentiable, so this records nothing even with grad enabled
        apply_inplace(_FULL_LIKE, g, (g,), _ZERO)


_FULL_LIKE = get_op("full_like")
_ZERO = {"value": 0, "dtype": None}


def gradient(self):
    """The gradient as a numpy array, or None (Paddle's older accessor)."""
    return None if self.grad is None else self.grad.numpy()


class _HookHandle:
    """Returned by register_hook; `remove()` takes the hook off again."""

    def __init__(self, table: dict, key: int) -> None:
        self.table, self.key = table, key

    def remove(self) -> bool:
        return self.table.pop(self.key, None) is not None


def register_hook(self, hook) -> _HookHandle:
    """Call `hook(grad)` when this tensor's gradient is computed; a returned Tensor replaces the gradient."""
    if self.stop_gradient:
        raise RuntimeError("register_hook: cannot register a hook on a tensor with stop_gradient=True")
    if not callable(hook):
        raise TypeError(f"register_hook: hook must be callable, got {type(hook).__name__}")
    if self._node is None:
        if self._hooks is None:
            self._hooks = {}
        table = self._hooks
    else:
        if self._node.out_hooks is None:
            self._node.out_hooks = {}
        table = self._node.out_hooks.setdefault(self._out_index, {})
    key = id(hook)
    table[key] = hook
    return _HookHandle(table, key)


def _register_backward_hook(self, hook) -> None:
    """Call `hook()` (no arguments) every time this leaf's gradient has been fully computed and accumulated into
    `.grad` in a backward pass, while backward goes on with the rest of the graph (Paddle 2.6's
    `Tensor._register_backward_hook`; DataParallel starts a bucket's all-reduce from it). Returns None, as Paddle.
    """
    if self._node is not None:
        raise ValueError("_register_backward_hook: only a leaf Tensor (not made by an op) can have a backward hook")
    if self.stop_gradient:
        raise ValueError("_register_backward_hook: the tensor has stop_gradient=True, so it never gets a gradient")
    if not callable(hook):
        raise TypeError(f"_register_backward_hook: hook must be callable, got {type(hook).__name__}")
    if self._backward_hooks is None:
        self._backward_hooks = {}
        autograd.leaf_ready_hooks_used()
    self._backward_hooks[id(hook)] = hook


def retain_grads(self) -> None:
    """Keep the gradient of a non-leaf tensor in `.grad` after backward (leaves always keep it)."""
    if self._node is None or self._retain_grads:
        return
    self._retain_grads = True
    import weakref

    ref = weakref.ref(self)

    def keep(g):
        t = ref()
        if t is not None:
            t._grad = g if t.grad is None else math.add(t.grad, g)

    register_hook(self, keep)


# ---- in-place methods ------------------------------------------------------------------------------------------


def _inplace_methods(functions: dict) -> dict:
    """The `_` methods of paddle 2.6 (tensor/inplace.py): each one whose out-of-place function exists."""
    built = {n: write_back.inplace_of(functions[n[:-1]], n) for n in write_back.WRITE_BACK + write_back.REBIND
             if n[:-1] in functions}  # fmt: skip
    return {**built, **inplace.SPECIAL}


# Every function of these modules becomes a method too (`x.sum()` is `paddle.sum(x)`), as in Paddle.
METHOD_MODULES = (math, linalg, decompositions, covariance, logic, manipulation, indexing, attribute, search,
                  stat, special_math, cumulative, differences, pca)  # fmt: skip
# not called on a tensor first, or clash with an attribute
NOT_METHODS = {"assign", "shape", "complex", "searchsorted", "logspace", "einsum", "tril_indices", "triu_indices",
               "tolist"}  # fmt: skip


def numpy(self, *args, **kwargs) -> np.ndarray:
    """The data as a numpy array (shared storage, as in Paddle's CPU tensors). Paddle 2.6's Tensor.numpy takes and
    ignores any arguments (its tests call `t.numpy(False)`), so this one does too."""
    return self._data


METHODS = {
    "numpy": numpy,
    "astype": astype,
    "clone": clone,
    "detach": detach,
    "backward": backward,
    "clear_grad": clear_grad,
    "clear_gradient": clear_grad,
    "gradient": gradient,
    "register_hook": register_hook,
    "_register_backward_hook": _register_backward_hook,
    "retain_grads": retain_grads,
    "sigmoid": activation.sigmoid,
    # creation and random functions that Paddle binds as methods too
    "diag": creation.diag,
    "diag_embed": creation.diag_embed,
    "tril": creation.tril,
    "triu": creation.triu,
    "multinomial": random.multinomial,
    "create_tensor": creation.create_tensor,
    "create_parameter": create_parameter,
    "stft": signal.stft,  # paddle.signal's transforms, bound as methods in Paddle 2.6
    "istft": signal.istft,
    **random.METHODS,  # the in-place random fills: uniform_, normal_, exponential_, cauchy_, geometric_
    **sparse_creation.METHODS,  # to_sparse_coo, to_sparse_csr: the way into paddle.sparse
}


def bind() -> None:
    """Attach every method and operator to Tensor. Called once, when minipaddle is imported."""
    from_modules = {n: getattr(m, n) for m in METHOD_MODULES for n in m.__all__ if n not in NOT_METHODS}
    methods = {**properties.METHODS, **from_modules, **OPERATORS, **METHODS}
    attributes = properties.PROPERTIES
    for name, fn in {**methods, **_inplace_methods(methods), **attributes}.items():
        setattr(Tensor, name, fn)
    for fn in (__bool__, __float__, __int__, __complex__, __index__, __len__, __iter__, __getitem__, __setitem__,
               __format__):  # fmt: skip
        setattr(Tensor, fn.__name__, fn)
    Tensor.__repr__ = Tensor.__str__ = __repr__
    Tensor.__hash__ = object.__hash__  # __eq__ returns a Tensor, so keep identity hashing (as Paddle)
