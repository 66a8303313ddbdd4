"""The enums and version facts of paddle.inference: DataType, PlaceType, PrecisionType, get_version.

Members and values are paddle 2.6's (`paddle.inference.DataType.FLOAT32` is `PaddleDType.FLOAT32: 0`), so code
that compares or prints them reads the same.
"""

from __future__ import annotations

import enum

import numpy as np

from minipaddle import version

__all__ = ["DataType", "PlaceType", "PrecisionType", "get_version", "get_num_bytes_of_data_type",
           "get_trt_compile_version", "get_trt_runtime_version"]  # fmt: skip


class DataType(enum.IntEnum):
    """The element type of an inference Tensor (paddle's `PaddleDType`)."""

    FLOAT32 = 0
    INT64 = 1
    INT32 = 2
    UINT8 = 3
    INT8 = 4
    FLOAT16 = 5
    BOOL = 6
    FLOAT64 = 7

    def __repr__(self) -> str:
        return f"<PaddleDType.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"PaddleDType.{self.name}"


class PlaceType(enum.IntEnum):
    """Where an inference Tensor lives (paddle's `PaddlePlace`); minipaddle has the CPU only."""

    UNK = -1
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM = 4

    def __repr__(self) -> str:
        return f"<PaddlePlace.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"PaddlePlace.{self.name}"


class PrecisionType(enum.IntEnum):
    """The precision a predictor computes in (paddle's `Precision`, also `Config.Precision`)."""

    Float32 = 0
    Int8 = 1
    Half = 2
    Bfloat16 = 3

    def __repr__(self) -> str:
        return f"<Precision.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"Precision.{self.name}"


_NUMPY = {
    DataType.FLOAT32: np.dtype("float32"),
    DataType.INT64: np.dtype("int64"),
    DataType.INT32: np.dtype("int32"),
    DataType.UINT8: np.dtype("uint8"),
    DataType.INT8: np.dtype("int8"),
    DataType.FLOAT16: np.dtype("float16"),
    DataType.BOOL: np.dtype("bool"),
    DataType.FLOAT64: np.dtype("float64"),
}
_FROM_NUMPY = {v: k for k, v in _NUMPY.items()}


def data_type_of(dtype) -> DataType:
    """The DataType of a numpy dtype (a TypeError for one paddle.inference has no name for, e.g. bfloat16)."""
    d = np.dtype(dtype)
    if d not in _FROM_NUMPY:
        raise TypeError(f"paddle.inference: no DataType for numpy dtype {d}; it has {[t.name for t in DataType]}")
    return _FROM_NUMPY[d]


def numpy_dtype(data_type: DataType) -> np.dtype:
    return _NUMPY[DataType(data_type)]


def get_num_bytes_of_data_type(dtype) -> int:
    """Bytes per element of a DataType: get_num_bytes_of_data_type(DataType.FLOAT32) == 4."""
    if not isinstance(dtype, DataType):
        raise TypeError(f"get_num_bytes_of_data_type: dtype must be a paddle.inference.DataType, got {dtype!r}")
    return _NUMPY[dtype].itemsize


def get_version() -> str:
    """The inference library's version text, in paddle's layout (`version: ...` then `commit:` and `branch:`)."""
    return f"version: {version.full_version}\ncommit: minipaddle\nbranch: HEAD\nWITH_MKL: OFF\nWITH_GPU: OFF\n"


def get_trt_compile_version() -> tuple:
    """(0, 0, 0): minipaddle is built without TensorRT, as paddle's CPU wheel."""
    return (0, 0, 0)


def get_trt_runtime_version() -> tuple:
    return (0, 0, 0)
