"""Colour on numpy images (HWC RGB, or HW / HW1 gray): grayscale, brightness, contrast, saturation, hue.

uint8 images hold 0..255 and float images 0..1 (as after ToTensor). Every adjustment blends the image with a
reference (black, its mean gray, its grayscale) or turns hues, then clips back into that range and dtype.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "to_grayscale",
    "adjust_brightness",
    "adjust_contrast",
    "adjust_saturation",
    "adjust_hue",
    "rgb_to_hsv",
    "hsv_to_rgb",
]

# ITU-R 601-2 luma, as PIL's convert('L') and OpenCV's RGB2GRAY.
LUMA = np.array([0.299, 0.587, 0.114])


def value_range(img: np.ndarray) -> float:
    return 255.0 if np.issubdtype(img.dtype, np.integer) else 1.0


def back_to_dtype(values: np.ndarray, like: np.ndarray) -> np.ndarray:
    values = np.clip(values, 0.0, value_range(like))
    if np.issubdtype(like.dtype, np.integer):
        return np.rint(values).astype(like.dtype)
    return values.astype(like.dtype, copy=False)


def channels(img: np.ndarray) -> int:
    return 1 if img.ndim == 2 else img.shape[2]


def gray_values(img: np.ndarray) -> np.ndarray:
    """Float luma, HW (the image itself when it has one channel)."""
    if channels(img) == 1:
        return img.reshape(img.shape[:2]).astype(np.float64)
    if channels(img) not in (3, 4):
        raise ValueError(f"to_grayscale: expected 1, 3 or 4 (RGBA) channels, got {channels(img)}")
    return img[..., :3].astype(np.float64) @ LUMA


def to_grayscale(img: np.ndarray, num_output_channels: int = 1) -> np.ndarray:
    """HW1 (or HW3, the gray value repeated) luma image of img's dtype."""
    if num_output_channels not in (1, 3):
        raise ValueError(f"to_grayscale: num_output_channels must be 1 or 3, got {num_output_channels!r}")
    gray = back_to_dtype(gray_values(img), img)[..., None]
    return np.repeat(gray, num_output_channels, axis=2)


def blend(img: np.ndarray, reference, factor: float) -> np.ndarray:
    """reference + factor * (img - reference): factor 0 gives the reference, 1 the image, > 1 goes beyond."""
    return back_to_dtype(reference + factor * (img.astype(np.float64) - reference), img)


def adjust_brightness(img: np.ndarray, factor: float) -> np.ndarray:
    return blend(img, 0.0, factor)


def adjust_contrast(img: np.ndarray, factor: float) -> np.ndarray:
    """Blend with the mean gray level (PIL's ImageEnhance.Contrast)."""
    return blend(img, gray_values(img).mean(), factor)


def adjust_saturation(img: np.ndarray, factor: float) -> np.ndarray:
    if channels(img) == 1:
        return img
    reference = gray_values(img)[..., None]
    if channels(img) == 4:  # keep alpha as it is
        return np.concatenate([blend(img[..., :3], reference, factor), img[..., 3:]], axis=2)
    return blend(img, reference, factor)


def rgb_to_hsv(rgb: np.ndarray) -> np.ndarray:
    """Float RGB in [0, 1] to HSV in [0, 1], vectorized."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    maxc, minc = rgb.max(axis=-1), rgb.min(axis=-1)
    delta = maxc - minc
    s = np.where(maxc > 0, delta / np.where(maxc > 0, maxc, 1), 0.0)
    safe = np.where(delta > 0, delta, 1)
    rc, gc, bc = (maxc - r) / safe, (maxc - g) / safe, (maxc - b) / safe
    h = np.where(maxc == r, bc - gc, np.where(maxc == g, 2.0 + rc - bc, 4.0 + gc - rc))
    h = np.where(delta > 0, (h / 6.0) % 1.0, 0.0)
    return np.stack([h, s, maxc], axis=-1)


def hsv_to_rgb(hsv: np.ndarray) -> np.ndarray:
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    i = i.astype(np.int64) % 6
    # The six sectors of the hue circle, chosen per pixel.
    r = np.choose(i, [v, q, p, p, t, v])
    g = np.choose(i, [t, v, v, q, p, p])
    b = np.choose(i, [p, p, t, v, v, q])
    return np.stack([r, g, b], axis=-1)


def adjust_hue(img: np.ndarray, factor: float) -> np.ndarray:
    """Turn every hue by `factor` of a full turn (in [-0.5, 0.5]); gray images are returned unchanged."""
    if channels(img) == 1:
        return img
    top = value_range(img)
    hsv = rgb_to_hsv(img[..., :3].astype(np.float64) / top)
    hsv[..., 0] = (hsv[..., 0] + factor) % 1.0
    rgb = back_to_dtype(hsv_to_rgb(hsv) * top, img)
    return np.concatenate([rgb, img[..., 3:]], axis=2) if channels(img) == 4 else rgb
