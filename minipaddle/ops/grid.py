"""affine_grid and grid_sample: the two halves of a spatial transformer (Jaderberg et al., 2015).

affine_grid turns a batch of affine matrices theta [N, 2, 3] (or [N, 3, 4] in 3-D) into a sampling grid
[N, H, W, 2]: for every output pixel, where in the input to read it, in normalized coordinates (-1 is one edge of
the image, 1 the other). grid_sample reads x [N, C, H, W] (or [N, C, D, H, W]) at the points of such a grid.

The grid's last axis lists a point's coordinates fastest image axis first: (x, y) = (along W, along H), or
(x, y, z) = (W, H, D). Along an image axis of n pixels, a normalized g becomes the pixel coordinate
    align_corners=True:   i = (g + 1) / 2 * (n - 1)      -1 and 1 are the centres of the corner pixels
    align_corners=False:  i = ((g + 1) * n - 1) / 2      -1 and 1 are the outer edges of the corner pixels
Points outside the image follow padding_mode: 'zeros' reads 0 there, 'border' moves them onto the nearest edge,
'reflection' mirrors them back in. mode 'bilinear' mixes the 2**d pixels around a point, each weighted by
(1 - distance) along every axis; 'nearest' reads the closest pixel (halves round away from zero, as in Paddle).

Gradients. grid_sample_grad is its own op with its own kernel: dx adds each output gradient back onto the pixels
it was read from, by weight; dgrid is how the output changes as a point moves (the weights' derivatives), times
d(pixel coordinate)/d(grid). Like Paddle 2.6, grid_sample_grad has no gradient of its own. affine_grid is linear in
theta: its gradient affine_grid_grad is the transposed map, whose gradient is affine_grid again.
"""

from __future__ import annotations

import itertools

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["affine_grid", "affine_grid_grad", "grid_sample", "grid_sample_grad"]  # ops/__init__.py gathers them


# ---- affine_grid ---------------------------------------------------------------------------------------------------


def _base_grid(sizes: tuple, align_corners: bool, dtype) -> np.ndarray:
    """[M, d + 1], M = prod(sizes): each output pixel's normalized coordinates (x, y[, z]), then a 1, so that
    base @ theta^T is the affine map."""
    lines = []
    for n in sizes:
        line = np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)  # one pixel sits at the centre (Paddle: NaN)
        lines.append(line if align_corners else line * (n - 1) / n)  # pixel centres, edges at -1 and 1
    mesh = np.meshgrid(*lines, indexing="ij")  # one [*sizes] array per image axis, in (D,) H, W order
    coords = [m.ravel() for m in reversed(mesh)]  # x (along W) first
    return np.stack([*coords, np.ones(coords[0].size)], axis=-1).astype(dtype)


@register
class AffineGrid(OpDef):
    """grid = affine_grid(theta): theta [N, d, d + 1] -> grid [N, *out_size, d] (out_size: (H, W) or (D, H, W))."""

    name = "affine_grid"
    saves_inputs = False  # linear in theta: the gradient does not read it

    def kernel(self, theta, out_size, align_corners):
        base = _base_grid(out_size, align_corners, theta.dtype)
        grid = (base @ np.swapaxes(theta, 1, 2)).reshape(theta.shape[0], *out_size, theta.shape[1])
        return grid.astype(theta.dtype, copy=False)  # (numpy's matmul of two bfloat16 arrays gives float32)

    def grad(self, node, g):
        return (affine_grid_grad(g, **node.attrs),)

    def infer_meta(self, theta: Meta, out_size, align_corners) -> Meta:
        return Meta((theta.shape[0], *out_size, theta.shape[1]), theta.dtype)


@register
class AffineGridGrad(OpDef):
    """dtheta = affine_grid_grad(g): the transposed map, g [N, *out_size, d] -> [N, d, d + 1]."""

    name = "affine_grid_grad"
    saves_inputs = False

    def kernel(self, g, out_size, align_corners):
        base = _base_grid(out_size, align_corners, g.dtype)
        return (np.swapaxes(g.reshape(g.shape[0], -1, g.shape[-1]), 1, 2) @ base).astype(g.dtype, copy=False)

    def grad(self, node, gg):
        return (affine_grid(gg, **node.attrs),)

    def infer_meta(self, g: Meta, out_size, align_corners) -> Meta:
        d = g.shape[-1]
        return Meta((g.shape[0], d, d + 1), g.dtype)


# ---- grid_sample: where each point reads -----------------------------------------------------------------------------


def _pixel_coords(grid: np.ndarray, sizes: tuple, padding_mode: str, align_corners: bool):
    """Per image axis (in x's order: (D,) H, W), every point's pixel coordinate [N, *P] after padding, and its
    derivative with respect to the grid value (the chain-rule factor of dgrid)."""
    d = len(sizes)
    coords, slopes = [], []
    for axis, n in enumerate(sizes):
        g = grid[..., d - 1 - axis]  # the grid lists the last image axis (W) first
        scale = (n - 1) / 2 if align_corners else n / 2
        c = (g + 1) * scale if align_corners else ((g + 1) * n - 1) / 2
        c, slope = _pad(c, n, padding_mode, align_corners)
        coords.append(c)
        slopes.append(slope * scale)
    return coords, slopes


def _pad(c: np.ndarray, n: int, padding_mode: str, align_corners: bool):
    """Coordinates along an axis of n pixels moved inside as padding_mode says, and d(new)/d(old)."""
    if padding_mode == "zeros":  # left where they are: pixels outside read 0 (see _taps)
        return c, np.ones_like(c)
    slope = np.ones_like(c)
    if padding_mode == "reflection":
        c, slope = _reflect(c, n, align_corners)
    inside = np.clip(c, 0, n - 1)
    return inside, slope * (inside == c)  # a clipped coordinate no longer moves with the grid


def _reflect(c: np.ndarray, n: int, align_corners: bool):
    """Mirror c into [lo, lo + span] (the corner pixels' centres, or their outer edges without align_corners),
    as often as needed; a point mirrored an odd number of times moves against the grid (slope -1)."""
    lo, span = (0.0, n - 1) if align_corners else (-0.5, n)
    if span == 0:  # a one-pixel axis: every point reads that pixel
        return np.zeros_like(c), np.zeros_like(c)
    t = np.abs(c - lo)
    extra = t - np.floor(t / (2 * span)) * (2 * span)  # where t falls in one period of the mirrored pattern
    flip = extra > 2 * span - extra
    slope = np.where((c - lo < 0) == flip, 1.0, -1.0).astype(c.dtype)
    return np.where(flip, 2 * span - extra, extra) + lo, slope


def _round_half_away(c: np.ndarray) -> np.ndarray:
    """Round to the nearest integer, halves away from zero (C's round, as Paddle's kernel; numpy rounds to even)."""
    whole = np.trunc(c)
    return whole + np.where(np.abs(c - whole) >= 0.5, np.sign(c), 0)


def _taps(coords: list, sizes: tuple, mode: str) -> list:
    """The pixels each point reads, one entry per corner of the cell around it (one entry for 'nearest'):
    (flat pixel index [N, *P], 1 where that pixel is inside the image else 0, the weight along each axis, the
    sign of each weight's derivative with respect to the coordinate)."""
    if mode == "nearest":
        corners = [[(_round_half_away(c), np.ones_like(c), 0.0) for c in coords]]
    else:
        lows = [np.floor(c) for c in coords]
        fracs = [c - lo for c, lo in zip(coords, lows)]
        corners = [
            [(lo + b, f if b else 1 - f, 1.0 if b else -1.0) for lo, f, b in zip(lows, fracs, bits)]
            for bits in itertools.product((0, 1), repeat=len(coords))
        ]
    taps = []
    for corner in corners:
        indices = [i for i, _, _ in corner]
        inside = np.logical_and.reduce([(i >= 0) & (i <= n - 1) for i, n in zip(indices, sizes)])
        flat = np.ravel_multi_index(tuple(np.clip(i, 0, n - 1).astype(np.int64) for i, n in zip(indices, sizes)), sizes)
        taps.append((flat, inside.astype(coords[0].dtype), [w for _, w, _ in corner], [s for _, _, s in corner]))
    return taps


def _gather(x: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """x [N, C, *S] read at the flat pixel indices [N, *P]: [N, C, *P]."""
    n, c = x.shape[:2]
    picked = np.take_along_axis(x.reshape(n, c, -1), flat.reshape(n, 1, -1), axis=2)
    return picked.reshape(n, c, *flat.shape[1:])


def _points(grid: np.ndarray, x_shape: tuple, mode: str, padding_mode: str, align_corners: bool):
    sizes = tuple(x_shape[2:])
    coords, slopes = _pixel_coords(grid, sizes, padding_mode, align_corners)
    return _taps(coords, sizes, mode), slopes


@register
class GridSample(OpDef):
    """out = grid_sample(x, grid): x [N, C, *S] read at grid [N, *P, d] -> out [N, C, *P]."""

    name = "grid_sample"

    def kernel(self, x, grid, mode, padding_mode, align_corners):
        taps, _ = _points(grid, x.shape, mode, padding_mode, align_corners)
        out = np.zeros((*x.shape[:2], *grid.shape[1:-1]), dtype=x.dtype)
        for flat, inside, weights, _ in taps:
            out += _gather(x, flat) * (inside * np.prod(weights, axis=0))[:, None]
        return out

    def grad(self, node, g):
        dx, dgrid = grid_sample_grad(node.input(0), node.input(1), g, **node.attrs)
        return (dx if node.needs_grad(0) else None, dgrid if node.needs_grad(1) else None)

    def infer_meta(self, x: Meta, grid: Meta, **attrs) -> Meta:
        return Meta((*x.shape[:2], *grid.shape[1:-1]), x.dtype)


@register
class GridSampleGrad(OpDef):
    """(dx, dgrid) = grid_sample_grad(x, grid, g). Paddle 2.6 defines no gradient for it, and neither do we:
    a second backward through it raises the base class's clear RuntimeError."""

    name = "grid_sample_grad"

    def kernel(self, x, grid, g, mode, padding_mode, align_corners):
        taps, slopes = _points(grid, x.shape, mode, padding_mode, align_corners)
        n, c = x.shape[:2]
        pixels = int(np.prod(x.shape[2:]))
        channel_rows = np.arange(n * c).reshape(n, c, 1) * pixels  # where each (n, c) image starts in dx
        targets, values = [], []
        dcoords = [np.zeros(grid.shape[:-1], dtype=grid.dtype) for _ in slopes]
        for flat, inside, weights, signs in taps:
            weight = inside * np.prod(weights, axis=0)
            targets.append((channel_rows + flat.reshape(n, 1, -1)).ravel())
            values.append((g * weight[:, None]).ravel())
            if mode == "bilinear":  # nearest: the output does not change as a point moves a little
                g_dot_x = (g * _gather(x, flat)).sum(axis=1)  # [N, *P]
                for a, sign in enumerate(signs):
                    others = np.prod([w for b, w in enumerate(weights) if b != a], axis=0)
                    dcoords[a] += sign * inside * others * g_dot_x
        dx = np.bincount(np.concatenate(targets), np.concatenate(values), minlength=n * c * pixels)
        dgrid = np.stack([dc * s for dc, s in zip(dcoords, slopes)][::-1], axis=-1)  # back to (x, y[, z]) order
        return dx.reshape(x.shape).astype(x.dtype), dgrid.astype(grid.dtype)

    def infer_meta(self, x: Meta, grid: Meta, g: Meta, **attrs):
        return x, grid


# ---- raw functions ---------------------------------------------------------------------------------------------------


def affine_grid(theta: Tensor, out_size, align_corners: bool) -> Tensor:
    return apply(
        AffineGrid, (theta,), {"out_size": tuple(int(s) for s in out_size), "align_corners": bool(align_corners)}
    )


def affine_grid_grad(g: Tensor, out_size, align_corners: bool) -> Tensor:
    attrs = {"out_size": tuple(int(s) for s in out_size), "align_corners": bool(align_corners)}
    return apply(AffineGridGrad, (g,), attrs)


def grid_sample(x: Tensor, grid: Tensor, mode: str, padding_mode: str, align_corners: bool) -> Tensor:
    attrs = {"mode": mode, "padding_mode": padding_mode, "align_corners": bool(align_corners)}
    return apply(GridSample, (x, grid), attrs)


def grid_sample_grad(x: Tensor, grid: Tensor, g: Tensor, mode: str, padding_mode: str, align_corners: bool):
    attrs = {"mode": mode, "padding_mode": padding_mode, "align_corners": bool(align_corners)}
    return apply(GridSampleGrad, (x, grid, g), attrs)
