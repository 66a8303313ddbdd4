"""Data types: `paddle.float32` and friends, and how two dtypes combine.

A DType is a small named object wrapping a numpy dtype. Everywhere a dtype is accepted, a DType, a string
(`'float32'`), a numpy dtype or a numpy type all work: `to_dtype` turns any of them into a DType.

Promotion follows paddle 2.6 (docs/notes/paddle26_facts.md):
- two tensors of different floating (or complex) types promote to the wider one (float32 + float64 -> float64);
- otherwise the right operand is cast to the left operand's dtype (int32 + float32 -> int32, as Paddle does);
- a Python scalar keeps the tensor's dtype, except that a float scalar turns an integer or bool tensor into
  the default float dtype, and a complex scalar turns a real tensor complex.

bfloat16 comes from the ml_dtypes package (numpy has none): a real numpy dtype, so arrays, casts and most numpy
math work on it. Two differences from Paddle's CPU bfloat16: casting rounds to nearest (ties to even, as GPUs and
PyTorch do) where Paddle's CPU cast truncates, and `.numpy()` gives a bfloat16 array, not the raw bits as uint16
(paddle.save writes those bits, as Paddle does). Matrix products on float16 and bfloat16 run in float32 and round
(ops/low_precision.py), so matmul, conv and linear keep the low dtype.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from minipaddle.core.state import STATE


class DType:
    """A Paddle dtype such as `paddle.float32`. Compare with `==`; `.name` is the string form."""

    __slots__ = ("name", "np", "itemsize", "is_floating", "is_complex", "is_integer")

    def __init__(self, name: str, np_dtype) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self.is_floating = self.np.kind == "f" or name == "bfloat16"  # ml_dtypes' bfloat16 is numpy kind 'V'
        self.is_complex = self.np.kind == "c"
        self.is_integer = self.np.kind in "iu"

    def __repr__(self) -> str:
        return f"paddle.{self.name}"

    __str__ = __repr__

    def __reduce__(self):  # copy/deepcopy return the same singleton
        return (to_dtype, (self.name,))


bool_ = DType("bool", np.bool_)
uint8 = DType("uint8", np.uint8)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
bfloat16 = DType("bfloat16", ml_dtypes.bfloat16)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)

ALL_DTYPES = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64, complex64, complex128, bfloat16)

# Lookup tables: from a numpy dtype (the hot path: Tensor.dtype) and from any spelling a user may write.
_BY_NP = {d.np: d for d in ALL_DTYPES}
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NAME.update({"float": float32, "double": float64, "int": int64, "half": float16, "bool_": bool_})


def from_numpy(np_dtype: np.dtype) -> DType:
    """The DType of a numpy array's dtype (raises TypeError for dtypes Paddle has no counterpart for)."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        raise TypeError(f"numpy dtype {np_dtype} has no minipaddle counterpart; supported: {_names()}") from None


def to_dtype(dtype) -> DType:
    """Accept a DType, a name ('float32'), a numpy dtype/type or a Python type (float, int, bool, complex)."""
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, str):
        found = _BY_NAME.get(dtype.lower().replace("paddle.", ""))
        if found is None:
            raise TypeError(f"unknown dtype {dtype!r}; expected one of {_names()}")
        return found
    if dtype is float:
        return _BY_NAME[STATE.default_dtype]
    if dtype is int:
        return int64
    if dtype is bool:
        return bool_
    if dtype is complex:
        return complex128 if STATE.default_dtype == "float64" else complex64
    try:
        return from_numpy(np.dtype(dtype))
    except TypeError:
        raise TypeError(f"unknown dtype {dtype!r}; expected one of {_names()}") from None


def _names() -> str:
    return ", ".join(d.name for d in ALL_DTYPES)


def default_float() -> DType:
    return _BY_NAME[STATE.default_dtype]


def set_default_dtype(d) -> None:
    """Set the dtype that Python floats become (`float16`, `bfloat16`, `float32` or `float64`)."""
    d = to_dtype(d)
    if not d.is_floating:
        raise TypeError(f"set_default_dtype: expected float16, bfloat16, float32 or float64, got {d.name}")
    STATE.default_dtype = d.name


def get_default_dtype() -> str:
    """The default float dtype's name, `'float32'` unless changed."""
    return STATE.default_dtype


# ---- promotion -------------------------------------------------------------------------------------------------

_COMPLEX_OF = {float16: complex64, bfloat16: complex64, float32: complex64, float64: complex128}


def promote_types(a: DType, b: DType) -> DType:
    """The dtype of `a_tensor (op) b_tensor` in paddle 2.6, which minipaddle's binary functions follow too (where
    paddle 2.6 refuses an int/float mix; docs/feature_map.md, "differs on purpose")."""
    if a is b:
        return a
    if (a.is_floating or a.is_complex) and (b.is_floating or b.is_complex):
        if a.is_complex or b.is_complex:  # complex wins, at the wider precision
            wide = max(a.itemsize * (1 if a.is_complex else 2), b.itemsize * (1 if b.is_complex else 2))
            return complex128 if wide >= 16 else complex64
        if a.itemsize == b.itemsize:  # float16 with bfloat16: neither holds the other, Paddle gives float32
            return float32
        return a if a.itemsize > b.itemsize else b
    if b.is_complex and not a.is_complex:  # Paddle promotes to complex rather than dropping the imaginary part
        return _COMPLEX_OF.get(a, complex64)
    return a  # Paddle casts the right operand to the left operand's dtype


def scalar_result_dtype(t: DType, scalar) -> DType:
    """The dtype of `tensor (op) python_scalar` in paddle 2.6."""
    if isinstance(scalar, bool) or isinstance(scalar, (int, np.integer)):
        return t
    if isinstance(scalar, (float, np.floating)):  # an int tensor becomes float32, whatever the default dtype
        return t if (t.is_floating or t.is_complex) else float32
    if isinstance(scalar, (complex, np.complexfloating)):
        return t if t.is_complex else _COMPLEX_OF.get(t, complex64)
    raise TypeError(f"expected a Python number, got {type(scalar).__name__}")
