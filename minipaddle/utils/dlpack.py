"""paddle.utils.dlpack: share a tensor's memory with other libraries through DLPack capsules, over numpy's own
DLPack support (`ndarray.__dlpack__`, `np.from_dlpack`).

    capsule = paddle.utils.dlpack.to_dlpack(x)      # a PyCapsule named "dltensor"
    y = paddle.utils.dlpack.from_dlpack(capsule)   # a Tensor on the same memory

As in paddle 2.6, a capsule can be consumed once, and both functions check their argument's type.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.tensor import Tensor

__all__ = ["to_dlpack", "from_dlpack"]

_CPU = (1, 0)  # DLPack's (kDLCPU, device 0)


class _Capsule:
    """Hands numpy an existing capsule: np.from_dlpack wants an object with __dlpack__, not the capsule itself."""

    def __init__(self, capsule) -> None:
        self.capsule = capsule

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        return self.capsule

    def __dlpack_device__(self):
        return _CPU


class _Writable:
    """Lends an array's memory as writable. numpy marks what it imports from an unversioned ("dltensor") capsule
    read-only, since that DLPack version has no read-only flag; paddle and torch treat such memory as writable, and
    minipaddle's in-place ops and setitem write into a tensor's array, so the imported memory is lent as writable.
    The array is kept here, and so alive as long as the tensor is."""

    def __init__(self, arr: np.ndarray) -> None:
        self.arr = arr
        interface = arr.__array_interface__
        self.__array_interface__ = dict(interface, data=(interface["data"][0], False))


def to_dlpack(x):
    """A DLPack capsule ("dltensor") on x's memory.

    Args:
        x (Tensor): the tensor to share.

    Returns:
        PyCapsule: for `from_dlpack` here, or any library that reads DLPack (torch.utils.dlpack.from_dlpack, ...).
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"The type of 'x' in to_dlpack must be paddle.Tensor, but received {type(x)}.")
    data = x._data if x._data.flags.c_contiguous else x._data.copy()  # (ascontiguousarray would make 0-d 1-d)
    return data.__dlpack__()


def from_dlpack(dlpack) -> Tensor:
    """A Tensor on the memory of a DLPack capsule (consumed: a capsule can be read once).

    Args:
        dlpack (PyCapsule): a capsule from `to_dlpack` or another library's DLPack export.

    Returns:
        Tensor: sharing the capsule's memory.
    """
    if type(dlpack).__name__ != "PyCapsule":
        raise TypeError(f"The type of 'dlpack' in from_dlpack must be PyCapsule object, but received {type(dlpack)}.")
    try:
        arr = np.from_dlpack(_Capsule(dlpack))
    except (RuntimeError, ValueError, TypeError):  # numpy's message names its C call; paddle's names the cause
        raise ValueError(
            "from_dlpack received an invalid capsule. Note that a DLPack tensor can be consumed only once."
        ) from None
    return Tensor(arr if arr.flags.writeable or arr.size == 0 else np.asarray(_Writable(arr)))
