"""paddle.device: minipaddle computes with numpy on the CPU, so 'cpu' is the only device."""

from __future__ import annotations

from minipaddle.core.tensor import CPUPlace, Place

_GPU_MESSAGE = (
    "minipaddle runs on numpy on the CPU only, so there is no {what}. Use paddle.set_device('cpu'), "
    "or run on real PaddlePaddle for GPUs."
)


def set_device(device: str) -> Place:
    """Choose the device for new tensors. Only 'cpu' exists here; 'gpu' and others raise a ValueError."""
    if not isinstance(device, str):
        raise TypeError(f"set_device: device must be a string such as 'cpu', got {type(device).__name__}")
    if device.lower().split(":")[0] != "cpu":
        raise ValueError(f"set_device: cannot use {device!r}. " + _GPU_MESSAGE.format(what="GPU or other device"))
    return CPUPlace()


def get_device() -> str:
    return "cpu"


def is_compiled_with_cuda() -> bool:
    return False


def CUDAPlace(device_id: int = 0):  # noqa: N802 (Paddle's name)
    raise RuntimeError("paddle.CUDAPlace: " + _GPU_MESSAGE.format(what="CUDA place"))
