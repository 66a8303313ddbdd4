"""Real int8 inference ops, for the Programs that static/passes/int8.py makes out of quantized ones.

    x8  = quantize_int8(x, scale)               int8 levels of x: clip(round_half_even(x / scale * 127), -128, 127)
    acc = matmul_int8(x8, w8) / conv2d_int8(x8, w8, ...)      exact int32 sums of int8 products
    y   = dequantize_int32(acc, x_scale, w_scale)  acc * (x_scale / 127) * (w_scale[c] / 127), float32

numpy has no int8 matrix product, so the int32 sums are computed with a float GEMM where that is exact: every
product of two int8 values is at most 128 * 128 = 2^14 in size, so a sum of K of them is at most K * 2^14, and
every partial sum is an integer; float32 holds every integer up to 2^24 exactly, so for K <= 2^10 = 1024 a float32
GEMM (in any summation order, with or without FMA) gives the exact sum; float64 (integers up to 2^53) is exact for
K <= 2^39. `exact_float_dtype(K)` picks the cheaper one. (tests/quantization/test_int8.py checks this against int64
arithmetic, at K = 1024 with every product at its largest.)
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import OPS, Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.fake_quant import bin_count, channel_shape, quantize_values

__all__ = ["quantize_int8", "matmul_int8", "conv2d_int8", "dequantize_int32", "exact_float_dtype"]

FLOAT32_EXACT_K = 1 << 10  # 2^24 / 2^14


def exact_float_dtype(k: int):
    """The float dtype whose GEMM sums k int8 x int8 products exactly."""
    return np.float32 if k <= FLOAT32_EXACT_K else np.float64


def _to_int32(acc: np.ndarray) -> np.ndarray:
    return acc.astype(np.int32)  # integral already (exact sums), so the cast drops nothing


@register
class QuantizeInt8(OpDef):
    """x -> int8 levels with one scale (quant_axis -1) or one per channel; ties to even, as quantize_linear."""

    name = "quantize_int8"
    differentiable = False

    def kernel(self, x, scale, quant_axis=-1, bit_length=8):
        s = np.asarray(scale, x.dtype)
        s = s.reshape(1) if quant_axis < 0 else s.reshape(channel_shape(x, quant_axis))
        if not x.ndim:
            return quantize_values(x, s, bit_length, 0).astype(np.int8)
        return quantize_values(x, s, bit_length, 0, out=np.empty(np.broadcast_shapes(x.shape, s.shape), np.int8))

    def infer_meta(self, x: Meta, scale: Meta, **attrs):

        return Meta(x.shape, dtypes.to_dtype("int8"))


@register
class MatmulInt8(OpDef):
    """int8 [..., M, K] @ int8 [K, N] -> int32 [..., M, N], exact."""

    name = "matmul_int8"
    differentiable = False

    def kernel(self, x, y):
        f = exact_float_dtype(x.shape[-1])
        return _to_int32(np.matmul(x.astype(f), y.astype(f)))


@register
class Conv2DInt8(OpDef):
    """int8 x [N, C, H, W] convolved with int8 w [O, C/groups, kh, kw] -> int32 [N, O, H', W'], exact (conv2d's
    own im2col + GEMM kernel, on floats holding the integers)."""

    name = "conv2d_int8"
    differentiable = False

    def kernel(self, x, w, strides, paddings, dilations, groups):
        f = exact_float_dtype(w.shape[1] * w.shape[2] * w.shape[3])
        conv = OPS["conv2d"]
        return _to_int32(conv.kernel(x.astype(f), w.astype(f), strides, paddings, dilations, groups))

    def infer_meta(self, x: Meta, w: Meta, strides, paddings, dilations, groups):
        out = OPS["conv2d"].infer_meta(Meta(x.shape, dtypes.to_dtype("float32")), Meta(w.shape, x.dtype), strides,
                                       paddings, dilations, groups)  # fmt: skip
        return Meta(out.shape, dtypes.to_dtype("int32"))


@register
class DequantizeInt32(OpDef):
    """int32 sums -> float32: acc * (x_scale / bnt) * (w_scale / bnt), w_scale per channel along axis (1 for a
    conv's [N, O, H, W], -1 for a matmul's last axis) or one value."""

    name = "dequantize_int32"
    differentiable = False

    def kernel(self, acc, x_scale, w_scale, axis=-1, bit_length=8, weight_bits=8):
        xs = np.asarray(x_scale, np.float32).reshape(-1)[0] / np.float32(bin_count(bit_length))
        ws = np.asarray(w_scale, np.float32).reshape(-1) / np.float32(bin_count(weight_bits))
        scale = xs * ws
        y = acc.astype(np.float32)
        if scale.size > 1 and acc.ndim:
            # One scale per channel, spelled out over the axes after the channel's ([C, H, W] for a conv's
            # [N, C, H, W]): numpy then multiplies C*H*W contiguous values at a time, not H*W (2.7 instructions a
            # value for LeNet's second conv with a [1, C, 1, 1] scale, 0.9 so).
            axis %= acc.ndim
            scale = np.repeat(scale, int(np.prod(acc.shape[axis + 1 :]))).reshape(acc.shape[axis:])
        return np.multiply(y, scale, out=y) if y.ndim else y * scale

    def infer_meta(self, acc: Meta, *rest, **attrs):

        return Meta(acc.shape, dtypes.to_dtype("float32"))


def quantize_int8(x: Tensor, scale: Tensor, quant_axis: int = -1, bit_length: int = 8) -> Tensor:
    return apply(QuantizeInt8, (x, scale), {"quant_axis": int(quant_axis), "bit_length": int(bit_length)})


def matmul_int8(x: Tensor, y: Tensor) -> Tensor:
    return apply(MatmulInt8, (x, y))


def conv2d_int8(x: Tensor, w: Tensor, strides=(1, 1), paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1):
    attrs = {"strides": tuple(strides), "paddings": tuple(tuple(p) for p in paddings), "dilations": tuple(dilations),
             "groups": int(groups)}  # fmt: skip
    return apply(Conv2DInt8, (x, w), attrs)


def dequantize_int32(acc: Tensor, x_scale: Tensor, w_scale: Tensor, axis: int = -1, bit_length: int = 8,
                     weight_bits: int = 8) -> Tensor:  # fmt: skip
    attrs = {"axis": int(axis), "bit_length": int(bit_length), "weight_bits": int(weight_bits)}
    return apply(DequantizeInt32, (acc, x_scale, w_scale), attrs)
