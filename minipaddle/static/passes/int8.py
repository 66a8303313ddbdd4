"""From a quantized Program to a real int8 Program: integer weights, integer products, float only between layers.

A quantized (fake-quant) Program still computes in float: each conv2d / matmul reads a dequantized activation and
a dequantized weight. This pass finds those pairs,

    before:  a = dequantize_linear(quantize_linear(x, sx), sx)      (or a fake quant-dequant op with scale sx)
             b = dequantize_linear(w_levels, sw, axis)              (or a fake quant-dequant op on the weight w)
             y = conv2d(a, b) / matmul(a, b)
    after:   x8 = quantize_int8(x, sx)                              int8
             acc = conv2d_int8(x8, w8) / matmul_int8(x8, w8)        exact int32 (ops/int8.py)
             y = dequantize_int32(acc, sx, sw)                      float32: acc * sx/127 * sw[c]/127

and stores each weight once, as int8 (a new persistable variable `{w}.int8` with its scales `{w}.int8_scale`),
so the saved parameters shrink to about a quarter. Since the int8 levels and the float levels are the same
numbers and the int32 sums are exact, the int8 Program computes what the quantized Program did, up to the float
rounding of the rescale. The ops that only fed the replaced ones are dropped.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import OPS
from minipaddle.ops.fake_quant import channel_abs_max, channel_shape, quantize_values
from minipaddle.static.builder import flat_inputs
from minipaddle.static.executor import global_scope
from minipaddle.static.passes.rewrite import names_of, new_op
from minipaddle.static.program import Program
from minipaddle.static.prune import needed_ops

__all__ = ["convert_to_int8"]

_ACT_FAKE = ("fake_quantize_dequantize_moving_average_abs_max",)
_WEIGHT_FAKE = ("fake_channel_wise_quantize_dequantize_abs_max", "fake_quantize_dequantize_abs_max")


def convert_to_int8(program: Program, scope=None, keep=()) -> Program:
    """A copy of `program` whose quantized conv2d / matmul ops run in int8 with exact int32 sums. New int8 weights
    and scales go into `scope` (default: the global scope); give `keep` (the fetched variables) so the ops that
    only fed the replaced ones can be dropped.

    Example:
        >>> program, feeds, fetches = paddle.static.load_inference_model("./qat/lenet", exe)
        >>> int8 = paddle.static.passes.convert_to_int8(program, keep=fetches)
    """
    if not isinstance(program, Program):
        raise TypeError(f"convert_to_int8: program must be a Program, got {type(program).__name__}")
    scope = global_scope() if scope is None else scope
    new = program.clone()
    block = new.global_block()
    writers = {n: op for op in block.ops for n in op.output_names()}

    def value(name):
        return np.asarray(scope.vars[name]) if name in scope.vars and block.var(name).persistable else None

    def activation(name):
        """(float input, its scale variable, bits) when `name` is a per-tensor quantized-dequantized activation."""
        dq = writers.get(name)
        if dq is None:
            return None
        if dq.type == "dequantize_linear" and dq.attrs.get("quant_axis", 0) < 0:
            q = writers.get(flat_inputs(dq)[0])
            if (
                q is not None
                and q.type == "quantize_linear"
                and len(q.outputs["Out"]) == 1  # the inference form (in training its scale is a moving average)
                and _same(value(flat_inputs(q)[1]), value(flat_inputs(dq)[1]))
            ):
                return flat_inputs(q)[0], flat_inputs(q)[1], dq.attrs.get("bit_length", 8)
        if dq.type in _ACT_FAKE and dq.attrs.get("is_test") and value(flat_inputs(dq)[1]) is not None:
            return flat_inputs(dq)[0], flat_inputs(dq)[1], dq.attrs.get("bit_length", 8)
        return None

    def weight(name):
        """(int8 levels, per-channel scales, their axis, bits) when `name` is a dequantized weight."""
        dq = writers.get(name)
        if dq is None:
            return None
        w = value(flat_inputs(dq)[0])
        if w is None:
            return None
        axis, bits = dq.attrs.get("quant_axis", -1), dq.attrs.get("bit_length", 8)
        if dq.type == "dequantize_linear":
            s = value(flat_inputs(dq)[1])
            return (None if s is None else (w, s.reshape(-1), axis, bits)) if np.all(w == np.round(w)) else None
        if dq.type in _WEIGHT_FAKE:
            axis = axis if "channel" in dq.type else -1
            s = channel_abs_max(w, axis) if axis >= 0 else np.abs(w).max().reshape(1)
            per = s if axis < 0 else s.reshape(channel_shape(w, axis))
            return quantize_values(w, per, bits, dq.attrs.get("round_type", 1)), s, axis, bits
        return None

    replaced, made = {}, {}
    for i, op in enumerate(block.ops):
        if op.type not in ("conv2d", "matmul"):
            continue
        if op.type == "matmul" and (op.attrs.get("transpose_x") or op.attrs.get("transpose_y")):
            continue
        a, b = flat_inputs(op)[:2]
        act, wt = activation(a), weight(b)
        if act is None or wt is None:
            continue
        levels, w_scale, axis, w_bits = wt
        out_axis = 0 if op.type == "conv2d" else levels.ndim - 1  # the weight axis that becomes an output channel
        if w_scale.size > 1 and axis != out_axis:
            continue
        if np.abs(levels).max(initial=0) > 128 or w_bits > 8 or act[2] > 8:
            continue
        w_name = flat_inputs(writers[b])[0]
        if w_name not in made:
            int8_name, scale_name = f"{w_name}.int8", f"{w_name}.int8_scale"
            block.create_var(int8_name, levels.shape, "int8", persistable=True)
            block.create_var(scale_name, w_scale.shape, "float32", persistable=True)
            scope.vars[int8_name] = np.clip(levels, -128, 127).astype(np.int8)
            scope.vars[scale_name] = np.asarray(w_scale, np.float32)
            made[w_name] = (int8_name, scale_name)
        int8_name, scale_name = made[w_name]
        x, x_scale, bits = act
        x8, acc = f"{a}.int8", f"{op.output_names()[0]}.int32"
        block.create_var(x8, block.var(x).shape, "int8")
        block.create_var(acc, block.var(op.output_names()[0]).shape, "int32")
        product = "conv2d_int8" if op.type == "conv2d" else "matmul_int8"
        attrs = dict(op.attrs) if op.type == "conv2d" else {}
        replaced[i] = [
            new_op(OPS["quantize_int8"], [x, x_scale], [x8], {"quant_axis": -1, "bit_length": bits}, op),
            new_op(OPS[product], [x8, int8_name], [acc], attrs, op),
            new_op(OPS["dequantize_int32"], [acc, x_scale, scale_name], op.output_names(),
                   {"axis": 1 if op.type == "conv2d" else -1, "bit_length": bits, "weight_bits": w_bits}, op),
        ]  # fmt: skip
    if not replaced:
        return new
    block.ops = [o for i, op in enumerate(block.ops) for o in replaced.get(i, [op])]
    # Drop what only fed the replaced ops (the Q/DQ pairs and the weights' fake ops, which write their scale into a
    # parameter: state, to dead_code_elimination, but nothing an inference run needs).
    kept = names_of(keep) | {n for ops in replaced.values() for o in ops for n in o.output_names()}
    block.ops = [op for op, alive in zip(block.ops, needed_ops(new, kept, keep_state_writes=False)) if alive]
    _drop_unused_vars(new)
    return new


def _same(a, b) -> bool:
    """Both scales known and equal (a quanter and its dequanter keep one copy each)."""
    return a is not None and b is not None and a.shape == b.shape and bool(np.all(a == b))


def _drop_unused_vars(program: Program) -> None:
    """Remove the variables no op reads or writes any more (the float weights and their scales), so saving the
    Program does not save them."""
    block = program.global_block()
    used = {n for op in block.ops for n in op.input_names() + op.output_names()}
    for name in [n for n, v in block.vars.items() if n not in used and not v.is_data]:
        del block.vars[name]
