"""The onnx_format passes that make an inference graph of quantize_linear / dequantize_linear pairs.

QuantWeightPass: the onnx_format test graph's weights frozen to int8 (Paddle's convert(onnx_format=True), step 1).

    w -> quantize_linear -> w.quantized -> dequantize_linear -> w.quantized.dequantized -> conv2d
becomes
    w (int8 levels in the scope) -> dequantize_linear -> w.quantized.dequantized -> conv2d

The levels are round(w / s * 127) clipped to [-128, 127] with the scale the quantize_linear op holds (per
channel along its quant_axis, or one scale), as Paddle's utils.quant_tensor(onnx_format=True); a weight read by
several ops is quantized once. Activations keep their quantize_linear / dequantize_linear pairs.

AddQuantDequantForInferencePass (convert's step 2, and PostTrainingQuantization(onnx_format=True)'s): after each
float output `out` of the ops in its teller set, a pair that reads the scale `out@scale` (an output scale
OutScaleForTrainingPass recorded, or a value of calibration_range_dict; an output with neither is skipped with a
warning, as Paddle's), zero point `out.quantized@zero_point` for both ops, attributes quant_axis -1, bit_length
and only_observer (True by default: the pair only carries the scale to the inference engine and passes values
through). The observers (moving_average_abs_max_scale) are dropped, and the ops of Paddle's quantizable table
that read `out` read `out.quantized.dequantized` instead; other readers keep `out`. As in Paddle, an output that
already has a pair (the V2 passes' pairs on pool2d's input, say) gets a second, identical one.

ReplaceFakeQuantDequantPass (ImperativeQuantAware.save_quantized_model(onnx_format=True)): each fake
quantize-dequantize op and each observer with an output becomes the pair
    x -> quantize_linear(Scale=its OutScale, ZeroPoint=x@zero_point) -> x.quantized -> dequantize_linear -> its Out
with its quant_axis (-1 if none) and bit_length (else quant_bits); an observer reading another observer's output
is removed instead, its readers reading that output.
"""

from __future__ import annotations

import warnings

import numpy as np

from minipaddle.static.quantization.freeze import quant_tensor
from minipaddle.static.quantization.op_types import SUPPORT_QUANTIZATION_OPS, inputs_in_paddle_order, is_one_of
from minipaddle.static.quantization.out_scale import _measured_outputs
from minipaddle.static.quantization.transform import _check_graph, _op

__all__ = ["AddQuantDequantForInferencePass", "QuantWeightPass", "ReplaceFakeQuantDequantPass"]

_FAKE_QUANT_DEQUANT = ("fake_quantize_dequantize_moving_average_abs_max",
                       "fake_channel_wise_quantize_dequantize_abs_max", "fake_quantize_dequantize_abs_max")  # fmt: skip
_OBSERVER = "moving_average_abs_max_scale"


class QuantWeightPass:
    """Quantize the weights of quantize_linear ops offline and drop those ops.

    Args:
        scope (Scope): holds the weights (rewritten as int8 levels) and their scales.
        place: accepted for Paddle's signature (minipaddle runs on the CPU).
        bias_correction (bool): Paddle's weight bias correction (raises NotImplementedError if True).
        quant_bits (int): 8 (Paddle stores int8 only for 8 bits).
        save_int_weight (bool): store the levels as int8 (True) or as float levels.
    """

    def __init__(self, scope, place=None, bias_correction=False, quant_bits=8, save_int_weight=True):
        if scope is None:
            raise ValueError("QuantWeightPass: scope must not be None")
        if bias_correction:
            raise NotImplementedError("QuantWeightPass: bias_correction is not supported in minipaddle")
        if save_int_weight and int(quant_bits) != 8:
            raise ValueError(f"QuantWeightPass: save_int_weight stores int8, so quant_bits must be 8, got {quant_bits}")
        self._scope = scope
        self._save_int_weight = bool(save_int_weight)
        self._quantized: set = set()

    def apply(self, graph):
        _check_graph(graph, "QuantWeightPass")
        persistable = {v.name() for v in graph.all_persistable_nodes()}
        for op in list(graph.block.ops):
            if op.type != "quantize_linear" or op.inputs["x"][0] not in persistable:
                continue
            w, scale = op.inputs["x"][0], op.inputs["scale"][0]
            out = op.outputs["Out"][0]
            scale_v = np.array(self._scope.vars[scale])
            if scale_v.ndim not in (1, 2):
                raise ValueError(f"QuantWeightPass: the scale {scale} must be 1-D or 2-D, got shape {scale_v.shape}")
            scale_v = (scale_v[0] if scale_v.ndim == 2 else scale_v).tolist()  # (Paddle's [1, C] PTQ scales)
            if w not in self._quantized:
                self._quantized.add(w)
                levels = quant_tensor(np.array(self._scope.vars[w]), scale_v, op.attrs["quant_axis"],
                                      op.attrs["bit_length"], onnx_format=True)  # fmt: skip
                if self._save_int_weight:
                    levels = levels.astype(np.int8)
                self._scope.vars[w] = levels
                graph.set_dtype(w, levels.dtype)  # (the Program says what the file will hold)
            for reader in graph.readers(out):
                graph.update_input_link(out, w, reader)
            graph.remove_op(op)
        graph.remove_unused_vars()
        return graph


def _check_bits(who: str, bits) -> int:
    if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)) or not 1 < bits <= 16:
        raise ValueError(f"{who}: quant_bits must be an int in [2, 16], got {bits!r}")
    return int(bits)


def _zero_point(graph, scope, name: str, scale: str) -> str:
    """The int32 zero point `name` shaped as the scale (Paddle's symmetric scheme: zeros), or the one there is."""
    if graph.has_var(name) and graph.var(name).persistable:
        return name
    return graph.create_persistable(name, np.zeros(graph.var(scale).shape, np.int32), scope).name


class AddQuantDequantForInferencePass:
    """Insert quantize_linear / dequantize_linear pairs after the outputs of the teller ops, for inference.

    Args:
        scope (Scope): holds the output scales (`{out}@scale`); the new scales and zero points go there.
        place: accepted for Paddle's signature (minipaddle runs on the CPU).
        quant_bits (int): bit_length of the pairs (default 8).
        quantizable_op_type (list): Paddle op types whose outputs get a pair; empty (default): Paddle's whole
            quantizable table.
        calibration_range_dict (dict|None): {variable name: scale} for outputs without a `@scale` variable.
        only_observer (bool): the pairs pass values through unchanged (default True) or quantize them.
    """

    def __init__(self, scope, place=None, quant_bits=8, quantizable_op_type=[],  # noqa: B006 (Paddle's default)
                 calibration_range_dict=None, only_observer=True):  # fmt: skip
        who = "AddQuantDequantForInferencePass"
        if scope is None:
            raise ValueError(f"{who}: scope must not be None")
        for op in quantizable_op_type:
            if op not in SUPPORT_QUANTIZATION_OPS:
                raise ValueError(f"{who}: {op!r} is not supported for quantization; supported: "
                                 f"{list(SUPPORT_QUANTIZATION_OPS)}")  # fmt: skip
        if calibration_range_dict is not None and not isinstance(calibration_range_dict, dict):
            got = type(calibration_range_dict).__name__
            raise TypeError(f"{who}: calibration_range_dict must be a dict, got {got}")
        self._scope = scope
        self._bits = _check_bits(who, quant_bits)
        self._teller = list(quantizable_op_type) or list(SUPPORT_QUANTIZATION_OPS)
        self._ranges = calibration_range_dict or {}
        self._only_observer = bool(only_observer)

    def apply(self, graph):
        _check_graph(graph, "AddQuantDequantForInferencePass")
        const = graph.constant_names()  # (minipaddle's reshaped bias is no activation)
        # minipaddle's test-mode observer does not name the `{x}@scale` it stands for (its kernel would write
        # zeros there), so a pass that drops unused variables (QuantWeightPass) drops it: declare it again
        for op in graph.block.ops:
            scale = f"{op.inputs['x'][0]}@scale" if op.type == _OBSERVER else None
            if scale and not graph.has_var(scale) and scale in self._scope.vars:
                graph.create_persistable(scale, np.asarray(self._scope.vars[scale]), self._scope)
        dequantized: dict = {}
        for op in list(graph.block.ops):
            if not is_one_of(op, self._teller):
                continue
            for name in _measured_outputs(graph, op):
                if name not in const and name not in dequantized:
                    dequantized[name] = self._insert_pair(graph, op, name)
        for op in list(graph.block.ops):
            if op.type == _OBSERVER:
                graph.remove_op(op)
            elif is_one_of(op, SUPPORT_QUANTIZATION_OPS):  # (Paddle relinks only the ops of its quantizable table)
                for _, name in inputs_in_paddle_order(op):
                    if dequantized.get(name):
                        graph.update_input_link(name, dequantized[name], op)
        graph.remove_unused_vars()
        return graph

    def _insert_pair(self, graph, op, name: str):
        """The pair after `op` on its output `name`; returns the dequantized name, or None without a scale."""
        x = graph.var(name)
        scale = f"{name}@scale"
        if not (graph.has_var(scale) and graph.var(scale).persistable):
            if name not in self._ranges:
                warnings.warn(f"AddQuantDequantForInferencePass: no scale for {name} (neither {scale} nor a "
                              "calibration range), so no quant node is added", stacklevel=3)  # fmt: skip
                return None
            value = np.array([self._ranges[name]], x.dtype.np).reshape(1)
            graph.create_persistable(scale, value, self._scope, x)
        q = graph.create_var(f"{name}.quantized", x).name
        dq = graph.create_var(f"{q}.dequantized", x).name
        zero = _zero_point(graph, self._scope, f"{q}@zero_point", scale)
        attrs = {"quant_axis": -1, "bit_length": self._bits, "only_observer": self._only_observer}
        quant = graph.insert_after(op, _op("quantize_linear", [name, scale, zero, None, None], [q], attrs, op))
        graph.insert_after(quant, _op("dequantize_linear", [q, scale, zero], [dq], dict(attrs), op))
        return dq


class ReplaceFakeQuantDequantPass:
    """Replace the fake quantize-dequantize ops (and observers with an output) by quantize_linear /
    dequantize_linear pairs.

    Args:
        scope (Scope): the new zero points go there.
        place: accepted for Paddle's signature (minipaddle runs on the CPU).
        quant_bits (int): bit_length of a replaced op that has none (default 8).
    """

    def __init__(self, scope, place=None, quant_bits=8):
        if scope is None:
            raise ValueError("ReplaceFakeQuantDequantPass: scope must not be None")
        self._scope = scope
        self._bits = _check_bits("ReplaceFakeQuantDequantPass", quant_bits)

    def apply(self, graph):
        _check_graph(graph, "ReplaceFakeQuantDequantPass")
        ops = graph.block.ops
        observed = {op.outputs["Out"][0] for op in ops if op.type == _OBSERVER}
        replaced = [op for op in ops if op.type in _FAKE_QUANT_DEQUANT + (_OBSERVER,)]
        for op in replaced:
            x, out = op.inputs["x"][0], op.outputs["Out"][0]
            if x in observed:  # (an observer of an observer's output measures nothing new)
                for reader in graph.readers(out):
                    graph.update_input_link(out, x, reader)
                graph.remove_op(op)
                continue
            scale = self._scale(graph, op)
            bits = int(op.attrs.get("bit_length", self._bits))
            attrs = {"quant_axis": int(op.attrs.get("quant_axis", -1)), "bit_length": bits}
            zero = _zero_point(graph, self._scope, f"{x}@zero_point", scale)
            q = graph.create_var(f"{x}.quantized", graph.var(x)).name
            graph.insert_before(op, _op("quantize_linear", [x, scale, zero, None, None], [q], attrs, op))
            graph.insert_before(op, _op("dequantize_linear", [q, scale, zero], [out], dict(attrs), op))
            graph.remove_op(op)
        graph.remove_unused_vars()
        return graph

    @staticmethod
    def _scale(graph, op) -> str:
        """The op's OutScale. minipaddle's test-mode observer writes a stand-in there (its kernel computes no
        scale when is_test) and reads `{x}@scale`, which is Paddle's OutScale variable."""
        scale = op.outputs["Out"][1]
        if op.type == _OBSERVER and not graph.var(scale).persistable:
            recorded = f"{op.inputs['x'][0]}@scale"
            if graph.has_var(recorded):
                return recorded
        return scale
