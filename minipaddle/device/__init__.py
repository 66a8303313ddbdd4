"""paddle.device: which device computes. minipaddle computes with numpy on the CPU, so 'cpu' is the only device.

Every function answers as PaddlePaddle 2.6's CPU-only build does: the `is_compiled_with_*` checks say False, the
device lists are empty, and whatever needs a GPU, XPU or IPU (streams, events, computing on their places) raises a
clear error instead of a C++ crash. The places themselves (core/place.py) can be made, so code that picks one runs.
`paddle.set_device`, `paddle.get_device` and the `paddle.is_compiled_with_*` names at the top level are these.
"""

from __future__ import annotations

import re

from minipaddle.core.place import (
    CPUPlace,
    CUDAPinnedPlace,  # noqa: F401  (paddle.CUDAPinnedPlace is read from here)
    CUDAPlace,  # noqa: F401
    CustomPlace,  # noqa: F401
    IPUPlace,
    Place,
    XPUPlace,
)
from minipaddle.device import cuda, xpu

__all__ = [
    "get_cudnn_version",
    "set_device",
    "get_device",
    "XPUPlace",
    "IPUPlace",
    "is_compiled_with_xpu",
    "is_compiled_with_ipu",
    "is_compiled_with_cinn",
    "is_compiled_with_cuda",
    "is_compiled_with_rocm",
    "is_compiled_with_distribute",
    "is_compiled_with_custom_device",
    "get_all_device_type",
    "get_all_custom_device_type",
    "get_available_device",
    "get_available_custom_device",
    "Stream",
    "Event",
    "current_stream",
    "set_stream",
    "stream_guard",
    "synchronize",
]

CPU_ONLY = "minipaddle runs on numpy on the CPU only, so there is no {what}. Use paddle.set_device('cpu')."

# set_device's device names that name a real accelerator kind, with the build flag Paddle names in its message.
_ACCELERATORS = {"gpu": "CUDA", "xpu": "XPU", "ipu": "IPU"}


def set_device(device: str) -> Place:
    """Choose the device that computes from now on and return its Place.

    Args:
        device (str): 'cpu' (any case). Paddle also knows 'gpu', 'gpu:x', 'xpu', 'xpu:x' and 'ipu', which
            need a build with that accelerator: minipaddle, like Paddle's CPU build, raises a ValueError for them.

    Returns:
        Place: CPUPlace().

    Example:
        >>> paddle.device.set_device("cpu")
        Place(cpu)
    """
    if not isinstance(device, str):
        raise TypeError(f"set_device: device must be a string such as 'cpu', got {type(device).__name__}")
    name = device.lower()
    if name == "cpu":
        return CPUPlace()
    kind = name if name in _ACCELERATORS else (name[:3] if re.fullmatch(r"(gpu|xpu):\d+", name) else None)
    if kind is not None:
        raise ValueError(
            f"set_device: the device should not be {device!r}, since minipaddle is not compiled with "
            f"{_ACCELERATORS[kind]}. " + CPU_ONLY.format(what=f"{kind.upper()} device")
        )
    raise ValueError(
        f"set_device: the device must be a string like 'cpu', 'gpu', 'gpu:x', 'xpu', 'xpu:x', 'npu', 'npu:x'; "
        f"got {device!r}"
    )


def get_device() -> str:
    """The device that computes, as set_device names it: always 'cpu' here."""
    return "cpu"


def get_cudnn_version() -> None:
    """The cuDNN version as an int (such as 7600), or None when there is no cuDNN: always None here."""
    return None


def is_compiled_with_cuda() -> bool:
    """Whether this build can compute on NVIDIA GPUs: False."""
    return False


def is_compiled_with_rocm() -> bool:
    """Whether this build can compute on AMD GPUs (ROCm): False."""
    return False


def is_compiled_with_xpu() -> bool:
    """Whether this build can compute on Baidu Kunlun XPUs: False."""
    return False


def is_compiled_with_ipu() -> bool:
    """Whether this build can compute on Graphcore IPUs: False."""
    return False


def is_compiled_with_cinn() -> bool:
    """Whether this build has the CINN compiler: False."""
    return False


def is_compiled_with_distribute() -> bool:
    """Whether this build has distributed training: True, as Paddle's CPU wheel (paddle.distributed runs on MPI,
    with the `distributed` extra installed)."""
    return True


def is_compiled_with_custom_device(device_type: str) -> bool:
    """Whether a plug-in device kind (such as 'npu') is registered: no plug-in devices exist here, so False."""
    if not isinstance(device_type, str):
        raise TypeError(
            f"is_compiled_with_custom_device: device_type must be a string such as 'npu', "
            f"got {type(device_type).__name__}"
        )
    return False


def get_all_device_type() -> list:
    """The accelerator kinds this build can use. Paddle's CPU build answers [] (the CPU is not listed)."""
    return []


def get_all_custom_device_type() -> list:
    """The plug-in device kinds registered: none here, so []."""
    return []


def get_available_device() -> list:
    """The accelerators that can be used, such as ['gpu:0']. Paddle's CPU build answers []."""
    return []


def get_available_custom_device() -> list:
    """The plug-in devices that can be used, such as ['npu:0']: none here, so []."""
    return []


def _no_streams(what: str) -> TypeError:
    # Paddle's CPU build: "TypeError: device should be gpu, xpu, ..." (streams exist only on accelerators).
    return TypeError(f"{what}: streams and events exist only on a GPU or XPU. " + CPU_ONLY.format(what="stream"))


class Stream:
    """An accelerator's queue of work (`paddle.device.Stream(device=None, priority=2)`). The CPU has none, so
    making one raises a TypeError, as in Paddle's CPU build."""

    def __init__(self, device=None, priority: int = 2, stream_base=None) -> None:
        raise _no_streams("paddle.device.Stream")


class Event:
    """A marker recorded on a Stream, for timing and waiting. The CPU has no streams, so making one raises a
    TypeError, as in Paddle's CPU build."""

    def __init__(self, device=None, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False):
        raise _no_streams("paddle.device.Event")


def current_stream(device=None):
    """The stream work goes to now. The CPU has none: a TypeError."""
    raise _no_streams("paddle.device.current_stream")


def set_stream(stream):
    """Make `stream` the current one. No Stream can exist here: a TypeError."""
    raise _no_streams("paddle.device.set_stream")


def synchronize(device=None) -> None:
    """Wait for an accelerator's work to finish. The CPU computes as it goes and has nothing to wait for, but
    Paddle's CPU build raises a TypeError here, and so does minipaddle."""
    raise _no_streams("paddle.device.synchronize")


class stream_guard:  # noqa: N801 (Paddle's name)
    """`with paddle.device.stream_guard(stream):` runs the block on `stream`. With stream=None (the only value
    possible here, since no Stream can be made) it does nothing, as in Paddle."""

    def __init__(self, stream=None) -> None:
        if stream is not None:
            raise TypeError(f"stream_guard: stream must be None or a paddle.device.Stream, got {type(stream).__name__}")
        self.stream = stream

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        return None
