"""Spatial transformers (paddle.nn.functional): affine_grid makes a sampling grid from affine matrices, grid_sample
reads an image at the points of a grid (the kernels and gradients are in minipaddle/ops/grid.py); and video's
temporal_shift, which moves a share of the channels one frame back or forward in time."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.common import check_image_format, check_positive_int
from minipaddle.nn.functional.window_args import check_input
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    check_bool,
    check_number,
    check_shape,
    check_size,
    check_tensor,
)

__all__ = [
    "affine_grid",
    "grid_sample",
    "temporal_shift",
]

_MODES = ("bilinear", "nearest")
_PADDING_MODES = ("zeros", "reflection", "border")


def affine_grid(theta, out_shape, align_corners=True, name=None) -> Tensor:
    """The sampling grid of a batch of affine transforms, for grid_sample.

    For every pixel of an output of shape out_shape, the grid holds theta @ (x, y, 1): where in the input that
    pixel should be read, in normalized coordinates (-1 and 1 are the input's edges, or its corner pixels' centres
    with align_corners).

    Args:
        theta: float Tensor [N, 2, 3] (2-D images) or [N, 3, 4] (3-D volumes): the affine matrices, mapping output
            coordinates to input coordinates.
        out_shape: the output's shape [N, C, H, W] or [N, C, D, H, W] (a list, tuple or 1-D int Tensor); only the
            spatial sizes are used (N comes from theta, as in Paddle).
        align_corners: True: -1 and 1 are the centres of the corner pixels; False: their outer edges.

    Returns:
        Tensor [N, H, W, 2] (or [N, D, H, W, 3]) of theta's dtype: each point's (x, y[, z]).

    Example:
        >>> theta = paddle.to_tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])   # the identity
        >>> F.affine_grid(theta, [1, 1, 2, 3]).shape
        [1, 2, 3, 2]
    """
    fn = "affine_grid"
    check_tensor(theta, fn, "theta")
    if not theta.dtype.is_floating:
        raise TypeError(f"{fn}: theta must be a float tensor, got {theta.dtype.name}")
    out_shape = check_shape(out_shape, fn)
    if len(out_shape) not in (4, 5):
        raise ValueError(f"{fn}: out_shape must be [N, C, H, W] or [N, C, D, H, W], got {list(out_shape)}")
    d = len(out_shape) - 2
    if theta.ndim != 3 or theta.shape[1:] != [d, d + 1]:
        raise ValueError(
            f"{fn}: a {len(out_shape)}-D out_shape needs theta of shape [N, {d}, {d + 1}], got {theta.shape}"
        )
    # (paddle 2.6 fails to allocate a negative or huge grid: PreconditionNotMet)
    if any(s < 1 for s in out_shape[2:]):
        raise PreconditionNotMetError(f"{fn}: the spatial sizes in out_shape must be >= 1, got {list(out_shape)}")
    check_size((*out_shape[2:], d), fn, error=PreconditionNotMetError)  # one sample's grid
    return ops.affine_grid(theta, out_shape[2:], check_bool(align_corners, fn, "align_corners"))


def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True, name=None) -> Tensor:
    """Read x at the points of grid (for instance from affine_grid), by bilinear or nearest interpolation.

    Args:
        x: float Tensor [N, C, H, W] or [N, C, D, H, W].
        grid: Tensor [N, H_out, W_out, 2] (or [N, D_out, H_out, W_out, 3]) of x's dtype: each point's
            normalized (x, y[, z]), x along W; -1 and 1 are the image's edges (see align_corners).
        mode: 'bilinear' (mix the 4, or 8, surrounding pixels) or 'nearest' (the closest pixel).
        padding_mode: points outside the image read 0 ('zeros'), the nearest edge pixel ('border') or the image
            mirrored at its edges ('reflection').
        align_corners: True: -1 and 1 are the centres of the corner pixels; False: their outer edges.

    Returns:
        Tensor [N, C, H_out, W_out] (or [N, C, D_out, H_out, W_out]) of x's dtype.

    Example:
        >>> x = paddle.rand([1, 3, 8, 8])
        >>> theta = paddle.to_tensor([[[0.5, 0.0, 0.0], [0.0, 0.5, 0.0]]])   # zoom in 2x on the centre
        >>> F.grid_sample(x, F.affine_grid(theta, [1, 3, 8, 8])).shape
        [1, 3, 8, 8]
    """
    fn = "grid_sample"
    check_tensor(x, fn)
    check_tensor(grid, fn, "grid")
    if mode not in _MODES:
        raise ValueError(f"{fn}: mode must be one of {', '.join(_MODES)}, got {mode!r}")
    if padding_mode not in _PADDING_MODES:
        raise ValueError(f"{fn}: padding_mode must be one of {', '.join(_PADDING_MODES)}, got {padding_mode!r}")
    align_corners = check_bool(align_corners, fn, "align_corners")
    if x.ndim not in (4, 5):
        raise ValueError(f"{fn}: x must be a 4-D [N, C, H, W] or 5-D [N, C, D, H, W] tensor, got shape {x.shape}")
    check_input(x, x.ndim - 2, fn)
    d = x.ndim - 2
    if grid.ndim != x.ndim or grid.shape[-1] != d:
        raise ValueError(f"{fn}: a {x.ndim}-D x needs a {x.ndim}-D grid whose last axis holds {d} coordinates, "
                         f"got grid of shape {grid.shape}")  # fmt: skip
    if grid.shape[0] != x.shape[0]:
        raise ValueError(f"{fn}: x and grid must have the same batch size, got {x.shape[0]} and {grid.shape[0]}")
    if grid.dtype != x.dtype:
        raise TypeError(f"{fn}: grid must have x's dtype ({x.dtype.name}), got {grid.dtype.name}")
    return ops.grid_sample(x, grid, mode, padding_mode, align_corners)


def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW") -> Tensor:
    """TSM's temporal shift: x holds N clips of seg_num frames ([N*seg_num, C, H, W]); the first
    C*shift_ratio channels of each frame take the previous frame's values, the next C*shift_ratio channels the
    next frame's, and the rest stay. Frames shifted in from outside a clip are zeros.

    Args:
        x (Tensor): [N*seg_num, C, H, W] (or [N*seg_num, H, W, C] with data_format 'NHWC'), float.
        seg_num (int): frames per clip. shift_ratio (float): the share of channels shifted each way, < 0.5.

    Example:
        >>> F.temporal_shift(paddle.rand([6, 4, 2, 2]), seg_num=2, shift_ratio=0.2).shape
        [6, 4, 2, 2]
    """
    fn = "temporal_shift"
    last = check_image_format(data_format, fn)
    x = check_input(x, 2, fn)
    seg_num = check_positive_int(seg_num, fn, "seg_num")
    shift_ratio = check_number(shift_ratio, fn, "shift_ratio")
    if not 0 <= shift_ratio < 0.5:
        raise ValueError(f"{fn}: shift_ratio must be in [0, 0.5), got {shift_ratio}")
    if x.shape[0] % seg_num:
        raise ValueError(f"{fn}: the batch size ({x.shape[0]}) must be divisible by seg_num ({seg_num})")
    channel_axis = 4 if last else 2  # in the [N, T, ...] view
    c = x.shape[3] if last else x.shape[1]
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    clips = ops.reshape(x, (-1, seg_num, *x.shape[1:]))
    padded = ops.pad(clips, [(0, 0), (1, 1), (0, 0), (0, 0), (0, 0)])  # a zero frame at each end of the clip

    def part(frames: slice, channels: slice) -> Tensor:
        index = [slice(None)] * 5
        index[1], index[channel_axis] = frames, channels
        return ops.index_view(padded, tuple(index))

    shifted = ops.concat(
        [
            part(slice(0, seg_num), slice(0, c1)),  # from the previous frame
            part(slice(2, seg_num + 2), slice(c1, c2)),  # from the next frame
            part(slice(1, seg_num + 1), slice(c2, c)),  # unchanged
        ],
        channel_axis,
    )
    return ops.reshape(shifted, tuple(x.shape))
