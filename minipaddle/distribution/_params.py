"""Turning the constructor arguments of Normal, Uniform and Categorical into tensors, as Paddle 2.6 does.

Tensors are taken as they are (all arguments must then be Tensors); ints become floats; numbers, lists and
numpy arrays become float32 tensors broadcast to one shape, or float64 ones when the first numpy-array
argument is float64.
"""

from __future__ import annotations

import numpy as np

from minipaddle.tensor.manipulation import cast


def as_parameters(dist, *args, ints_as_floats=True) -> tuple:
    """(tensors, dtype name, all_arg_is_float) for `dist`'s parameters `args`."""
    if ints_as_floats:
        args = tuple(float(a) if isinstance(a, int) and not isinstance(a, bool) else a for a in args)
    if dist._validate_args(*args):
        return args, args[0].dtype.name, False
    all_float = all(isinstance(a, float) for a in args)
    dtype = "float32"
    for a in args:
        if isinstance(a, np.ndarray) and a.dtype in (np.float32, np.float64):
            dtype = a.dtype.name
            break
    tensors = dist._to_tensor(*args)
    if tensors[0].dtype.name != dtype:
        tensors = tuple(cast(t, dtype) for t in tensors)
    return tensors, dtype, all_float
