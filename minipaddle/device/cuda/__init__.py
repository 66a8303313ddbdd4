"""paddle.device.cuda: NVIDIA GPUs, as Paddle 2.6's CPU-only build answers. There are none: device_count() is 0,
empty_cache() does nothing, and everything that needs a GPU raises (ValueError for the memory and property
questions, RuntimeError for streams, events and synchronize, as Paddle does)."""

from __future__ import annotations

__all__ = [
    "Stream",
    "Event",
    "current_stream",
    "synchronize",
    "device_count",
    "empty_cache",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "stream_guard",
    "get_device_properties",
    "get_device_name",
    "get_device_capability",
]

_NO_CUDA = "minipaddle runs on numpy on the CPU only and is not compiled with CUDA, so it cannot {what}."


def _unsupported(api: str) -> ValueError:
    return ValueError(f"paddle.device.cuda.{api}: {_NO_CUDA.format(what='answer questions about GPU memory or GPUs')}")


class Stream:
    """A CUDA stream: needs a GPU, so making one raises a RuntimeError."""

    def __init__(self, device=None, priority: int = 2) -> None:
        raise RuntimeError("paddle.device.cuda.Stream: " + _NO_CUDA.format(what="make a CUDA stream"))


class Event:
    """A CUDA event: needs a GPU, so making one raises a RuntimeError."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False) -> None:
        raise RuntimeError("paddle.device.cuda.Event: " + _NO_CUDA.format(what="make a CUDA event"))


def current_stream(device=None):
    """The current CUDA stream: needs a GPU, a RuntimeError here."""
    raise RuntimeError("paddle.device.cuda.current_stream: " + _NO_CUDA.format(what="visit a CUDA stream"))


def synchronize(device=None) -> None:
    """Wait for the GPU's work: needs a GPU, a RuntimeError here."""
    raise RuntimeError("paddle.device.cuda.synchronize: " + _NO_CUDA.format(what="synchronize a GPU"))


def device_count() -> int:
    """The number of GPUs: 0."""
    return 0


def empty_cache() -> None:
    """Free the GPU memory cache: there is none, so this does nothing (as in Paddle's CPU build)."""
    return None


def max_memory_allocated(device=None) -> int:
    """Peak GPU memory held by tensors: needs a GPU, a ValueError here."""
    raise _unsupported("max_memory_allocated")


def max_memory_reserved(device=None) -> int:
    """Peak GPU memory held by the allocator: needs a GPU, a ValueError here."""
    raise _unsupported("max_memory_reserved")


def memory_allocated(device=None) -> int:
    """GPU memory held by tensors now: needs a GPU, a ValueError here."""
    raise _unsupported("memory_allocated")


def memory_reserved(device=None) -> int:
    """GPU memory held by the allocator now: needs a GPU, a ValueError here."""
    raise _unsupported("memory_reserved")


def get_device_properties(device=None):
    """A GPU's name, memory and compute capability: needs a GPU, a ValueError here."""
    raise _unsupported("get_device_properties")


def get_device_name(device=None) -> str:
    """A GPU's name: needs a GPU, a ValueError here."""
    raise _unsupported("get_device_name")


def get_device_capability(device=None) -> tuple:
    """A GPU's compute capability (major, minor): needs a GPU, a ValueError here."""
    raise _unsupported("get_device_capability")


class stream_guard:  # noqa: N801 (Paddle's name)
    """`with paddle.device.cuda.stream_guard(stream):` (deprecated since Paddle 2.5 for
    paddle.device.stream_guard). Entering it asks for the current CUDA stream, so here it raises a RuntimeError."""

    def __init__(self, stream) -> None:
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError(
                f"paddle.device.cuda.stream_guard: stream should be a paddle.device.cuda.Stream, "
                f"got {type(stream).__name__}"
            )
        self.stream = stream

    def __enter__(self) -> None:
        current_stream()

    def __exit__(self, *exc) -> None:
        return None
