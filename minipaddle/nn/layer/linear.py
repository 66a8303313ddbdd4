"""Layers that map features: Identity, Linear, Bilinear, and Flatten (which reshapes features into a vector)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dtype import get_default_dtype
from minipaddle.nn import functional as F
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor.checks import check_tensor, normalize_axis

__all__ = ["Identity", "Linear", "Bilinear", "Flatten"]


class Identity(Layer):
    """Returns its input unchanged (a placeholder, e.g. to remove a head from a model). Accepts and ignores any
    arguments."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input):
        return input


class Linear(Layer):
    """y = x @ weight + bias, with weight of shape [in_features, out_features].

    weight starts XavierUniform, bias at zero (unless weight_attr / bias_attr say otherwise; bias_attr=False
    means no bias).

    Example:
        >>> fc = paddle.nn.Linear(4, 2)
        >>> fc(paddle.ones([3, 4])).shape
        [3, 2]
    """

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None) -> None:
        super().__init__()
        self._dtype = get_default_dtype()
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr, dtype=self._dtype)
        self.bias = self.create_parameter([out_features], attr=bias_attr, dtype=self._dtype, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, dtype={self._dtype}{name}"


class Bilinear(Layer):
    """out[n, o] = x1[n] @ weight[o] @ x2[n] + bias[0, o]; weight [out_features, in1_features, in2_features],
    bias [1, out_features]."""

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._in1_features, self._in2_features, self._out_features = in1_features, in2_features, out_features
        self._name = name
        self._dtype = get_default_dtype()
        shape = [out_features, in1_features, in2_features]
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=self._dtype)
        self.bias = self.create_parameter([1, out_features], attr=bias_attr, dtype=self._dtype, is_bias=True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}{name}")  # fmt: skip


class Flatten(Layer):
    """Merge the axes start_axis..stop_axis into one: [N, C, H, W] -> [N, C*H*W] with the defaults."""

    def __init__(self, start_axis=1, stop_axis=-1) -> None:
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input):
        check_tensor(input, "Flatten")
        if input.ndim == 0:
            if self.start_axis not in (0, -1):  # as paddle 2.6
                raise ValueError(f"Flatten: start_axis must be 0 or -1 for a 0-D input, got {self.start_axis}")
            return ops.reshape(input, (1,))
        start = normalize_axis(self.start_axis, input.ndim, "Flatten")
        stop = normalize_axis(self.stop_axis, input.ndim, "Flatten")
        if start > stop:
            raise ValueError(f"Flatten: start_axis ({self.start_axis}) must not come after stop_axis "
                             f"({self.stop_axis}) for a {input.ndim}-D input")  # fmt: skip
        shape = input.shape
        merged = int(np.prod(shape[start : stop + 1]))
        return ops.reshape(input, tuple(shape[:start] + [merged] + shape[stop + 1 :]))
