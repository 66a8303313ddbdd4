"""Max unpooling (paddle.nn.functional): max_unpool1d/2d/3d, the partial inverse of max pooling with its mask.

The op (minipaddle/ops/unpool.py) works on any number of spatial axes; these functions read Paddle's arguments
and work out the output size: (in - 1) * stride - 2 * padding + kernel_size per axis, or output_size when given
(within one stride of that).
"""

from __future__ import annotations

import numbers

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.window_args import CHANNELS_FIRST, check_input, ntuple, padding_pairs

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d"]


def _check_indices(indices, x: Tensor, fn: str) -> Tensor:
    """indices must be the int32 mask of a max pooling, shaped like x."""
    if not isinstance(indices, Tensor):
        raise TypeError(f"{fn}: indices must be a Tensor, got {type(indices).__name__}")
    if indices.dtype.name != "int32":
        raise TypeError(
            f"{fn}: indices must be an int32 Tensor (the mask of max pooling with return_mask=True), "
            f"got {indices.dtype.name}"
        )
    if indices.shape != x.shape:
        raise ValueError(f"{fn}: indices must have the shape of x {x.shape}, got {indices.shape}")
    return indices


def _paddings(padding, nd: int, fn: str) -> tuple:
    """One padding per spatial axis. 2-D and 3-D take an int or nd ints. 1-D takes what max_pool1d takes, read as
    Paddle 2.6 reads it: only a symmetric padding counts; 'same', 'valid' and an uneven pair count as 0."""
    if nd > 1:
        return ntuple(padding, nd, fn, "padding", minimum=0)
    pairs = padding_pairs(padding, 1, False, fn)
    if isinstance(pairs, str):
        return (0,)
    before, after = pairs[0]
    return (before if before == after else 0,)


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _output_size(output_size, default: list, strides: tuple, fn: str) -> tuple:
    """The output's spatial sizes: `default`, or output_size (nd sizes, or nd + 2 with N and C in front, which are
    ignored), each strictly within one stride of the default, as Paddle requires."""
    if output_size is None:
        return tuple(default)
    if not isinstance(output_size, (list, tuple)):
        raise TypeError(f"{fn}: output_size must be None or a list/tuple of ints, got {output_size!r}")
    sizes = [s.item() if isinstance(s, Tensor) else s for s in output_size]
    nd = len(default)
    if nd == 1 and len(sizes) in (2, 4) and sizes[-2] == 1:
        sizes = sizes[-1:]  # Paddle 2.6's 1-D form [1, L] / [N, C, 1, L]: it unpools 1-D data as [N, C, 1, L]
    if len(sizes) == nd + 2:
        sizes = sizes[2:]
    if len(sizes) != nd:
        raise ValueError(f"{fn}: output_size must have {nd} or {nd + 2} elements, got {len(sizes)}: {output_size!r}")
    if not all(_is_int(s) for s in sizes):
        raise TypeError(f"{fn}: output_size must hold ints, got {output_size!r}")
    for axis, (s, d, step) in enumerate(zip(sizes, default, strides)):
        if not d - step < s < d + step:
            raise ValueError(
                f"{fn}: output_size {list(sizes)} is invalid: size {axis} must be between {d - step} and "
                f"{d + step} (exclusive), the default {d} plus or minus the stride"
            )
    return tuple(int(s) for s in sizes)


def _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, nd, fn):
    if data_format != CHANNELS_FIRST[nd]:
        raise ValueError(f"{fn}: data_format must be {CHANNELS_FIRST[nd]!r} (channels first), got {data_format!r}")
    x = check_input(x, nd, fn)
    indices = _check_indices(indices, x, fn)
    kernel = ntuple(kernel_size, nd, fn, "kernel_size")
    strides = kernel if stride is None else ntuple(stride, nd, fn, "stride")
    pads = _paddings(padding, nd, fn)
    if output_size is None and any(d < 0 for d in x.shape[2:]):
        raise ValueError(f"{fn}: x has unknown spatial sizes {x.shape}, so output_size must be given")
    default = [(d - 1) * s + k - 2 * p for d, k, s, p in zip(x.shape[2:], kernel, strides, pads)]
    return ops.max_unpool(x, indices, _output_size(output_size, default, strides, fn))


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL", output_size=None, name=None):
    """Max unpooling of x [N, C, L] (see max_unpool2d): L_out = (L - 1) * stride - 2 * padding + kernel_size.

    As in Paddle 2.6, padding may take max_pool1d's forms, but only a symmetric padding changes the size
    ('same', 'valid' and an uneven [before, after] count as 0); output_size may be [L_out] or, as Paddle 2.6
    writes it, [1, L_out].

    Example:
        >>> out, mask = F.max_pool1d(paddle.rand([1, 3, 16]), kernel_size=2, return_mask=True)
        >>> F.max_unpool1d(out, mask, kernel_size=2).shape
        [1, 3, 16]
    """
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 1, "max_unpool1d")


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW", output_size=None, name=None):
    """The partial inverse of max_pool2d: each value of x [N, C, H, W] goes back to the place indices names, every
    other place is 0.

    Args:
        x (Tensor): the pooled values, float, [N, C, H, W].
        indices (Tensor): int32, shaped like x: the flat index h * W_out + w of each value within its (n, c) plane
            of the output, as returned by max_pool2d(..., return_mask=True).
        kernel_size (int|list): the pooling window, an int or [kh, kw].
        stride (int|list, optional): the same, or None for stride = kernel_size.
        padding (int|list, optional): the padding the pooling used, an int or [ph, pw].
        data_format (str, optional): only 'NCHW'.
        output_size (list|tuple, optional): [H_out, W_out] (or [N, C, H_out, W_out]); each must lie strictly within
            one stride of the default size, H_out = (H - 1) * stride - 2 * padding + kernel_size.
        name (str, optional): unused, as in Paddle.

    Returns:
        Tensor [N, C, H_out, W_out] of x's dtype.

    Example:
        >>> out, mask = F.max_pool2d(paddle.rand([1, 1, 6, 6]), kernel_size=2, return_mask=True)
        >>> F.max_unpool2d(out, mask, kernel_size=2).shape
        [1, 1, 6, 6]
        >>> F.max_unpool2d(out, mask, kernel_size=2, output_size=[7, 7]).shape
        [1, 1, 7, 7]
    """
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 2, "max_unpool2d")


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW", output_size=None, name=None):
    """Max unpooling of x [N, C, D, H, W] (see max_unpool2d); indices are flat positions d * H * W + h * W + w.

    Example:
        >>> out, mask = F.max_pool3d(paddle.rand([1, 1, 4, 4, 6]), kernel_size=2, return_mask=True)
        >>> F.max_unpool3d(out, mask, kernel_size=2).shape
        [1, 1, 4, 4, 6]
    """
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 3, "max_unpool3d")
