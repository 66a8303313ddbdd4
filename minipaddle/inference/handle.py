"""paddle.inference.Tensor: a predictor's input or output slot (a "handle"), holding one numpy array.

    h = predictor.get_input_handle("x")
    h.reshape([64, 1, 28, 28]); h.copy_from_cpu(images)     # in
    predictor.run()
    out = predictor.get_output_handle(name).copy_to_cpu()   # out: a copy, yours to keep

copy_from_cpu copies (the caller may change its array afterwards); share_external_data takes the array
without copying, as paddle's zero-copy input.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.tensor import Tensor as _PaddleTensor
from minipaddle.inference.enums import PlaceType, data_type_of

__all__ = ["Tensor"]


class Tensor:
    """One named input or output of a Predictor."""

    def __init__(self, name: str, dtype, is_input: bool) -> None:
        self._name = name
        self._dtype = np.dtype(dtype)
        self._is_input = is_input
        self._shape = [0]
        self._array = None
        self._lod: list = []

    @property
    def name(self) -> str:
        return self._name

    def reshape(self, shape) -> None:
        """Set the input's shape before copy_from_cpu (paddle allocates here; the copy checks against it)."""
        if not self._is_input:
            raise RuntimeError(f"Tensor.reshape: {self._name!r} is an output; its shape comes from the run")
        dims = []  # (a loop, not all() over a generator and a list comprehension: two calls less a run)
        for s in shape if isinstance(shape, (list, tuple)) else [None]:
            if not isinstance(s, (int, np.integer)) or s < 0:
                raise ValueError(f"Tensor.reshape: shape must be a list of ints >= 0, got {shape!r}")
            dims.append(int(s))
        self._shape = dims
        if self._array is not None and list(self._array.shape) != self._shape:
            self._array = None

    def copy_from_cpu(self, data) -> None:
        """Copy a numpy array in (its dtype must be the input's; its shape becomes the input's shape)."""
        self._set(data, copy=True, fn="copy_from_cpu")

    def share_external_data(self, data) -> None:
        """Use `data` (a numpy array or paddle Tensor) as the input without copying it."""
        if isinstance(data, _PaddleTensor):
            data = data.numpy()
        self._set(data, copy=False, fn="share_external_data")

    def _set(self, data, copy: bool, fn: str) -> None:
        if not self._is_input:
            raise RuntimeError(f"Tensor.{fn}: {self._name!r} is an output handle; write inputs only")
        if not isinstance(data, np.ndarray):
            raise TypeError(f"Tensor.{fn}: expected a numpy.ndarray, got {type(data).__name__}")
        if data.dtype != self._dtype:
            raise TypeError(f"Tensor.{fn}: input {self._name!r} is {self._dtype}, got an array of {data.dtype}")
        self._array = np.array(data) if copy else data
        self._shape = list(data.shape)

    def copy_to_cpu(self) -> np.ndarray:
        """The value as a new numpy array (an output after run(), or what was copied in)."""
        if self._array is None:
            raise RuntimeError(f"Tensor.copy_to_cpu: {self._name!r} holds no data yet"
                               + ("" if self._is_input else "; call predictor.run() first"))  # fmt: skip
        return np.array(self._array)

    def shape(self) -> list:
        return list(self._shape)

    def type(self):
        """The element type as a paddle.inference.DataType."""
        return data_type_of(self._dtype)

    def place(self):
        return PlaceType.CPU

    def lod(self) -> list:
        """The level-of-detail offsets set with set_lod (sequence boundaries), [] when none."""
        return [list(level) for level in self._lod]

    def set_lod(self, lod) -> None:
        """Record sequence boundaries: a list of levels, each a non-decreasing list of offsets starting at 0.
        minipaddle's ops take no LoD; the offsets travel with the tensor for code that reads them back."""
        if not isinstance(lod, (list, tuple)) or not all(isinstance(level, (list, tuple)) for level in lod):
            raise TypeError(f"Tensor.set_lod: lod must be a list of lists of offsets, got {lod!r}")
        for level in lod:
            if level and (level[0] != 0 or any(b < a for a, b in zip(level, level[1:]))):
                raise ValueError(f"Tensor.set_lod: each level must start at 0 and not decrease, got {list(level)}")
        self._lod = [list(int(v) for v in level) for level in lod]

    def __repr__(self) -> str:
        kind = "input" if self._is_input else "output"
        return f"<paddle.inference.Tensor {kind} {self._name!r} shape={self._shape} {self.type()}>"
