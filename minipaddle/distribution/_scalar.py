"""The constructor argument rule shared by Laplace, Cauchy and Gumbel (Paddle 2.6): a real number becomes a
0-D tensor of the default dtype, a Tensor is taken as it is, anything else is a TypeError. Cauchy and Gumbel
then broadcast loc and scale to one shape (Laplace has its own rule for that)."""

from __future__ import annotations

import numbers

from minipaddle.core.tensor import Tensor
from minipaddle.tensor.creation import full
from minipaddle.tensor.manipulation import broadcast_tensors


def real_or_tensor(value, arg: str):
    if not isinstance(value, (numbers.Real, Tensor)):
        raise TypeError(f"Expected type of {arg} is Real|Variable, but got {type(value)}")
    return full(shape=(), fill_value=value) if isinstance(value, numbers.Real) else value


def loc_and_scale(loc, scale) -> tuple:
    """Cauchy's and Gumbel's (loc, scale): each by real_or_tensor, then broadcast together if their shapes differ."""
    loc = real_or_tensor(loc, "loc")
    scale = real_or_tensor(scale, "scale")
    if loc.shape != scale.shape:
        return tuple(broadcast_tensors([loc, scale]))
    return loc, scale
