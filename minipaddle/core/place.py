"""Places: where a tensor lives and where an Executor runs, as paddle 2.6's classes.

    paddle.CPUPlace()  paddle.CUDAPlace(0)  paddle.CUDAPinnedPlace()  paddle.XPUPlace(0)
    paddle.CustomPlace('npu', 0)  paddle.IPUPlace()

Each is a class, so `isinstance(p, paddle.CUDAPlace)` works, and each prints as Paddle's does: `Place(cpu)`,
`Place(gpu:0)`, `Place(gpu_pinned)`, `Place(xpu:0)`, `Place(npu:0)`, `Place(ipu:0)`. `Tensor.place` is the generic
`Place` (paddle's `libpaddle.Place`), so, as in paddle 2.6, `isinstance(t.place, paddle.CPUPlace)` is False and
`t.place.is_cpu_place()` is the test to use.

minipaddle computes on the CPU only. Making an accelerator place works (code that picks a place for an Executor
or a DataLoader runs), and the error comes where the place would be used to compute: `Executor.run`, or
creating a tensor on it (paddle's CPU build fails already when the place is made, some by ending the process).
Two places are equal when they name the same device (paddle compares its pybind objects by identity, so there
`CPUPlace() == CPUPlace()` is False; `_equals` compares by value in both).
"""

from __future__ import annotations


class Place:
    """A device: `kind` ('cpu', 'gpu', 'gpu_pinned', 'xpu', 'ipu' or a custom device type) and `device_id`."""

    __slots__ = ("kind", "device_id")

    def __init__(self, kind: str = "cpu", device_id: int = 0) -> None:
        self.kind = kind
        self.device_id = device_id

    def __repr__(self) -> str:
        if self.kind in ("cpu", "gpu_pinned"):
            return f"Place({self.kind})"
        return f"Place({self.kind}:{self.device_id})"

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, Place) and (other.kind, other.device_id) == (self.kind, self.device_id)

    def __hash__(self) -> int:
        return hash((self.kind, self.device_id))

    def _equals(self, other) -> bool:
        return self == other

    def _type(self) -> int:
        """Paddle's AllocationType number: 1 cpu, 2 gpu, 3 gpu_pinned, 4 xpu, 7 ipu, 9 custom."""
        return {"cpu": 1, "gpu": 2, "gpu_pinned": 3, "xpu": 4, "ipu": 7}.get(self.kind, 9)

    def set_place(self, place: Place) -> None:
        if not isinstance(place, Place):
            raise TypeError(f"Place.set_place: expected a Place, got {type(place).__name__}")
        self.kind, self.device_id = place.kind, place.device_id

    def is_cpu_place(self) -> bool:
        return self.kind == "cpu"

    def is_gpu_place(self) -> bool:
        return self.kind == "gpu"

    def is_cuda_pinned_place(self) -> bool:
        return self.kind == "gpu_pinned"

    def is_xpu_place(self) -> bool:
        return self.kind == "xpu"

    def is_ipu_place(self) -> bool:
        return self.kind == "ipu"

    def is_custom_place(self) -> bool:
        return self.kind not in ("cpu", "gpu", "gpu_pinned", "xpu", "ipu")

    def gpu_device_id(self) -> int:
        return self.device_id

    def xpu_device_id(self) -> int:
        return self.device_id

    def ipu_device_id(self) -> int:
        return self.device_id

    def custom_device_id(self) -> int:
        return self.device_id

    def custom_device_type(self) -> str:
        return self.kind


def _device_id(value, cls: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"paddle.{cls}: the device id must be an int >= 0, got {value!r}")
    return value


class CPUPlace(Place):
    """The CPU: where minipaddle computes. `paddle.CPUPlace()`."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("cpu")


class CUDAPlace(Place):
    """An NVIDIA GPU, `paddle.CUDAPlace(0)`. It can be made and passed around; computing on it raises, as
    minipaddle has no GPU."""

    __slots__ = ()

    def __init__(self, id: int = 0) -> None:  # noqa: A002 (paddle's argument name)
        super().__init__("gpu", _device_id(id, "CUDAPlace"))


class CUDAPinnedPlace(Place):
    """Page-locked host memory for fast GPU copies, `paddle.CUDAPinnedPlace()`."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("gpu_pinned")


class XPUPlace(Place):
    """A Kunlun XPU, `paddle.XPUPlace(0)`."""

    __slots__ = ()

    def __init__(self, id: int = 0) -> None:  # noqa: A002
        super().__init__("xpu", _device_id(id, "XPUPlace"))


class IPUPlace(Place):
    """A Graphcore IPU, `paddle.IPUPlace()`."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("ipu")


class CustomPlace(Place):
    """A plug-in device such as 'npu', `paddle.CustomPlace('npu', 0)`."""

    __slots__ = ()

    def __init__(self, device_type: str, id: int = 0) -> None:  # noqa: A002
        if not isinstance(device_type, str) or not device_type:
            raise TypeError(f"paddle.CustomPlace: device_type must be a non-empty str, got {device_type!r}")
        if device_type in ("cpu", "gpu", "gpu_pinned", "xpu", "ipu"):
            raise ValueError(f"paddle.CustomPlace: {device_type!r} is a built-in device; use its own Place class")
        super().__init__(device_type, _device_id(id, "CustomPlace"))


CPU = Place("cpu")  # what every Tensor.place answers (the generic Place, as paddle 2.6's Tensor.place)


def require_cpu(place, fn: str) -> None:
    """Raise a RuntimeError when `place` (a Place) is not the CPU: where a place would be used to compute."""
    if isinstance(place, Place) and place.kind != "cpu":
        raise RuntimeError(
            f"{fn}: minipaddle computes on the CPU only, so it cannot run on {place}; use paddle.CPUPlace() "
            "(a place for an accelerator can be made, but nothing can run on it here)"
        )
