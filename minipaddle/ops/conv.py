"""Convolution: conv2d and conv3d, each with its two gradient ops (conv1d runs as conv2d, as in Paddle).

Forward, im2col + one GEMM:
  1. pad x, move its batch axis last, and view every kernel window at once (ops/windows.py: a strided view);
  2. lay the windows out as the columns of a matrix cols [groups, C/groups*kernel_pixels, out_pixels*N]: the big copy;
  3. one batched matmul, w [groups, O/groups, C/groups*kernel_pixels] @ cols, computes every output pixel.

Backward, each its own op with its own kernel (composing them from small ops would be slow):
  conv2d_grad_input  dcols = w^T @ dout, then col2im adds each column back onto the pixels it was read from. This is
                     also the transposed convolution: F.conv2d_transpose calls it directly.
  conv2d_grad_filter dw = dout @ cols^T, one GEMM. (It builds cols again: 0.14 ms on LeNet, where keeping the
                     forward's would need a second, hidden output on conv2d, seen by static Programs and passes.)
Each of the three is linear in each of its inputs, and the derivative of any one of them is a call of another, so
the set is closed under differentiation: double backward works.

Layout: x [N, C, *spatial], w [O, C/groups, *kernel] (channels first; the public functions transpose NHWC).
Attributes: strides, dilations (one int per spatial axis), paddings ((before, after) per spatial axis), groups.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.half_casts import from_float32, to_float32
from minipaddle.ops.low_precision import LOW_CODES, gemm
from minipaddle.ops.windows import add_windows, out_size, pad_spatial, windows

__all__ = [
    "conv2d",
    "conv3d",
    "conv2d_grad_input",
    "conv3d_grad_input",
    "conv2d_grad_filter",
    "conv3d_grad_filter",
]  # the raw op functions; ops/__init__.py gathers them


def _im2col(x, kernel, strides, paddings, dilations, groups):
    """cols [groups, C/groups*kernel_pixels, out_pixels*N]: column j holds what output pixel j sees. Also returns
    the output's spatial shape.

    Columns run over pixels first and the batch last ([C, *kernel, *out, N] before the reshape): col2im's
    additions then run over out_w * N contiguous values (2x on LeNet's second conv). Two copies build it: x with
    the batch moved last ([C, *spatial, N], one image's worth), then the windows of that, in which every window
    row is a contiguous run of out_w * N values. (Copying the windows of x itself gathers single values C*H*W
    apart instead: 2-3x slower on LeNet's convolutions.)"""
    c, nd = x.shape[1], len(kernel)
    xt = np.ascontiguousarray(np.moveaxis(pad_spatial(x, paddings), 0, -1))  # [C, *spatial, N]
    win = windows(xt, kernel, strides, dilations, trailing=1)  # [C, *out, N, *kernel], a view
    out_sp = win.shape[1 : 1 + nd]
    perm = (0, *range(2 + nd, 2 + 2 * nd), *range(1, 2 + nd))  # [C, *kernel, *out, N]
    cols = win.transpose(perm).reshape(groups, (c // groups) * math.prod(kernel), -1)
    return cols, out_sp


def _channel_rows(y, groups):
    """y [N, O, *spatial] as [groups, O/groups, pixels*N], the layout of the GEMMs' outputs.

    Two copies, first [O, N, pixels] (whole images move), then [O, pixels, N]. One copy would read values
    O*pixels*itemsize bytes apart, and when that is a multiple of 4 KiB (LeNet's second conv: 16*8*8 float32) the
    reads all fall into one cache set: 100 us there in one copy, 22 us in two (its first conv pays 66 -> 83 us)."""
    o = y.shape[1]
    by_channel = np.ascontiguousarray(np.swapaxes(y.reshape(y.shape[0], o, -1), 0, 1))  # [O, N, pixels]
    return np.ascontiguousarray(np.swapaxes(by_channel, 1, 2)).reshape(groups, o // groups, -1)


def _from_channel_rows(rows, n, spatial):
    """The inverse of _channel_rows: [groups, O/groups, pixels*N] -> [N, O, *spatial], laid out in that order.

    (The GEMM leaves the batch as the fastest axis; one copy into NCHW order here makes every op after the conv
    (bias, relu, pooling and their gradients) run on contiguous memory, several times faster.)"""
    nd = len(spatial)
    return np.ascontiguousarray(rows.reshape(-1, *spatial, n).transpose(nd + 1, 0, *range(1, nd + 1)))


def _low_precision(a, b):
    """The dtype of a and b when both are the same float16/bfloat16 dtype, else None.

    Then conv and its filter gradient run on float32 copies and round the GEMM's result once: the white-list
    definition (gemm's, ops/low_precision.py). Converting x before im2col rather than the columns after it gives
    the same values (the conversion is exact, im2col only copies) and converts kernel_pixels times fewer elements:
    25x on LeNet's 5x5 convolutions."""
    return a.dtype if a.dtype.char in LOW_CODES and a.dtype == b.dtype else None


def _rounded(y, low):
    """y rounded to `low` (None: y as it is); overflow to Inf is IEEE's answer, the GradScaler's cue."""
    if low is None:
        return y
    return from_float32(y, low)


class _Conv(OpDef):
    """y = conv(x, w): x [N, C, *in], w [O, C/groups, *kernel] -> y [N, O, *out]."""

    nd = 2

    def kernel(self, x, w, strides, paddings, dilations, groups):
        low = _low_precision(x, w)
        if low is not None:  # see _low_precision: the columns are built from x's float32 copy
            x, w = to_float32(x), to_float32(w)
        cols, out_sp = _im2col(x, w.shape[2:], strides, paddings, dilations, groups)
        out = gemm(w.reshape(groups, w.shape[0] // groups, -1), cols)  # [g, O/g, P*N]: the one GEMM
        # Reordered, then rounded: the same values (a copy commutes with rounding), and numpy copies ml_dtypes'
        # bfloat16 through its per-element functions (~7 instructions a value) where float32 has a vector copy.
        return _rounded(_from_channel_rows(out, x.shape[0], out_sp), low)

    def grad(self, node, g):
        x, w = node.inputs
        a = node.attrs
        gx = gw = None
        if node.needs_grad(0):
            gx = _grad_input(self.nd, g, w, tuple(x.shape[2:]), a)
        if node.needs_grad(1):
            gw = _grad_filter(self.nd, x, g, tuple(w.shape[2:]), a)
        return gx, gw

    def infer_meta(self, x: Meta, w: Meta, strides, paddings, dilations, groups) -> Meta:
        out = tuple(
            -1 if d < 0 else out_size(d, k, s, dl, p)
            for d, k, s, dl, p in zip(x.shape[2:], w.shape[2:], strides, dilations, paddings)
        )
        return Meta((x.shape[0], w.shape[0], *out), x.dtype)


class _ConvGradInput(OpDef):
    """dx = conv_grad_input(dout, w): the gradient of conv with respect to x (col2im), and the transposed conv.

    dout [N, O, *out], w [O, C/groups, *kernel] -> dx [N, C, *input_size]."""

    nd = 2

    def kernel(self, dout, w, input_size, strides, paddings, dilations, groups):
        if dout.dtype.char in LOW_CODES and w.dtype == dout.dtype:
            # float16/bfloat16: the GEMM and col2im's sums in float32, one rounding at the end (the definition of
            # a white-list op; rounding the GEMM and then summing windows in float16 rounded many times, slowly)
            dx = self.kernel(to_float32(dout), to_float32(w), input_size, strides, paddings, dilations, groups)
            return from_float32(dx, dout.dtype)
        n, o, c, kernel, nd = dout.shape[0], dout.shape[1], w.shape[1] * groups, w.shape[2:], dout.ndim - 2
        wt = w.reshape(groups, o // groups, -1).transpose(0, 2, 1)  # [g, C/g*K, O/g]
        dcols = gemm(wt, _channel_rows(dout, groups))  # [g, C/g*K, P*N]: the one GEMM
        dcols = dcols.reshape(c, *kernel, *dout.shape[2:], n)
        dcols = dcols.transpose(*range(1, 1 + nd), 0, *range(1 + nd, 2 + 2 * nd))  # [*kernel, C, *out, N], a view
        padded = tuple(d + b + a for d, (b, a) in zip(input_size, paddings))
        dx = add_windows(dcols, (c, *padded, n), strides, dilations, trailing=1)  # col2im, into [C, *padded, N]
        inside = tuple(slice(b, b + d) for d, (b, _) in zip(input_size, paddings))
        # Into NCHW order, as _from_channel_rows does for the forward output (the next op, max_pool_grad in
        # LeNet, would otherwise make the same copy itself).
        return np.ascontiguousarray(dx[(slice(None), *inside)].transpose(nd + 1, 0, *range(1, nd + 1)))

    def grad(self, node, gg):
        dout, w = node.inputs
        a = node.attrs
        gd = _conv(self.nd, gg, w, a) if node.needs_grad(0) else None
        gw = _grad_filter(self.nd, gg, dout, tuple(w.shape[2:]), a) if node.needs_grad(1) else None
        return gd, gw

    def infer_meta(self, dout: Meta, w: Meta, input_size, strides, paddings, dilations, groups) -> Meta:
        return Meta((dout.shape[0], -1 if w.shape[1] < 0 else w.shape[1] * groups, *input_size), dout.dtype)


class _ConvGradFilter(OpDef):
    """dw = conv_grad_filter(x, dout): the gradient of conv with respect to its weight.

    x [N, C, *in], dout [N, O, *out] -> dw [O, C/groups, *kernel_size]."""

    nd = 2

    def kernel(self, x, dout, kernel_size, strides, paddings, dilations, groups):
        low = _low_precision(x, dout)
        if low is not None:  # see _low_precision
            x, dout = to_float32(x), to_float32(dout)
        cols, _ = _im2col(x, kernel_size, strides, paddings, dilations, groups)
        dw = _rounded(gemm(_channel_rows(dout, groups), cols.transpose(0, 2, 1)), low)  # [g, O/g, C/g*K]: the GEMM
        return dw.reshape(dout.shape[1], x.shape[1] // groups, *kernel_size)

    def grad(self, node, gg):
        x, dout = node.inputs
        a = node.attrs
        gx = _grad_input(self.nd, dout, gg, tuple(x.shape[2:]), a) if node.needs_grad(0) else None
        gd = _conv(self.nd, x, gg, a) if node.needs_grad(1) else None
        return gx, gd

    def infer_meta(self, x: Meta, dout: Meta, kernel_size, strides, paddings, dilations, groups) -> Meta:
        return Meta((dout.shape[1], -1 if x.shape[1] < 0 else x.shape[1] // groups, *kernel_size), x.dtype)


@register
class Conv2D(_Conv):
    name = "conv2d"
    amp = "white"  # paddle 2.6 white-lists conv2d only (not conv3d, not the transposed convolutions)


@register
class Conv3D(_Conv):
    name = "conv3d"
    nd = 3


@register
class Conv2DGradInput(_ConvGradInput):
    name = "conv2d_grad_input"


@register
class Conv3DGradInput(_ConvGradInput):
    name = "conv3d_grad_input"
    nd = 3


@register
class Conv2DGradFilter(_ConvGradFilter):
    name = "conv2d_grad_filter"


@register
class Conv3DGradFilter(_ConvGradFilter):
    name = "conv3d_grad_filter"
    nd = 3


_OPS = {2: (Conv2D, Conv2DGradInput, Conv2DGradFilter), 3: (Conv3D, Conv3DGradInput, Conv3DGradFilter)}
_GEOMETRY = ("strides", "paddings", "dilations", "groups")


def _geometry(strides, paddings, dilations, groups) -> dict:
    return {
        "strides": tuple(strides),
        "paddings": tuple(tuple(p) for p in paddings),
        "dilations": tuple(dilations),
        "groups": int(groups),
    }


def _conv(nd, x, w, attrs) -> Tensor:
    return apply(_OPS[nd][0], (x, w), {k: attrs[k] for k in _GEOMETRY})


def _grad_input(nd, dout, w, input_size, attrs) -> Tensor:
    return apply(_OPS[nd][1], (dout, w), {"input_size": tuple(input_size), **{k: attrs[k] for k in _GEOMETRY}})


def _grad_filter(nd, x, dout, kernel_size, attrs) -> Tensor:
    return apply(_OPS[nd][2], (x, dout), {"kernel_size": tuple(kernel_size), **{k: attrs[k] for k in _GEOMETRY}})


def conv2d(x: Tensor, w: Tensor, strides, paddings, dilations, groups=1) -> Tensor:
    """x [N, C, H, W] (*) w [O, C/groups, kh, kw]; paddings ((top, bottom), (left, right))."""
    return _conv(2, x, w, _geometry(strides, paddings, dilations, groups))


def conv3d(x: Tensor, w: Tensor, strides, paddings, dilations, groups=1) -> Tensor:
    return _conv(3, x, w, _geometry(strides, paddings, dilations, groups))


def conv2d_grad_input(dout: Tensor, w: Tensor, input_size, strides, paddings, dilations, groups=1) -> Tensor:
    """The gradient of conv2d with respect to x, and the 2-D transposed convolution of dout by w."""
    return _grad_input(2, dout, w, input_size, _geometry(strides, paddings, dilations, groups))


def conv3d_grad_input(dout: Tensor, w: Tensor, input_size, strides, paddings, dilations, groups=1) -> Tensor:
    return _grad_input(3, dout, w, input_size, _geometry(strides, paddings, dilations, groups))


def conv2d_grad_filter(x: Tensor, dout: Tensor, kernel_size, strides, paddings, dilations, groups=1) -> Tensor:
    return _grad_filter(2, x, dout, kernel_size, _geometry(strides, paddings, dilations, groups))


def conv3d_grad_filter(x: Tensor, dout: Tensor, kernel_size, strides, paddings, dilations, groups=1) -> Tensor:
    return _grad_filter(3, x, dout, kernel_size, _geometry(strides, paddings, dilations, groups))
