"""QuantizationTransformPassV2 and AddQuantDequantPassV2: QAT in the onnx_format (quantize_linear / dequantize_linear).

Where the legacy passes (transform.py) insert a fake op per quantization type, the V2 passes insert one pair for
every quantized input, weights and activations alike (Paddle's InsertQuantizeLinear):

    x -> quantize_linear(X=x, Scale=x@scale, ZeroPoint=x.quantized@zero_point) -> x.quantized
      -> dequantize_linear(X=x.quantized, Scale=x@scale, ZeroPoint=x.quantized.dequantized@zero_point)
      -> x.quantized.dequantized

- a weight with weight_quantize_type 'channel_wise_abs_max': quant_axis 0 (conv2d) or 1 (mul, matmul, matmul_v2
  and conv2d_transpose: Paddle's V2 takes 1 for matmul_v2 even with trans_y), a scale of [C] values 0.001;
- everything else per tensor (quant_axis -1), one scale of 0.001. The quantization type of activations does not
  change the op: in training (is_test False) quantize_linear takes a state and accum (persistables `state_N`,
  `accum_N` starting at 1) and keeps the moving average of max |x| (moving_rate); per channel it takes the
  abs-max of each channel of the weight now. A test graph's ops read their stored scales.
- zero points are int32 zeros shaped as the scale (Paddle's scheme is symmetric).

Paddle's _init_var_node sets these start values every time a pass creates them (unlike the legacy pass, which
keeps a scale already in the scope), so transform the training and the test graph before training, as Paddle's
flow does. Training: Paddle gives quantize_linear / dequantize_linear no gradient and points the conv2d_grad /
mul_grad ops of an existing backward at the dequantized variables; minipaddle's two ops pass gradients straight
through (ops/fake_quant.py), so transform the forward Program and call `optimizer.minimize(loss)` on the result:
the gradients are the same.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import unique_name
from minipaddle.static.executor import global_scope
from minipaddle.static.quantization.op_types import (
    SUPPORT_ACT_QUANTIZATION_OPS,
    SUPPORT_WEIGHT_QUANTIZATION_OPS,
    inputs_in_paddle_order,
    is_one_of,
)
from minipaddle.static.quantization.transform import _QUANT_TYPES, _check_graph, _forward_only, _op, _skipped
from minipaddle.static.quantization.user_functions import UserFunctions, insert_user_functions

__all__ = ["AddQuantDequantPassV2", "QuantizationTransformPassV2", "insert_quant_dequant"]

_SCALE_DEFAULT_VALUE = 0.001


def insert_quant_dequant(graph, scope, op, name: str, *, bits: int, quant_axis: int, is_test: bool,
                         moving_rate: float, start_scale=None, var_name: str | None = None) -> str:  # fmt: skip
    """Put a quantize_linear -> dequantize_linear pair on `name` before `op` (Paddle's InsertQuantizeLinear);
    returns the dequantized variable's name. `start_scale` (a number) replaces the default 0.001 of a scale
    per tensor (AddQuantDequantPassV2's scale_dict); `var_name` names the new variables in place of `name`
    (AddQuantDequantForResidual's `{name}.skip`, so a second pair on the same variable gets its own scale)."""
    x = graph.var(name)
    dt = x.dtype.np
    stem = name if var_name is None else var_name
    if quant_axis >= 0:
        start = np.full(x.shape[quant_axis], _SCALE_DEFAULT_VALUE, dt)
    else:
        start = np.array([_SCALE_DEFAULT_VALUE if start_scale is None else start_scale], dt)
    scale = graph.create_persistable(f"{stem}@scale", start, scope, x).name
    q = graph.create_var(f"{stem}.quantized", x).name
    dq = graph.create_var(f"{q}.dequantized", x).name
    zero_q = graph.create_persistable(f"{q}@zero_point", np.zeros(start.shape, np.int32), scope, x).name
    zero_dq = graph.create_persistable(f"{dq}@zero_point", np.zeros(start.shape, np.int32), scope, x).name
    attrs = {"quant_axis": int(quant_axis), "bit_length": int(bits)}
    if is_test:
        graph.insert_before(op, _op("quantize_linear", [name, scale, zero_q, None, None], [q], attrs, op))
    else:
        state = graph.create_persistable(unique_name("state"), np.ones(1, dt), scope, x).name
        accum = graph.create_persistable(unique_name("accum"), np.ones(1, dt), scope, x).name
        # per tensor the op updates (state, accum, scale); per channel only the scale (Paddle's kernel leaves
        # OutState / OutAccum as they were)
        outs = [q, scale] if quant_axis >= 0 else [q, state, accum, scale]
        train = {**attrs, "is_test": False, "moving_rate": float(moving_rate)}
        graph.insert_before(op, _op("quantize_linear", [name, scale, zero_q, accum, state], outs, train, op))
    graph.insert_before(op, _op("dequantize_linear", [q, scale, zero_dq], [dq], dict(attrs), op))
    return dq


def _weight_axis(op) -> int:
    """Paddle's V2 channel axis: 1 for mul / matmul / matmul_v2 (trans_y or not) and conv2d_transpose, else 0."""
    return 1 if op.type in ("matmul", "conv2d_transpose") else 0


class QuantizationTransformPassV2:
    """Quantize the ops that have weights with quantize_linear / dequantize_linear pairs on all their inputs.

    Args are Paddle's (those of QuantizationTransformPass): scope, place (accepted; minipaddle runs on the CPU),
    weight_bits, activation_bits, activation_quantize_type ('abs_max', 'range_abs_max', 'moving_average_abs_max':
    all become quantize_linear), weight_quantize_type ('channel_wise_abs_max' per channel; the others per
    tensor), window_size (accepted, unused as in Paddle's V2), moving_rate, skip_pattern, quantizable_op_type,
    is_test (None: the graph's), and the user functions (weight/act quantize and preprocess funcs with
    optimizer_func and executor: user_functions.py, as Paddle's _insert_func).
    """

    def __init__(
        self,
        scope=None,
        place=None,
        weight_bits=8,
        activation_bits=8,
        activation_quantize_type="abs_max",
        weight_quantize_type="abs_max",
        window_size=10000,
        moving_rate=0.9,
        skip_pattern=["skip_quant"],  # noqa: B006 (Paddle's defaults, never changed here)
        quantizable_op_type=["conv2d", "depthwise_conv2d", "mul"],  # noqa: B006
        weight_quantize_func=None,
        act_quantize_func=None,
        weight_preprocess_func=None,
        act_preprocess_func=None,
        optimizer_func=None,
        executor=None,
        is_test=None,
    ):
        who = "QuantizationTransformPassV2"
        if activation_quantize_type == "channel_wise_abs_max":
            raise ValueError(f"{who}: the activation quantization type does not support 'channel_wise_abs_max'")
        for kind, value in (("activation", activation_quantize_type), ("weight", weight_quantize_type)):
            if value not in _QUANT_TYPES:
                raise ValueError(f"{who}: unknown {kind}_quantize_type {value!r}; expected one of {_QUANT_TYPES}")
        for op in quantizable_op_type:
            if op not in SUPPORT_WEIGHT_QUANTIZATION_OPS:
                raise ValueError(f"{who}: {op!r} is not supported for quantization; supported: "
                                 f"{list(SUPPORT_WEIGHT_QUANTIZATION_OPS)}")  # fmt: skip
        self._scope = global_scope() if scope is None else scope
        self._user = UserFunctions(who, self._scope, weight_quantize_func, act_quantize_func, weight_preprocess_func,
                                   act_preprocess_func, optimizer_func, executor)  # fmt: skip
        self._weight_bits, self._activation_bits = int(weight_bits), int(activation_bits)
        self._channel_wise = weight_quantize_type == "channel_wise_abs_max"
        self._moving_rate = float(moving_rate)
        self._skip_pattern = skip_pattern
        self._quantizable_ops = list(quantizable_op_type)
        self._is_test = is_test

    def apply(self, graph):
        """Insert the pairs into `graph` (changed in place; also returned)."""
        who = "QuantizationTransformPassV2"
        _check_graph(graph, who)
        _forward_only(graph, who)
        graph.out_node_mapping_table = {}  # (Paddle's: one table per graph the pass runs on, see mapping_table.py)
        if self._is_test is None:
            self._is_test = graph.is_test()
        persistable = {v.name() for v in graph.all_persistable_nodes()}
        dequantized: dict = {}
        for op in list(graph.block.ops):
            if not is_one_of(op, self._quantizable_ops) or op.quant_attrs.get("skip_quant"):
                continue
            if _skipped(op, self._skip_pattern):
                op.quant_attrs.update(skip_quant=True, with_quant_attr=True)
                continue
            if not any(n in persistable for _, n in inputs_in_paddle_order(op)):
                continue  # (no weight: AddQuantDequantPassV2 quantizes such ops)
            op.quant_attrs.update(quantization_type="qat_with_weight")
            for _, name in inputs_in_paddle_order(op):
                if name in self._user.processed:
                    continue  # (as Paddle: a second reader of what a quantize function took reads it in float)
                if name in dequantized:
                    graph.update_input_link(name, dequantized[name], op)
                    continue
                weight = name in persistable
                source = insert_user_functions(self._user, graph, op, name, weight, bool(self._is_test))
                if source is None:
                    continue
                axis = _weight_axis(op) if weight and self._channel_wise else -1
                dequantized[name] = insert_quant_dequant(
                    graph, self._scope, op, source, bits=self._weight_bits if weight else self._activation_bits,
                    quant_axis=axis, is_test=bool(self._is_test), moving_rate=self._moving_rate,
                    var_name=name)  # fmt: skip
                graph.update_input_link(source, dequantized[name], op)
        return graph


class AddQuantDequantPassV2:
    """Quantize the ops without weights: a quantize_linear / dequantize_linear pair on each float activation input
    of the ops in `quantizable_op_type` (default elementwise_add, pool2d); persistable inputs stay as they are.

    Args: scope, place, moving_rate, quant_bits, skip_pattern, quantizable_op_type, is_test (None: the graph's),
    scale_dict (start scales by variable name), as Paddle's.
    """

    def __init__(
        self,
        scope=None,
        place=None,
        moving_rate=0.9,
        quant_bits=8,
        skip_pattern=["skip_quant"],  # noqa: B006 (Paddle's defaults, never changed here)
        quantizable_op_type=["elementwise_add", "pool2d"],  # noqa: B006
        is_test=None,
        scale_dict=None,
    ):
        for op in quantizable_op_type:
            if op not in SUPPORT_ACT_QUANTIZATION_OPS:
                raise ValueError(f"AddQuantDequantPassV2: {op!r} is not supported for quantization")
        if scale_dict is not None and not isinstance(scale_dict, dict):
            raise TypeError(f"AddQuantDequantPassV2: scale_dict must be a dict, got {type(scale_dict).__name__}")
        self._scope = global_scope() if scope is None else scope
        self._moving_rate, self._quant_bits = float(moving_rate), int(quant_bits)
        self._skip_pattern = skip_pattern
        self._quantizable_op_type = list(quantizable_op_type)
        self._is_test = is_test
        self._scale_dict = scale_dict or {}

    def apply(self, graph):
        who = "AddQuantDequantPassV2"
        _check_graph(graph, who)
        _forward_only(graph, who)
        if self._is_test is None:
            self._is_test = graph.is_test()
        const = graph.constant_names()
        done: dict = {}
        for op in list(graph.block.ops):
            if not is_one_of(op, self._quantizable_op_type) or _skipped(op, self._skip_pattern):
                continue
            if op.quant_attrs.get("quantization_type") == "qat_with_weight":
                continue
            names = [n for _, n in inputs_in_paddle_order(op)]
            if any("quantized.dequantized" in n for n in names):
                continue
            for name in names:
                if name in const:
                    continue
                if np.dtype(graph.var(name).dtype.np).kind != "f":
                    break  # (Paddle: an integer input ends the op's quantization, with a warning)
                if name not in done:
                    done[name] = insert_quant_dequant(
                        graph, self._scope, op, name, bits=self._quant_bits, quant_axis=-1,
                        is_test=bool(self._is_test), moving_rate=self._moving_rate,
                        start_scale=self._scale_dict.get(name))  # fmt: skip
                graph.update_input_link(name, done[name], op)
        return graph
