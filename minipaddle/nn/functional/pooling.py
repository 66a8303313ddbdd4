"""Pooling (paddle.nn.functional): max/avg pooling and their adaptive forms, over 1, 2 or 3 spatial axes.

The ops (minipaddle/ops/pool.py) work channels first on any number of spatial axes; these functions read
Paddle's arguments and transpose channels-last input.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.window_args import (
    channel_last,
    check_input,
    ntuple,
    padding_pairs,
    resolve_padding,
    to_channels_first,
    to_channels_last,
)
from minipaddle.tensor.checks import check_bool

__all__ = [
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool3d",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
]


def _window(x, kernel_size, stride, padding, ceil_mode, nd, last, fn):
    """kernel, strides and paddings (pairs) for channels-first x. stride=None means stride = kernel_size."""
    check_bool(ceil_mode, fn, "ceil_mode")  # a bool attribute of the op, as in paddle
    kernel = ntuple(kernel_size, nd, fn, "kernel_size")
    strides = kernel if stride is None else ntuple(stride, nd, fn, "stride")
    pads = padding_pairs(padding, nd, last, fn)
    if pads == "SAME" and ceil_mode:
        raise ValueError(f"{fn}: ceil_mode must be False when padding is 'same'")
    pads, _ = resolve_padding(pads, tuple(x.shape[2:]), kernel, strides)
    for d, k, (b, a) in zip(x.shape[2:], kernel, pads):
        if d + b + a < k:
            raise ValueError(
                f"{fn}: the padded input ({d + b + a}) is smaller than the kernel ({k}); x has shape {x.shape}"
            )
    return kernel, strides, pads


def _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, nd, fn):
    x = check_input(x, nd, fn)
    last = channel_last(data_format, nd, fn)
    if return_mask and last:
        raise ValueError(f"{fn}: return_mask=True needs a channels-first data_format, got {data_format!r}")
    x = to_channels_first(x, last)
    kernel, strides, pads = _window(x, kernel_size, stride, padding, ceil_mode, nd, last, fn)
    if return_mask:  # Paddle 2.6's max pooling with mask has no ceil_mode: it is ignored there
        ceil_mode = False
    out, mask = ops.max_pool(x, kernel, strides, pads, ceil_mode)
    mask.stop_gradient = True
    out = to_channels_last(out, last)
    return (out, mask) if return_mask else out


def _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, nd, fn):
    x = check_input(x, nd, fn)
    last = channel_last(data_format, nd, fn)
    x = to_channels_first(x, last)
    kernel, strides, pads = _window(x, kernel_size, stride, padding, ceil_mode, nd, last, fn)
    if divisor_override is not None and (not isinstance(divisor_override, int) or divisor_override <= 0):
        raise ValueError(f"{fn}: divisor_override must be a positive int or None, got {divisor_override!r}")
    out = ops.avg_pool(x, kernel, strides, pads, ceil_mode, check_bool(exclusive, fn, "exclusive"), divisor_override)
    return to_channels_last(out, last)


def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, name=None):
    """Max pooling over the last axis of x [N, C, L]. See max_pool2d.

    Example:
        >>> F.max_pool1d(paddle.rand([1, 2, 8]), kernel_size=2).shape
        [1, 2, 4]
    """
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, "NCL", 1, "max_pool1d")


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCHW",
               name=None):  # fmt: skip
    """The maximum of each kernel_size window of x [N, C, H, W] (or NHWC).

    Args:
        kernel_size: an int or [kh, kw]. stride: the same, or None for stride = kernel_size.
        padding: as conv2d (an int, a pair per axis, 'same', 'valid', ...); padded pixels never win.
        return_mask: also return, for each maximum, its flat index h * W + w in the input (int32; NCHW only).
        ceil_mode: round the output size up, counting a last partial window. As in Paddle 2.6, it is ignored
            when return_mask is True.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        out, or (out, mask) when return_mask.

    Example:
        >>> F.max_pool2d(paddle.rand([1, 6, 24, 24]), kernel_size=2).shape
        [1, 6, 12, 12]
    """
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, 2, "max_pool2d")


def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCDHW",
               name=None):  # fmt: skip
    """Max pooling over the three spatial axes of x [N, C, D, H, W] (or NDHWC). See max_pool2d.

    Example:
        >>> F.max_pool3d(paddle.rand([1, 2, 4, 4, 4]), kernel_size=2).shape
        [1, 2, 2, 2, 2]
    """
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, 3, "max_pool3d")


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, name=None):
    """Average pooling over the last axis of x [N, C, L]. See avg_pool2d.

    Example:
        >>> F.avg_pool1d(paddle.rand([1, 2, 8]), kernel_size=2).shape
        [1, 2, 4]
    """
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, None, "NCL", 1, "avg_pool1d")


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
               data_format="NCHW", name=None):  # fmt: skip
    """The mean of each kernel_size window of x [N, C, H, W] (or NHWC).

    Args:
        kernel_size, stride, padding, ceil_mode, data_format: as max_pool2d.
        exclusive: divide by the number of input pixels in the window (True) or by the window's size including
            padding (False).
        divisor_override: divide every window sum by this int instead.

    Example:
        >>> F.avg_pool2d(paddle.rand([1, 3, 8, 8]), kernel_size=2, stride=2).shape
        [1, 3, 4, 4]
    """
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, 2,
                     "avg_pool2d")  # fmt: skip


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
               data_format="NCDHW", name=None):  # fmt: skip
    """Average pooling over the three spatial axes of x [N, C, D, H, W] (or NDHWC). See avg_pool2d.

    Example:
        >>> F.avg_pool3d(paddle.rand([1, 2, 4, 4, 4]), kernel_size=2).shape
        [1, 2, 2, 2, 2]
    """
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, 3,
                     "avg_pool3d")  # fmt: skip


# ---- adaptive pooling -------------------------------------------------------------------------------------------


def _output_size(x, output_size, nd, fn) -> tuple:
    """One size per spatial axis; None keeps the input's size there."""
    if isinstance(output_size, Tensor):
        output_size = output_size.tolist()
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = [output_size] * nd
    if not isinstance(output_size, (list, tuple)) or len(output_size) != nd:
        raise TypeError(f"{fn}: output_size must be an int or a list of {nd} ints (or None), got {output_size!r}")
    sizes = tuple(int(x.shape[2 + i]) if s is None else s for i, s in enumerate(output_size))
    return ntuple(sizes, nd, fn, "output_size")


def _adaptive_avg(x, output_size, data_format, nd, fn):
    x = check_input(x, nd, fn)
    last = channel_last(data_format, nd, fn)
    x = to_channels_first(x, last)
    return to_channels_last(ops.adaptive_avg_pool(x, _output_size(x, output_size, nd, fn)), last)


def _adaptive_max(x, output_size, return_mask, nd, fn):
    x = check_input(x, nd, fn)
    out, mask = ops.adaptive_max_pool(x, _output_size(x, output_size, nd, fn))
    mask.stop_gradient = True
    return (out, mask) if return_mask else out


def adaptive_avg_pool1d(x, output_size, name=None):
    """Average pooling of x [N, C, L] into output_size bins; bin i covers [floor(i*L/out), ceil((i+1)*L/out)).

    Example:
        >>> F.adaptive_avg_pool1d(paddle.rand([1, 2, 10]), 3).shape
        [1, 2, 3]
    """
    return _adaptive_avg(x, output_size, "NCL", 1, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """Average pooling of x [N, C, H, W] (or NHWC) into an output_size grid of bins, whatever the input's size.

    Args:
        output_size: an int or [out_h, out_w]; None in the list keeps that input size.

    Example:
        >>> F.adaptive_avg_pool2d(paddle.rand([2, 8, 7, 7]), 1).shape
        [2, 8, 1, 1]
    """
    return _adaptive_avg(x, output_size, data_format, 2, "adaptive_avg_pool2d")


def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    """Adaptive average pooling over the three spatial axes. See adaptive_avg_pool2d.

    Example:
        >>> F.adaptive_avg_pool3d(paddle.rand([1, 2, 4, 4, 4]), 2).shape
        [1, 2, 2, 2, 2]
    """
    return _adaptive_avg(x, output_size, data_format, 3, "adaptive_avg_pool3d")


def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    """The maximum of each adaptive bin of x [N, C, L]. See adaptive_avg_pool1d and max_pool2d (for the mask).

    Example:
        >>> F.adaptive_max_pool1d(paddle.rand([1, 2, 10]), 3).shape
        [1, 2, 3]
    """
    return _adaptive_max(x, output_size, return_mask, 1, "adaptive_max_pool1d")


def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """The maximum of each adaptive bin of x [N, C, H, W].

    Example:
        >>> F.adaptive_max_pool2d(paddle.rand([1, 2, 5, 5]), [2, 3]).shape
        [1, 2, 2, 3]
    """
    return _adaptive_max(x, output_size, return_mask, 2, "adaptive_max_pool2d")


def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    """The maximum of each adaptive bin of x [N, C, D, H, W].

    Example:
        >>> F.adaptive_max_pool3d(paddle.rand([1, 2, 4, 4, 4]), 2).shape
        [1, 2, 2, 2, 2]
    """
    return _adaptive_max(x, output_size, return_mask, 3, "adaptive_max_pool3d")
