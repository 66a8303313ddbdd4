"""Backward: walk the GradNodes from the outputs back to the leaves, applying each op's grad rule.

The walk is iterative (no recursion limit on deep graphs):
1. `topological_order` lists the nodes reachable from the roots, each before the nodes that made its inputs.
2. Gradients flow in that order. A node runs once all its consumers have given it their gradients, because
   every consumer comes earlier in the order. Gradients arriving at the same output are summed.
3. Gradients reaching a leaf are summed and then added into `leaf.grad` (Paddle accumulates until clear_grad),
   or, for `paddle.grad`, handed back instead. A leaf is finished as soon as the last node with an edge to it
   has run (its gradient is final then), not at the end of the walk: its `register_hook` hooks run, its gradient
   is accumulated, and then its `_register_backward_hook` hooks are called, the "leaf gradient ready" point
   where DataParallel starts a bucket's all-reduce while backward goes on (as Paddle's GradNodeAccumulation).

Grad rules are written with minipaddle ops. Outside `create_graph` they run under no_grad, so they are plain
computation; with `create_graph=True` they are recorded like any forward op, which gives double backward.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

from minipaddle.core import state
from minipaddle.core.dispatch import apply
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.node import GradNode
from minipaddle.core.op import OPS
from minipaddle.core.plus_zero import write_plus_zero
from minipaddle.core.tensor import Tensor

# The two ops backward itself needs: summing gradients and casting one to its leaf's dtype. They are defined in
# ops/, a floor above the core, so the core reaches them through the registry by name (core/op.py) rather than by
# importing upward; ops/ registers both before any backward can run.
_ADD, _CAST, _OR = "add", "cast", "logical_or"


def topological_order(roots) -> list[GradNode]:
    """Nodes reachable from `roots` (GradNodes), consumers before producers. Iterative depth-first search."""
    order: list[GradNode] = []
    seen: set[int] = set()
    for root in roots:
        if id(root) in seen:
            continue
        seen.add(id(root))
        stack = [(root, iter(root.edges))]
        while stack:
            node, edges = stack[-1]
            for edge in edges:
                child = None if edge is None else edge[0]
                if type(child) is GradNode and id(child) not in seen:
                    seen.add(id(child))
                    stack.append((child, iter(child.edges)))
                    break
            else:  # all inputs done: a post-order position
                stack.pop()
                order.append(node)
    order.reverse()
    return order


def run_backward(
    roots, root_grads, retain_graph: bool = False, create_graph: bool = False, capture=None
) -> dict | None:
    """The engine behind `Tensor.backward` and `paddle.grad`.

    `roots`: output Tensors; `root_grads`: their gradients (Tensors). With `capture` (a list of Tensors) the
    gradients reaching those tensors are returned as {id(tensor): grad} and no `.grad` is touched.
    """
    grads: dict[int, list] = {}  # id(node) -> [gradient of each output, summed so far]
    leaf_grads: dict[int, list] = {}  # id(leaf) -> [leaf, summed gradient]
    captured = None if capture is None else {}
    watch = {}  # (id(node), output index) -> id(tensor), for non-leaf tensors asked for by paddle.grad
    if capture is not None:
        for t in capture:
            if t._node is not None:
                watch[(id(t._node), t._out_index)] = id(t)

    root_nodes = []
    # (roots[0] first: in the common case it wants a gradient and nothing more is looked at, on every backward)
    if capture is None and roots and roots[0].stop_gradient and all(t.stop_gradient for t in roots):
        # paddle 2.6 does nothing here (a loss computed under no_grad, or from inputs that all stop gradients), so
        # code written for it runs; a warning says why no .grad appears
        warnings.warn(
            f"backward: tensor {roots[0].name} has stop_gradient=True, so no gradient flows from it; set "
            "stop_gradient=False on the inputs you want gradients for",
            UserWarning,
            stacklevel=3,
        )
    for t, g in zip(roots, root_grads):
        if t.stop_gradient:  # no gradient flows from it (paddle.grad gives None for what only it reaches)
            continue
        if t._node is None:  # backward from a leaf: its gradient is the seed itself
            _add_leaf_grad(leaf_grads, t, g)
            continue
        slots = grads.setdefault(id(t._node), [None] * len(t._node.out_shapes))
        slots[t._out_index] = g if slots[t._out_index] is None else sum_gradients(slots[t._out_index], g)
        root_nodes.append(t._node)

    thread = state.PER_THREAD.__dict__["state"]  # this thread's state, looked up once (see dispatch.apply)
    was_enabled, was_in_backward = thread.grad_enabled, thread.in_backward
    thread.grad_enabled = create_graph  # grad rules are recorded only when a graph of the gradient is wanted
    thread.in_backward = True  # hooks on the door (AMP) tell grad-rule ops from forward ops by this
    try:
        order = topological_order(root_nodes)
        # Once some leaf in the process has a "gradient ready" hook (DataParallel), each leaf is finished as soon as
        # the last node with an edge to it has run; otherwise all of them at the end (the same .grad, less work).
        early = _READY_HOOKS.used
        pending, leaves_of = _leaf_edges(order) if early else (None, None)
        for node in order:
            out_grads = grads.pop(id(node), None)
            if out_grads is None:  # no gradient reached this node (e.g. only through stop_gradient paths)
                if early and node in leaves_of:
                    _finish_leaves(leaves_of[node], pending, leaf_grads, captured, create_graph)
                continue
            if node.released:
                raise RuntimeError(
                    f"backward: trying to run backward through op '{node.op.name}' a second time, but its saved "
                    "values were freed after the first backward. Pass retain_graph=True to the first backward "
                    "if you need to run it again."
                )
            if len(out_grads) > 1 and not node.op.none_for_unused_outputs:
                out_grads = _fill_missing(node, out_grads)
            if node.out_hooks or watch:
                out_grads = _node_hooks(node, out_grads, watch, captured)
            if node.input_versions is not None or node.out_versions is not None:
                _check_versions(node)

            if node.packed is None:
                in_grads = node.op.grad(node, *out_grads)
            else:  # saved_tensors_hooks: the grad rule reads what unpack_hook gives back
                in_grads = node.packed.run_grad(node, out_grads)

            for i, edge in enumerate(node.edges):  # the inputs' histories as they were when the op ran
                g = in_grads[i]
                if g is None or edge is None:
                    continue
                producer, k = edge
                if type(producer) is not GradNode:  # a leaf: collect, accumulate into .grad at the end
                    if g._data.shape != producer._data.shape:
                        _raise_bad_shape(node, i, g, producer._data.shape)
                    _add_leaf_grad(leaf_grads, producer, g)
                    continue
                if g._data.shape != producer.out_shapes[k]:
                    _raise_bad_shape(node, i, g, producer.out_shapes[k])
                slots = grads.get(id(producer))
                if slots is None:
                    slots = grads[id(producer)] = [None] * len(producer.out_shapes)
                slots[k] = g if slots[k] is None else sum_gradients(slots[k], g)
            if not retain_graph:
                node.release()
            if early and node in leaves_of:
                _finish_leaves(leaves_of[node], pending, leaf_grads, captured, create_graph)

        for leaf, g in leaf_grads.values():  # the leaves not finished early (all of them without ready hooks)
            _finish_leaf(leaf, g, captured, create_graph)
    finally:
        thread.grad_enabled = was_enabled
        thread.in_backward = was_in_backward
    return captured


class _ReadyHooks:
    """Whether any leaf of this process was ever given a "gradient ready" hook (Tensor._register_backward_hook)."""

    used = False


_READY_HOOKS = _ReadyHooks()


def leaf_ready_hooks_used() -> None:
    """Called when a leaf gets its first ready hook: from then on backward finishes leaves early (see run_backward)."""
    _READY_HOOKS.used = True


def _leaf_edges(order: list) -> tuple[dict, dict]:
    """{id(leaf): how many edges of the nodes in `order` lead to it}, and {node: [id(leaf) of each of its edges
    to a leaf]} for the nodes that have such edges (GradNodes hash by identity)."""
    pending: dict[int, int] = {}
    leaves_of: dict[GradNode, list] = {}
    for node in order:
        for edge in node.edges:
            if edge is not None and type(edge[0]) is not GradNode:
                key = id(edge[0])
                pending[key] = pending[key] + 1 if key in pending else 1
                if node in leaves_of:
                    leaves_of[node].append(key)
                else:
                    leaves_of[node] = [key]
    return pending, leaves_of


def _finish_leaves(keys: list, pending: dict, leaf_grads: dict, captured, create_graph: bool) -> None:
    """A node with edges to the leaves `keys` has run (or was skipped): each leaf whose last edge that was is
    final now."""
    for key in keys:
        pending[key] -= 1
        if pending[key] == 0 and key in leaf_grads:
            leaf, g = leaf_grads.pop(key)  # (so the end of the walk does not finish it again)
            _finish_leaf(leaf, g, captured, create_graph)


def _finish_leaf(leaf: Tensor, g: Tensor, captured, create_graph: bool) -> None:
    """The leaf's gradient for this pass is final: hooks, then accumulate (or capture), then the ready hooks."""
    if leaf._hooks:
        g = _call_hooks(leaf._hooks, g)
    if captured is not None:
        captured[id(leaf)] = g
        return
    _accumulate(leaf, g, create_graph)
    if leaf._backward_hooks:
        for hook in list(leaf._backward_hooks.values()):
            hook()


def _raise_bad_shape(node: GradNode, i: int, g: Tensor, shape: tuple) -> None:
    raise RuntimeError(
        f"backward: the grad rule of op '{node.op.name}' returned a gradient of shape {list(g._data.shape)} "
        f"for input {i}, whose shape is {list(shape)}"
    )


def _add_leaf_grad(leaf_grads: dict, leaf: Tensor, g: Tensor) -> None:
    entry = leaf_grads.get(id(leaf))
    if entry is None:
        leaf_grads[id(leaf)] = [leaf, g]
    else:
        entry[1] = sum_gradients(entry[1], g)


def sum_gradients(a: Tensor, b: Tensor) -> Tensor:
    """a + b for two gradients of one tensor: a sparse gradient (Paddle's SelectedRows, marked with the rows it
    holds: ops/nn_common.py) added to another stays sparse, holding the rows of both; added to a dense one it is
    dense. (Static append_backward sums with it too.)"""
    out = apply(OPS[_ADD], (a, b))
    if a._selected_rows is not None and b._selected_rows is not None:
        out._selected_rows = _merged_rows(a, b)
    return out


def _merged_rows(a: Tensor, b: Tensor) -> Tensor:
    return apply(OPS[_OR], (a._selected_rows, b._selected_rows))


def _fill_missing(node: GradNode, out_grads: list) -> list:
    """Outputs that received no gradient (unused outputs of a multi-output op) get zeros."""
    if all(g is not None for g in out_grads):
        return out_grads
    return [
        g if g is not None else Tensor(np.zeros(shape, dtype))
        for g, shape, dtype in zip(out_grads, node.out_shapes, node.out_dtypes)
    ]


def _node_hooks(node: GradNode, out_grads: list, watch: dict, captured: dict | None) -> list:
    """Run Tensor.register_hook hooks of non-leaf outputs, and capture gradients paddle.grad asked for."""
    out_grads = list(out_grads)
    for k, g in enumerate(out_grads):
        if node.out_hooks and k in node.out_hooks:
            out_grads[k] = g = _call_hooks(node.out_hooks[k], g)
        key = (id(node), k)
        if captured is not None and key in watch:
            captured[watch[key]] = g
    return out_grads


def _call_hooks(hooks, g: Tensor) -> Tensor:
    for hook in list(hooks.values()):
        result = hook(g)
        if result is not None:
            if not isinstance(result, Tensor):
                raise TypeError(f"a gradient hook must return a Tensor or None, got {type(result).__name__}")
            g = result
    return g


def _check_versions(node: GradNode) -> None:
    """Refuse to compute a gradient from a saved tensor that was changed in place since the op used it."""
    if node.input_versions is not None:
        for i, t in enumerate(node.inputs):
            if t is not None and t._version[0] != node.input_versions[i]:
                _raise_modified(node, f"input {i} ({_describe(t)})", node.input_versions[i], t._version[0])
    if node.out_versions is not None:
        for i, (counter, v) in enumerate(node.out_versions):
            if counter[0] != v:
                _raise_modified(node, f"output {i} (shape {list(node.out_shapes[i])})", v, counter[0])


def _describe(t: Tensor) -> str:
    name = t._name if t._name is not None else "unnamed"
    return f"tensor {name} of shape {t.shape}, dtype {t.dtype.name}"


def _raise_modified(node: GradNode, what: str, saved: int, now: int) -> None:
    where = f" (in Layer {node.scope})" if node.scope else ""
    raise RuntimeError(
        f"backward: op '{node.op.name}'{where} needs its {what}, but that tensor was modified by an in-place "
        f"operation after the op used it (its version was {saved}, now {now}). Use the out-of-place form "
        "(e.g. y = y.exp() instead of y.exp_()) or clone the tensor before changing it."
    )


def _accumulate(leaf: Tensor, g: Tensor, create_graph: bool) -> None:
    """Add `g` into `leaf.grad` (Paddle accumulates gradients until clear_grad)."""
    if g._data.dtype != leaf._data.dtype:
        g = apply(OPS[_CAST], (g,), {"dtype": leaf._data.dtype})
    if leaf._grad is None:
        # Own a copy: a grad rule may pass one gradient Tensor to several inputs (add), and later in-place
        # accumulation into one leaf's grad must not show up in another's.
        leaf._grad = g if create_graph else Tensor(g._data.copy(), stop_gradient=False)  # as Paddle prints it
        if g._selected_rows is not None:  # a sparse gradient stays one (clear_grad drops it, as Paddle)
            leaf._grad._selected_rows = g._selected_rows
    elif leaf._grad_cleared:
        if create_graph or state.PER_THREAD.__dict__["state"].dynamic_hooks:  # the add goes through the door
            leaf.write_cleared_grad()
            _accumulate(leaf, g, create_graph)
            return
        # clear_grad's zeros were never written and no one has seen them: write 0 + g (g + 0 gives the same bits,
        # -0.0 made 0.0 as the add of zeros would) into the storage, without reading zeros back
        leaf._grad_cleared = False
        data = g._data
        # (refcount 3: data, g._data and the call's argument; no hooks: one could have kept g, and with it the array)
        if g._no_negative_zero and data.base is None and sys.getrefcount(data) == 3 and not leaf._hooks:
            leaf._grad._data = data  # 0 + g is g's own bits, and no one else holds its array: it becomes the storage
        else:
            write_plus_zero(data, leaf._grad._data)  # (float16/bfloat16 on their 16-bit codes)
        leaf._grad._bump_version()
        if g._selected_rows is not None:  # zeros and a sparse gradient: the sparse one (Paddle's add)
            leaf._grad._selected_rows = g._selected_rows
    elif create_graph:
        leaf._grad = sum_gradients(leaf._grad, g)
    else:
        apply_inplace(OPS[_ADD], leaf._grad, (leaf._grad, g))
        if leaf._grad._selected_rows is not None:  # sparse + sparse holds both's rows; sparse + dense is dense
            leaf._grad._selected_rows = None if g._selected_rows is None else _merged_rows(leaf._grad, g)


def backward(tensors, grad_tensors=None, retain_graph: bool = False) -> None:
    """Compute gradients of `tensors` and accumulate them into the leaves' `.grad` (`paddle.autograd.backward`)."""
    tensors = _as_list(tensors, "backward", "tensors")
    grad_tensors = _seed_grads(tensors, grad_tensors, "backward")
    run_backward(tensors, grad_tensors, retain_graph=retain_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, no_grad_vars=None):  # fmt: skip
    """Return the gradients of `outputs` with respect to `inputs`, without touching any `.grad`.

    Args:
        outputs: a Tensor or list of Tensors to differentiate.
        inputs: a Tensor or list of Tensors to differentiate with respect to.
        grad_outputs: gradients of `outputs` (default: ones).
        retain_graph: keep the graph for another backward (default: same as create_graph).
        create_graph: record the gradient computation itself, for higher-order gradients.
        allow_unused: return None for an input that `outputs` do not depend on, instead of raising.

    Example:
        >>> x = paddle.to_tensor(2.0, stop_gradient=False)
        >>> (dx,) = paddle.grad(x ** 3, x, create_graph=True)   # 3x^2 = 12
        >>> (ddx,) = paddle.grad(dx, x)                         # 6x = 12
    """
    outputs = _as_list(outputs, "grad", "outputs")
    inputs = _as_list(inputs, "grad", "inputs")
    grad_outputs = _seed_grads(outputs, grad_outputs, "grad")
    if retain_graph is None:
        retain_graph = create_graph
    stopped = []
    if no_grad_vars is not None:  # treat these as constants for this call only
        stopped = [t for t in _as_list(no_grad_vars, "grad", "no_grad_vars") if not t.stop_gradient]
        for t in stopped:
            t.stop_gradient = True
    try:
        captured = run_backward(outputs, grad_outputs, retain_graph, create_graph, capture=inputs)
    finally:
        for t in stopped:
            t.stop_gradient = False
    result = []
    for i, t in enumerate(inputs):
        g = captured.get(id(t))
        if g is None and not allow_unused:
            raise RuntimeError(
                f"grad: input {i} ({_describe(t)}) is not used to compute the outputs, so it has no gradient; "
                "pass allow_unused=True to get None for it"
            )
        if g is not None and not create_graph:
            g = Tensor(g._data)  # a plain value, cut from any graph
        result.append(g)
    return result


def _as_list(x, fn: str, arg: str) -> list:
    if isinstance(x, Tensor):
        return [x]
    if isinstance(x, (list, tuple)) and all(isinstance(t, Tensor) for t in x):
        return list(x)
    raise TypeError(f"{fn}: {arg} must be a Tensor or a list of Tensors, got {type(x).__name__}")


def _seed_grads(outputs: list, grads, fn: str) -> list:
    """The starting gradients: ones by default (Paddle fills ones for any shape), else the given Tensors."""
    if grads is None:
        grads = [None] * len(outputs)
    elif isinstance(grads, Tensor):
        grads = [grads]
    if len(grads) != len(outputs):
        raise ValueError(f"{fn}: got {len(outputs)} outputs but {len(grads)} output gradients")
    seeds = []
    for t, g in zip(outputs, grads):
        if g is None:
            g = Tensor(np.ones_like(t._data))
        elif not isinstance(g, Tensor):
            raise TypeError(f"{fn}: an output gradient must be a Tensor or None, got {type(g).__name__}")
        elif list(g.shape) != t.shape:
            raise ValueError(f"{fn}: output gradient has shape {g.shape} but the output has shape {t.shape}")
        seeds.append(g)
    return seeds
