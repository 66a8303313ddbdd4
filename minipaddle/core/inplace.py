"""In-place ops (`x.add_(y)`, `x.exp_()`, `x[i] = v`) and the views they must keep in step; and one op writing
two tensors in place (`apply_inplace_pair`: an optimizer's float32 master weight and its float16 parameter).

A view shares its base's storage and version counter (core/view.py). A recorded in-place change of one of them makes
the other's gradient history out of date: changing a view changes the base (`_rebase` records that on the base),
and changing the base, or another view of it, changes this view (the door re-derives the view's history when it is
next used: dispatch._renew_view). So gradients stay right whichever of them is changed, as in PyTorch.
"""

from __future__ import annotations

from minipaddle.core import dispatch
from minipaddle.core.kernel import arrays_of, run_kernel, run_kernel_into, run_kernel_into_pair
from minipaddle.core.node import GradNode
from minipaddle.core.op import OPS
from minipaddle.core.saved_hooks import pack_saved
from minipaddle.core.state import PER_THREAD, PROCESS, run_after_hooks, run_before_hooks
from minipaddle.core.tensor import Tensor

_NO_ATTRS: dict = {}


def apply_inplace(op, target: Tensor, inputs: tuple, attrs: dict | None = None) -> Tensor:
    """Run `op` and write its result into `target`'s storage (the `_` methods: `x.add_(y)`, `x.exp_()`).

    The target's version is bumped, so a backward that saved the old value refuses to run. When a gradient is
    needed, the target is re-attached to the graph as the op's output (it becomes a non-leaf).
    """
    if attrs is None:
        attrs = _NO_ATTRS
    state = PER_THREAD.__dict__["state"]  # this thread's state, looked up once (see dispatch.apply)
    if state.static_mode:  # the op's output is written back into the target variable when the Program runs
        return dispatch.build(op, inputs, attrs, inplace_target=target)
    hooks = state.dynamic_hooks
    if hooks:
        inputs = run_before_hooks(hooks, op, inputs, attrs)
    grad_enabled = state.grad_enabled
    need_grad = grad_enabled and op.differentiable and dispatch._wants_grad(inputs)  # (as dispatch.apply)
    # The target's history changes when the op is recorded, or when a tensor with a history gets a value that
    # depends on nothing needing a gradient (x.zero_()): its history ends there.
    cut = not need_grad and grad_enabled and target._node is not None
    arrays = arrays_of(inputs)
    if not (need_grad or cut) and op.kernel_into is not None:
        run_kernel_into(op, target._data, arrays, attrs)  # nothing to record: write straight into the storage
        target._bump_version()
        return run_after_hooks(hooks, op, inputs, attrs, (target,))[0] if hooks else target
    out = run_kernel(op, arrays, attrs)
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
        node = GradNode(op, inputs, attrs, (snapshot,), state.scope)
        if state.saved_tensors_hooks is not None:  # paddle.autograd.saved_tensors_hooks is on
            node.packed = pack_saved(state.saved_tensors_hooks, op, inputs, (snapshot,))
        target._node, target._out_index, target.stop_gradient = node, 0, False
    elif cut:
        target._node, target.stop_gradient = None, True
    if (need_grad or cut) and target._view is not None:
        _rebase(target)
    return run_after_hooks(hooks, op, inputs, attrs, (target,))[0] if hooks else target


def apply_inplace_pair(op, targets: tuple, inputs: tuple, attrs: dict | None = None) -> tuple:
    """Run `op`, which has one output per target, and write output i into `targets[i]`'s storage, as one op: the
    hooks see it once, and static mode appends one op that writes both variables.

    This is how an optimizer updates a float32 master weight and the float16/bfloat16 parameter it stands for in
    one step (paddle's sgd, momentum, adam and adamw with multi_precision write MasterParamOut and ParamOut),
    instead of an update and then a second op casting the master back. Only for ops that record no gradient (the
    optimizers' update ops): a target with a history ends it here, as `x.zero_()` does in `apply_inplace`.
    """
    if attrs is None:
        attrs = _NO_ATTRS
    if op.differentiable:
        raise TypeError(f"apply_inplace_pair: {op.name} has a gradient; only ops without one write two targets")
    state = PER_THREAD.__dict__["state"]  # this thread's state, looked up once (see dispatch.apply)
    if state.static_mode:  # the op's outputs are written back into the target variables when the Program runs
        return dispatch.build(op, inputs, attrs, inplace_target=targets)
    hooks = state.dynamic_hooks
    if hooks:
        inputs = run_before_hooks(hooks, op, inputs, attrs)
    arrays = arrays_of(inputs)
    # Straight into the targets' storage, no temporaries copied over, where the op can (FLAGS_check_nan_inf takes
    # the path below, which refuses a non-finite result before it writes either target).
    written = (op.kernel_into_pair is not None and not PROCESS.check_nan_inf and _shaped_as_input0(targets, arrays)
               and run_kernel_into_pair(op, tuple([t._data for t in targets]), arrays, attrs))  # fmt: skip
    if not written:
        outs = run_kernel(op, arrays, attrs)
        if type(outs) is not tuple or len(outs) != len(targets):
            raise ValueError(f"{op.name}_: the op gives {len(outs) if type(outs) is tuple else 1} output(s) for "
                             f"{len(targets)} targets")  # fmt: skip
        for target, out in zip(targets, outs):
            if out.shape != target._data.shape:
                raise ValueError(f"{op.name}_: a result has shape {list(out.shape)} but its tensor has "
                                 f"{target.shape}")  # fmt: skip
        for target, out in zip(targets, outs):  # (after every check: a refused op changes neither target)
            target._data[...] = out  # in the target's dtype, as apply_inplace writes
    for target in targets:
        target._bump_version()
        if state.grad_enabled and target._node is not None:
            target._node, target.stop_gradient = None, True
    return run_after_hooks(hooks, op, inputs, attrs, targets) if hooks else targets


def _shaped_as_input0(targets: tuple, arrays: tuple) -> bool:
    """Whether every target has the shape of the op's input 0 (an update's outputs do: kernel_into_pair may write
    them; any other case takes run_kernel's path and its shape errors)."""
    shape = arrays[0].shape if arrays and arrays[0] is not None else None
    return shape is not None and all(t._data.shape == shape for t in targets)


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
        t, what = t._view.base, "a view of "


# `write_view` is found by name because ops/ (where it is defined) stands above the core; core/op.py's registry is
# how the core reaches an op without importing upward.
_WRITE_VIEW = "write_view"


def _rebase(view: Tensor) -> None:
    """A view was changed in place: record on its base that the viewed part now holds the view's value
    (op `write_view`, which is also how `x[index] = value` is recorded), and so on up a chain of views."""
    record = view._view
    record.version = view._version[0]
    attrs = {"view_op": record.op.name, "view_attrs": record.attrs}
    apply_inplace(OPS[_WRITE_VIEW], record.base, (record.base, view), attrs)
    record.version = view._version[0]
