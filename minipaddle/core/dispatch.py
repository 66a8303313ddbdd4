"""The one door every op goes through (DESIGN.md, wall 1).

    apply(op, inputs, attrs)  ->  Tensor, or a tuple of Tensors for ops with several outputs

In dynamic mode (the default) the door runs the op's numpy kernel now and, when a gradient may be needed,
records a GradNode. In static mode it hands the call to the Program builder instead, which appends an OpDesc.

Hooks on the door, each off by default and costing one `if` when off:
- AMP casting (`set_amp_hook`): may cast the inputs before the kernel runs;
- tracing (`tracing(fn)`): sees every op with its inputs and outputs (viz, to_static, profiling);
- the Layer scope: the current Layer path (core/state.py) is written onto every GradNode;
- error context: an exception from a kernel is re-raised as the same built-in type, prefixed with the op's name;
- NaN/Inf check (`paddle.set_flags({'FLAGS_check_nan_inf': True})`): a RuntimeError at the first op whose output
  holds a NaN or an Inf, naming the op and the Layer it ran in.
"""

from __future__ import annotations

import contextlib

import numpy as np

from minipaddle.core.node import GradNode
from minipaddle.core.op import OPS
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

_NO_ATTRS: dict = {}  # shared, never written: most ops have no attributes

_static_builder = None  # set by minipaddle.static: (op, inputs, attrs, inplace_target=None) -> Variable(s)
_amp_hook = None  # set by minipaddle.amp: (op, inputs) -> inputs, possibly cast
_tracers: list = []  # callables (op, inputs, attrs, outputs) -> None


def apply(op, inputs: tuple, attrs: dict | None = None):
    """Run `op` on `inputs` (Tensors, or None for an absent optional input) with keyword `attrs`."""
    if attrs is None:
        attrs = _NO_ATTRS
    if STATE.static_mode:
        if _static_builder is None:
            raise RuntimeError(f"{op.name}: static mode is on but no Program builder is installed")
        return _static_builder(op, inputs, attrs)
    if _amp_hook is not None and STATE.amp is not None:
        inputs = _amp_hook(op, inputs)

    out = _run_kernel(op, inputs, attrs)

    # A gradient is needed when recording is on and some input wants one.
    need_grad = STATE.grad_enabled and _wants_grad(inputs) and op.differentiable

    if type(out) is tuple:
        outputs = tuple(Tensor(o, not need_grad) for o in out)
    else:
        outputs = (Tensor(out, not need_grad),)
    if op.view and np.may_share_memory(out, inputs[0]._data):  # (numpy's reshape copies what it cannot view)
        # Shares storage with input 0, so in-place changes to either are seen by both.
        base = inputs[0]
        outputs[0]._version = base._version
        if STATE.grad_enabled:  # (a view taken under no_grad is a plain alias, outside autograd, like detach)
            outputs[0]._view = [base, op, attrs, base._version[0]]
    if need_grad:
        node = GradNode(op, inputs, attrs, outputs, STATE.scope)
        for i, o in enumerate(outputs):
            o._node = node
            o._out_index = i
    if _tracers:
        for trace in _tracers:
            trace(op, inputs, attrs, outputs)
    return outputs if type(out) is tuple else outputs[0]


def apply_inplace(op, target: Tensor, inputs: tuple, attrs: dict | None = None) -> Tensor:
    """Run `op` and write its result into `target`'s storage (the `_` methods: `x.add_(y)`, `x.exp_()`).

    The target's version is bumped, so a backward that saved the old value refuses to run. When a gradient is
    needed, the target is re-attached to the graph as the op's output (it becomes a non-leaf).
    """
    if attrs is None:
        attrs = _NO_ATTRS
    if STATE.static_mode:  # the op's output is written back into the target variable when the Program runs
        if _static_builder is None:
            raise RuntimeError(f"{op.name}_: static mode is on but no Program builder is installed")
        return _static_builder(op, inputs, attrs, inplace_target=target)
    need_grad = STATE.grad_enabled and _wants_grad(inputs) and op.differentiable
    # The target's history changes when the op is recorded, or when a tensor with a history gets a value that
    # depends on nothing needing a gradient (x.zero_()): its history ends there.
    cut = not need_grad and STATE.grad_enabled and target._node is not None
    if not (need_grad or cut) and op.kernel_into is not None and not STATE.check_nan_inf:
        _run_kernel_into(op, target, inputs, attrs)  # nothing to record: write straight into the storage
        target._bump_version()
        if _tracers:
            for trace in _tracers:
                trace(op, inputs, attrs, (target,))
        return target
    out = _run_kernel(op, inputs, attrs)
    if need_grad or cut:
        check_not_leaf(f"{op.name}_", target)
    if out.shape != target._data.shape:
        raise ValueError(f"{op.name}_: the result has shape {list(out.shape)} but the tensor has {target.shape}")
    if need_grad:
        # The graph must keep seeing the old value where the target was an input: a copy when the grad rule reads
        # it, linked to the target's old node, so gradients still flow to whatever made the old value.
        old = Tensor(
            target._data.copy() if op.saves_inputs else target._data,
            stop_gradient=target.stop_gradient,
            node=target._node,
            out_index=target._out_index,
        )
        inputs = tuple(old if t is target else t for t in inputs)
    # Keep the tensor's dtype: numpy would promote (e.g. int += float), Paddle writes back in the target dtype.
    target._data[...] = out
    target._bump_version()
    if need_grad:
        # Record the op as if it ran out of place; the target now stands for the op's output.
        snapshot = Tensor(target._data, stop_gradient=False, version=target._version)
        node = GradNode(op, inputs, attrs, (snapshot,), STATE.scope)
        target._node, target._out_index, target.stop_gradient = node, 0, False
    elif cut:
        target._node, target.stop_gradient = None, True
    if (need_grad or cut) and target._view is not None:
        _rebase(target)
    if _tracers:
        for trace in _tracers:
            trace(op, inputs, attrs, (target,))
    return target


# ---- views and in-place changes ----------------------------------------------------------------------------------
# A view shares its base's storage and version counter. A recorded in-place change of one of them makes the other's
# gradient history out of date: changing a view changes the base (`_rebase` records that on the base), and changing
# the base, or another view of it, changes this view (`_renew_view` re-derives the view's history when it is next
# used). So gradients stay right whichever of them is changed, as in PyTorch.


def _wants_grad(inputs: tuple) -> bool:
    """Whether some input wants a gradient; views whose storage changed since their history was recorded are
    brought up to date first."""
    wants = False
    for t in inputs:
        if t is not None:
            if t._view is not None and t._view[3] != t._version[0]:
                _renew_view(t)
            if not t.stop_gradient:
                wants = True
    return wants


def _renew_view(t: Tensor) -> None:
    """Give a view the history of its base as the base is now: the view op applied again (a new GradNode)."""
    base, op, attrs, _ = t._view
    if t._node is None and base.stop_gradient:  # nothing to renew: both are constants
        t._view[3] = t._version[0]
        return
    fresh = apply(op, (base,), attrs)
    a, b = fresh._data, t._data
    if a.shape != b.shape or a.strides != b.strides or a.__array_interface__["data"] != b.__array_interface__["data"]:
        raise RuntimeError(
            f"{op.name}: this view (shape {t.shape}) no longer matches its base, which was reshaped in place "
            f"(now shape {base.shape}); take the view again from the base"
        )
    t._view[3] = t._version[0]
    if fresh._node is not None:
        t._node, t._out_index, t.stop_gradient = fresh._node, 0, False


def check_not_leaf(fn: str, target: Tensor) -> None:
    """A leaf that requires grad, or a view of one, cannot be changed in place by a recorded op (`fn` names it)."""
    t, what = target, ""
    while True:
        if t._node is None and not t.stop_gradient:
            raise RuntimeError(
                f"{fn}: {what}a leaf Tensor that requires grad ({t.name}) cannot be changed in place; "
                "use the out-of-place form or wrap the change in paddle.no_grad()"
            )
        if t._view is None:
            return
        t, what = t._view[0], "a view of "


def _rebase(view: Tensor) -> None:
    """A view was changed in place: record on its base that the viewed part now holds the view's value
    (op `write_view`, which is also how `x[index] = value` is recorded), and so on up a chain of views."""
    base, op, attrs, _ = view._view
    view._view[3] = view._version[0]
    apply_inplace(OPS["write_view"], base, (base, view), {"view_op": op.name, "view_attrs": attrs})
    view._view[3] = view._version[0]


def _run_kernel_into(op, target: Tensor, inputs: tuple, attrs: dict) -> None:
    """Call an op's kernel_into on the target's storage, with _run_kernel's error handling."""
    try:
        op.kernel_into(target._data, *[None if t is None else t._data for t in inputs], **attrs)
    except (ValueError, TypeError, IndexError, ZeroDivisionError, FloatingPointError) as e:
        base = next(b for b in (IndexError, ValueError, TypeError, ArithmeticError) if isinstance(e, b))
        raise base(f"{op.name}_: {e} (the result must keep the tensor's shape {target.shape})") from e


def _run_kernel(op, inputs: tuple, attrs: dict):
    """Call the numpy kernel; turn numpy's errors into the same built-in type, with the op's name."""
    try:
        if len(inputs) == 2 and inputs[0] is not None and inputs[1] is not None:  # most ops: skip the list
            out = op.kernel(inputs[0]._data, inputs[1]._data, **attrs)
        else:
            out = op.kernel(*[None if t is None else t._data for t in inputs], **attrs)
    except (ValueError, TypeError, IndexError, ZeroDivisionError, FloatingPointError, MemoryError) as e:
        base = next(b for b in (IndexError, ValueError, TypeError, ArithmeticError, MemoryError) if isinstance(e, b))
        if str(e).startswith(op.name + ":"):
            raise
        raise base(f"{op.name}: {e}") from e
    if type(out) is tuple:
        out = tuple(o if type(o) is np.ndarray else np.asarray(o) for o in out)
    elif type(out) is not np.ndarray:
        out = np.asarray(out)
    if STATE.check_nan_inf:
        _check_finite(op, out)
    return out


def _check_finite(op, out) -> None:
    """FLAGS_check_nan_inf: refuse an op's result that holds NaN or Inf, as Paddle's check_numerics does."""
    for i, o in enumerate(out if type(out) is tuple else (out,)):
        if o.dtype.kind not in "biu" and not np.isfinite(o).all():  # float, complex and bfloat16 (kind 'V')
            where = f" in Layer {STATE.scope}" if STATE.scope else ""
            raise RuntimeError(
                f"{op.name}: output {i}{where} holds {int(np.isnan(o).sum())} NaN and {int(np.isinf(o).sum())} Inf "
                "values (FLAGS_check_nan_inf is on)"
            )


# ---- installing hooks --------------------------------------------------------------------------------------------


def set_static_builder(fn) -> None:
    """minipaddle.static installs the function that appends ops to the current Program."""
    global _static_builder
    _static_builder = fn


def set_amp_hook(fn) -> None:
    """minipaddle.amp installs the function that casts inputs under auto_cast."""
    global _amp_hook
    _amp_hook = fn


@contextlib.contextmanager
def tracing(fn):
    """Call `fn(op, inputs, attrs, outputs)` after every op run inside the block."""
    _tracers.append(fn)
    try:
        yield fn
    finally:
        _tracers.remove(fn)
