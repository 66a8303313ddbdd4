"""The int8 Program (convert_to_int8's) in ops Paddle 2.6 has on the CPU, so it can be saved as a .pdmodel.

Paddle 2.6 has no int8 conv2d / matmul outside oneDNN, and its quantize_linear returns the levels as floats. What
it has computes the same numbers, since every partial sum of int8 x int8 products is an integer below 2^24 when
the reduction is at most 1024 long (exact in float32, in any order):

    quantize_int8(x, sx)               -> quantize_linear(x, sx, 0)                   levels as float32
    conv2d_int8(x8, w8) / matmul_int8  -> conv2d / matmul(x8, cast(w8, float32))      the weight stays int8 in the file
    dequantize_int32(acc, sx, sw)      -> fake_channel_wise_dequantize_max_abs(acc, [sw, sx])   (sw per channel)
                                          fake_dequantize_max_abs(acc, sx, 127 * 127 / sw)     (sw one value)

The last is Paddle's own frozen form (QuantizationFreezePass). A product with a longer reduction is left in
minipaddle's int8 ops (its Program is then saved as minipaddle's JSON, with a warning).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import OPS
from minipaddle.ops.fake_quant import bin_count
from minipaddle.ops.int8 import FLOAT32_EXACT_K
from minipaddle.static.builder import flat_inputs
from minipaddle.static.executor import global_scope
from minipaddle.static.passes.rewrite import new_op
from minipaddle.static.program import Program

__all__ = ["int8_as_paddle_ops"]


def int8_as_paddle_ops(program: Program, scope=None) -> Program:
    """A copy of an int8 Program (static/passes/int8.py) whose int8 ops are written with Paddle's CPU ops (see the
    module docstring); new zero points go into `scope` (default: the global scope).

    Example:
        >>> int8 = paddle.static.passes.convert_to_int8(program, keep=fetches)
        >>> paddle.static.save_inference_model(path, feeds, fetches, exe, program=int8_as_paddle_ops(int8))
    """
    if not isinstance(program, Program):
        raise TypeError(f"int8_as_paddle_ops: program must be a Program, got {type(program).__name__}")
    scope = global_scope() if scope is None else scope
    new = program.clone()
    block = new.global_block()
    writers = {n: op for op in block.ops for n in op.output_names()}
    out, floats = [], {}
    for op in block.ops:
        if op.type not in ("conv2d_int8", "matmul_int8"):
            out.append(op)
            continue
        x8, w8 = flat_inputs(op)
        quant, acc = writers.get(x8), op.outputs["Out"][0]
        deq = next((o for o in block.ops if acc in o.input_names() and o.type == "dequantize_int32"), None)
        w_shape = block.var(w8).shape
        k = int(np.prod(w_shape[1:])) if op.type == "conv2d_int8" else w_shape[0]
        if quant is None or quant.type != "quantize_int8" or deq is None or k > FLOAT32_EXACT_K:
            out.append(op)
            continue
        _rewrite_quantize(block, quant, scope)
        if w8 not in floats:
            floats[w8] = f"{w8}.float32"
            block.create_var(floats[w8], w_shape, "float32")
            out.append(new_op(OPS["cast"], [w8], [floats[w8]], {"dtype": np.dtype(np.float32)}, op))
        _as_float32(block, acc)  # (the exact sums, held as floats)
        kind = "conv2d" if op.type == "conv2d_int8" else "matmul"
        attrs = dict(op.attrs) if kind == "conv2d" else {"transpose_x": False, "transpose_y": False}
        out.append(new_op(OPS[kind], [x8, floats[w8]], [acc], attrs, op))
        _rewrite_dequantize(block, deq, scope)
    block.ops = out
    return new


def _as_float32(block, name: str) -> None:
    shape = block.var(name).shape
    block.vars.pop(name)
    block.create_var(name, shape, "float32")


def _rewrite_quantize(block, op, scope) -> None:
    """quantize_int8 -> quantize_linear (float levels), in place; its output becomes float32."""
    if op.type != "quantize_int8":
        return
    x, scale = flat_inputs(op)
    zero = f"{scale}.zero_point"
    if zero not in block.vars:
        block.create_var(zero, (1,), "float32", persistable=True)
        scope.vars[zero] = np.zeros(1, np.float32)
    y = op.outputs["Out"][0]
    _as_float32(block, y)
    attrs = {"quant_axis": int(op.attrs.get("quant_axis", -1)), "bit_length": int(op.attrs.get("bit_length", 8)),
             "round_type": 0}  # fmt: skip
    replacement = new_op(OPS["quantize_linear"], [x, scale, zero, None, None], [y], attrs, op)
    op.type, op.inputs, op.attrs = replacement.type, replacement.inputs, replacement.attrs


def _rewrite_dequantize(block, op, scope) -> None:
    """dequantize_int32 -> Paddle's dequantize of a quantized op's output, in place."""
    acc, x_scale, w_scale = flat_inputs(op)
    bits, w_bits = int(op.attrs.get("bit_length", 8)), int(op.attrs.get("weight_bits", 8))
    sw = np.asarray(scope.vars[w_scale]).reshape(-1)
    if sw.size > 1:
        axis = int(op.attrs.get("axis", -1)) % len(block.var(acc).shape)
        replacement = new_op(OPS["fake_channel_wise_dequantize_max_abs"], [acc, w_scale, x_scale], op.outputs["Out"],
                             {"quant_bits": (w_bits, bits), "quant_axis": 0, "x_num_col_dims": axis}, op)  # fmt: skip
    else:
        w = float(sw[0]) or 1e-8
        max_range = float(bin_count(w_bits) / w * bin_count(bits))
        replacement = new_op(OPS["fake_dequantize_max_abs"], [acc, x_scale], op.outputs["Out"],
                             {"max_range": max_range}, op)  # fmt: skip
    op.type, op.inputs, op.attrs = replacement.type, replacement.inputs, replacement.attrs
