"""ImperativePTQ: the 2.0-era post-training quantization of a dygraph model.

    ptq = ImperativePTQ(PTQConfig(KLQuantizer(), PerChannelAbsmaxQuantizer()))
    model = ptq.quantize(model, fuse=True, fuse_list=[["conv", "bn"]])   # hooks that sample inputs and outputs
    for images in calibration: model(images)
    ptq.save_quantized_model(model, "./ptq/lenet", input_spec=[...])

quantize() puts a forward post hook on every supported leaf layer (Conv2D, Linear, pooling, activations, BN): it
feeds the layer's outputs (and, for Conv2D / Linear, inputs) to the activation quantizers. save_quantized_model()
computes the thresholds, records each layer's output threshold for its ops, replaces Conv2D / Linear with
QuantizedConv2D / QuantizedLinear holding the input and weight scales, traces the model into a Program, and
gives every op the thresholds of its inputs (`X0_threshold`, ...), as Paddle 2.6 saves it.
"""

from __future__ import annotations

import copy

import numpy as np

from minipaddle.nn.layer.layers import Layer
from minipaddle.ops.fake_quant import channel_abs_max
from minipaddle.quantization.imperative import fuse_utils
from minipaddle.quantization.imperative.ptq_config import PTQConfig, default_ptq_config
from minipaddle.quantization.imperative.ptq_quantizer import AbsmaxQuantizer
from minipaddle.quantization.imperative.ptq_registry import PTQRegistry
from minipaddle.quantization.imperative.qat import LAYER_NAME_MAP, QUANTIZED, find_parent_layer_and_sub_name
from minipaddle.quantization.saved_model import (
    FAKE_QDQ,
    _fold_scale_assigns,
    _naive,
    _paddle_slot,
    load_saved_layer,
    save_program,
)

__all__ = ["ImperativePTQ"]


def quant_forward_post_hook(layer, inputs, outputs):
    """Sample a layer's inputs (Conv2D / Linear) and outputs into its quantizers."""
    config = layer._quant_config
    if config.enable_in_act_quantizer:
        config.in_act_quantizer.sample_data(layer, tuple(inputs))
    config.out_act_quantizer.sample_data(layer, (outputs,))


class ImperativePTQ:
    """Post-training quantization in dygraph, the 2.0 way.

    Args:
        quant_config: a PTQConfig (default: KLQuantizer for activations, PerChannelAbsmaxQuantizer for weights).
    """

    def __init__(self, quant_config=default_ptq_config):
        if not isinstance(quant_config, PTQConfig):
            raise TypeError(f"ImperativePTQ: quant_config must be a PTQConfig, got {type(quant_config).__name__}")
        self._quant_config = quant_config

    def quantize(self, model: Layer, inplace=False, fuse=False, fuse_list=None) -> Layer:
        """Put the sampling hooks on the model's supported leaf layers (a deep copy unless inplace); with fuse,
        first fold the [conv, bn] pairs of fuse_list (in eval mode)."""
        if not isinstance(model, Layer):
            raise TypeError(f"ImperativePTQ.quantize: model must be a paddle.nn.Layer, got {type(model).__name__}")
        if not inplace:
            model = copy.deepcopy(model)
        if fuse:
            if fuse_list is None:
                raise TypeError("ImperativePTQ.quantize: with fuse=True, give fuse_list, e.g. [['conv1', 'bn1']]")
            model.eval()
            model = fuse_utils.fuse_layers(model, fuse_list)
        for _, layer in model.named_sublayers():
            if PTQRegistry.is_supported_layer(layer) and not layer._sub_layers and not _skipped(layer):
                config = copy.deepcopy(self._quant_config)
                config.enable_in_act_quantizer = PTQRegistry.is_simulated_quant_layer(layer)
                layer._quant_config = config
                config.quant_hook_handle = layer.register_forward_post_hook(quant_forward_post_hook)
        return model

    def save_quantized_model(self, model: Layer, path: str, input_spec=None, **config) -> None:
        """Compute the thresholds, put them into the model, and save it for inference (legacy format)."""

        self._convert(model)
        program, feeds, fetches, scope = load_saved_layer(model, input_spec, "ImperativePTQ.save_quantized_model")
        block = program.global_block()
        writers = {n: op for op in block.ops for n in op.output_names()}
        _clean_up(block)
        for op in block.ops:  # the thresholds of each op's inputs
            for slot, names in op.inputs.items():
                for index, name in enumerate(names):
                    prev = writers.get(name)
                    if prev is None:
                        continue
                    arg = _paddle_slot(op.type, slot, list(op.inputs).index(slot))
                    if prev.type in FAKE_QDQ:
                        scale_name = prev.inputs["in_scale"][0] if "in_scale" in prev.inputs else None
                        value = np.asarray(scope.vars[scale_name]) if scale_name else None
                        if value is None:  # a weight: its per-channel abs-max
                            w = np.asarray(scope.vars[flat(prev)[0]])
                            axis = prev.attrs.get("quant_axis", 0)
                            value = channel_abs_max(w, axis)
                        op.quant_attrs[f"{arg}{index}_threshold"] = _naive(value)
                        op.quant_attrs["with_quant_attr"] = True
                    elif "Out0_threshold" in prev.quant_attrs or "Output0_threshold" in prev.quant_attrs:
                        value = prev.quant_attrs.get("Out0_threshold", prev.quant_attrs.get("Output0_threshold"))
                        op.quant_attrs[f"{arg}{index}_threshold"] = value
                        op.quant_attrs["with_quant_attr"] = True
        program = _fold_scale_assigns(program)
        save_program(program, feeds, fetches, scope, path)

    def _convert(self, model: Layer) -> None:
        layers = [(name, layer) for name, layer in model.named_sublayers() if hasattr(layer, "_quant_config")]
        for _, layer in layers:
            config = layer._quant_config
            config.quant_hook_handle.remove()
            if config.enable_in_act_quantizer:
                config.in_act_quantizer.cal_thresholds()
            config.out_act_quantizer.cal_thresholds()
            if PTQRegistry.is_simulated_quant_layer(layer):
                config.wt_quantizer.sample_data(layer, (layer.weight,))
                config.wt_quantizer.cal_thresholds()
            _save_output_thresholds(layer, config)
        for name, layer in layers:
            if PTQRegistry.is_simulated_quant_layer(layer):
                parent, sub_name = find_parent_layer_and_sub_name(model, name)
                setattr(parent, sub_name, _simulated(layer))

    @staticmethod
    def _is_skip_layer(layer) -> bool:
        return _skipped(layer)


def _skipped(layer) -> bool:
    return getattr(layer, "skip_quant", False) is True


def _save_output_thresholds(layer: Layer, config) -> None:
    out = PTQRegistry.layer_info(layer).output_names[0]
    thresholds = config.out_act_quantizer.thresholds
    if len(thresholds) == 1:
        layer._customized_attrs = {f"{out}0_threshold": thresholds[0], "out_threshold": thresholds[0]}


def _simulated(layer: Layer) -> Layer:
    """The Quantized* layer for a calibrated Conv2D / Linear, its input and weight scales set to the thresholds."""
    config = layer._quant_config
    wt, act = config.wt_quantizer, config.in_act_quantizer
    kind = next(k for k, v in LAYER_NAME_MAP.items() if v in QUANTIZED and isinstance(layer, v))
    quantized = QUANTIZED[LAYER_NAME_MAP[kind]](
        layer, weight_quantize_type="abs_max" if isinstance(wt, AbsmaxQuantizer) else "channel_wise_abs_max",
        activation_quantize_type="moving_average_abs_max", weight_bits=wt.quant_bits, activation_bits=act.quant_bits,
    )  # fmt: skip
    if len(act.thresholds) == 1:
        quantized._fake_quant_input._scale.set_value(np.array([act.thresholds[0]], np.float32))
    quantized._fake_quant_weight._scale.set_value(np.array(wt.thresholds[0], np.float32).reshape(-1))
    _save_output_thresholds(quantized, config)
    return quantized


def flat(op) -> list:
    return [n for names in op.inputs.values() for n in names]


def _clean_up(block) -> None:
    """Thresholds belong on the ops they describe: none on the fake ops; a conv / matmul's output threshold moves
    to the bias add after it (as Paddle's _clean_up)."""

    readers = {}
    for op in block.ops:
        for n in flat(op):
            readers.setdefault(n, []).append(op)
    for op in block.ops:
        constant = all(n is None or block.var(n).persistable for n in flat(op))  # (the bias reshape)
        if op.type in FAKE_QDQ or op.type == "assign" or constant:
            op.quant_attrs.clear()
        elif op.type in ("conv2d", "matmul"):
            nxt = readers.get(op.output_names()[0], [])
            if len(nxt) != 1 or nxt[0].type != "add":
                continue
            old = "Output0_threshold" if op.type == "conv2d" else "Out0_threshold"
            for attr, new in ((old, "Out0_threshold"), ("out_threshold", "out_threshold")):
                if attr in op.quant_attrs and nxt[0].quant_attrs.get(attr) == op.quant_attrs[attr]:
                    value = op.quant_attrs.pop(attr)
                    nxt[0].quant_attrs.pop(attr, None)
                    nxt[0].quant_attrs[new] = value
                    nxt[0].quant_attrs["with_quant_attr"] = True
