"""Static backward: `append_backward` and `gradients` replay each op's grad rule symbolically.

The grad rules are the very same functions dynamic backward calls (minipaddle/ops/). Here they run in static
mode, so the minipaddle ops they call append OpDescs, marked with the backward role, to the Program: the
gradient computation becomes part of the graph, printable and drawable like the forward ops.

Walk: the block's ops in reverse order are a valid reverse topological order. For each op that some needed
gradient flows through, gather its outputs' gradients (zeros for outputs nobody used), call the rule, and add
each input's share to that input's running gradient. The final gradient of variable `x` is named `x@GRAD`.
"""

from __future__ import annotations

import contextlib

from minipaddle import ops
from minipaddle.core.autograd import sum_gradients
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE
from minipaddle.static.block_ops import block_grad
from minipaddle.static.builder import flat_inputs
from minipaddle.static.program import ROLE_BACKWARD, ROLE_FORWARD, Variable

GRAD_SUFFIX = "@GRAD"


class StaticNode:
    """What a grad rule reads, for an OpDesc: the same interface as the dynamic GradNode (inputs, output(i),
    attrs, needs_grad(i)), with Variables in place of Tensors."""

    def __init__(self, desc, block, wants) -> None:
        self.desc = desc
        self.op = get_op(desc.type)
        self.attrs = desc.attrs
        self.inputs = tuple(None if n is None else block.var(n) for n in flat_inputs(desc))
        self.outputs = tuple(block.var(n) for n in desc.outputs.get("Out", []))
        self._wants = wants

    def input(self, i: int) -> Variable:
        return self.inputs[i]

    def output(self, i: int = 0) -> Variable:
        return self.outputs[i]

    def needs_grad(self, i: int) -> bool:
        v = self.inputs[i]
        return v is not None and self._wants(v)

    @property
    def out_shapes(self) -> tuple:
        return tuple(tuple(o.shape) for o in self.outputs)


def _needs_grad_set(block, targets, no_grad: set, sources=()) -> set:
    """Names of variables whose gradient is wanted: those that depend, through differentiable ops, on a
    trainable leaf (or on one of `sources`), and that lie on a path to a target. Names in `no_grad` (the
    user's no_grad_set) are constants; setting stop_gradient on an intermediate Variable is not looked at."""
    forward = [d for d in block.ops if d.role == ROLE_FORWARD]
    produced = {n for d in forward for n in d.output_names()}
    depends = {n for n, v in _all_vars(block).items() if not v.stop_gradient and n not in produced}
    depends = (depends | {v.name for v in sources}) - no_grad
    for desc in forward:
        if _differentiable(desc) and any(n in depends for n in desc.input_names()):
            depends.update(n for n in desc.output_names() if n not in no_grad)
    reaches = {t.name for t in targets}
    for desc in reversed(forward):
        if any(n in reaches for n in desc.output_names()):
            reaches.update(n for n in desc.input_names() if n is not None)
    return depends & reaches


def _differentiable(desc) -> bool:
    return block_grad(desc.type) is not None or get_op(desc.type).differentiable


def _all_vars(block) -> dict:
    out, b = {}, block
    while b is not None:
        out = {**b.vars, **out}
        b = b.parent
    return out


@contextlib.contextmanager
def building_backward(program):
    """Ops appended inside have the backward role, and STATE.in_backward is True, as while dynamic backward runs
    the grad rules: hooks on the door (AMP's auto_cast) leave the grad rules' ops in the forward's dtypes."""
    was_in_backward = STATE.in_backward
    STATE.in_backward = True
    try:
        with program.role(ROLE_BACKWARD):
            yield
    finally:
        STATE.in_backward = was_in_backward


def backward_ops(block, targets, target_grads, no_grad: set, sources=()) -> dict:
    """Append the backward ops of `block` for `targets`; return {variable name: gradient Variable}."""
    wanted = _needs_grad_set(block, targets, no_grad, sources)
    grads: dict[str, Variable] = {t.name: g for t, g in zip(targets, target_grads)}
    with building_backward(block.program):
        for desc in reversed([d for d in block.ops if d.role == ROLE_FORWARD]):
            out_names = desc.outputs.get("Out", [])
            if not any(n in grads for n in out_names):
                continue
            grad_of_block_op = block_grad(desc.type)
            if grad_of_block_op is not None:  # cond / while: their gradients are control flow too
                arriving = {n: grads[n] for n in out_names if n in grads}
                for name, g in grad_of_block_op(desc, block, arriving, wanted, no_grad).items():
                    grads[name] = g if name not in grads else sum_gradients(grads[name], g)
                continue
            op = get_op(desc.type)
            if not op.differentiable:
                continue
            node = StaticNode(desc, block, lambda v: v.name in wanted)
            if not any(node.needs_grad(i) for i in range(len(node.inputs))):
                continue
            if op.none_for_unused_outputs:
                out_grads = [grads.get(n) for n in out_names]
            else:
                out_grads = [grads.get(n) if n in grads else ops.full_like(block.var(n), 0) for n in out_names]
            in_grads = op.grad(node, *out_grads)
            for n in set(out_names) & set(desc.input_names()):  # in place (x[i] = v): the value before the op is
                grads.pop(n, None)  # another version of the variable, whose gradient is only what this op gives it
            for v, g in zip(node.inputs, in_grads):
                if g is None or v is None or v.name not in wanted:
                    continue
                grads[v.name] = g if v.name not in grads else sum_gradients(grads[v.name], g)
    return grads


def _name_grads(block, grads: dict, names) -> dict:
    """Give each requested gradient Paddle's name, `x@GRAD` (with an assign op when the value has another name)."""
    named = {}
    with block.program.role(ROLE_BACKWARD):
        for name in names:
            g = grads.get(name)
            if g is None:
                continue
            want = name + GRAD_SUFFIX
            k = 0
            while block.has_var(want) and block.var(want) is not g:  # a gradient taken before keeps its name
                k += 1
                want = f"{name}{GRAD_SUFFIX}_{k}"
            if g.name != want:
                if _renamable(block, g, grads, name):  # the gradient's own variable takes the name: no copy
                    rename_variable(block, g.name, want)
                else:  # it is also something else (a forward value, another variable's gradient): copy it
                    out = ops.assign(g)
                    rename_variable(block, out.name, want)
                    out._selected_rows, g = g._selected_rows, block.vars[want]  # (a sparse gradient stays one)
            named[name] = g
    return named


def _renamable(block, g, grads: dict, name: str) -> bool:
    """A gradient Variable can simply be renamed when a backward op of this block made it and it is the gradient
    of `name` alone."""
    made_by_backward = any(g.name in d.output_names() for d in block.ops if d.role == ROLE_BACKWARD)
    shared = any(other is g for key, other in grads.items() if key != name)
    return g.name in block.vars and made_by_backward and not shared


def rename_variable(block, old: str, new: str) -> None:
    """Rename a variable of `block` everywhere it is written or read (sub-blocks included)."""
    v = block.vars.pop(old)
    v.name = new
    block.vars[new] = v
    for b in block.program.blocks:
        for desc in b.ops:
            for table in (desc.inputs, desc.outputs):
                for slot, names in table.items():
                    table[slot] = [new if n == old else n for n in names]
            for key, value in desc.attrs.items():
                if key.endswith("_outs") or key in ("state_grads", "ext_grads"):
                    desc.attrs[key] = [new if n == old else n for n in value]


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None, checkpoints=None,
                    distop_context=None):  # fmt: skip
    """Append the ops that compute d(loss)/d(parameter) to loss's Program.

    Args:
        loss: a 0-d (or one-element) Variable.
        parameter_list: parameters (Variables or names) to differentiate for (default: all trainable ones).
        no_grad_set: variables (or names) to treat as constants.

    Returns:
        A list of (parameter, gradient Variable) pairs; each gradient is named `<parameter>@GRAD`.
    """
    if not isinstance(loss, Variable):
        raise TypeError(f"append_backward: loss must be a static Variable, got {type(loss).__name__}")
    block = loss.block
    if parameter_list is None:
        params = [v for v in block.program.all_parameters() if v.trainable]
    else:
        params = [block.var(p) if isinstance(p, str) else p for p in parameter_list]
    no_grad = {v if isinstance(v, str) else v.name for v in (no_grad_set or ())}
    with building_backward(block.program):
        seed = ops.full_like(loss, 1.0)
        grads = backward_ops(block, [loss], [seed], no_grad)
        named = _name_grads(block, grads, [p.name for p in params])
    return [(p, named[p.name]) for p in params if p.name in named]


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """Append backward ops and return the gradients of `targets` with respect to `inputs` (None where unused)."""
    targets = [targets] if isinstance(targets, Variable) else list(targets)
    inputs = [inputs] if isinstance(inputs, Variable) else list(inputs)
    block = targets[0].block
    if target_gradients is None:
        with building_backward(block.program):
            target_gradients = [ops.full_like(t, 1.0) for t in targets]
    else:
        target_gradients = [target_gradients] if isinstance(target_gradients, Variable) else list(target_gradients)
    no_grad = {v if isinstance(v, str) else v.name for v in (no_grad_set or ())}
    # paddle.static.gradients also differentiates for inputs marked stop_gradient (e.g. data variables)
    with building_backward(block.program):
        grads = backward_ops(block, targets, target_gradients, no_grad, sources=inputs)
        named = _name_grads(block, grads, [v.name for v in inputs])
    return [named.get(v.name) for v in inputs]
