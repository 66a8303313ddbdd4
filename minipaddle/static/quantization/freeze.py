"""QuantizationFreezePass and ConvertToInt8Pass: a QAT test graph turned into the inference form Paddle saves.

Freeze (Paddle 2.6's order, quantization_pass.py):
1. a weight's fake quantize op: the weight in the scope becomes its integer levels (clip to +-s, x / s * bnt,
   round half to even as numpy does) and the op goes; an activation's fake quantize op stays (is_test);
2. every fake dequantize op goes (its readers read what it dequantized);
3. after each op marked qat_with_weight, one dequantize of its output: fake_channel_wise_dequantize_max_abs with
   Scales [channel_scale_N (the weight's scales), the activation's scale] and quant_bits [w, a] for channel-wise
   weights, else fake_dequantize_max_abs with max_range = bnt_w / s_w * bnt_a; readers of the output read
   `{out}.dequantized`.
So `x -> quant -> dequant -> conv2d` becomes `x -> quant -> conv2d(integer weights) -> dequant`: the op computes on
the integer grid, and one multiply brings the result back.

ConvertToInt8Pass stores those integer weights as int8 variables `{w}.int8` and points the ops at them (the file
format for engines that run int8; minipaddle's conv2d / matmul kernels compute in float, so the Executor does not
run its result: static/passes/int8.py is minipaddle's runnable int8 Program).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import OPS
from minipaddle.core.state import unique_name
from minipaddle.static.builder import flat_inputs
from minipaddle.static.quantization.ir_graph import IrGraph
from minipaddle.static.quantization.op_types import weight_quant_axis
from minipaddle.static.quantization.transform import _check_graph, _op

__all__ = ["ConvertToInt8Pass", "QuantizationFreezePass"]

_FAKE_QUANT = ("fake_quantize_abs_max", "fake_quantize_range_abs_max", "fake_quantize_moving_average_abs_max",
               "fake_channel_wise_quantize_abs_max")  # fmt: skip
_FAKE_DEQUANT = ("fake_dequantize_max_abs", "fake_channel_wise_dequantize_max_abs")


def quant_tensor(x: np.ndarray, scale, quant_axis: int = 0, weight_bits: int = 8, onnx_format: bool = False):
    """Paddle's utils.quant_tensor, per channel along quant_axis when `scale` is a list (a zero scale counts as
    1e-8). Legacy: clip to +-s and x / s * bnt (the caller rounds). onnx_format: round(x / s * bnt) (numpy's
    ties to even) clipped to [-bnt-1, bnt], the levels quantize_linear computes."""
    bnt = (1 << (weight_bits - 1)) - 1
    x = np.array(x)

    def levels(v, s):
        s = 1e-8 if s == 0.0 else s
        if onnx_format:
            return np.clip(np.round(v / s * bnt), -bnt - 1, bnt)
        return np.clip(v, -s, s) / s * bnt

    if isinstance(scale, list) and len(scale) == 1:
        scale = scale[0]
    if isinstance(scale, list):
        for i, s in enumerate(scale):
            sl = (i,) if quant_axis == 0 else (slice(None), i)
            x[sl] = levels(x[sl], s)
        return x
    return levels(x, scale)


class QuantizationFreezePass:
    """Freeze a QAT test graph into its inference form (see the module docstring).

    Args:
        scope (Scope): holds the weights (rewritten to their integer levels) and the scales.
        place: accepted for Paddle's signature.
        bias_correction (bool): Paddle's weight bias correction (not supported: raises if True).
        weight_bits, activation_bits (int). round_type (str): 'round' ('adaround' is not supported).
        weight_quantize_type (str): 'abs_max' or 'channel_wise_abs_max', as given to the transform pass.
        quantizable_op_type: ignored, as in Paddle (every op marked qat_with_weight is processed).
    """

    def __init__(self, scope, place, bias_correction=False, weight_bits=8, activation_bits=8, round_type="round",
                 weight_quantize_type="abs_max", quantizable_op_type=None):  # fmt: skip
        if scope is None:
            raise ValueError("QuantizationFreezePass: the scope cannot be None")
        if bias_correction:
            raise NotImplementedError("QuantizationFreezePass: bias_correction is not supported in minipaddle")
        if round_type != "round":
            raise NotImplementedError(f"QuantizationFreezePass: round_type {round_type!r}; minipaddle has 'round'")
        self._scope = scope
        self._weight_bits, self._activation_bits = int(weight_bits), int(activation_bits)
        self._weight_quantize_type = weight_quantize_type

    def apply(self, graph: IrGraph) -> IrGraph:
        _check_graph(graph, "QuantizationFreezePass")
        block = graph.block
        persistable = {v.name() for v in graph.all_persistable_nodes()}
        scales: dict = {}  # original name -> weight scale (float or list) / activation scale variable name
        renamed: dict = {}  # a removed op's output -> the name its readers read now
        quantized = set()
        for op in list(block.ops):
            if op.type not in _FAKE_QUANT:
                continue
            x, scale_name = op.inputs["x"][0], op.outputs["Out"][1]
            source = graph.out_node_mapping_table.get(x)  # x is a preprocess function's output (mapping_table.py)
            if source is not None and x not in persistable:
                # Paddle's use of the table: the scale goes under the name the function read, the one the quantized
                # op's input is named after ({source}.quantized); a weight's function is folded into the weight.
                x = self._fold_weight_function(graph, op, x, source) if source in persistable else source
            if x not in persistable:
                scales[x] = scale_name
                continue
            s = np.asarray(self._scope.vars[scale_name])
            s = s[0] if s.ndim == 2 else s
            value = float(s.reshape(-1)[0]) if s.size == 1 and self._weight_quantize_type == "abs_max" else s.tolist()
            scales[x] = value
            if x not in quantized:
                quantized.add(x)
                axis = op.attrs.get("quant_axis", 0)
                levels = np.round(quant_tensor(np.asarray(self._scope.vars[x]), value, axis, self._weight_bits))
                self._scope.vars[x] = levels.astype(np.asarray(self._scope.vars[x]).dtype)
            self._remove(graph, op, renamed)
        for op in [o for o in block.ops if o.type in _FAKE_DEQUANT]:
            self._remove(graph, op, renamed)
        for op in list(block.ops):
            for n in op.input_names():
                if n in renamed:
                    graph.update_input_link(n, renamed[n], op)
        for op in list(block.ops):
            if op.quant_attrs.get("quantization_type") == "qat_with_weight":
                self._dequantize_output(graph, op, scales)
        graph.remove_unused_vars()
        return graph

    def _fold_weight_function(self, graph, op, x: str, weight: str) -> str:
        """A weight_preprocess_func's output x (the mapping table says it stands for `weight`): its value, computed
        from the weight and the function's parameters, becomes the weight's, and the quantize op reads the weight,
        so the weight is frozen as the test Program used it (the function's ops then feed nothing and go)."""
        persistable = {v.name() for v in graph.all_persistable_nodes()}
        values = {n: np.asarray(self._scope.vars[n]) for n in persistable if n in self._scope.vars}
        for fop in graph.block.ops:
            if fop is op:
                break
            names = flat_inputs(fop)
            if fop.type in OPS and all(n is None or n in values for n in names) and any(n is not None for n in names):
                out = OPS[fop.type].kernel(*[None if n is None else values[n] for n in names], **fop.attrs)
                values.update(zip(fop.output_names(), out if isinstance(out, tuple) else (out,)))
        if x not in values:
            raise ValueError(f"QuantizationFreezePass: the weight function's output {x!r} (for {weight!r}) does not "
                             "follow from persistable variables")  # fmt: skip
        self._scope.vars[weight] = np.asarray(values[x], np.asarray(self._scope.vars[weight]).dtype)
        graph.update_input_link(x, weight, op)
        return weight

    @staticmethod
    def _remove(graph, op, renamed: dict) -> None:
        out, x = op.outputs["Out"][0], op.inputs["x"][0]
        renamed[out] = renamed.get(x, x)
        graph.remove_op(op)

    def _dequantize_output(self, graph, op, scales: dict) -> None:
        persistable = {v.name() for v in graph.all_persistable_nodes()}
        weight_scale, act_scale = None, None
        for name in op.input_names():
            original = _original_name(name)
            if original not in scales:
                continue
            if original in persistable:
                weight_scale = scales[original]
            else:
                act_scale = scales[original]
        if act_scale is None or weight_scale is None:
            raise ValueError(f"QuantizationFreezePass: {op.type} is marked qat_with_weight but its weight or "
                             "activation scale was not found")  # fmt: skip
        out = op.outputs["Out"][0]
        y = graph.var(out)
        dq = graph.create_var(f"{out}.dequantized", y)
        readers = graph.readers(out)
        if self._weight_quantize_type == "channel_wise_abs_max":
            channel = graph.create_persistable(unique_name("channel_scale"), np.array(weight_scale, y.dtype.np),
                                               self._scope)  # fmt: skip
            cols = y.ndim - 1 if op.type == "matmul" else 1
            attrs = {"quant_bits": (self._weight_bits, self._activation_bits), "quant_axis": weight_quant_axis(op),
                     "x_num_col_dims": cols}  # fmt: skip
            new = _op("fake_channel_wise_dequantize_max_abs", [out, channel.name, act_scale], [dq.name], attrs, op)
        else:
            w = 1e-8 if weight_scale == 0.0 else weight_scale
            max_range = ((1 << (self._weight_bits - 1)) - 1) / w * ((1 << (self._activation_bits - 1)) - 1)
            new = _op("fake_dequantize_max_abs", [out, act_scale], [dq.name], {"max_range": float(max_range)}, op)
        graph.insert_after(op, new)
        for reader in readers:
            graph.update_input_link(out, dq.name, reader)


def _original_name(name: str) -> str:
    for suffix in (".quantized.dequantized", ".quantized", ".dequantized", "@scale"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


class ConvertToInt8Pass:
    """Store the weights of the ops marked qat_with_weight as int8 (`{w}.int8`) and point the ops at them.

    Args:
        scope (Scope): holds the frozen (integer-valued) weights; the int8 copies are added to it.
        place, quantizable_op_type: accepted for Paddle's signature (the latter is ignored, as in Paddle).
    """

    def __init__(self, scope, place, quantizable_op_type=None):
        if scope is None:
            raise ValueError("ConvertToInt8Pass: the scope cannot be None")
        self._scope = scope

    def apply(self, graph: IrGraph) -> IrGraph:
        _check_graph(graph, "ConvertToInt8Pass")
        persistable = {v.name() for v in graph.all_persistable_nodes()}
        done: dict = {}
        for op in list(graph.block.ops):
            if op.quant_attrs.get("quantization_type") != "qat_with_weight":
                continue
            for name in [n for n in op.input_names() if n in persistable]:
                if name not in done:
                    w = graph.var(name)
                    int8 = graph.create_persistable(f"{name}.int8", np.asarray(self._scope.vars[name]).astype(np.int8),
                                                    self._scope, w)  # fmt: skip
                    done[name] = int8.name
                graph.update_input_link(name, done[name], op)
        graph.remove_unused_vars()
        return graph
