"""paddle.device.cuda.graphs: CUDA Graphs (capture a GPU step once, replay it), as paddle 2.6's CPU build answers.

There is no GPU here, so is_cuda_graph_supported() is False and whatever would capture or replay a graph raises
paddle's own AssertionError with paddle's message (code written for paddle catches that). What paddle 2.6 can do
without CUDA, this does too: wrap_cuda_graph in dynamic mode is to_static with the capture mode and memory pool
noted on the forward function (paddle's CPU build then runs it as a plain to_static function), and
cuda_graph_transform of a Program with no CUDA-graph sections returns [] (no op can be marked without CUDA).
"""

from __future__ import annotations

from minipaddle.core.state import in_dynamic_mode
from minipaddle.jit import to_static
from minipaddle.nn import Layer
from minipaddle.static import Program

__all__ = ["CUDAGraph", "wrap_cuda_graph", "is_cuda_graph_supported", "cuda_graph_transform"]

ALL_MODES = ["global", "thread_local", "relaxed"]
_NO_CUDA = "CUDA Graph is only supported on PaddlePaddle compiled with NVIDIA GPU."
_NO_CUDA_GUARD = "cuda_graph_guard context can be only used when Paddle is compiled with cuda"


class ModeError(ValueError, AssertionError):
    """A capture mode that is none of ALL_MODES: a ValueError naming the choices; also an AssertionError,
    which is what paddle 2.6 raises (a bare assert), so code catching that still catches it."""


def is_cuda_graph_supported() -> bool:
    """Whether CUDA Graphs can be captured: never, as paddle 2.6 compiled without CUDA answers."""
    return False


def _check_mode(api: str, mode) -> None:
    if mode not in ALL_MODES:
        raise ModeError(f"{api}: mode must be one of {ALL_MODES}, got {mode!r}")


class CUDAGraph:
    """A captured CUDA graph. Making one needs CUDA: paddle 2.6's CPU build raises AssertionError, and so does this
    (whatever the place and mode, as paddle checks CUDA first)."""

    def __init__(self, place=None, mode: str = "thread_local") -> None:
        raise AssertionError(_NO_CUDA)


def _needs_cuda_in_static_mode(*args, **kwargs):
    # paddle's static-mode wrapper enters its cuda_graph_guard when the function is called, which asserts CUDA
    raise AssertionError(_NO_CUDA_GUARD)


def wrap_cuda_graph(function, mode: str = "thread_local", memory_pool="default"):
    """Mark `function` (a function or a Layer) to be captured as a CUDA graph, as paddle 2.6 does.

    Dynamic mode: returns to_static(function) with `_cuda_graph_capture_mode` and `_cuda_graph_pool_id`
    set on its forward function (memory_pool "default" is pool 0; another wrapped function or Layer shares that
    one's pool). Without CUDA it runs as the to_static function, as in paddle's CPU build. memory_pool="new" asks
    CUDA for a new pool: AssertionError here (paddle's CPU build fails there with an AttributeError of its own).
    Static mode: calling the returned function raises paddle's AssertionError (its guard needs CUDA).
    """
    _check_mode("paddle.device.cuda.graphs.wrap_cuda_graph", mode)
    if not callable(function):
        raise TypeError(f"paddle.device.cuda.graphs.wrap_cuda_graph: function must be callable, got {function!r}")
    if memory_pool == "new":
        raise AssertionError(_NO_CUDA)
    if not in_dynamic_mode():
        if memory_pool != "default":
            raise ValueError(
                "paddle.device.cuda.graphs.wrap_cuda_graph: memory_pool should be one of default or new under "
                f"static graph mode, but got {memory_pool!r}"
            )
        return _needs_cuda_in_static_mode
    if memory_pool == "default":
        pool_id = 0
    else:
        shared = memory_pool.forward if isinstance(memory_pool, Layer) else memory_pool
        if not hasattr(shared, "_cuda_graph_pool_id"):
            raise TypeError(
                "paddle.device.cuda.graphs.wrap_cuda_graph: memory_pool must be 'default', 'new' or a function or "
                f"Layer returned by wrap_cuda_graph, got {memory_pool!r}"
            )
        pool_id = shared._cuda_graph_pool_id
    new_function = to_static(function)
    marked = new_function.forward if isinstance(function, Layer) else new_function
    marked._cuda_graph_capture_mode = mode
    marked._cuda_graph_pool_id = pool_id
    return new_function


def cuda_graph_transform(program):
    """Cut a static Program's CUDA-graph sections into their own Programs, as paddle 2.6 does before running it:
    returns the list of section Programs. A section is ops built under wrap_cuda_graph in static mode, which needs
    CUDA, so every Program here has none and the answer is [] (as paddle's CPU build answers for any Program)."""
    if not isinstance(program, Program):
        raise TypeError(
            f"paddle.device.cuda.graphs.cuda_graph_transform: program must be a paddle.static.Program, got "
            f"{type(program).__name__}"
        )
    return []
