"""OutScaleForTrainingPass / OutScaleForInferencePass: the output scales int8 engines read.

Training: after each op of Paddle's teller set (conv2d, mul, elementwise_add, relu, pool2d, reshape2, ...), a
moving_average_abs_max_scale op records the moving average of its float output's abs-max in `{out}@scale` (state
and accum `scale_state@_N` / `scale_accum@_N`, all starting at 1). An output that already has a `@scale` (the
input scale of a quantized op) is not measured twice. Inference: each teller op gets the recorded value as the
attributes `out_threshold` and `{Slot}0_threshold` (`Output0_threshold` for conv2d), with with_quant_attr.

minipaddle leaves out reshapes of parameters alone (its conv2d reshapes the bias with a reshape op, where
Paddle's elementwise_add broadcasts it); other ops of parameters are measured as Paddle's (PACT's -alpha).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import unique_name
from minipaddle.static.executor import global_scope
from minipaddle.static.quantization.ir_graph import IrGraph
from minipaddle.static.quantization.op_types import PADDLE_OUTPUT_SLOT, SUPPORT_QUANTIZATION_OPS, is_one_of
from minipaddle.static.quantization.transform import _check_graph, _op

__all__ = ["OutScaleForInferencePass", "OutScaleForTrainingPass"]

_FLOATS = ("float16", "float32", "float64")


def _measured_outputs(graph, op) -> list:
    """The float outputs of a teller op (its first output: Paddle's Out / Output / Y)."""
    outs = op.outputs.get("Out", [])[:1]
    return [n for n in outs if graph.var(n).dtype.name in _FLOATS and "@GRAD" not in n]


class OutScaleForTrainingPass:
    """Insert moving_average_abs_max_scale after the teller ops' outputs.

    Args:
        scope (Scope), place: where the statistics start; moving_rate (float, 0.9); is_test (bool|None);
        scale_dict (dict|None): start scales by variable name (else 1).
    """

    def __init__(self, scope=None, place=None, moving_rate=0.9, is_test=None, scale_dict=None):
        self._scope = global_scope() if scope is None else scope
        self._moving_rate = float(moving_rate)
        self._is_test = is_test
        self._scale_dict = scale_dict

    def apply(self, graph: IrGraph) -> IrGraph:
        _check_graph(graph, "OutScaleForTrainingPass")
        if self._is_test is None:
            self._is_test = graph.is_test()
        const = graph.constant_names()
        for op in [o for o in graph.block.ops if is_one_of(o, SUPPORT_QUANTIZATION_OPS)]:
            for name in _measured_outputs(graph, op):
                scale_name = f"{name}@scale"
                if (op.type == "reshape" and name in const) or graph.has_var(scale_name):
                    continue
                x = graph.var(name)
                dt = x.dtype.np
                start = np.ones(1, dt)
                if self._scale_dict is not None and name in self._scale_dict:
                    start = np.array([self._scale_dict[name]], dt)
                scale = graph.create_persistable(scale_name, start, self._scope)
                if self._is_test:
                    state = graph.create_var(unique_name(f"{name}.scale_state_unused"), x, shape=(1,)).name
                    accum = graph.create_var(unique_name(f"{name}.scale_accum_unused"), x, shape=(1,)).name
                    inputs = [name, None, None]
                else:
                    state = graph.create_persistable(unique_name("scale_state@"), np.ones(1, dt), self._scope).name
                    accum = graph.create_persistable(unique_name("scale_accum@"), np.ones(1, dt), self._scope).name
                    inputs = [name, accum, state]
                # (the op's first output is x itself, unchanged: a new name nobody reads)
                passed = graph.create_var(unique_name(f"{name}.observed"), x).name
                attrs = {"moving_rate": self._moving_rate, "is_test": bool(self._is_test)}
                out_scale = scale.name if not self._is_test else graph.create_var(
                    unique_name(f"{name}.scale_unused"), x, shape=(1,)).name  # fmt: skip
                graph.insert_after(op, _op("moving_average_abs_max_scale", inputs, [passed, out_scale, state, accum],
                                           attrs, op))  # fmt: skip
        return graph


class OutScaleForInferencePass:
    """Write the recorded output scales into the teller ops' attributes (`out_threshold`, `{Slot}0_threshold`).

    Args:
        scope (Scope): holds the `{out}@scale` values.
    """

    def __init__(self, scope=None):
        self._scope = global_scope() if scope is None else scope

    def apply(self, graph: IrGraph) -> IrGraph:
        _check_graph(graph, "OutScaleForInferencePass")
        const = graph.constant_names()
        for op in [o for o in graph.block.ops if is_one_of(o, SUPPORT_QUANTIZATION_OPS)]:
            for name in _measured_outputs(graph, op):
                if name in const:
                    continue
                scale_name = f"{name}@scale"
                if scale_name not in self._scope.vars:
                    raise ValueError(f"OutScaleForInferencePass: can not find {scale_name} variable in the scope")
                value = float(np.asarray(self._scope.vars[scale_name]).reshape(-1)[0])
                slot = PADDLE_OUTPUT_SLOT.get(op.type, "Out")
                op.quant_attrs.update({"out_threshold": value, f"{slot}0_threshold": value, "with_quant_attr": True})
        return graph
