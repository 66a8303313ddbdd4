"""The recompute op: a segment of the forward whose activations are not kept, but computed again in backward.

`fleet.utils.recompute(function, *args)` runs `function` through this op. The kernel runs the segment without
recording a graph, so none of its intermediate values are saved: only the op's inputs (the checkpoint). The grad
rule runs the segment again with recording on (from the same random state, so dropout draws the same mask) and
backpropagates through that fresh graph, so the parameters inside get their gradients there (their hooks run as
in any backward: DataParallel averages them). When the segment is a Layer its parameters are also inputs of the
op, so that the op is recorded even when no argument needs a gradient. The segment's function lives in SEGMENTS
(the op's attrs hold only its id), as py_func's functions do, so a Program never holds a Python callable.
"""

from __future__ import annotations

from minipaddle.core import state
from minipaddle.core.autograd import run_backward
from minipaddle.core.op import OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["SEGMENTS"]

SEGMENTS: dict[int, tuple] = {}  # segment id -> (function(*Tensors) -> Tensor or tuple, kwargs, rng state or None)


@register
class Recompute(OpDef):
    name = "recompute"
    saves_inputs = True  # the checkpoint: the segment's inputs, and nothing inside it

    def kernel(self, *xs, segment=0, n_args=0):
        function, kwargs, _ = SEGMENTS[segment]
        with state.no_grad():  # inputs after the first n_args are the segment's own parameters: used as they are
            out = function(*[Tensor(x) for x in xs[:n_args]], **kwargs)
        if isinstance(out, (tuple, list)):
            return tuple(o._data for o in out)
        return out._data

    def grad(self, node, *gs):
        function, kwargs, rng_state = SEGMENTS[node.attrs["segment"]]
        n_args = node.attrs["n_args"]
        args = [Tensor(x._data, stop_gradient=x.stop_gradient) for x in node.inputs[:n_args]]
        params = list(node.inputs[n_args:])
        saved_rng = state.get_rng_state()
        if rng_state is not None:
            state.set_rng_state(rng_state)  # the same random draws as the first forward
        try:
            with state.enable_grad():
                outs = function(*args, **kwargs)
        finally:
            if rng_state is not None:
                state.set_rng_state(saved_rng)
        outs = tuple(outs) if isinstance(outs, (tuple, list)) else (outs,)
        pairs = [(o, g) for o, g in zip(outs, gs) if g is not None and not o.stop_gradient]
        if pairs:  # the parameters inside get their .grad here (their hooks run as in any backward)
            run_backward([o for o, _ in pairs], [g for _, g in pairs])
        arg_grads = tuple(None if a.stop_gradient else a.grad for a in args)
        return arg_grads + (None,) * len(params)  # the parameters have theirs already
