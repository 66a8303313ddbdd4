"""The converted (deployable) form of quantized layers (paddle.nn.quant.format): explicit quantize_linear /
dequantize_linear with fixed scales, which jit.save writes into the Program as Paddle 2.6 does.

- LinearQuanter(scales, zero_point, quant_axis, bit_length): x -> its integer levels (in x's dtype);
- LinearDequanter: levels -> x * scale / bnt;
- LinearQuanterDequanter(quanter, dequanter): both (a missing one is skipped), made from a trained quanter by
  `from_quanter`;
- ConvertibleQuantedLayer: the base of QAT layers that `convert` turns into this form: their weight quanters become
  dequanters only (the weight itself is replaced by its integer levels unless remain_weight), their activation
  quanters become quanter-dequanter pairs.
"""

from __future__ import annotations

import abc

import numpy as np

from minipaddle import ops
from minipaddle.core.state import unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.nn.initializer import Constant
from minipaddle.nn.layer.layers import Layer
from minipaddle.nn.param_attr import ParamAttr

__all__ = ["LinearQuanter", "LinearDequanter", "LinearQuanterDequanter", "ConvertibleQuantedLayer"]


def _as_array(value, fn: str) -> np.ndarray:
    if value is None:
        raise ValueError(f"{fn}: scales must be given, got None")
    return np.array(value.numpy() if isinstance(value, Tensor) else value, dtype="float32")  # (a 0-d scale stays 0-d)


def _cast(x, dtype):
    """x in `dtype` (no op when it is already: a Program then holds only the Q/DQ ops)."""
    return x if x.dtype == dtype else ops.cast(x, dtype)


class _Linear(Layer):
    """What the quanter and dequanter share: a fixed scale parameter, a zero point, the axis and the bits."""

    def __init__(self, scales, zero_point=None, quant_axis=None, bit_length=8, group_size=128):
        super().__init__()
        values = _as_array(scales, type(self).__name__)
        attr = ParamAttr(name=unique_name("quant_dequant.scale"), initializer=Constant(1.0), trainable=False)
        self._scales = self.create_parameter(shape=list(values.shape), attr=attr, dtype="float32")
        self._scales.set_value(values)
        zp = np.zeros(1, "float32") if zero_point is None else _as_array(zero_point, type(self).__name__)
        self._zero_point = Tensor(zp)
        self._quant_axis = -1 if quant_axis is None else int(quant_axis)
        self._bit_length = int(bit_length)
        self._group_size = int(group_size)

    @classmethod
    def from_quanter(cls, quanter):
        """The fixed form of a trained quanter or observer (its scales, zero points, axis and bits)."""
        return cls(quanter.scales(), zero_point=quanter.zero_points(), quant_axis=quanter.quant_axis(),
                   bit_length=quanter.bit_length())  # fmt: skip

    def _group_scales(self, input):
        """Group-wise scales [groups, out] repeated to the weight's [in, out] rows."""
        from minipaddle.tensor.manipulation_extra import repeat_interleave

        return repeat_interleave(self._scales, self._group_size, 0)


class LinearQuanter(_Linear):
    """x -> clip(round(x / scale * bnt), -bnt - 1, bnt), per tensor (quant_axis -1) or per channel."""

    def forward(self, input):
        x = _cast(input, self._scales.dtype)
        if len(self._scales.shape) > 1:  # group-wise weight scales (GroupWiseWeightObserver)
            from minipaddle.tensor.math import clip, round

            bnt = (1 << (self._bit_length - 1)) - 1
            return _cast(clip(round(x / self._group_scales(x) * bnt), -bnt - 1, bnt), input.dtype)
        y = ops.quantize_linear(x, self._scales, self._zero_point, self._quant_axis, self._bit_length)
        return _cast(y, input.dtype)


class LinearDequanter(_Linear):
    """levels -> levels * scale / bnt."""

    def forward(self, input):
        x = _cast(input, self._scales.dtype)
        if len(self._scales.shape) > 1:
            bnt = (1 << (self._bit_length - 1)) - 1
            return _cast(x / bnt * self._group_scales(x), input.dtype)
        y = ops.dequantize_linear(x, self._scales, self._zero_point, self._quant_axis, self._bit_length)
        return _cast(y, input.dtype)


class LinearQuanterDequanter(Layer):
    """Quantize then dequantize with fixed scales (either part may be None)."""

    def __init__(self, quanter, dequanter):
        super().__init__()
        self._quanter = quanter
        self._dequanter = dequanter

    def forward(self, input):
        out = input
        if self._quanter is not None:
            out = self._quanter(out)
        if self._dequanter is not None:
            out = self._dequanter(out)
        return out

    @staticmethod
    def from_quanter(quanter):
        if quanter is None:
            raise ValueError("LinearQuanterDequanter.from_quanter: quanter must be a quanter, got None")
        return LinearQuanterDequanter(LinearQuanter.from_quanter(quanter), LinearDequanter.from_quanter(quanter))


class ConvertibleQuantedLayer(Layer, metaclass=abc.ABCMeta):
    """A QAT layer that `convert` can turn into the fixed Q/DQ form."""

    def __init__(self):
        super().__init__()
        self.converted = False

    @abc.abstractmethod
    def weights_to_quanters(self) -> list:
        """[(weight attribute, its quanter's attribute)]."""

    @abc.abstractmethod
    def activation_quanters(self) -> list:
        """[activation quanter attributes]."""

    def _convert_quanter_to_qdq(self, quanter_name):
        quanter = getattr(self, quanter_name)
        if quanter is None:
            return None
        qdq = LinearQuanterDequanter.from_quanter(quanter)
        setattr(self, quanter_name, qdq)
        return qdq

    def _quant_weights(self, weight_name, quanter) -> None:
        weight = getattr(self, weight_name)
        weight.set_value(quanter(weight).numpy())

    def _convert(self, remain_weight=False) -> None:
        if self.converted:
            raise RuntimeError(f"{type(self).__name__}._convert: the layer was converted already (convert it once)")
        for weight_name, quanter_name in self.weights_to_quanters():
            qdq = self._convert_quanter_to_qdq(quanter_name)
            if qdq is not None and not remain_weight:  # the weight becomes its integer levels; only DQ remains
                self._quant_weights(weight_name, qdq._quanter)
                qdq._quanter = None
        for quanter_name in self.activation_quanters():
            self._convert_quanter_to_qdq(quanter_name)
        self.converted = True
