"""The one door every op goes through (DESIGN.md, wall 1).

    apply(op, inputs, attrs)  ->  Tensor, or a tuple of Tensors for ops with several outputs

In dynamic mode (the default) the door runs the op's numpy kernel now and, when a gradient may be needed,
records a GradNode. In static mode it hands the call to the Program builder instead, which appends an OpDesc.

On the way through:
- the hooks on the door (core/state.py: AMP, quantization, tracers, profilers) see the inputs before and the
  outputs after, in every mode; with no hook installed that costs one `if`;
- the Layer scope: the current Layer path (core/state.py) is written onto every GradNode;
- the kernel call (core/kernel.py) turns a kernel's error into the same built-in type, prefixed with the op's
  name, and applies FLAGS_check_nan_inf.
In-place ops (`x.add_(y)`) go through `apply_inplace` in core/inplace.py, which stands on this door (and
`apply_inplace_pair` there, for an op that writes two tensors in place).
"""

from __future__ import annotations

import contextlib

import numpy as np

from minipaddle.core.kernel import arrays_of, run_kernel
from minipaddle.core.node import GradNode
from minipaddle.core.saved_hooks import pack_saved
from minipaddle.core.state import PER_THREAD, STATE, OpHook, op_hook, run_after_hooks, run_before_hooks
from minipaddle.core.tensor import Tensor
from minipaddle.core.view import View

_NO_ATTRS: dict = {}  # shared, never written: most ops have no attributes

# set by minipaddle.static: (op, inputs, attrs, inplace_target=None) -> Variable(s); inplace_target is a
# Variable, or a tuple of them for an op that writes several in place
_static_builder = None


def apply(op, inputs: tuple, attrs: dict | None = None):
    """Run `op` on `inputs` (Tensors, or None for an absent optional input) with keyword `attrs`."""
    if attrs is None:
        attrs = _NO_ATTRS
    # This thread's state, looked up once (thread_state(), inlined): every `STATE.x` is a per-thread lookup,
    # several times dearer than reading a slot of the ThreadState, and the door runs for every op.
    state = PER_THREAD.__dict__["state"]
    if state.static_mode:
        return build(op, inputs, attrs)
    hooks = state.dynamic_hooks
    if hooks:
        inputs = run_before_hooks(hooks, op, inputs, attrs)

    out = run_kernel(op, arrays_of(inputs), attrs)

    # A gradient is needed when recording is on and some input wants one (asked only of an op that has a grad
    # rule: a stale view among the inputs is brought up to date at its next differentiable use all the same).
    grad_enabled = state.grad_enabled
    need_grad = grad_enabled and op.differentiable and _wants_grad(inputs)

    if type(out) is tuple:
        outputs = tuple([Tensor(o, not need_grad) for o in out])  # (a list: a generator resumes per output)
    else:
        outputs = (Tensor(out, not need_grad),)
    if op.view and np.may_share_memory(out, inputs[0]._data):  # (numpy's reshape copies what it cannot view)
        # Shares storage with input 0, so in-place changes to either are seen by both.
        base = inputs[0]
        outputs[0]._version = base._version
        if grad_enabled:  # (a view taken under no_grad is a plain alias, outside autograd, like detach)
            outputs[0]._view = View(base, op, attrs, base._version[0])
    if need_grad:
        node = GradNode(op, inputs, attrs, outputs, state.scope)
        if state.saved_tensors_hooks is not None:  # paddle.autograd.saved_tensors_hooks is on
            node.packed = pack_saved(state.saved_tensors_hooks, op, inputs, outputs)
        for i, o in enumerate(outputs):
            o._node = node
            o._out_index = i
    if hooks:
        outputs = run_after_hooks(hooks, op, inputs, attrs, outputs)
    return outputs if type(out) is tuple else outputs[0]


def build(op, inputs: tuple, attrs: dict, inplace_target=None):
    """Static mode: append `op` to the current Program (through the builder minipaddle.static installs), with the
    hooks of the "build" phase around it."""
    if _static_builder is None:
        raise RuntimeError(f"{op.name}: static mode is on but no Program builder is installed")
    hooks = STATE.build_hooks
    if not hooks:
        return _static_builder(op, inputs, attrs, inplace_target)
    inputs = run_before_hooks(hooks, op, inputs, attrs)
    out = _static_builder(op, inputs, attrs, inplace_target)
    outputs = run_after_hooks(hooks, op, inputs, attrs, out if type(out) is tuple else (out,))
    return outputs if type(out) is tuple else outputs[0]


def _wants_grad(inputs: tuple) -> bool:
    """Whether some input wants a gradient; views whose storage changed since their history was recorded are
    brought up to date first."""
    wants = False
    for t in inputs:
        if t is not None:
            if t._view is not None and t._view.version != t._version[0]:
                _renew_view(t)
            if not t.stop_gradient:
                wants = True
    return wants


def _renew_view(t: Tensor) -> None:
    """Give a view the history of its base as the base is now: the view op applied again (a new GradNode).
    (Changing a view in place records the change on its base instead: core/inplace.py.)"""
    view = t._view
    if t._node is None and view.base.stop_gradient:  # nothing to renew: both are constants
        view.version = t._version[0]
        return
    fresh = apply(view.op, (view.base,), view.attrs)
    a, b = fresh._data, t._data
    if a.shape != b.shape or a.strides != b.strides or a.__array_interface__["data"] != b.__array_interface__["data"]:
        raise RuntimeError(
            f"{view.op.name}: this view (shape {t.shape}) no longer matches its base, which was reshaped in place "
            f"(now shape {view.base.shape}); take the view again from the base"
        )
    view.version = t._version[0]
    if fresh._node is not None:
        t._node, t._out_index, t.stop_gradient = fresh._node, 0, False


# ---- installing ---------------------------------------------------------------------------------------------------


def set_static_builder(fn) -> None:
    """minipaddle.static installs the function that appends ops to the current Program."""
    global _static_builder
    _static_builder = fn


class _Tracer(OpHook):
    """A hook made of one function called after each op: `fn(op, inputs, attrs, outputs)`."""

    def __init__(self, fn, phases: tuple) -> None:
        self.fn = fn
        self.phases = phases

    def after(self, op, inputs, attrs, outputs):
        self.fn(op, inputs, attrs, outputs)
        return outputs


@contextlib.contextmanager
def tracing(fn, phases: tuple = ("dynamic", "build")):
    """Call `fn(op, inputs, attrs, outputs)` after every op run (or built into a Program) inside the block."""
    with op_hook(_Tracer(fn, phases)):
        yield fn
