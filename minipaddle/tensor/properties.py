"""Tensor's own attributes and methods that are not `paddle.*` functions: T, data, value, set_value,
element_size, is_contiguous, contiguous, cpu, cuda, pin_memory, ndimension. Bound by tensor/methods.py."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor


def _T(self) -> Tensor:  # noqa: N802 (Paddle's name)
    """The tensor with its dimensions in reverse order (a view)."""
    return ops.transpose(self, tuple(range(self.ndim - 1, -1, -1))) if self.ndim > 1 else self


def _data(self) -> Tensor:
    """The tensor itself (Paddle's `x.data`); assigning to it sets the values, as set_value does."""
    return self


def _set_data(self, value) -> None:
    set_value(self, value)


def value(self) -> Tensor:
    """The tensor itself (in Paddle, the underlying dense tensor)."""
    return self


def set_value(self, value) -> None:
    """Replace the values with `value` (a numpy array, nested list or Tensor of the same shape), cast to this
    tensor's dtype. Not recorded by autograd, as for loading parameters; views of this tensor see the new values."""
    if isinstance(value, Tensor):
        value = value.numpy()
    try:
        arr = np.asarray(value)
    except ValueError:
        raise ValueError("set_value: the value is a ragged nested list") from None
    if arr.dtype.kind not in "biufc":
        raise TypeError(f"set_value: the value must be numeric, got {arr.dtype}")
    if list(arr.shape) != self.shape:
        raise ValueError(f"set_value: the value has shape {list(arr.shape)} but the tensor has shape {self.shape}")
    with no_grad():
        apply_inplace(get_op("assign"), self, (Tensor(arr.astype(self._data.dtype)),))


def element_size(self) -> int:
    """Bytes per element (4 for float32)."""
    return self._data.itemsize


def is_contiguous(self) -> bool:
    """Whether the elements lie in memory in row-major order without gaps (views such as x.T may not)."""
    return bool(self._data.flags.c_contiguous)


def contiguous(self) -> Tensor:
    """The tensor itself if contiguous, else a contiguous copy (gradients flow through it)."""
    return self if self._data.flags.c_contiguous else ops.assign(self)


def cpu(self) -> Tensor:
    """The tensor itself: minipaddle tensors always live on the CPU."""
    return self


def cuda(self, device_id=None, blocking=True) -> Tensor:
    """minipaddle runs on numpy only, so there is no GPU to copy to."""
    raise RuntimeError("Tensor.cuda: minipaddle runs on the CPU (numpy) only; there is no GPU to copy the tensor to")


def pin_memory(self, blocking=True) -> Tensor:
    """Pinned (page-locked) memory is for GPU copies, which minipaddle does not have."""
    raise RuntimeError("Tensor.pin_memory: pinned memory needs a GPU, and minipaddle runs on the CPU only")


METHODS = {
    "value": value,
    "set_value": set_value,
    "element_size": element_size,
    "is_contiguous": is_contiguous,
    "contiguous": contiguous,
    "cpu": cpu,
    "cuda": cuda,
    "pin_memory": pin_memory,
    "ndimension": Tensor.dim,
}
PROPERTIES = {"T": property(_T), "data": property(_data, _set_data)}
