"""Geometry on numpy images (HWC, or HW for one channel): resize, pad, affine warps (rotate, shear, ...) and
perspective warps.

Coordinates are continuous with the origin at the image's top-left corner, so pixel (row i, column j) has its
centre at (x, y) = (j + 0.5, i + 0.5) and the image centre is (w / 2, h / 2), as in PIL. Everything is
vectorized over pixels; `warp_affine` also over a batch of images (the embedded digits use that).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["resize", "pad", "affine_matrix", "warp_affine", "rotated_bounds", "perspective_coeffs", "warp_perspective"]

INTERPOLATIONS = ("nearest", "bilinear")
PADDING_MODES = {"constant": "constant", "edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}


def check_interpolation(interpolation: str, fn: str) -> str:
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"{fn}: interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")
    return interpolation


def _cast_like(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Float results back to the image's dtype: integers are rounded and clipped to their range."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.clip(np.rint(values), info.min, info.max).astype(dtype)
    return values.astype(dtype, copy=False)


def resize(img: np.ndarray, size: tuple[int, int], interpolation: str = "bilinear") -> np.ndarray:
    """`img` resized to `size` = (height, width).

    bilinear samples at pixel centres (source = (dst + 0.5) * scale - 0.5, clamped to the image), as OpenCV's
    INTER_LINEAR and Paddle's interpolate(align_corners=False); nearest takes source = floor(dst * scale).
    """
    h, w = img.shape[:2]
    oh, ow = size
    if interpolation == "nearest":
        rows = np.minimum((np.arange(oh) * (h / oh)).astype(np.int64), h - 1)
        cols = np.minimum((np.arange(ow) * (w / ow)).astype(np.int64), w - 1)
        return img[rows[:, None], cols[None, :]]
    y = np.clip((np.arange(oh) + 0.5) * (h / oh) - 0.5, 0, h - 1)
    x = np.clip((np.arange(ow) + 0.5) * (w / ow) - 0.5, 0, w - 1)
    y0, x0 = np.floor(y).astype(np.int64), np.floor(x).astype(np.int64)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    wy, wx = (y - y0)[:, None], (x - x0)[None, :]
    if img.ndim == 3:
        wy, wx = wy[..., None], wx[..., None]
    src = img.astype(np.float64)
    top = src[y0[:, None], x0[None, :]] * (1 - wx) + src[y0[:, None], x1[None, :]] * wx
    bottom = src[y1[:, None], x0[None, :]] * (1 - wx) + src[y1[:, None], x1[None, :]] * wx
    return _cast_like(top * (1 - wy) + bottom * wy, img.dtype)


def output_size_for_shorter_side(h: int, w: int, size: int) -> tuple[int, int]:
    """Resize(size=int): the shorter side becomes `size`, the longer keeps the aspect ratio (truncated)."""
    if w <= h:
        return int(size * h / w), size
    return size, int(size * w / h)


def pad(img: np.ndarray, left: int, top: int, right: int, bottom: int, fill=0, mode: str = "constant"):
    """`img` with a border; mode 'constant' (fill: a number or one per channel), 'edge', 'reflect' (mirror
    without repeating the edge pixel) or 'symmetric' (mirror repeating it)."""
    if mode != "constant":
        widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
        return np.pad(img, widths, mode=PADDING_MODES[mode])
    h, w = img.shape[:2]
    out = np.empty((h + top + bottom, w + left + right) + img.shape[2:], dtype=img.dtype)
    out[...] = np.asarray(fill, dtype=np.float64).astype(img.dtype) if np.ndim(fill) == 0 else _fill_row(fill, img)
    out[top : top + h, left : left + w] = img
    return out


def _fill_row(fill, img: np.ndarray) -> np.ndarray:
    fill = np.asarray(fill, dtype=np.float64)
    channels = img.shape[2] if img.ndim == 3 else 1
    if fill.size != channels:
        raise ValueError(f"pad: fill has {fill.size} values but the image has {channels} channels")
    return fill.astype(img.dtype).reshape(img.shape[2:])


def affine_matrix(center, angle: float, translate=(0.0, 0.0), scale: float = 1.0, shear=(0.0, 0.0)) -> np.ndarray:
    """The 2x3 matrix taking output coordinates to input coordinates (the inverse map a warp samples with).

    The forward map is `p -> center + translate + RSS (p - center)`, where RSS rotates by `angle` degrees
    clockwise (on screen, y pointing down), scales, and shears by `shear` = (x, y) degrees: Paddle's (and
    torchvision's) `affine`. `rotate` turns the other way, so it passes `-angle`.
    """
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    cx, cy = center
    tx, ty = translate
    # RSS = R(angle) S(scale) SHy(sy) SHx(sx), written out.
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    forward = np.array([[a, b], [c, d]]) * scale
    inverse = np.linalg.inv(forward)
    offset = np.array([cx, cy]) - inverse @ np.array([cx + tx, cy + ty])
    return np.hstack([inverse, offset[:, None]])


def warp_affine(imgs: np.ndarray, inverse: np.ndarray, out_size, interpolation: str = "nearest", fill=0.0):
    """Sample `imgs` (one HW/HWC image, or a batch NHW/NHWC with one 2x3 matrix each) through `inverse`.

    Output pixel centre (x, y) reads input point inverse @ (x, y, 1); points outside the input take `fill`.
    """
    single = inverse.ndim == 2
    mats = (inverse[None] if single else inverse).astype(np.float64)
    oh, ow = out_size
    ys, xs = np.meshgrid(np.arange(oh) + 0.5, np.arange(ow) + 0.5, indexing="ij")
    # Input coordinates of every output pixel, per image: [n, oh, ow].
    sx = mats[:, 0, 0, None, None] * xs + mats[:, 0, 1, None, None] * ys + mats[:, 0, 2, None, None] - 0.5
    sy = mats[:, 1, 0, None, None] * xs + mats[:, 1, 1, None, None] * ys + mats[:, 1, 2, None, None] - 0.5
    return _sample(imgs, single, sx, sy, interpolation, fill)


def _sample(imgs: np.ndarray, single: bool, sx: np.ndarray, sy: np.ndarray, interpolation: str, fill):
    """Read `imgs` (one image, or a batch when not `single`) at the pixel positions (sx, sy) [n, oh, ow] (pixel
    (i, j) at (j, i)); points outside the image take `fill`."""
    batch = imgs[None] if single else imgs
    has_channels = batch.ndim == 4
    if not has_channels:
        batch = batch[..., None]
    n, h, w, ch = batch.shape
    fill = np.broadcast_to(np.asarray(fill, dtype=np.float64).reshape(-1)[:ch], (ch,))
    flat = batch.reshape(n, h * w, ch).astype(np.float64)
    image_index = np.arange(n)[:, None, None]

    def gather(r, c):
        inside = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        values = flat[image_index, np.clip(r, 0, h - 1) * w + np.clip(c, 0, w - 1)]
        return np.where(inside[..., None], values, fill)

    if interpolation == "nearest":
        out = gather(np.floor(sy + 0.5).astype(np.int64), np.floor(sx + 0.5).astype(np.int64))  # ties round up
    else:
        r0, c0 = np.floor(sy).astype(np.int64), np.floor(sx).astype(np.int64)
        fy, fx = (sy - r0)[..., None], (sx - c0)[..., None]
        out = (gather(r0, c0) * (1 - fx) + gather(r0, c0 + 1) * fx) * (1 - fy) + (
            gather(r0 + 1, c0) * (1 - fx) + gather(r0 + 1, c0 + 1) * fx
        ) * fy
    if not has_channels:
        out = out[..., 0]
    out = _cast_like(out, imgs.dtype)
    return out[0] if single else out


def rotated_bounds(w: int, h: int, inverse: np.ndarray) -> tuple[int, int, np.ndarray]:
    """For rotate(expand=True): the size that holds the whole rotated image, and the matrix re-centred on it."""
    forward = np.linalg.inv(np.vstack([inverse, [0, 0, 1]]))[:2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], dtype=np.float64)
    moved = corners @ forward.T
    # The extent of the turned rectangle, rounded up (after trimming float noise, so a quarter turn of a
    # w x h image is exactly h x w).
    nw, nh = (int(v) for v in np.ceil(np.round(moved.max(axis=0) - moved.min(axis=0), 9)))
    shift = np.array([(nw - w) / 2, (nh - h) / 2])  # the old centre moves to the new image's centre
    recentred = inverse.copy()
    recentred[:, 2] -= inverse[:, :2] @ shift
    return nw, nh, recentred


def perspective_coeffs(startpoints, endpoints) -> np.ndarray:
    """The 8 coefficients (a, b, c, d, e, f, g, h) of the projective map taking each of the 4 `endpoints` to its
    `startpoint`: (x, y) -> ((a x + b y + c) / (g x + h y + 1), (d x + e y + f) / (g x + h y + 1)), by least
    squares (Paddle's _get_perspective_coeffs)."""
    rows = []
    for (x, y), (u, v) in zip(endpoints, startpoints):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    return np.linalg.lstsq(np.array(rows, dtype=np.float64), np.asarray(startpoints, np.float64).reshape(8),
                           rcond=None)[0]  # fmt: skip


def warp_perspective(img: np.ndarray, coeffs, interpolation: str = "nearest", fill=0.0) -> np.ndarray:
    """Sample one image through the projective map of `coeffs` (output pixel centre -> input point), keeping
    its size; points outside the input take `fill`."""
    a, b, c, d, e, f, g, h = coeffs
    ys, xs = np.meshgrid(np.arange(img.shape[0]) + 0.5, np.arange(img.shape[1]) + 0.5, indexing="ij")
    den = g * xs + h * ys + 1.0
    sx = (a * xs + b * ys + c) / den - 0.5
    sy = (d * xs + e * ys + f) / den - 0.5
    return _sample(img, True, sx[None], sy[None], interpolation, fill)
