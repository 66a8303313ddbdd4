"""paddle.tensor: the tensor functions, grouped as Paddle groups them (creation, math, manipulation, linalg,
logic), plus the printing rules (to_string). Tensor's methods are bound by minipaddle/tensor_methods.py, on top."""

from minipaddle.core.tensor import Tensor
from minipaddle.tensor.array import array_length, array_read, array_write, create_array  # paddle.tensor.array's


def __getattr__(name: str):
    """paddle.tensor.X, as paddle 2.6 has it, for the tensor functions that minipaddle gathers elsewhere:
    `paddle.tensor.mm is paddle.mm` (also the linalg ones and the in-place `_` methods, `paddle.tensor.add_`)."""
    import minipaddle

    if not name.startswith("_"):
        for where in (minipaddle, minipaddle.linalg, minipaddle.nn.functional):
            value = getattr(where, name, None)
            if callable(value) and not isinstance(value, type):
                return value
        if name.endswith("_") and callable(getattr(Tensor, name, None)):
            return getattr(Tensor, name)
    raise AttributeError(f"module 'paddle.tensor' has no attribute {name!r}")
