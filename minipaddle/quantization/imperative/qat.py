"""ImperativeQuantAware: the 2.0-era dygraph QAT API (paddle.quantization.ImperativeQuantAware in 2.6).

quantize(model), in place:
1. each Conv2D / Linear / Conv2DTranspose (of quantizable_layer_type, without `skip_quant = True`) becomes
   QuantizedConv2D / QuantizedLinear / QuantizedConv2DTranspose: weight fake-quantized with abs_max or
   channel_wise_abs_max, input with moving_average_abs_max;
2. every quantized layer and every other leaf layer (ReLU, pooling, BatchNorm, ...) is wrapped in a
   MAOutputScaleLayer, which records the moving-average abs-max of its output: the output scales a server-side
   int8 engine needs (not with onnx_format, which records the quantized layers' only).
save_quantized_model(model, path, input_spec) then writes the inference model (quantization/saved_model.py).
"""

from __future__ import annotations

from minipaddle import nn
from minipaddle.nn.layer.layers import Layer
from minipaddle.nn.quant import quant_layers
from minipaddle.nn.quant.functional_layers import FloatFunctionalLayer
from minipaddle.quantization.imperative import fuse_utils
from minipaddle.quantization.imperative.fuse_utils import find_parent_layer_and_sub_name
from minipaddle.quantization.saved_model import save_quantized_model

__all__ = ["ImperativeQuantAware", "ImperativeQuantizeInputs", "ImperativeQuantizeOutputs"]

LAYER_NAME_MAP = {
    "Conv2DTranspose": nn.Conv2DTranspose, "Conv2D": nn.Conv2D, "Linear": nn.Linear,
    "AdaptiveAvgPool2D": nn.AdaptiveAvgPool2D, "AdaptiveMaxPool2D": nn.AdaptiveMaxPool2D, "AvgPool2D": nn.AvgPool2D,
    "MaxPool2D": nn.MaxPool2D, "Hardswish": nn.Hardswish, "LeakyReLU": nn.LeakyReLU, "PReLU": nn.PReLU,
    "ReLU": nn.ReLU, "ReLU6": nn.ReLU6, "Sigmoid": nn.Sigmoid, "Softmax": nn.Softmax, "Swish": nn.Swish,
    "Tanh": nn.Tanh, "BatchNorm": nn.BatchNorm, "GroupNorm": nn.GroupNorm, "LayerNorm": nn.LayerNorm,
}  # fmt: skip
# The input-quantized layer for each quantizable type.
QUANTIZED = {
    nn.Conv2D: quant_layers.QuantizedConv2D,
    nn.Linear: quant_layers.QuantizedLinear,
    nn.Conv2DTranspose: quant_layers.QuantizedConv2DTranspose,
}
FAKE_QUANT_LEAF_LAYERS = (quant_layers.FakeQuantAbsMax, quant_layers.FakeQuantChannelWiseAbsMax,
                          quant_layers.FakeQuantMovingAverageAbsMax, quant_layers.MovingAverageAbsMaxScale)  # fmt: skip
FAKE_QUANT_WRAP_LAYERS = (quant_layers.QuantizedConv2D, quant_layers.QuantizedLinear,
                          quant_layers.QuantizedConv2DTranspose)  # fmt: skip
_MODEL_PARALLEL = ("ColumnParallelLinear", "RowParallelLinear")  # Paddle's defaults; no model parallelism here
WEIGHT_TYPES = ("abs_max", "channel_wise_abs_max")
ACTIVATION_TYPES = ("moving_average_abs_max",)


def _check_layer_class(value, fn: str, arg: str):
    if value is not None and not (isinstance(value, type) and issubclass(value, Layer)):
        raise TypeError(f"{fn}: {arg} must be a Layer subclass or None, got {value!r}")
    return value


def _check_bits(bits, fn: str, arg: str) -> int:
    if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 16:
        raise ValueError(f"{fn}: {arg} must be an int from 1 to 16, got {bits!r}")
    return bits


class ImperativeQuantizeInputs:
    """Step 1 of ImperativeQuantAware: replace the quantizable layers by their input-quantized forms."""

    def __init__(self, quantizable_layer_type=("Conv2D", "Linear", "Conv2DTranspose"), weight_quantize_type="abs_max",
                 activation_quantize_type="moving_average_abs_max", weight_bits=8, activation_bits=8, moving_rate=0.9,
                 weight_preprocess_layer=None, act_preprocess_layer=None, weight_quantize_layer=None,
                 act_quantize_layer=None):  # fmt: skip
        fn = "ImperativeQuantAware"
        if isinstance(quantizable_layer_type, (str, type)):
            quantizable_layer_type = [quantizable_layer_type]
        types = []
        for t in quantizable_layer_type:
            if t in _MODEL_PARALLEL:
                continue
            t = LAYER_NAME_MAP.get(t, t) if isinstance(t, str) else t
            if t not in QUANTIZED:
                raise ValueError(f"{fn}: quantizable_layer_type may hold 'Conv2D', 'Linear', 'Conv2DTranspose' (or "
                                 f"those classes), got {t!r}")  # fmt: skip
            types.append(t)
        self._quantizable_layer_type = tuple(types)
        if weight_quantize_type not in WEIGHT_TYPES:
            raise ValueError(f"{fn}: weight_quantize_type must be one of {list(WEIGHT_TYPES)}, got "
                             f"{weight_quantize_type!r}")  # fmt: skip
        if activation_quantize_type not in ACTIVATION_TYPES:
            raise ValueError(f"{fn}: activation_quantize_type must be 'moving_average_abs_max' in dygraph "
                             f"(abs_max and range_abs_max are for static programs), got "
                             f"{activation_quantize_type!r}")  # fmt: skip
        self._kwargs = {
            "weight_quantize_type": weight_quantize_type,
            "activation_quantize_type": activation_quantize_type,
            "weight_bits": _check_bits(weight_bits, fn, "weight_bits"),
            "activation_bits": _check_bits(activation_bits, fn, "activation_bits"),
            "moving_rate": quant_layers.check_rate(moving_rate, fn),
            "weight_pre_layer": _check_layer_class(weight_preprocess_layer, fn, "weight_preprocess_layer"),
            "act_pre_layer": _check_layer_class(act_preprocess_layer, fn, "act_preprocess_layer"),
            "weight_quant_layer": _check_layer_class(weight_quantize_layer, fn, "weight_quantize_layer"),
            "act_quant_layer": _check_layer_class(act_quantize_layer, fn, "act_quantize_layer"),
        }

    def apply(self, model: Layer) -> None:
        for name, layer in list(model.named_sublayers()):
            if not isinstance(layer, self._quantizable_layer_type) or getattr(layer, "skip_quant", False) is True:
                continue
            parent, sub_name = find_parent_layer_and_sub_name(model, name)
            quantized = next(q for t, q in QUANTIZED.items() if type(layer) is t or isinstance(layer, t))
            setattr(parent, sub_name, quantized(layer, **self._kwargs))


class ImperativeQuantizeOutputs:
    """Step 2 of ImperativeQuantAware: record output scales (MAOutputScaleLayer around target layers)."""

    def __init__(self, moving_rate=0.9, activation_bits=8, onnx_format=False):
        self._moving_rate = moving_rate
        self._activation_bits = activation_bits
        self._onnx_format = onnx_format

    def apply(self, model: Layer) -> None:
        for name, layer in list(model.named_sublayers()):
            if "_act_preprocess" in name or not self._is_target_layer(layer):
                continue
            parent, sub_name = find_parent_layer_and_sub_name(model, name)
            if getattr(parent, sub_name) is not layer:  # already wrapped (a shared layer met twice)
                continue
            setattr(parent, sub_name, quant_layers.MAOutputScaleLayer(layer, self._moving_rate))

    def _is_target_layer(self, layer) -> bool:
        if self._onnx_format:
            return isinstance(layer, FAKE_QUANT_WRAP_LAYERS)
        leaf = not layer._sub_layers and not isinstance(layer, FAKE_QUANT_LEAF_LAYERS)
        return leaf or isinstance(layer, FAKE_QUANT_WRAP_LAYERS) or isinstance(layer, FloatFunctionalLayer)

    def save_quantized_model(self, model, path, input_spec=None, **config) -> None:
        save_quantized_model(model, path, input_spec, onnx_format=self._onnx_format,
                             activation_bits=self._activation_bits, **config)  # fmt: skip


class ImperativeQuantAware:
    """Quantization-aware training in dygraph, the 2.0 way.

    Args:
        quantizable_layer_type: layer types (names or classes) whose inputs and weights are fake-quantized
            ('Conv2D', 'Linear', 'Conv2DTranspose'; Paddle's model-parallel names are accepted and skipped).
        weight_quantize_type: 'abs_max' or 'channel_wise_abs_max'.
        activation_quantize_type: 'moving_average_abs_max'.
        weight_bits, activation_bits: bits of the grids (8).
        moving_rate: the decay of the activations' moving average (0.9).
        fuse_conv_bn: fold each Conv2D + BatchNorm2D pair first (the model must be in eval mode).
        weight_preprocess_layer, act_preprocess_layer: Layer classes run on the weight / input before quantizing
            (e.g. PACT).
        weight_quantize_layer, act_quantize_layer: Layer classes replacing the default fake-quant layers.
        onnx_format: save with quantize_linear / dequantize_linear ops instead of fake ops plus threshold attributes.

    Example:
        >>> imperative_qat = ImperativeQuantAware(weight_quantize_type='channel_wise_abs_max')
        >>> imperative_qat.quantize(model)      # in place; then train as usual
        >>> imperative_qat.save_quantized_model(model, './qat/lenet',
        ...     input_spec=[paddle.static.InputSpec([None, 1, 28, 28], 'float32')])
    """

    def __init__(self, quantizable_layer_type=("Conv2D", "Linear", "Conv2DTranspose", "ColumnParallelLinear",
                                               "RowParallelLinear"),
                 weight_quantize_type="abs_max", activation_quantize_type="moving_average_abs_max", weight_bits=8,
                 activation_bits=8, moving_rate=0.9, fuse_conv_bn=False, weight_preprocess_layer=None,
                 act_preprocess_layer=None, weight_quantize_layer=None, act_quantize_layer=None,
                 onnx_format=False):  # fmt: skip
        self.fuse_conv_bn = bool(fuse_conv_bn)
        self._quantize_inputs = ImperativeQuantizeInputs(
            quantizable_layer_type, weight_quantize_type, activation_quantize_type, weight_bits, activation_bits,
            moving_rate, weight_preprocess_layer, act_preprocess_layer, weight_quantize_layer, act_quantize_layer,
        )  # fmt: skip
        self._quantize_outputs = ImperativeQuantizeOutputs(moving_rate, activation_bits, bool(onnx_format))

    def quantize(self, model: Layer) -> Layer:
        """Put the fake-quant layers into `model`, in place (and return it)."""
        if not isinstance(model, Layer):
            raise TypeError(f"ImperativeQuantAware.quantize: model must be a paddle.nn.Layer, got "
                            f"{type(model).__name__}")  # fmt: skip
        if self.fuse_conv_bn:
            fuse_utils.fuse_conv_bn(model)
        self._quantize_inputs.apply(model)
        self._quantize_outputs.apply(model)
        return model

    def save_quantized_model(self, layer, path, input_spec=None, **config) -> None:
        """Save the quantized model for inference (`path.pdmodel`, `path.pdiparams`): the fake quant-dequant ops stay,
        and the scales become op attributes (`X0_threshold`, `out_threshold`, ...) as Paddle 2.6 writes them; with
        onnx_format, quantize_linear / dequantize_linear ops with the weights stored as integer levels."""
        self._quantize_outputs.save_quantized_model(layer, path, input_spec, **config)
