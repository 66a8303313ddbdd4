"""Declaring a Program's inputs: `paddle.static.data` and `InputSpec`."""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.static.program import default_main_program
from minipaddle.tensor.checks import check_shape


def _spec_shape(shape, fn: str) -> tuple:
    shape = check_shape([-1 if d is None else d for d in shape] if isinstance(shape, (list, tuple)) else shape, fn)
    if any(d < -1 for d in shape):
        raise ValueError(f"{fn}: sizes must be >= 0, or -1 / None for a size known only at run time, got {list(shape)}")
    return shape


def data(name: str, shape, dtype=None, lod_level: int = 0):
    """A Variable that is fed at run time: `x = paddle.static.data('x', [-1, 784], 'float32')`.

    Args:
        name: the feed name (`exe.run(feed={name: array})`).
        shape: its shape; -1 or None where the size is known only at run time (usually the batch).
        dtype: its dtype (default: paddle.get_default_dtype()).
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"data: name must be a non-empty string, got {name!r}")
    shape = _spec_shape(shape, "data")
    d = dtypes.to_dtype(dtype) if dtype is not None else dtypes.default_float()
    block = default_main_program().global_block()
    return block.create_var(name, shape, d, stop_gradient=True, is_data=True)


class InputSpec:
    """The shape, dtype and name of a model input, for `paddle.jit.to_static`, `paddle.Model` and `summary`.

    Example:
        >>> paddle.static.InputSpec([None, 1, 28, 28], 'float32', 'image')
    """

    def __init__(self, shape, dtype="float32", name: str | None = None, stop_gradient: bool = False) -> None:
        self.shape = _spec_shape(shape, "InputSpec")
        self.dtype = dtypes.to_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name: str | None = None) -> InputSpec:
        if not isinstance(tensor, Tensor):
            raise TypeError(f"InputSpec.from_tensor: expected a Tensor, got {type(tensor).__name__}")
        return cls(tensor.shape, tensor.dtype, name or tensor.name)

    @classmethod
    def from_numpy(cls, ndarray, name: str | None = None) -> InputSpec:
        a = np.asarray(ndarray)
        return cls(a.shape, dtypes.from_numpy(a.dtype), name)

    def batch(self, batch_size: int) -> InputSpec:
        """The spec with a leading batch dimension: InputSpec([4]).batch(8).shape == (8, 4)."""
        if isinstance(batch_size, (list, tuple)) and len(batch_size) == 1:
            batch_size = batch_size[0]
        if not isinstance(batch_size, int):
            raise TypeError(f"InputSpec.batch: batch_size must be an int, got {type(batch_size).__name__}")
        return InputSpec((batch_size, *self.shape), self.dtype, self.name, self.stop_gradient)

    def unbatch(self) -> InputSpec:
        """The spec without its leading (batch) dimension."""
        if not self.shape:
            raise ValueError("InputSpec.unbatch: a 0-d spec has no batch dimension")
        return InputSpec(self.shape[1:], self.dtype, self.name, self.stop_gradient)

    def __eq__(self, other) -> bool:
        if not isinstance(other, InputSpec):
            return False
        return (self.shape, self.dtype, self.name) == (other.shape, other.dtype, other.name)

    def __hash__(self) -> int:
        # As Paddle: the name is left out, so specs differing only by name share a cached Program (== still
        # compares names).
        return hash((self.shape, self.dtype.name))

    def __repr__(self) -> str:
        return (
            f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, stop_gradient={self.stop_gradient})"
        )
