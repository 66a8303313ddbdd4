"""QuantizationTransformPass and AddQuantDequantPass: fake quantization inserted into a static Program for QAT.

QuantizationTransformPass, before each op with a weight (conv2d, matmul as Paddle's mul / matmul_v2):

    w -> fake_channel_wise_quantize_abs_max -> w.quantized -> fake_channel_wise_dequantize_max_abs
      -> w.quantized.dequantized            (weight_quantize_type 'channel_wise_abs_max'; scale w@scale [C])
    x -> fake_quantize_moving_average_abs_max -> x.quantized -> fake_dequantize_max_abs -> x.quantized.dequantized
                                            (activation 'moving_average_abs_max'; x@scale, state_N, accum_N)

and the op reads the dequantized variables. AddQuantDequantPass puts one fake_quantize_dequantize_moving_average_
abs_max before the activation inputs of weightless ops (pool2d, elementwise_add, ...): `x.quant_dequant`.
Names, start values (scale 0.001, state and accum 1, a channel scale of zeros) and attributes are Paddle 2.6's
(paddle/static/quantization/quantization_pass.py). A statistic already in the scope under the same name is
reused, so a test graph transformed next to the training graph reads the scales training updates.

Training: Paddle applies the pass to a Program that already has its backward ops and points conv2d_grad /
mul_grad at the dequantized variables (the straight-through estimator). minipaddle's backward is built from
each op's grad rule, and the fake quantize and dequantize ops pass gradients straight through, so transform the
forward Program first and call `optimizer.minimize(loss)` on the result: the gradients are the same.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import get_op
from minipaddle.core.state import unique_name
from minipaddle.static.executor import global_scope
from minipaddle.static.passes.rewrite import new_op
from minipaddle.static.program import ROLE_FORWARD
from minipaddle.static.quantization.ir_graph import IrGraph
from minipaddle.static.quantization.op_types import (
    SUPPORT_ACT_QUANTIZATION_OPS,
    SUPPORT_WEIGHT_QUANTIZATION_OPS,
    inputs_in_paddle_order,
    is_one_of,
    weight_quant_axis,
)
from minipaddle.static.quantization.user_functions import UserFunctions, insert_user_functions

__all__ = ["AddQuantDequantPass", "QuantizationTransformPass"]

_SCALE_DEFAULT_VALUE = 0.001
_QUANT_TYPES = ("abs_max", "channel_wise_abs_max", "range_abs_max", "moving_average_abs_max")


def _check_graph(graph, who: str) -> None:
    if not isinstance(graph, IrGraph):
        raise TypeError(f"{who}.apply: graph must be an IrGraph, got {type(graph).__name__}")


def _forward_only(graph, who: str) -> None:
    if any(op.role != ROLE_FORWARD for op in graph.block.ops):
        raise ValueError(
            f"{who}.apply: the Program already has backward/optimizer ops. minipaddle builds gradients from each "
            "op's grad rule: apply the pass to the forward Program, then call optimizer.minimize(loss) on "
            "graph.to_program() (the fake quant ops pass gradients straight through, as Paddle's rewiring does)"
        )


def _skipped(op, skip_pattern) -> bool:
    """Paddle: skip_pattern found in the op's name scope (minipaddle's OpDesc.scope, the Layer path)."""
    patterns = [skip_pattern] if isinstance(skip_pattern, str) else list(skip_pattern or ())
    return any(p in (op.scope or "") for p in patterns)


def _stored(scope, name, default: np.ndarray) -> np.ndarray:
    """The value of `name` in the scope if it is there (Paddle's try/except around find_var), else `default`."""
    return np.array(scope.vars[name]) if name in scope.vars and np.size(scope.vars[name]) else default


class QuantizationTransformPass:
    """Quantize the ops that have weights: fake quantize and dequantize ops for their weight and activation inputs.

    Args:
        scope (Scope): where the new statistics (scales, state, accum) get their start values.
        place: accepted for Paddle's signature (minipaddle runs on the CPU).
        weight_bits, activation_bits (int): bits of the grids (8).
        activation_quantize_type (str): 'abs_max', 'moving_average_abs_max', or 'range_abs_max' (test graphs only).
        weight_quantize_type (str): 'abs_max' or 'channel_wise_abs_max'.
        window_size (int): the window of 'range_abs_max'. moving_rate (float): of 'moving_average_abs_max'.
        skip_pattern (str|list): ops whose name scope contains it are left in float.
        quantizable_op_type (list): Paddle op types to quantize (default conv2d, depthwise_conv2d, mul).
        is_test (bool|None): None takes it from the graph at the first apply (as Paddle).

        weight_quantize_func, act_quantize_func, weight_preprocess_func, act_preprocess_func (function|None):
            user functions written in paddle ops, inserted before the op (user_functions.py); optimizer_func
            makes the optimizer of their parameters (training), executor runs their startup Program.
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
        who = "QuantizationTransformPass"
        if activation_quantize_type == "channel_wise_abs_max":
            raise ValueError(f"{who}: the activation quantization type does not support 'channel_wise_abs_max'")
        if activation_quantize_type not in _QUANT_TYPES:
            raise ValueError(f"{who}: unknown activation_quantize_type {activation_quantize_type!r}; expected "
                             "'abs_max', 'range_abs_max' or 'moving_average_abs_max'")  # fmt: skip
        if weight_quantize_type not in ("abs_max", "channel_wise_abs_max"):
            raise ValueError(f"{who}: unknown weight_quantize_type {weight_quantize_type!r}; expected 'abs_max' or "
                             "'channel_wise_abs_max'")  # fmt: skip
        for op in quantizable_op_type:
            if op not in SUPPORT_WEIGHT_QUANTIZATION_OPS:
                raise ValueError(f"{who}: {op!r} is not supported for quantization; supported: "
                                 f"{list(SUPPORT_WEIGHT_QUANTIZATION_OPS)}")  # fmt: skip
        self._scope = global_scope() if scope is None else scope
        self._user = UserFunctions(who, self._scope, weight_quantize_func, act_quantize_func, weight_preprocess_func,
                                   act_preprocess_func, optimizer_func, executor)  # fmt: skip
        self._weight_bits, self._activation_bits = int(weight_bits), int(activation_bits)
        self._activation_quantize_type = activation_quantize_type
        self._weight_quantize_type = weight_quantize_type
        self._window_size, self._moving_rate = int(window_size), float(moving_rate)
        self._skip_pattern = skip_pattern
        self._quantizable_ops = list(quantizable_op_type)
        self._is_test = is_test

    def apply(self, graph: IrGraph) -> IrGraph:
        """Insert the fake quant/dequant ops into `graph` (changed in place; also returned)."""
        who = "QuantizationTransformPass"
        _check_graph(graph, who)
        _forward_only(graph, who)
        graph.out_node_mapping_table = {}  # (Paddle's: one table per graph the pass runs on, see mapping_table.py)
        if self._is_test is None:
            self._is_test = graph.is_test()
        if self._activation_quantize_type == "range_abs_max" and not self._is_test:
            raise NotImplementedError(
                f"{who}: training with 'range_abs_max' needs Paddle's step counter (an "
                "increment op), which minipaddle lacks; use 'moving_average_abs_max' or "
                "'abs_max' (a test graph, as PostTrainingQuantization makes, can use it)"
            )
        persistable = {v.name() for v in graph.all_persistable_nodes()}
        dequantized: dict = {}
        for op in list(graph.block.ops):
            if not is_one_of(op, self._quantizable_ops) or op.quant_attrs.get("skip_quant"):
                continue
            if _skipped(op, self._skip_pattern):
                op.quant_attrs.update(skip_quant=True, with_quant_attr=True)
                continue
            if not any(n in persistable for _, n in inputs_in_paddle_order(op)):
                continue  # (no weight: AddQuantDequantPass quantizes such ops)
            op.quant_attrs.update(quantization_type="qat_with_weight", with_quant_attr=True)
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
                if weight:
                    dequantized[name] = self._quantize_weight(graph, op, name, source)
                else:
                    dequantized[name] = self._quantize_activation(graph, op, name, source)
                graph.update_input_link(source, dequantized[name], op)
        return graph

    # ---- weights ----

    def _quantize_weight(self, graph, op, name: str, source: str) -> str:
        """Quantize `source` (the weight `name`, or a user function's value of it); new names are `name`'s."""
        w = graph.var(name)
        bits = self._weight_bits
        if self._weight_quantize_type == "channel_wise_abs_max":
            axis = weight_quant_axis(op)
            scale = graph.create_persistable(
                f"{name}@scale", _stored(self._scope, f"{name}@scale", np.zeros(w.shape[axis], w.dtype.np)),
                self._scope, w)  # fmt: skip
            q = graph.create_var(f"{name}.quantized", w)
            attrs = {"bit_length": bits, "quant_axis": axis, "is_test": bool(self._is_test)}
            inputs = [source, scale.name if self._is_test else None]  # (a test op quantizes with the stored scales)
            graph.insert_before(op, _op("fake_channel_wise_quantize_abs_max", inputs, [q.name, scale.name], attrs, op))
            dq = graph.create_var(f"{name}.quantized.dequantized", w)
            attrs = {"quant_bits": (bits,), "quant_axis": axis}
            graph.insert_before(op, _op("fake_channel_wise_dequantize_max_abs", [q.name, scale.name], [dq.name],
                                        attrs, op))  # fmt: skip
            return dq.name
        return self._quant_dequant(graph, op, name, source, "abs_max", bits)

    # ---- activations ----

    def _quantize_activation(self, graph, op, name: str, source: str) -> str:
        return self._quant_dequant(graph, op, name, source, self._activation_quantize_type, self._activation_bits)

    def _quant_dequant(self, graph, op, name: str, source: str, quant_type: str, bits: int) -> str:
        x = graph.var(name)
        dt = x.dtype.np
        q = graph.create_var(f"{name}.quantized", x)
        scale_name = f"{name}@scale"
        if quant_type == "abs_max":
            scale = graph.create_persistable(scale_name, _stored(self._scope, scale_name, np.zeros(1, dt)), self._scope)
            attrs = {"bit_length": bits}
            graph.insert_before(op, _op("fake_quantize_abs_max", [source], [q.name, scale.name], attrs, op))
        elif quant_type == "range_abs_max":  # (test graphs only: the stored scale, no window, no step counter)
            start = _stored(self._scope, scale_name, np.array([_SCALE_DEFAULT_VALUE], dt))
            scale = graph.create_persistable(scale_name, start, self._scope)
            window = graph.create_var(unique_name(f"{name}.scales_unused"), x, shape=(self._window_size,))
            attrs = {"bit_length": bits, "window_size": self._window_size, "is_test": True}
            graph.insert_before(op, _op("fake_quantize_range_abs_max", [source, scale.name, None, None],
                                        [q.name, scale.name, window.name], attrs, op))  # fmt: skip
        else:  # moving_average_abs_max
            start = _stored(self._scope, scale_name, np.array([_SCALE_DEFAULT_VALUE], dt))
            scale = graph.create_persistable(scale_name, start, self._scope)
            state, accum = _statistics(graph, self._scope, x, "state", "accum", self._is_test)
            attrs = {"bit_length": bits, "moving_rate": self._moving_rate, "is_test": bool(self._is_test)}
            inputs = [source, scale.name, None if self._is_test else accum, None if self._is_test else state]
            graph.insert_before(op, _op("fake_quantize_moving_average_abs_max", inputs,
                                        [q.name, scale.name, state, accum], attrs, op))  # fmt: skip
        dq = graph.create_var(f"{q.name}.dequantized", x)
        max_range = float((1 << (bits - 1)) - 1)
        graph.insert_before(op, _op("fake_dequantize_max_abs", [q.name, scale.name], [dq.name],
                                    {"max_range": max_range}, op))  # fmt: skip
        return dq.name


def _statistics(graph, scope, x, state_prefix: str, accum_prefix: str, is_test: bool) -> tuple:
    """Names of the moving average's state and accum: persistable, starting at 1 (training); in a test graph
    temporaries the op writes and nobody reads (Paddle's test op has no OutState / OutAccum)."""
    dt = x.dtype.np
    if is_test:
        state = graph.create_var(unique_name(f"{x.name}.{state_prefix}_unused"), x, shape=(1,))
        accum = graph.create_var(unique_name(f"{x.name}.{accum_prefix}_unused"), x, shape=(1,))
    else:
        state = graph.create_persistable(unique_name(state_prefix), np.ones(1, dt), scope)
        accum = graph.create_persistable(unique_name(accum_prefix), np.ones(1, dt), scope)
    return state.name, accum.name


def _op(type_: str, inputs: list, outputs: list, attrs: dict, like):
    return new_op(get_op(type_), inputs, outputs, attrs, like)


class AddQuantDequantPass:
    """Quantize the ops without weights: a fake_quantize_dequantize_moving_average_abs_max before each activation
    input of the ops in `quantizable_op_type` (default elementwise_add, pool2d) whose inputs are all activations.

    Args:
        scope (Scope), place: as QuantizationTransformPass. moving_rate (float), quant_bits (int).
        skip_pattern (str|list), quantizable_op_type (list of Paddle op types), is_test (bool|None).
        scale_dict (dict|None): start scales by variable name.
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
                raise ValueError(f"AddQuantDequantPass: {op!r} is not supported for quantization")
        self._scope = global_scope() if scope is None else scope
        self._moving_rate, self._quant_bits = float(moving_rate), int(quant_bits)
        self._skip_pattern = skip_pattern
        self._quantizable_op_type = list(quantizable_op_type)
        self._is_test = is_test
        self._scale_dict = scale_dict

    def apply(self, graph: IrGraph) -> IrGraph:
        who = "AddQuantDequantPass"
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
            names = [n for n in op.input_names() if n is not None]
            if any(n in const for n in names):  # (Paddle: only ops whose inputs are all not persistable)
                continue
            op.quant_attrs.update(quantization_type="qat_without_weight", activation_bits=self._quant_bits,
                                  with_quant_attr=True)  # fmt: skip
            if any("quantized.dequantized" in n for n in names):
                continue
            for name in names:
                if name not in done:
                    done[name] = self._insert(graph, op, name)
                graph.update_input_link(name, done[name], op)
        return graph

    def _insert(self, graph, op, name: str) -> str:
        x = graph.var(name)
        dt = x.dtype.np
        scale_name = f"{name}.quant_dequant@scale"
        if self._scale_dict is not None and name in self._scale_dict:
            start = np.array([self._scale_dict[name]], dt)
        else:
            start = _stored(self._scope, scale_name, np.array([_SCALE_DEFAULT_VALUE], dt))
        scale = graph.create_persistable(scale_name, start, self._scope)
        state, accum = _statistics(graph, self._scope, x, "quant_dequant.state", "quant_dequant.accum", self._is_test)
        out = graph.create_var(f"{name}.quant_dequant", x)
        attrs = {"bit_length": self._quant_bits, "moving_rate": self._moving_rate, "is_test": bool(self._is_test)}
        inputs = [name, scale.name, None if self._is_test else accum, None if self._is_test else state]
        graph.insert_before(op, _op("fake_quantize_dequantize_moving_average_abs_max", inputs,
                                    [out.name, scale.name, state, accum], attrs, op))  # fmt: skip
        return out.name
