"""EmbeddedDigits: an MNIST-shaped digit dataset that minipaddle draws itself, so no download is ever needed.

Every image is rendered from a small built-in stroke font (one or two styles per digit), through
1. a distance field per glyph: for each point of a fine grid, the distance to the nearest stroke (computed
   once per glyph);
2. a random affine map per image (rotation, scale, aspect, shear, shift) plus a smooth random wobble, through
   which each of the 28x28 output pixels looks up its distance to the strokes (bilinear);
3. a random stroke thickness (pixels closer than it are ink, with an anti-aliased edge), a random blur, and
   noise.
All of it is vectorized over the images. The same seed always gives the same images; 12000 + 2000 images take
about a second. Images are uint8, white digits on black, 28x28, as MNIST.
"""

from __future__ import annotations

import functools

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.vision.datasets.mnist import GrayDigitImages, check_mode_and_backend

__all__ = ["EmbeddedDigits", "render_digits"]

SIZE = 28
DEFAULT_SAMPLES = {"train": 12000, "test": 2000}
SEEDS = {"train": 0, "test": 1}  # added to the dataset's seed: train and test never share an image


def _arc(cx, cy, rx, ry, start, end, n=12):
    """Points on an ellipse from angle `start` to `end` (degrees; 0 = right, 90 = down, as y points down)."""
    t = np.radians(np.linspace(start, end, n + 1))
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def _line(*points):
    return np.array(points, dtype=np.float64)


# The font: for each digit, one or more styles; a style is a list of polylines in a unit box (x right, y down).
FONT = {
    0: [[_arc(0.5, 0.5, 0.27, 0.4, 0, 360, 16)]],
    1: [
        [_line((0.36, 0.24), (0.52, 0.1), (0.52, 0.9))],
        [_line((0.55, 0.1), (0.47, 0.9))],
        [_line((0.38, 0.22), (0.52, 0.1), (0.52, 0.9)), _line((0.36, 0.9), (0.68, 0.9))],
    ],
    2: [[np.vstack([_arc(0.5, 0.32, 0.26, 0.22, 195, 400, 10), _line((0.22, 0.9), (0.8, 0.9))])]],
    3: [[_arc(0.49, 0.3, 0.24, 0.2, 205, 450, 10), _arc(0.49, 0.69, 0.28, 0.21, 270, 515, 10)]],
    4: [
        [_line((0.66, 0.9), (0.66, 0.1), (0.2, 0.64), (0.82, 0.64))],
        [_line((0.3, 0.1), (0.24, 0.6), (0.8, 0.6)), _line((0.64, 0.3), (0.64, 0.9))],
    ],
    5: [[np.vstack([_line((0.76, 0.1), (0.32, 0.1), (0.29, 0.46)), _arc(0.5, 0.66, 0.28, 0.24, 220, 510, 10)])]],
    6: [
        [
            np.vstack(
                [_line((0.7, 0.1), (0.5, 0.2), (0.35, 0.38), (0.27, 0.6)), _arc(0.5, 0.69, 0.23, 0.2, 180, 540, 12)]
            )
        ]
    ],  # fmt: skip
    7: [
        [_line((0.2, 0.1), (0.8, 0.1), (0.42, 0.9))],
        [_line((0.2, 0.1), (0.8, 0.1), (0.42, 0.9)), _line((0.38, 0.5), (0.7, 0.5))],
    ],
    8: [[_arc(0.5, 0.29, 0.21, 0.19, 0, 360, 12), _arc(0.5, 0.7, 0.26, 0.21, 0, 360, 12)]],
    9: [
        [_arc(0.5, 0.32, 0.24, 0.21, 0, 360, 12), _line((0.74, 0.32), (0.66, 0.9))],
        [np.vstack([_arc(0.5, 0.32, 0.24, 0.21, 0, 360, 12), _line((0.74, 0.32), (0.72, 0.6), (0.55, 0.88))])],
    ],
}

# The distance fields cover [-FIELD_MARGIN, 1 + FIELD_MARGIN]^2 of the unit box at FIELD_RES points a side.
FIELD_RES = 96
FIELD_MARGIN = 0.6


def _segments(polylines) -> np.ndarray:
    return np.concatenate([np.stack([p[:-1], p[1:]], axis=1) for p in polylines])  # [S, 2 ends, xy]


def _distance_field(polylines) -> np.ndarray:
    """[FIELD_RES, FIELD_RES] distance from each grid point to the nearest stroke segment (unit-box units)."""
    axis = np.linspace(-FIELD_MARGIN, 1 + FIELD_MARGIN, FIELD_RES)
    gy, gx = np.meshgrid(axis, axis, indexing="ij")
    points = np.stack([gx.ravel(), gy.ravel()], axis=1)[:, None, :]  # [P, 1, 2]
    seg = _segments(polylines)
    a, b = seg[None, :, 0], seg[None, :, 1]  # [1, S, 2]
    ab = b - a
    t = np.clip(np.sum((points - a) * ab, axis=-1) / np.maximum(np.sum(ab * ab, axis=-1), 1e-12), 0, 1)
    nearest = a + t[..., None] * ab
    return np.sqrt(np.sum((points - nearest) ** 2, axis=-1)).min(axis=1).reshape(FIELD_RES, FIELD_RES)


@functools.lru_cache(maxsize=1)
def _glyph_fields() -> tuple[np.ndarray, np.ndarray]:
    """Every style's distance field, stacked, and the digit each style draws."""
    fields, digits = [], []
    for digit, styles in FONT.items():
        for polylines in styles:
            fields.append(_distance_field(polylines))
            digits.append(digit)
    return np.stack(fields).astype(np.float32), np.array(digits)


def _sample_fields(fields: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Bilinear lookup of fields[k] at unit-box points (u, v): fields [K, R, R], u and v [K, ...]."""
    scale = (FIELD_RES - 1) / (1 + 2 * FIELD_MARGIN)
    x = np.clip((u + FIELD_MARGIN) * scale, 0, FIELD_RES - 1.001)
    y = np.clip((v + FIELD_MARGIN) * scale, 0, FIELD_RES - 1.001)
    x0, y0 = x.astype(np.int64), y.astype(np.int64)
    fx, fy = x - x0, y - y0
    k = np.arange(len(fields)).reshape((-1,) + (1,) * (u.ndim - 1))
    top = fields[k, y0, x0] * (1 - fx) + fields[k, y0, x0 + 1] * fx
    bottom = fields[k, y0 + 1, x0] * (1 - fx) + fields[k, y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def _blur(images: np.ndarray, amount: np.ndarray) -> np.ndarray:
    """Blend each image with its 3x3 binomial blur by its own `amount` in [0, 1]."""
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1)))
    weights = np.array([1.0, 2.0, 1.0]) / 4.0
    rows = sum(w * padded[:, i : i + SIZE, :] for i, w in enumerate(weights))
    blurred = sum(w * rows[:, :, j : j + SIZE] for j, w in enumerate(weights))
    a = amount[:, None, None]
    return (1 - a) * images + a * blurred


def render_digits(num_samples: int, seed: int = 0, chunk: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    """`num_samples` digit images (uint8 [N, 28, 28]) and labels (int64 [N]), the same for the same seed.

    Labels are balanced: each digit appears num_samples // 10 or one more times, in random order.
    """
    if not isinstance(num_samples, int) or num_samples < 1:
        raise ValueError(f"render_digits: num_samples must be a positive int, got {num_samples!r}")
    rng = np.random.default_rng(seed)
    fields, style_digit = _glyph_fields()
    labels = rng.permutation(np.arange(num_samples) % 10)
    # Pick a style of each image's digit.
    style_of = [np.flatnonzero(style_digit == d) for d in range(10)]
    choice = rng.random(num_samples)
    styles = np.array([style_of[d][int(c * len(style_of[d]))] for d, c in zip(labels, choice)])
    images = np.empty((num_samples, SIZE, SIZE), dtype=np.uint8)
    for start in range(0, num_samples, chunk):
        stop = min(start + chunk, num_samples)
        images[start:stop] = _render(fields[styles[start:stop]], rng)
    return images, labels.astype(np.int64)


def _render(fields: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    n = len(fields)
    # Per image: the glyph box's size in pixels, its aspect, rotation, shear and shift.
    size = rng.uniform(17.0, 22.0, n)
    aspect = rng.uniform(0.8, 1.2, n)
    angle = np.radians(rng.normal(0.0, 9.0, n))
    shear = rng.normal(0.0, 0.18, n)
    shift = rng.normal(0.0, 1.2, (n, 2))
    # Inverse map, pixel -> unit box: g = 0.5 + M (p - centre - shift) / size, with M = (R Sh S)^-1.
    cos, sin = np.cos(angle), np.sin(angle)
    # Forward linear part F = R @ Sh @ diag(aspect, 1); its inverse written out per image.
    f00, f01 = cos * aspect, cos * shear - sin
    f10, f11 = sin * aspect, sin * shear + cos
    det = f00 * f11 - f01 * f10
    m00, m01, m10, m11 = f11 / det, -f01 / det, -f10 / det, f00 / det
    centres = np.arange(SIZE) + 0.5
    py, px = np.meshgrid(centres, centres, indexing="ij")
    dx = (px[None] - SIZE / 2 - shift[:, 0, None, None]) / size[:, None, None]
    dy = (py[None] - SIZE / 2 - shift[:, 1, None, None]) / size[:, None, None]
    u = 0.5 + m00[:, None, None] * dx + m01[:, None, None] * dy
    v = 0.5 + m10[:, None, None] * dx + m11[:, None, None] * dy
    # A smooth wobble, like an unsteady hand: two low-frequency waves per coordinate.
    for _ in range(2):
        amp = rng.uniform(0.0, 0.035, (n, 1, 1))
        freq = rng.uniform(2.0, 9.0, (n, 1, 1))
        phase = rng.uniform(0.0, 2 * np.pi, (n, 1, 1))
        u, v = u + amp * np.sin(freq * v + phase), v + amp * np.cos(freq * u + phase)
    distance = _sample_fields(fields, u, v)
    half_width = rng.uniform(0.045, 0.085, n)[:, None, None]
    edge = 0.03
    ink = np.clip((half_width - distance) / edge + 0.5, 0.0, 1.0) * rng.uniform(0.8, 1.0, n)[:, None, None]
    ink = _blur(ink, rng.uniform(0.0, 0.7, n))
    ink = ink + rng.normal(0.0, 1.0, ink.shape) * rng.uniform(0.0, 0.06, n)[:, None, None]
    return np.clip(np.rint(ink * 255.0), 0, 255).astype(np.uint8)


@functools.lru_cache(maxsize=4)
def _cached(num_samples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    images, labels = render_digits(num_samples, seed)
    images.flags.writeable = False  # shared by every dataset made with the same arguments
    labels.flags.writeable = False
    return images, labels


class EmbeddedDigits(GrayDigitImages):
    """Digits 0-9 drawn by minipaddle: MNIST's shapes and conventions, no file, no download.

    A drop-in for `paddle.vision.datasets.MNIST` in tutorials and tests: 28x28 gray images (white on black),
    10 classes, `dataset[i] == (image, label)` with label an int64 array of shape [1].

    Args:
        mode (str): 'train' (12000 images by default) or 'test' (2000), drawn from different random streams.
        transform (callable, optional): applied to each image.
        backend (str, optional): 'cv2' (numpy float32 HxW images with values 0..255, the default) or 'pil'.
        num_samples (int, optional): how many images to draw instead of the default.
        seed (int): the drawing's seed; the same seed gives the same images. Default 0.

    Attributes: `images` (uint8 [N, 28, 28]) and `labels` (int64 [N, 1]), read-only arrays.

    Example:
        >>> from paddle.vision.transforms import Normalize
        >>> train = paddle.vision.datasets.EmbeddedDigits(mode='train', transform=Normalize([127.5], [127.5]))
        >>> image, label = train[0]      # image: float32 [1, 28, 28] in [-1, 1]
    """

    def __init__(self, mode="train", transform=None, backend=None, num_samples=None, seed=0) -> None:
        self.mode, self.backend = check_mode_and_backend("EmbeddedDigits", mode, backend)
        n = DEFAULT_SAMPLES[self.mode] if num_samples is None else num_samples
        images, labels = _cached(n, int(seed) * 2 + SEEDS[self.mode])
        self.images, self.labels = images, labels.reshape(-1, 1)
        self.transform = transform
        self.dtype = STATE.default_dtype
