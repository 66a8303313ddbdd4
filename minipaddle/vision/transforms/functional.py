"""The functional image transforms (paddle.vision.transforms.functional): one function per operation.

Every function takes
- a numpy image: HWC (or HW for one channel), uint8 in 0..255 or float in 0..1 (what datasets give);
- a Tensor image: CHW (what ToTensor gives);
- a PIL image, when Pillow happens to be installed (it is converted to numpy and back; minipaddle does not
  need Pillow).
and returns the same kind. The pixel work is done once, in numpy (geometry.py, color.py); a Tensor goes there
as HWC and comes back as CHW. Flips, crops, erase, normalize and to_tensor run as minipaddle ops on Tensors;
the other Tensor transforms are data preparation and record no gradient.
"""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.tensor.creation import to_tensor as make_tensor
from minipaddle.tensor.manipulation import flip
from minipaddle.vision.transforms import color, geometry

__all__ = [
    "to_tensor",
    "hflip",
    "vflip",
    "resize",
    "pad",
    "affine",
    "rotate",
    "perspective",
    "to_grayscale",
    "crop",
    "center_crop",
    "adjust_brightness",
    "adjust_contrast",
    "adjust_saturation",
    "adjust_hue",
    "normalize",
    "erase",
]


def _is_pil(img) -> bool:
    return type(img).__module__.startswith("PIL.") and hasattr(img, "getbands")


def _kind(img, fn: str) -> str:
    if isinstance(img, np.ndarray) and img.ndim in (2, 3):
        return "numpy"
    if isinstance(img, Tensor) and img.ndim == 3:
        return "tensor"
    if _is_pil(img):
        return "pil"
    what = f"a {img.ndim}-d {type(img).__name__}" if hasattr(img, "ndim") else type(img).__name__
    raise TypeError(f"{fn}: img must be a numpy image (HW or HWC), a CHW Tensor or a PIL image, got {what}")


def _on_hwc(img, fn: str, op):
    """Run `op` (numpy HWC in, numpy HWC out) on any kind of image, returning the same kind."""
    kind = _kind(img, fn)
    if kind == "numpy":
        return op(img)
    if kind == "tensor":
        out = op(img.numpy().transpose(1, 2, 0))
        return make_tensor(np.ascontiguousarray((out[..., None] if out.ndim == 2 else out).transpose(2, 0, 1)))
    from PIL import Image  # only reached with a PIL image, so Pillow is installed

    out = op(np.asarray(img))
    return Image.fromarray(out[..., 0] if out.ndim == 3 and out.shape[2] == 1 else out)


def _size(img, fn: str) -> tuple[int, int]:
    """(height, width) of any kind of image."""
    kind = _kind(img, fn)
    if kind == "tensor":
        return tuple(img.shape[1:])
    if kind == "pil":
        return img.size[1], img.size[0]
    return img.shape[:2]


def to_tensor(pic, data_format="CHW") -> Tensor:
    """A numpy (HW/HWC) or PIL image as a Tensor in `data_format` ('CHW' or 'HWC').

    uint8 images become float32 divided by 255 (values in [0, 1]); other dtypes are kept.

    Example:
        >>> F.to_tensor(np.zeros((28, 28), 'uint8')).shape
        [1, 28, 28]
    """
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"to_tensor: data_format must be 'CHW' or 'HWC', got {data_format!r}")
    kind = _kind(pic, "to_tensor")
    if kind == "tensor":
        return pic if data_format == "CHW" else pic.transpose((1, 2, 0))
    arr = np.asarray(pic)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.dtype == np.uint8:
        arr = arr.astype(np.float32) / np.float32(255.0)
    return make_tensor(np.ascontiguousarray(arr.transpose(2, 0, 1) if data_format == "CHW" else arr))


def hflip(img):
    """Mirror left-right."""
    if _kind(img, "hflip") == "tensor":
        return flip(img, axis=[-1])
    return _on_hwc(img, "hflip", lambda a: np.ascontiguousarray(a[:, ::-1]))


def vflip(img):
    """Mirror top-bottom."""
    if _kind(img, "vflip") == "tensor":
        return flip(img, axis=[-2])
    return _on_hwc(img, "vflip", lambda a: np.ascontiguousarray(a[::-1]))


def crop(img, top, left, height, width):
    """The `height` x `width` window whose top-left pixel is (top, left)."""
    if _kind(img, "crop") == "tensor":
        return img[:, top : top + height, left : left + width]
    return _on_hwc(img, "crop", lambda a: a[top : top + height, left : left + width])


def center_crop(img, output_size):
    """The central `output_size` window (an int for a square, or (height, width))."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    h, w = _size(img, "center_crop")
    th, tw = output_size
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def resize(img, size, interpolation="bilinear"):
    """Resize to `size`: (height, width), or an int for the shorter side (the aspect ratio is kept).

    interpolation: 'bilinear' (default) or 'nearest'.

    Example:
        >>> F.resize(np.zeros((32, 64, 3), 'uint8'), 16).shape
        (16, 32, 3)
    """
    geometry.check_interpolation(interpolation, "resize")
    h, w = _size(img, "resize")
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        if min(h, w) == size:
            return img
        out_size = geometry.output_size_for_shorter_side(h, w, int(size))
    elif isinstance(size, (list, tuple)) and len(size) == 2 and all(isinstance(s, numbers.Integral) for s in size):
        out_size = (int(size[0]), int(size[1]))
    else:
        raise TypeError(f"resize: size must be an int or a (height, width) pair, got {size!r}")
    if min(out_size) <= 0:
        raise ValueError(f"resize: the output size must be positive, got {list(out_size)}")
    return _on_hwc(img, "resize", lambda a: geometry.resize(a, out_size, interpolation))


def _padding_sides(padding, fn: str) -> tuple[int, int, int, int]:
    if isinstance(padding, numbers.Integral):
        return (int(padding),) * 4
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        return int(padding[0]), int(padding[1]), int(padding[0]), int(padding[1])
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        return tuple(int(p) for p in padding)
    raise ValueError(f"{fn}: padding must be an int or a sequence of 2 or 4 ints, got {padding!r}")


def pad(img, padding, fill=0, padding_mode="constant"):
    """Add a border. padding: all sides, (left/right, top/bottom) or (left, top, right, bottom).

    padding_mode: 'constant' (with `fill`, a number or one per channel), 'edge', 'reflect' or 'symmetric'.
    """
    left, top, right, bottom = _padding_sides(padding, "pad")
    if padding_mode not in geometry.PADDING_MODES:
        raise ValueError(f"pad: padding_mode must be one of {list(geometry.PADDING_MODES)}, got {padding_mode!r}")
    return _on_hwc(img, "pad", lambda a: geometry.pad(a, left, top, right, bottom, fill, padding_mode))


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    """Rotate by `angle` degrees clockwise, scale, shear by `shear` degrees (a number for x, or (x, y)) and
    translate by `translate` = (dx, dy) pixels, about `center` (x, y) (default: the image centre)."""
    if not isinstance(angle, numbers.Real):
        raise TypeError(f"affine: angle must be a number, got {type(angle).__name__}")
    if not isinstance(translate, (list, tuple)) or len(translate) != 2:
        raise ValueError(f"affine: translate must be a sequence of 2 numbers, got {translate!r}")
    if scale <= 0:
        raise ValueError(f"affine: scale must be positive, got {scale}")
    shear = [shear, 0.0] if isinstance(shear, numbers.Number) else list(shear)
    if len(shear) == 1:
        shear = shear * 2
    if len(shear) != 2:
        raise ValueError(f"affine: shear must be a number or a sequence of 1 or 2 numbers, got {shear!r}")
    geometry.check_interpolation(interpolation, "affine")
    h, w = _size(img, "affine")
    center = (w / 2.0, h / 2.0) if center is None else tuple(center)
    inverse = geometry.affine_matrix(center, angle, translate, scale, shear)
    return _on_hwc(img, "affine", lambda a: geometry.warp_affine(a, inverse, (h, w), interpolation, fill))


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    """Rotate by `angle` degrees counter-clockwise about `center` (x, y; default the image centre).

    expand=True enlarges the output to hold the whole rotated image; the uncovered area takes `fill`.

    Example:
        >>> F.rotate(img, 90, expand=True)   # a quarter turn: the same as np.rot90 for an HWC image
    """
    geometry.check_interpolation(interpolation, "rotate")
    h, w = _size(img, "rotate")
    center = (w / 2.0, h / 2.0) if center is None else tuple(center)
    inverse = geometry.affine_matrix(center, -angle)
    if expand:
        w, h, inverse = geometry.rotated_bounds(w, h, inverse)
    return _on_hwc(img, "rotate", lambda a: geometry.warp_affine(a, inverse, (h, w), interpolation, fill))


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    """Warp the image so that its four `startpoints` move to the four `endpoints` (each
    [top-left, top-right, bottom-right, bottom-left] as [x, y] pixel positions); the size stays.

    Args:
        img: a numpy HW/HWC image, a CHW Tensor or a PIL image.
        startpoints, endpoints (list): four [x, y] points each.
        interpolation (str): 'nearest' or 'bilinear'.
        fill (number|list): the value of pixels that come from outside the image.

    Returns:
        The warped image, of img's kind.

    Example:
        >>> start = [[0, 0], [9, 0], [9, 9], [0, 9]]
        >>> F.perspective(img, start, [[2, 1], [8, 0], [9, 9], [1, 7]])    # a 10x10 image, tilted
    """
    points = []
    for arg, value in (("startpoints", startpoints), ("endpoints", endpoints)):
        arr = np.asarray(value, dtype=np.float64) if isinstance(value, (list, tuple, np.ndarray)) else None
        if arr is None or arr.shape != (4, 2):
            raise ValueError(f"perspective: {arg} must be 4 [x, y] points, got {value!r}")
        points.append(arr)
    geometry.check_interpolation(interpolation, "perspective")
    coeffs = geometry.perspective_coeffs(*points)
    return _on_hwc(img, "perspective", lambda a: geometry.warp_perspective(a, coeffs, interpolation, fill))


def to_grayscale(img, num_output_channels=1):
    """Luma (0.299 R + 0.587 G + 0.114 B) with 1 channel, or repeated into 3."""
    return _on_hwc(img, "to_grayscale", lambda a: color.to_grayscale(a, num_output_channels))


def _non_negative(value, fn: str, arg: str) -> float:
    if not isinstance(value, numbers.Real) or value < 0:
        raise ValueError(f"{fn}: {arg} must be a non-negative number, got {value!r}")
    return float(value)


def adjust_brightness(img, brightness_factor):
    """Multiply the intensities: 0 gives black, 1 the image, 2 twice as bright (clipped)."""
    factor = _non_negative(brightness_factor, "adjust_brightness", "brightness_factor")
    return _on_hwc(img, "adjust_brightness", lambda a: color.adjust_brightness(a, factor))


def adjust_contrast(img, contrast_factor):
    """Blend with the mean gray: 0 gives a flat gray image, 1 the image, > 1 more contrast."""
    factor = _non_negative(contrast_factor, "adjust_contrast", "contrast_factor")
    return _on_hwc(img, "adjust_contrast", lambda a: color.adjust_contrast(a, factor))


def adjust_saturation(img, saturation_factor):
    """Blend with the grayscale image: 0 gives gray, 1 the image, > 1 more vivid colours."""
    factor = _non_negative(saturation_factor, "adjust_saturation", "saturation_factor")
    return _on_hwc(img, "adjust_saturation", lambda a: color.adjust_saturation(a, factor))


def adjust_hue(img, hue_factor):
    """Turn every hue by `hue_factor` of a full turn, in [-0.5, 0.5]."""
    if not isinstance(hue_factor, numbers.Real) or not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"adjust_hue: hue_factor must be in [-0.5, 0.5], got {hue_factor!r}")
    return _on_hwc(img, "adjust_hue", lambda a: color.adjust_hue(a, float(hue_factor)))


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    """(img - mean) / std, per channel. mean and std are numbers or one value per channel.

    data_format says where the channels are ('CHW' or 'HWC'); a numpy image comes back float32, a Tensor goes
    through minipaddle ops (so a gradient can flow through it). to_rgb reverses the channel order first
    (BGR to RGB) for numpy images.

    Example:
        >>> F.normalize(F.to_tensor(img), mean=[0.5], std=[0.5])   # [0, 1] -> [-1, 1]
    """
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"normalize: data_format must be 'CHW' or 'HWC', got {data_format!r}")
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    if isinstance(img, Tensor):
        mean_t = make_tensor(np.asarray(mean, dtype=np.float64).reshape(shape), dtype=img.dtype)
        std_t = make_tensor(np.asarray(std, dtype=np.float64).reshape(shape), dtype=img.dtype)
        return (img - mean_t) / std_t
    arr = np.asarray(img).astype(np.float32) if _is_pil(img) else img
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"normalize: img must be a numpy image, a Tensor or a PIL image, got {type(img).__name__}")
    if to_rgb:
        arr = arr[..., ::-1]
    mean_a = np.float32(np.asarray(mean)).reshape(shape)
    std_a = np.float32(np.asarray(std)).reshape(shape)
    return ((arr - mean_a) / std_a).astype(np.float32)


def erase(img, i, j, h, w, v, inplace=False):
    """Fill the h x w window at (i, j) with `v` (a number, or an array/Tensor of the window's shape)."""
    kind = _kind(img, "erase")
    if kind == "tensor":
        out = img if inplace else img.clone()
        out[..., i : i + h, j : j + w] = v
        return out
    if kind == "pil":
        return _on_hwc(img, "erase", lambda a: erase(a.copy(), i, j, h, w, v, inplace=True))
    out = img if inplace else img.copy()
    out[i : i + h, j : j + w, ...] = v
    return out
