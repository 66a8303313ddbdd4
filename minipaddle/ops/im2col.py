"""im2col and col2im as ops of their own: what F.unfold and F.fold compute.

im2col: x [N, C, H, W] -> [N, C*kh*kw, L], column l holding the kh x kw window under output position l (channel
major, then kernel row, then kernel column), for L = out_h * out_w windows.
col2im: the adjoint: [N, C*kh*kw, L] -> [N, C, H, W], each value added back onto the pixel it was read from.
Each is the other's gradient.
"""

from __future__ import annotations

import math

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.windows import add_windows, crop_spatial, out_size, pad_spatial, windows

__all__ = ["im2col", "col2im"]  # the raw op functions; ops/__init__.py gathers them


@register
class Im2Col(OpDef):
    name = "im2col"
    saves_inputs = False

    def kernel(self, x, kernel_sizes, strides, paddings, dilations):
        n, c = x.shape[:2]
        win = windows(pad_spatial(x, paddings), kernel_sizes, strides, dilations)  # [N, C, oh, ow, kh, kw]
        out_sp = win.shape[2:4]
        return win.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * math.prod(kernel_sizes), math.prod(out_sp))

    def grad(self, node, g):
        a = node.attrs
        return (col2im(g, tuple(node.inputs[0].shape[2:]), a["kernel_sizes"], a["strides"], a["paddings"],
                     a["dilations"]),)  # fmt: skip

    def infer_meta(self, x: Meta, kernel_sizes, strides, paddings, dilations) -> Meta:
        out = [out_size(d, k, s, dl, p) for d, k, s, dl, p in zip(x.shape[2:], kernel_sizes, strides, dilations,
                                                                   paddings)]  # fmt: skip
        return Meta((x.shape[0], x.shape[1] * math.prod(kernel_sizes), math.prod(out)), x.dtype)


@register
class Col2Im(OpDef):
    name = "col2im"
    saves_inputs = False

    def kernel(self, cols, output_sizes, kernel_sizes, strides, paddings, dilations):
        n, kh, kw = cols.shape[0], *kernel_sizes
        c = cols.shape[1] // (kh * kw)
        out_sp = [out_size(d, k, s, dl, p) for d, k, s, dl, p in zip(output_sizes, kernel_sizes, strides, dilations,
                                                                      paddings)]  # fmt: skip
        blocks = cols.reshape(n, c, kh, kw, *out_sp).transpose(2, 3, 0, 1, 4, 5)  # [kh, kw, N, C, oh, ow]
        padded = tuple(d + b + a for d, (b, a) in zip(output_sizes, paddings))
        return crop_spatial(add_windows(blocks, (n, c, *padded), strides, dilations), paddings, output_sizes)

    def grad(self, node, g):
        a = node.attrs
        return (im2col(g, a["kernel_sizes"], a["strides"], a["paddings"], a["dilations"]),)

    def infer_meta(self, cols: Meta, output_sizes, kernel_sizes, **attrs) -> Meta:
        return Meta((cols.shape[0], cols.shape[1] // math.prod(kernel_sizes), *output_sizes), cols.dtype)


def _attrs(kernel_sizes, strides, paddings, dilations) -> dict:
    return {
        "kernel_sizes": tuple(kernel_sizes),
        "strides": tuple(strides),
        "paddings": tuple(tuple(p) for p in paddings),
        "dilations": tuple(dilations),
    }


def im2col(x: Tensor, kernel_sizes, strides, paddings, dilations) -> Tensor:
    """paddings: ((top, bottom), (left, right))."""
    return apply(Im2Col, (x,), _attrs(kernel_sizes, strides, paddings, dilations))


def col2im(cols: Tensor, output_sizes, kernel_sizes, strides, paddings, dilations) -> Tensor:
    return apply(Col2Im, (cols,), {"output_sizes": tuple(output_sizes), **_attrs(kernel_sizes, strides, paddings,
                                                                                dilations)})  # fmt: skip
