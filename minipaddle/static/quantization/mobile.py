"""TransformForMobilePass: a frozen legacy-format graph renamed for paddle-mobile (Paddle 2.6's quantization_pass.py).

paddle-mobile (the mobile inference engine before Paddle Lite) names its quantize and dequantize operators
`quantize` and `dequantize`. The pass renames, in place and keeping inputs, outputs and attributes:

    fake_quantize_abs_max, fake_quantize_range_abs_max, fake_quantize_moving_average_abs_max,
    fake_channel_wise_quantize_abs_max                                      -> quantize
    fake_dequantize_max_abs, fake_channel_wise_dequantize_max_abs           -> dequantize

Apply it to the Program QuantizationFreezePass made (convert(..., config={'onnx_format': False})). What runs the
result is paddle-mobile alone: neither Paddle 2.6.2 (its `quantize` is oneDNN's, with other inputs, and fails:
"Operator quantize's input (Input) is not set") nor minipaddle's Executor (no such op) can; it is a file
format, read, drawn and saved here. save_inference_model writes it as Paddle 2.6.2 does (static/paddle_ops.py,
_w_mobile): Paddle clips the ops against its own oneDNN quantize / dequantize, so in the .pdmodel they keep their
inputs and lose their outputs and attributes.

    graph = IrGraph(frozen_program, for_test=True)
    TransformForMobilePass().apply(graph)
    mobile = graph.to_program()
"""

from __future__ import annotations

from minipaddle.static.quantization.transform import _check_graph

__all__ = ["TransformForMobilePass"]

FAKE_QUANT_OPS = ("fake_quantize_abs_max", "fake_quantize_range_abs_max", "fake_quantize_moving_average_abs_max",
                  "fake_channel_wise_quantize_abs_max")  # fmt: skip
FAKE_DEQUANT_OPS = ("fake_dequantize_max_abs", "fake_channel_wise_dequantize_max_abs")


class TransformForMobilePass:
    """Rename the fake quantize / dequantize ops of a frozen graph to paddle-mobile's `quantize` / `dequantize`."""

    def apply(self, graph):
        """Rename the ops of `graph` (changed in place; also returned)."""
        _check_graph(graph, "TransformForMobilePass")
        for op in graph.block.ops:
            if op.type in FAKE_QUANT_OPS:
                op.type = "quantize"
            elif op.type in FAKE_DEQUANT_OPS:
                op.type = "dequantize"
        return graph
