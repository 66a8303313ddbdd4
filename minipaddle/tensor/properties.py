"""Tensor's own attributes and methods that are not `paddle.*` functions: T, data, value, set_value,
element_size, is_contiguous, contiguous, cpu, cuda, pin_memory, ndimension; copy_, detach_, to; the storage
attributes of a dense CPU tensor (strides, offset, data_ptr, layout, is_dense ...); and the Tensor-only methods
defined beside their kin (fill_diagonal_ in indexing.py, householder_product in linalg.py). Bound by
tensor_methods.py."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Place, Tensor
from minipaddle.tensor import linalg, manipulation
from minipaddle.tensor.checks import check_bool, check_tensor
from minipaddle.tensor.indexing import fill_diagonal_, fill_diagonal_tensor, fill_diagonal_tensor_
from minipaddle.tensor.linalg import householder_product


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


def copy_(self, src, blocking) -> None:
    """Copy src's values into this tensor (Paddle's `x.copy_(src, blocking)`); returns None, as Paddle.

    Not recorded by autograd (this tensor keeps its own history, as in Paddle). With src's shape, the values are
    written into this tensor's storage, so its views see them; with another shape, this tensor takes a copy of src
    with src's shape. blocking is accepted for the GPU's sake and means nothing on the CPU.
    """
    fn = "copy_"
    check_tensor(src, fn, "src")
    check_bool(blocking, fn, "blocking")
    if src.dtype is not self.dtype:
        raise TypeError(f"{fn}: src must have this tensor's dtype {self.dtype.name}, got {src.dtype.name}")
    if src.shape == self.shape:
        with no_grad():
            apply_inplace(get_op("assign"), self, (src,))
    else:  # Paddle resizes the tensor to src's shape: new storage, leaving the old views behind
        self._data = np.array(src._data)
        self._version = [self._version[0] + 1]


def detach_(self) -> Tensor:
    """Cut this tensor from the graph in place: it becomes a leaf with stop_gradient=True; returns it."""
    self._node, self._out_index, self._view = None, 0, None
    self.stop_gradient = True
    return self


_TO_DTYPES = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "complex64",
              "complex128", "bool")  # fmt: skip


def to(self, *args, **kwargs) -> Tensor:
    """Convert this tensor's dtype (and device: only the CPU exists here) IN PLACE, returning the tensor itself,
    as Paddle 2.6 does. Three forms:

        x.to(dtype, blocking=None)
        x.to(device, dtype=None, blocking=None)
        x.to(other, blocking=None)     # other's dtype

    The conversion is not recorded by autograd (the tensor keeps its history, as in Paddle).

    Example:
        >>> x = paddle.to_tensor([1, 2, 3])
        >>> x.to('float32') is x    # True; x is now float32
    """
    fn = "Tensor.to"
    if not 0 < len(args) + len(kwargs) <= 3:
        raise TypeError(f"{fn}: expected 1 to 3 arguments ((dtype, blocking), (device, dtype, blocking) or "
                        f"(other, blocking)), got {len(args) + len(kwargs)}")  # fmt: skip
    unknown = set(kwargs) - {"device", "dtype", "blocking", "other"}
    if unknown:
        raise TypeError(f"{fn}: got an unexpected keyword argument {sorted(unknown)[0]!r}")
    device = dtype = None
    blocking = kwargs.get("blocking")
    if args:
        first, rest = args[0], args[1:]
        if isinstance(first, Tensor):
            dtype = first.dtype
        elif isinstance(first, (dtypes.DType, np.dtype)) or (isinstance(first, str) and first.lower() in _TO_DTYPES):
            dtype = first
        else:
            device = first
            dtype = rest[0] if rest else kwargs.get("dtype")
            rest = rest[1:]
        if rest:
            blocking = rest[0]
    else:
        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        if device is None and dtype is None and kwargs.get("other") is not None:
            dtype = check_tensor(kwargs["other"], fn, "other").dtype
    if blocking is not None:
        check_bool(blocking, fn, "blocking")
    if device is not None:
        _check_cpu(device, fn)
    if dtype is not None:
        target = dtypes.to_dtype(dtype)
        if target is not self.dtype:  # the cast values replace the storage (new storage: old views left behind)
            self._data = manipulation.cast(self.detach(), target)._data
            self._version = [self._version[0] + 1]
    return self


def _check_cpu(device, fn: str) -> None:
    if isinstance(device, Place):
        if not device.is_cpu_place():
            raise ValueError(f"{fn}: minipaddle runs on the CPU only, got the place {device}")
        return
    if not isinstance(device, str):
        raise ValueError(f"{fn}: device must be a str or paddle.CPUPlace(), got {type(device).__name__}")
    if device.lower().split(":")[0] != "cpu":
        raise ValueError(f"{fn}: minipaddle runs on the CPU only, so the device must be 'cpu', got {device!r}")


# ---- storage attributes of a dense CPU tensor (as Paddle 2.6 reports them) ---------------------------------------


def _strides(self) -> list:
    """The step in elements between neighbours along each dimension (views such as x.T have others)."""
    return [s // self._data.itemsize for s in self._data.strides]


def get_strides(self) -> list:
    """The strides in elements, as the `strides` attribute."""
    return _strides(self)


def _offset(self) -> int:
    """Where this tensor starts in its storage, in bytes (nonzero for views such as x[1])."""
    root = self._data
    while isinstance(root.base, np.ndarray):
        root = root.base
    return int(self._data.__array_interface__["data"][0] - root.__array_interface__["data"][0])


def data_ptr(self) -> int:
    """The address of the tensor's first element."""
    return int(self._data.__array_interface__["data"][0])


def is_same_shape(self, y) -> bool:
    """Whether y has this tensor's shape."""
    if not isinstance(y, Tensor):
        raise ValueError(f"Tensor.is_same_shape: y must be a Tensor, got {type(y).__name__}")
    return self.shape == y.shape


def is_dense(self) -> bool:
    """True: minipaddle tensors are dense."""
    return True


def _false(self) -> bool:
    return False


def _layout(self) -> str:
    """The data layout Paddle reports for a dense tensor: 'NCHW'."""
    return "NCHW"


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
    "fill_diagonal_": fill_diagonal_,
    "fill_diagonal_tensor": fill_diagonal_tensor,
    "fill_diagonal_tensor_": fill_diagonal_tensor_,
    "copy_": copy_,
    "detach_": detach_,
    "to": to,
    "matrix_power": linalg.matrix_power,
    "multi_dot": linalg.multi_dot,
    "householder_product": householder_product,
    "get_strides": get_strides,
    "data_ptr": data_ptr,
    "is_same_shape": is_same_shape,
    "is_dense": is_dense,
    # a dense tensor on one CPU is none of these
    "is_dist": _false,
    "is_sparse": _false,
    "is_sparse_coo": _false,
    "is_sparse_csr": _false,
    "is_selected_rows": _false,
}


PROPERTIES = {
    "T": property(_T),
    "data": property(_data, _set_data),
    "strides": property(_strides),
    "offset": property(_offset),
    "layout": property(_layout),
}
