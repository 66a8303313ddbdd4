"""fleet.utils.recompute: activation checkpointing (trade compute for the memory of saved activations)."""

from __future__ import annotations

import itertools
import weakref

from minipaddle.core import state
from minipaddle.core.dispatch import apply
from minipaddle.core.tensor import Tensor
from minipaddle.nn import Layer
from minipaddle.ops.recompute_ops import SEGMENTS, Recompute

__all__ = ["recompute"]

_IDS = itertools.count(1)


def recompute(function, *args, **kwargs):
    """Run `function(*args)` without keeping its intermediate activations; backward runs it again to get them.

    The gradients are the same as without recompute; the memory the graph holds for the segment drops to its
    inputs. Works in one process and inside DataParallel's ranks alike.

    Args:
        function (callable): the segment, e.g. a Layer or a function of Tensors (its Tensor arguments are the
            checkpoint; parameters it uses get their gradients in backward).
        *args: its arguments. Tensors among them are inputs of the segment; other values are passed as they are.
        preserve_rng_state (bool, keyword): re-run with the same random state (dropout draws the same mask).
            Default True.
        use_reentrant (bool, keyword): accepted for Paddle's signature.
        **kwargs: other keyword arguments go to `function`.

    Returns:
        What `function` returns (a Tensor or a tuple of Tensors).

    Example:
        >>> from paddle.distributed.fleet.utils import recompute
        >>> y = recompute(block, x)      # block: an nn.Layer
        >>> y.mean().backward()
    """
    if not callable(function):
        raise TypeError(f"recompute: function must be callable, got {type(function).__name__}")
    preserve = kwargs.pop("preserve_rng_state", True)
    kwargs.pop("use_reentrant", None)
    if state.STATE.static_mode:
        raise RuntimeError("recompute: dygraph only here (static graphs use DistributedStrategy.recompute in Paddle)")
    if not state.STATE.grad_enabled:
        return function(*args, **kwargs)
    tensors = [a for a in args if isinstance(a, Tensor)]
    slots = [isinstance(a, Tensor) for a in args]
    constants = [a for a in args if not isinstance(a, Tensor)]

    def segment(*ts, **kw):  # the function of the Tensor arguments only
        it_t, it_c = iter(ts), iter(constants)
        return function(*[next(it_t) if s else next(it_c) for s in slots], **kw)

    seg = next(_IDS)
    SEGMENTS[seg] = (segment, kwargs, state.get_rng_state() if preserve else None)
    params = []
    if isinstance(function, Layer):  # its parameters are the op's inputs too (so they get gradients even when
        # no argument needs one, unlike Paddle, where such a block's parameters silently get none)
        params = [p for p in function.parameters() if not p.stop_gradient]
    result = apply(Recompute, (*tensors, *params), {"segment": seg, "n_args": len(tensors)})
    results = result if isinstance(result, tuple) else (result,)
    node = results[0]._node
    if node is None:
        SEGMENTS.pop(seg, None)
    else:  # the function is kept as long as the graph that may run it again
        weakref.finalize(node, SEGMENTS.pop, seg, None)
    return result
