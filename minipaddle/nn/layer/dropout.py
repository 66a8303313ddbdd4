"""Dropout layers: active in training mode (`layer.train()`), pass-through in eval mode (`layer.eval()`)."""

from __future__ import annotations

from minipaddle.nn import functional as F
from minipaddle.nn.layer.layers import Layer

__all__ = ["Dropout", "Dropout2D", "Dropout3D", "AlphaDropout"]


def _name(name) -> str:
    return f", name={name}" if name else ""


class Dropout(Layer):
    """Zero each value with probability p while training, scaling the kept ones by 1 / (1 - p).

    Example:
        >>> drop = paddle.nn.Dropout(p=0.5)
        >>> drop.eval()           # now it returns its input unchanged
    """

    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None) -> None:
        super().__init__()
        self.p, self.axis, self.mode, self.name = p, axis, mode, name

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{_name(self.name)}"


class Dropout2D(Layer):
    """Zero whole channels of a 4-D input with probability p while training."""

    def __init__(self, p=0.5, data_format="NCHW", name=None) -> None:
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input):
        return F.dropout2d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}{_name(self.name)}"


class Dropout3D(Layer):
    """Zero whole channels of a 5-D input with probability p while training."""

    def __init__(self, p=0.5, data_format="NCDHW", name=None) -> None:
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input):
        return F.dropout3d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}{_name(self.name)}"


class AlphaDropout(Layer):
    """Dropout for SELU networks: keeps the activations' mean and variance while training."""

    def __init__(self, p=0.5, name=None) -> None:
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input):
        return F.alpha_dropout(input, p=self.p, training=self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}{_name(self.name)}"
