"""QuantWeightPass: the onnx_format test graph's weights frozen to int8 (Paddle's convert(onnx_format=True), step 1).

    w -> quantize_linear -> w.quantized -> dequantize_linear -> w.quantized.dequantized -> conv2d
becomes
    w (int8 levels in the scope) -> dequantize_linear -> w.quantized.dequantized -> conv2d

The levels are round(w / s * 127) clipped to [-128, 127] with the scale the quantize_linear op holds (per
channel along its quant_axis, or one scale), as Paddle's utils.quant_tensor(onnx_format=True); a weight read by
several ops is quantized once. Activations keep their quantize_linear / dequantize_linear pairs.
"""

from __future__ import annotations

import numpy as np

from minipaddle.static.quantization.freeze import quant_tensor
from minipaddle.static.quantization.transform import _check_graph

__all__ = ["QuantWeightPass"]


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
