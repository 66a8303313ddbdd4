"""AddQuantDequantForResidual: quantize the shortcut input of a residual add (Paddle 2.6's quantization_pass.py).

An elementwise_add of two activations (no weight, no bias) is a residual connection: `y = x + f(x)`. The
transform passes quantize the inputs of the ops with weights, so `f(x)` reaches the add through quantized convs,
while the shortcut `x` would reach it in float; an int8 engine that fuses the add needs a scale for it too. The
pass puts a per-tensor quantize_linear -> dequantize_linear pair on the input that the Program reads first
(the shortcut: `x` was read by `f` before the add), under its own names `{x}.skip@scale`, `{x}.skip.quantized`,
`{x}.skip.quantized.dequantized`, so the add reads its own copy while `f` keeps its pair on `x`:

    x ─► quantize_linear(Scale=x.skip@scale) ─► x.skip.quantized ─► dequantize_linear ─► x.skip.quantized.dequantized
                                                                                          └─► elementwise_add(., f(x))

In training (is_test False) the quantize_linear keeps a moving average of max |x| (state and accum from 1, moving
rate 0.9: Paddle's pass takes no moving_rate); in a test graph it reads the stored scale.
"""

from __future__ import annotations

from minipaddle.static.quantization.transform import _check_graph, _forward_only
from minipaddle.static.quantization.transform_v2 import insert_quant_dequant

__all__ = ["AddQuantDequantForResidual"]

_LITERALS = ("assign_value", "full", "fill_constant")


class AddQuantDequantForResidual:
    """Insert a quantize_linear / dequantize_linear pair on the shortcut input of each residual elementwise_add.

    Args:
        scope (Scope): where the new scale, zero points, state and accum get their start values.
        place: accepted for Paddle's signature (minipaddle runs on the CPU).
        quant_bits (int): bit_length of the pairs (default 8).
        is_test (bool): a test graph's pair reads its stored scale; a training pair updates it (default True).
    """

    def __init__(self, scope, place, quant_bits=8, is_test=True):
        who = "AddQuantDequantForResidual"
        if scope is None:
            raise ValueError(f"{who}: scope must not be None")
        if isinstance(quant_bits, bool) or not isinstance(quant_bits, int) or not 1 <= quant_bits <= 16:
            raise ValueError(f"{who}: quant_bits must be an int in [1, 16], got {quant_bits!r}")
        self._scope, self._quant_bits, self._is_test = scope, quant_bits, bool(is_test)

    def apply(self, graph):
        """Insert the pairs into `graph` (changed in place; also returned)."""
        who = "AddQuantDequantForResidual"
        _check_graph(graph, who)
        _forward_only(graph, who)
        weights = graph.weight_names()
        first_read: dict = {}
        for i, op in enumerate(graph.block.ops):
            for name in op.input_names():
                first_read.setdefault(name, i)
        for op in list(graph.block.ops):
            if op.type != "add":
                continue
            x, y = op.inputs["x"][0], op.inputs["y"][0]
            if x in weights or y in weights:
                continue  # (a bias add, not a residual)
            if any(getattr(graph.writer(n), "type", None) in _LITERALS for n in (x, y)):
                continue  # (minipaddle's `x + 1` adds a literal: Paddle's scale op, not an elementwise_add)
            # the shortcut is the input read earlier (on a tie, y: Paddle's `<` picks inputs[1])
            skip = x if first_read[x] < first_read[y] else y
            dequantized = insert_quant_dequant(
                graph, self._scope, op, skip, bits=self._quant_bits, quant_axis=-1, is_test=self._is_test,
                moving_rate=0.9, var_name=f"{skip}.skip")  # fmt: skip
            graph.update_input_link(skip, dequantized, op)
        return graph
