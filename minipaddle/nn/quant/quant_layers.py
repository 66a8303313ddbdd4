"""The 2.0-era fake-quant layers (paddle.nn.quant.quant_layers), which ImperativeQuantAware puts into a model.

- FakeQuantAbsMax, FakeQuantChannelWiseAbsMax: the scale is this tensor's abs-max (per channel), found anew on every
  call (weights); quant_on_weight keeps the last scale in a parameter `_scale`, for saving.
- FakeQuantMovingAverageAbsMax: the scale is a moving average of the batches' abs-max, kept in the parameters
  `_scale` (init 0.001), `_state` and `_accum` (init 1), updated in training only (activations).
- MovingAverageAbsMaxScale: the same moving average of an output (init 0), recorded, not applied: the output scale.
- QuantizedConv2D / QuantizedConv2DTranspose / QuantizedLinear / QuantizedMatmul: the layer with its weight and input
  fake-quantized; MAOutputScaleLayer / FakeQuantMAOutputScaleLayer: a layer followed by an output-scale recorder.

Every layer keeps Paddle's attribute and parameter names, so state_dict keys match Paddle's.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.dtype import get_default_dtype
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE, no_grad, unique_name
from minipaddle.nn import functional as F
from minipaddle.nn.initializer import Constant
from minipaddle.nn.layer.layers import Layer
from minipaddle.nn.param_attr import ParamAttr
from minipaddle.tensor.linalg import matmul

__all__ = [
    "FakeQuantAbsMax", "FakeQuantMovingAverageAbsMax", "FakeQuantChannelWiseAbsMax", "QuantizedConv2D",
    "QuantizedConv2DTranspose", "QuantizedLinear", "MovingAverageAbsMaxScale", "MAOutputScaleLayer",
    "FakeQuantMAOutputScaleLayer", "QuantStub", "QuantizedMatmul", "moving_average_quant_dequant",
]  # fmt: skip


def write_state(target, value) -> None:
    """target[...] = value, in place and outside autograd. In static mode the op that computed `value` (the
    block's last op) writes `target` itself, as Paddle's quant layers name their parameters as the op's OutScale /
    OutState / OutAccum: a pruned inference Program then still says which parameter holds a fake op's scale (an
    assign into it would be pruned away). Otherwise an assign op into the variable."""
    if STATE.static_mode and _written_by_its_op(target, value):
        return
    with no_grad():
        apply_inplace(get_op("assign"), target, (value,))


def _written_by_its_op(target, value) -> bool:
    block = getattr(value, "block", None)
    if block is None or not block.ops or not block.has_var(target.name):
        return False
    op = block.ops[-1]
    outs = op.outputs.get("Out", [])
    if value.name not in outs or list(value.shape) != list(target.shape) or value.dtype != target.dtype:
        return False
    op.outputs["Out"] = [target.name if n == value.name else n for n in outs]
    return True


def moving_average_quant_dequant(input, scale, state, accum, moving_rate: float, bit_length: int, training: bool):
    """Fake-quantize `input` with the moving-average abs-max scale held in the [1] parameters scale, state and
    accum: in training state = rate * state + 1, accum = rate * accum + max |x|, scale = accum / state (written
    back into the parameters); in eval the stored scale, nothing updated. The one computation behind the legacy
    FakeQuantMovingAverageAbsMax and the 2.6 API's FakeQuanterWithAbsMaxObserver."""
    out, new_scale, new_state, new_accum = ops.fake_quantize_dequantize_moving_average_abs_max(
        input, scale, accum if training else None, state if training else None, moving_rate, bit_length,
        is_test=not training,
    )  # fmt: skip
    if training:
        write_state(scale, new_scale)
        write_state(state, new_state)
        write_state(accum, new_accum)
    return out


def check_bits(bits, fn: str, arg: str) -> int:
    if isinstance(bits, bool) or not isinstance(bits, int) or not 1 <= bits <= 16:
        raise ValueError(f"{fn}: {arg} must be an int from 1 to 16, got {bits!r}")
    return bits


def check_rate(rate, fn: str) -> float:
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
        raise ValueError(f"{fn}: moving_rate must be a number in [0, 1], got {rate!r}")
    return float(rate)


def state_parameter(layer: Layer, prefix: str, shape: list, value: float, dtype):
    """A non-trainable [shape] parameter named `prefix_N`, starting at `value` (Paddle's quant state)."""
    attr = ParamAttr(name=unique_name(prefix), initializer=Constant(value), trainable=False)
    p = layer.create_parameter(shape=shape, attr=attr, dtype=dtype)
    p.stop_gradient = True
    return p


class FakeQuantAbsMax(Layer):
    """Quantize and dequantize with scale = max |x|: Out = round(X / scale * bnt) * scale / bnt.

    Args:
        name: the prefix of the scale parameter's name (default 'quant_dequant.scale').
        quant_bits: bits of the grid (bnt = 2^(bits-1) - 1).
        dtype: the scale's dtype.
        quant_on_weight: keep the last scale in the parameter `_scale` (for weights).
        reduce_type: 'max' reduces the scale across ranks (accepted; one process here).
    """

    def __init__(self, name=None, quant_bits=8, dtype="float32", quant_on_weight=False, reduce_type=None):
        super().__init__()
        self._quant_bits = check_bits(quant_bits, "FakeQuantAbsMax", "quant_bits")
        self._name = name
        self._reduce_type = reduce_type
        self._scale_name = f"{name}.scale" if name else "quant_dequant.scale"
        self._scale = state_parameter(self, self._scale_name, [1], 0.001, dtype) if quant_on_weight else None

    def forward(self, input):
        out, scale = ops.fake_quantize_dequantize_abs_max(input, self._quant_bits)
        if self._scale is not None:
            write_state(self._scale, scale)
        return out


class FakeQuantMovingAverageAbsMax(Layer):
    """Quantize and dequantize with a moving-average abs-max scale: in training
    state = rate * state + 1, accum = rate * accum + max |x|, scale = accum / state; in eval the stored scale.

    Args:
        name: the prefix of the parameters' names (default 'quant_dequant').
        moving_rate: the decay of the moving average (0.9).
        quant_bits: bits of the grid.
        dtype: the parameters' dtype.
    """

    def __init__(self, name=None, moving_rate=0.9, quant_bits=8, dtype="float32", reduce_type=None):
        super().__init__()
        self._moving_rate = check_rate(moving_rate, "FakeQuantMovingAverageAbsMax")
        self._quant_bits = check_bits(quant_bits, "FakeQuantMovingAverageAbsMax", "quant_bits")
        self._reduce_type = reduce_type
        prefix = name if name else "quant_dequant"
        self._scale = state_parameter(self, f"{prefix}.scale", [1], 0.001, dtype)
        self._state = state_parameter(self, f"{prefix}.state", [1], 1.0, dtype)
        self._accum = state_parameter(self, f"{prefix}.accum", [1], 1.0, dtype)

    def forward(self, input):
        return moving_average_quant_dequant(input, self._scale, self._state, self._accum, self._moving_rate,
                                            self._quant_bits, self.training)  # fmt: skip


class FakeQuantChannelWiseAbsMax(Layer):
    """Quantize and dequantize a weight with one abs-max scale per channel along quant_axis (0 for conv weights,
    1 for Linear's [in, out]); the scales are kept in `_scale` [channel_num]."""

    def __init__(self, name=None, channel_num=None, quant_bits=8, quant_axis=0, dtype="float32",
                 quant_on_weight=False, reduce_type=None):  # fmt: skip
        if not quant_on_weight:
            raise ValueError("FakeQuantChannelWiseAbsMax: channel-wise quantization is for weights only "
                             "(quant_on_weight=True)")  # fmt: skip
        if isinstance(channel_num, bool) or not isinstance(channel_num, int) or channel_num <= 0:
            raise ValueError(f"FakeQuantChannelWiseAbsMax: channel_num must be a positive int, got {channel_num!r}")
        if quant_axis not in (0, 1):
            raise ValueError(f"FakeQuantChannelWiseAbsMax: quant_axis must be 0 or 1, got {quant_axis!r}")
        super().__init__()
        self._quant_bits = check_bits(quant_bits, "FakeQuantChannelWiseAbsMax", "quant_bits")
        self._quant_axis = quant_axis
        self._dtype = dtype
        self._name = name
        self._channel_num = channel_num
        self._reduce_type = reduce_type
        self._scale_name = f"{name}.scale" if name else "quant_dequant.scale"
        self._scale = state_parameter(self, self._scale_name, [channel_num], 0.0, dtype)

    def forward(self, input):
        out, scale = ops.fake_channel_wise_quantize_dequantize_abs_max(
            input, self._quant_bits, quant_axis=self._quant_axis
        )
        write_state(self._scale, scale)
        return out


class MovingAverageAbsMaxScale(Layer):
    """Record the moving-average abs-max of what passes through (the output scale), in training; Out = X.
    The parameters `_scale`, `_state`, `_accum` start at 0."""

    def __init__(self, name=None, moving_rate=0.9, dtype="float32", reduce_type=None):
        super().__init__()
        self._moving_rate = check_rate(moving_rate, "MovingAverageAbsMaxScale")
        self._reduce_type = reduce_type
        prefix = name if name else "outscale"
        self._scale = state_parameter(self, f"{prefix}.scale", [1], 0.0, dtype)
        self._state = state_parameter(self, f"{prefix}.state", [1], 0.0, dtype)
        self._accum = state_parameter(self, f"{prefix}.accum", [1], 0.0, dtype)

    def forward(self, input):
        training = self.training
        # In eval the op reads the statistics too (and changes nothing): a saved Program then holds what the
        # output scale is, accum / state, for save_quantized_model to find (Paddle's op writes the scale parameter).
        out, scale, state, accum = ops.moving_average_abs_max_scale(
            input, self._accum, self._state, self._moving_rate, is_test=not training
        )
        if training:
            write_state(self._scale, scale)
            write_state(self._state, state)
            write_state(self._accum, accum)
        return out


QuantStub = MovingAverageAbsMaxScale


_FAKE_QUANT = {
    "abs_max": FakeQuantAbsMax,
    "moving_average_abs_max": FakeQuantMovingAverageAbsMax,
    "channel_wise_abs_max": FakeQuantChannelWiseAbsMax,
}


def fake_quant_layer(quant_type: str, name=None, moving_rate=0.9, quant_bits=8, dtype="float32",
                     quant_on_weight=False, channel_num=None, quant_axis=0) -> Layer:  # fmt: skip
    """The fake-quant layer for a quantize type ('abs_max', 'moving_average_abs_max', 'channel_wise_abs_max')."""
    if quant_type not in _FAKE_QUANT:
        raise ValueError(f"fake quant: quantize type must be one of {sorted(_FAKE_QUANT)}, got {quant_type!r}")
    if quant_type == "abs_max":
        return FakeQuantAbsMax(name, quant_bits, dtype, quant_on_weight)
    if quant_type == "moving_average_abs_max":
        return FakeQuantMovingAverageAbsMax(name, moving_rate, quant_bits, dtype)
    return FakeQuantChannelWiseAbsMax(name, channel_num, quant_bits, quant_axis, dtype, quant_on_weight)


class _QuantizedWeighted(Layer):
    """What the quantized conv and linear layers share: the wrapped layer's weight and bias, a weight quanter and
    an input quanter (custom classes may replace them), and optional preprocess layers (e.g. PACT)."""

    quant_axis = 0

    def __init__(self, layer, weight_bits=8, activation_bits=8, moving_rate=0.9, weight_quantize_type="abs_max",
                 activation_quantize_type="abs_max", weight_pre_layer=None, act_pre_layer=None,
                 weight_quant_layer=None, act_quant_layer=None):  # fmt: skip
        super().__init__()
        self.weight = layer.weight
        self.bias = layer.bias
        self._dtype = getattr(layer, "_dtype", get_default_dtype())
        if weight_quant_layer is not None:
            self._fake_quant_weight = weight_quant_layer()
        else:
            self._fake_quant_weight = fake_quant_layer(
                weight_quantize_type, self.weight.name, moving_rate, weight_bits, "float32", quant_on_weight=True,
                channel_num=self.weight.shape[self.quant_axis], quant_axis=self.quant_axis,
            )  # fmt: skip
        if act_quant_layer is not None:
            self._fake_quant_input = act_quant_layer()
        else:
            self._fake_quant_input = fake_quant_layer(activation_quantize_type, layer.full_name(), moving_rate,
                                                      activation_bits, "float32")  # fmt: skip
        self._act_preprocess = act_pre_layer() if act_pre_layer is not None else None
        self._weight_preprocess = weight_pre_layer() if weight_pre_layer is not None else None

    def _quantized(self, input) -> tuple:
        if self._act_preprocess is not None:
            input = self._act_preprocess(input)
        weight = self.weight if self._weight_preprocess is None else self._weight_preprocess(self.weight)
        return self._fake_quant_input(input), self._fake_quant_weight(weight)


class _QuantizedConv(_QuantizedWeighted):
    def __init__(self, layer, *args, **kwargs):
        super().__init__(layer, *args, **kwargs)
        self._groups, self._stride, self._dilation = layer._groups, layer._stride, layer._dilation
        self._padding, self._padding_mode, self._data_format = layer._padding, layer._padding_mode, layer._data_format
        self._pad_first = layer._pad_first

    def _padded(self, x) -> tuple:
        if self._pad_first is None:
            return x, self._padding
        return F.pad(x, self._pad_first, mode=self._padding_mode, data_format=self._data_format), 0


class QuantizedConv2D(_QuantizedConv):
    """Conv2D with its input and weight fake-quantized (weight channels along axis 0). The arguments are
    ImperativeQuantAware's: weight_bits, activation_bits, moving_rate, weight_quantize_type,
    activation_quantize_type, and optional preprocess / quantize Layer classes."""

    quant_axis = 0

    def forward(self, input):
        x, w = self._quantized(input)
        x, padding = self._padded(x)
        return F.conv2d(x, w, self.bias, self._stride, padding, self._dilation, self._groups, self._data_format)


class QuantizedConv2DTranspose(_QuantizedConv):
    """Conv2DTranspose with its input and weight fake-quantized (weight channels along axis 1)."""

    quant_axis = 1

    def __init__(self, layer, *args, **kwargs):
        super().__init__(layer, *args, **kwargs)
        self._output_padding = layer.output_padding

    def forward(self, input, output_size=None):
        x, w = self._quantized(input)
        output_padding = self._output_padding if output_size is None else 0
        return F.conv2d_transpose(x, w, self.bias, stride=self._stride, padding=self._padding,
                                  output_padding=output_padding, dilation=self._dilation, groups=self._groups,
                                  output_size=output_size, data_format=self._data_format)  # fmt: skip


class QuantizedLinear(_QuantizedWeighted):
    """Linear with its input and weight fake-quantized (weight [in, out], channels along axis 1)."""

    quant_axis = 1

    def __init__(self, layer, *args, **kwargs):
        super().__init__(layer, *args, **kwargs)
        self.name = getattr(layer, "name", None)

    def forward(self, input):
        x, w = self._quantized(input)
        return F.linear(x, w, self.bias)


class QuantizedMatmul(Layer):
    """paddle.matmul with both inputs fake-quantized (activation quantizers)."""

    def __init__(self, layer=None, weight_bits=8, activation_bits=8, moving_rate=0.9, weight_quantize_type="abs_max",
                 activation_quantize_type="abs_max", weight_pre_layer=None, act_pre_layer=None,
                 weight_quant_layer=None, act_quant_layer=None):  # fmt: skip
        super().__init__()
        make = act_quant_layer or (lambda: fake_quant_layer(activation_quantize_type, None, moving_rate,
                                                            activation_bits))  # fmt: skip
        self._fake_quant_x, self._fake_quant_y = make(), make()
        self._act_preprocess_x = act_pre_layer() if act_pre_layer is not None else None
        self._act_preprocess_y = act_pre_layer() if act_pre_layer is not None else None

    def forward(self, x, y, transpose_x=False, transpose_y=False, name=None):

        if self._act_preprocess_x is not None:
            x = self._act_preprocess_x(x)
        if self._act_preprocess_y is not None:
            y = self._act_preprocess_y(y)
        return matmul(self._fake_quant_x(x), self._fake_quant_y(y), transpose_x, transpose_y)


class MAOutputScaleLayer(Layer):
    """`layer` followed by a MovingAverageAbsMaxScale that records its output scale (outputs that are tuples, lists
    or dicts pass unrecorded)."""

    def __init__(self, layer=None, moving_rate=0.9, name=None, dtype="float32", reduce_type=None):
        super().__init__()
        self._layer = layer
        self._ma_output_scale = MovingAverageAbsMaxScale(layer.full_name() if name is None else name, moving_rate,
                                                         dtype, reduce_type)  # fmt: skip

    def forward(self, *inputs, **kwargs):
        out = self._layer(*inputs, **kwargs)
        return out if isinstance(out, (list, tuple, dict)) else self._ma_output_scale(out)


class FakeQuantMAOutputScaleLayer(Layer):
    """`layer` followed by a FakeQuantMovingAverageAbsMax on its output (for the float functional layers)."""

    def __init__(self, layer, weight_bits=8, activation_bits=8, moving_rate=0.9, name=None, reduce_type=None,
                 *args, **kwargs):  # fmt: skip
        super().__init__()
        self._layer = layer
        self._fake_quant_output = FakeQuantMovingAverageAbsMax(layer.full_name() if name is None else name,
                                                               moving_rate, activation_bits)  # fmt: skip

    def forward(self, *inputs, **kwargs):
        out = self._layer(*inputs, **kwargs)
        return out if isinstance(out, (list, tuple)) and len(out) > 1 else self._fake_quant_output(out)
