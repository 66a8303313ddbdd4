"""The Initializer base class, fan computation, `calculate_gain` and `set_global_initializer`.

An initializer fills a parameter in place: `paddle.nn.initializer.Constant(0.5)(layer.weight)`. Each subclass
only says which values to draw (`_values(shape, dtype)`); the base class writes them into the parameter through
the op door, as an in-place `assign`. Random initializers draw with the random ops (`uniform`, `gaussian`), which
use `STATE.rng`, so `paddle.seed(n)` makes them repeatable.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE, no_grad
from minipaddle.core.tensor import Tensor

__all__ = ["Initializer", "calculate_gain", "set_global_initializer"]


class Initializer:
    """Base class of every initializer. Call an instance on a parameter to fill it: `init(param)`."""

    _seed = 0  # random initializers draw from a fresh generator of this seed when nonzero (the 1.x `seed=` argument)

    def __call__(self, param, block=None):
        if not isinstance(param, Tensor):
            raise TypeError(f"{type(self).__name__}: expected a Parameter to fill, got {type(param).__name__}")
        with no_grad():
            values = self._values(tuple(param.shape), param.dtype.np)
        write_values(param, values, type(self).__name__)
        return None

    def forward(self, param, block=None):
        """Fill `param` (Paddle's name for the call)."""
        return self(param, block)

    def _values(self, shape: tuple, dtype: np.dtype):
        """The initial values: a Tensor (random initializers draw through the random ops) or a numpy array."""
        raise TypeError(f"{type(self).__name__} is an abstract initializer; use a subclass such as Normal")

    @staticmethod
    def _compute_fans(shape) -> tuple[int, int]:
        """(fan_in, fan_out) as Paddle estimates them: [in, out] for matrices, [out_c, in_c, *kernel] for convs."""
        shape = list(shape)
        if len(shape) == 0:
            return 1, 1
        if len(shape) == 1:
            return shape[0], shape[0]
        if len(shape) == 2:
            return shape[0], shape[1]
        receptive_field = int(np.prod(shape[2:]))
        return shape[1] * receptive_field, shape[0] * receptive_field


def write_values(param: Tensor, values, who: str) -> None:
    """Write `values` (a Tensor or numpy array of param's shape) into `param`'s storage, in place and without
    recording a gradient (an `assign` op)."""
    source = values if isinstance(values, Tensor) else Tensor(np.asarray(values).astype(param.dtype.np))
    if source.shape != param.shape:
        raise ValueError(f"{who}: got values of shape {source.shape} for a parameter of shape {param.shape}")
    with no_grad():
        apply_inplace(get_op("assign"), param, (source,))


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for an activation, used to scale Kaiming/Xavier/Orthogonal initial values.

    Args:
        nonlinearity: 'sigmoid', 'linear', 'conv1d'..'conv3d_transpose', 'tanh', 'relu', 'leaky_relu' or 'selu'.
        param: the negative slope of leaky_relu (default 0.01).

    Example:
        >>> paddle.nn.initializer.calculate_gain('tanh')   # 5/3
    """
    if param is None:
        param = 0.01
    elif not isinstance(param, (bool, int, float)):
        raise TypeError(f"calculate_gain: param must be a number, got {type(param).__name__}")
    gains = {
        "sigmoid": 1,
        "linear": 1,
        "conv1d": 1,
        "conv2d": 1,
        "conv3d": 1,
        "conv1d_transpose": 1,
        "conv2d_transpose": 1,
        "conv3d_transpose": 1,
        "tanh": 5.0 / 3,
        "relu": math.sqrt(2.0),
        "leaky_relu": math.sqrt(2.0 / (1 + float(param) ** 2)),
        "selu": 3.0 / 4,
    }
    if nonlinearity not in gains:
        raise ValueError(f"calculate_gain: nonlinearity must be one of {sorted(gains)}, got {nonlinearity!r}")
    return gains[nonlinearity]


def set_global_initializer(weight_init, bias_init=None) -> None:
    """Use `weight_init` for every new weight and `bias_init` for every new bias, unless a ParamAttr names its
    own initializer. `set_global_initializer(None)` goes back to the layers' defaults.

    Example:
        >>> init = paddle.nn.initializer
        >>> init.set_global_initializer(init.Uniform(), init.Constant(0.1))
    """
    for arg, value in (("weight_init", weight_init), ("bias_init", bias_init)):
        if value is not None and not isinstance(value, Initializer):
            raise TypeError(f"set_global_initializer: {arg} must be an Initializer or None, got {type(value).__name__}")
    STATE.global_initializer = (weight_init, bias_init)


def global_initializer(is_bias: bool):
    """The initializer set by set_global_initializer for weights (or biases), or None."""
    return STATE.global_initializer[1 if is_bias else 0]
