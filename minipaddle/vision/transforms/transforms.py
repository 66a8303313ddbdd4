"""The transform classes (paddle.vision.transforms): callables that prepare one sample, chained by Compose.

    transform = Compose([Resize(32), RandomHorizontalFlip(), ToTensor(), Normalize(mean=[0.5], std=[0.5])])
    image = transform(image)

A transform applies to its `keys`: by default the input is one image; with keys=('image', 'label') a tuple
(image, label) is transformed element by element, where the transform knows how (`_apply_<key>`). Random
choices come from minipaddle's generator, so `paddle.seed(n)` repeats them.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.creation import to_tensor
from minipaddle.vision.transforms import functional as F
from minipaddle.vision.transforms.geometry import check_interpolation

__all__ = [
    "BaseTransform",
    "Compose",
    "ToTensor",
    "Resize",
    "RandomResizedCrop",
    "CenterCrop",
    "RandomHorizontalFlip",
    "RandomVerticalFlip",
    "Transpose",
    "Normalize",
    "BrightnessTransform",
    "ContrastTransform",
    "SaturationTransform",
    "HueTransform",
    "ColorJitter",
    "RandomCrop",
    "Pad",
    "RandomAffine",
    "RandomRotation",
    "RandomPerspective",
    "Grayscale",
    "RandomErasing",
]


def _uniform(low: float, high: float) -> float:
    return float(STATE.rng.uniform(low, high))


def _randint(low: int, high: int) -> int:
    """An int in [low, high], both ends included (as Python's random.randint)."""
    return int(STATE.rng.integers(low, high + 1))


class Compose:
    """Apply transforms one after another.

    Example:
        >>> t = Compose([CenterCrop(24), ToTensor()])
    """

    def __init__(self, transforms) -> None:
        self.transforms = list(transforms)

    def __call__(self, data):
        for t in self.transforms:
            data = t(data)
        return data

    def __repr__(self) -> str:
        inner = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({inner}\n)"


class BaseTransform:
    """The base of the transforms: applies `_apply_<key>` to the input element named by each of `keys`.

    Args:
        keys (sequence of str, optional): what the elements of a tuple input are, e.g. ('image', 'label').
            Default ('image',). Elements past the keys pass through unchanged.

    Subclasses define `_apply_image` (and `_apply_<key>` for other keys) and may draw their random
    parameters once per call in `_get_params(inputs)`, stored in `self.params`, so every key sees the same.
    """

    def __init__(self, keys=None) -> None:
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence) or isinstance(keys, str):
            raise ValueError(f"{type(self).__name__}: keys must be a sequence of names, got {keys!r}")
        for key in keys:
            if self._get_apply(key) is None:
                raise ValueError(f"{type(self).__name__}: does not know how to transform a {key!r} "
                                 f"(no _apply_{key} method)")  # fmt: skip
        self.keys = tuple(keys)
        self.params = None

    def _get_params(self, inputs):
        return None

    def _get_apply(self, key):
        return getattr(self, f"_apply_{key}", None)

    def __call__(self, inputs):
        single = not isinstance(inputs, tuple)
        inputs = (inputs,) if single else inputs
        self.params = self._get_params(inputs)
        outputs = [self._get_apply(key)(x) for key, x in zip(self.keys, inputs)] + list(inputs[len(self.keys) :])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ToTensor(BaseTransform):
    """numpy (HW/HWC) or PIL image -> Tensor in `data_format` (default CHW); uint8 becomes float32 / 255."""

    def __init__(self, data_format="CHW", keys=None) -> None:
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return F.to_tensor(img, self.data_format)


class Resize(BaseTransform):
    """Resize to `size`: (height, width), or an int for the shorter side. interpolation: 'bilinear'/'nearest'."""

    def __init__(self, size, interpolation="bilinear", keys=None) -> None:
        super().__init__(keys)
        if not (isinstance(size, int) or (isinstance(size, Sequence) and len(size) == 2)):
            raise TypeError(f"Resize: size must be an int or a (height, width) pair, got {size!r}")
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img):
        return F.resize(img, self.size, self.interpolation)


def _image_size(img) -> tuple[int, int]:
    """(width, height), as Paddle's transforms count them."""
    h, w = F._size(img, "transform")
    return w, h


class RandomResizedCrop(BaseTransform):
    """Crop a random area (a `scale` fraction of the image, aspect ratio in `ratio`) and resize it to `size`."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3), interpolation="bilinear", keys=None):
        super().__init__(keys)
        self.size = (size, size) if isinstance(size, int) else tuple(size)
        if scale[0] > scale[1] or ratio[0] > ratio[1]:
            raise ValueError(f"RandomResizedCrop: scale and ratio must be (min, max), got {scale} and {ratio}")
        self.scale, self.ratio = scale, ratio
        self.interpolation = interpolation

    def _crop_box(self, img, attempts=10):
        width, height = _image_size(img)
        area = height * width
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(attempts):
            target_area = _uniform(*self.scale) * area
            aspect = math.exp(_uniform(*log_ratio))
            w = int(round(math.sqrt(target_area * aspect)))
            h = int(round(math.sqrt(target_area / aspect)))
            if 0 < w <= width and 0 < h <= height:
                return _randint(0, height - h), _randint(0, width - w), h, w
        # Fall back to a central crop with the aspect ratio clamped into range.
        in_ratio = width / height
        if in_ratio < min(self.ratio):
            w, h = width, int(round(width / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            w, h = int(round(height * max(self.ratio))), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img):
        return F.resize(F.crop(img, *self._crop_box(img)), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    """Crop the centre: `size` is an int (square) or (height, width)."""

    def __init__(self, size, keys=None) -> None:
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size

    def _apply_image(self, img):
        return F.center_crop(img, self.size)


class RandomHorizontalFlip(BaseTransform):
    """Mirror left-right with probability `prob`."""

    def __init__(self, prob=0.5, keys=None) -> None:
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError(f"RandomHorizontalFlip: prob must be in [0, 1], got {prob}")
        self.prob = prob

    def _apply_image(self, img):
        return F.hflip(img) if STATE.rng.random() < self.prob else img


class RandomVerticalFlip(BaseTransform):
    """Mirror top-bottom with probability `prob`."""

    def __init__(self, prob=0.5, keys=None) -> None:
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError(f"RandomVerticalFlip: prob must be in [0, 1], got {prob}")
        self.prob = prob

    def _apply_image(self, img):
        return F.vflip(img) if STATE.rng.random() < self.prob else img


class Transpose(BaseTransform):
    """Reorder the axes (default HWC -> CHW); a 2-D numpy image gets a channel axis first."""

    def __init__(self, order=(2, 0, 1), keys=None) -> None:
        super().__init__(keys)
        self.order = tuple(order)

    def _apply_image(self, img):
        if isinstance(img, Tensor):
            return img.transpose(list(self.order))
        img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., None]
        return img.transpose(self.order)


class Normalize(BaseTransform):
    """(img - mean) / std per channel. A number for mean or std stands for three channels (as in Paddle)."""

    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None) -> None:
        super().__init__(keys)
        self.mean = [mean] * 3 if isinstance(mean, numbers.Number) else list(mean)
        self.std = [std] * 3 if isinstance(std, numbers.Number) else list(std)
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img):
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


def _factor_range(value, name: str, center: float = 1.0, bound=(0.0, float("inf")), clip_at_zero=True):
    """A number v means [center - v, center + v]; a pair is taken as is. None when there is nothing to do."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"{name}: a single number must be non-negative, got {value}")
        value = [center - value, center + value]
        if clip_at_zero:
            value[0] = max(value[0], 0.0)
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name}: the range {value} must lie within {bound}")
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name}: the range must lie within {bound} and be (min, max), got {value}")
        value = list(value)
    else:
        raise TypeError(f"{name}: expected a number or a (min, max) pair, got {value!r}")
    return None if value[0] == value[1] == center else value


class BrightnessTransform(BaseTransform):
    """Scale the brightness by a random factor in [1 - value, 1 + value]."""

    def __init__(self, value, keys=None) -> None:
        super().__init__(keys)
        self.value = _factor_range(value, "BrightnessTransform")

    def _apply_image(self, img):
        return img if self.value is None else F.adjust_brightness(img, _uniform(*self.value))


class ContrastTransform(BaseTransform):
    """Scale the contrast by a random factor in [1 - value, 1 + value]."""

    def __init__(self, value, keys=None) -> None:
        super().__init__(keys)
        self.value = _factor_range(value, "ContrastTransform")

    def _apply_image(self, img):
        return img if self.value is None else F.adjust_contrast(img, _uniform(*self.value))


class SaturationTransform(BaseTransform):
    """Scale the saturation by a random factor in [1 - value, 1 + value]."""

    def __init__(self, value, keys=None) -> None:
        super().__init__(keys)
        self.value = _factor_range(value, "SaturationTransform")

    def _apply_image(self, img):
        return img if self.value is None else F.adjust_saturation(img, _uniform(*self.value))


class HueTransform(BaseTransform):
    """Turn the hue by a random fraction of a turn in [-value, value] (value <= 0.5)."""

    def __init__(self, value, keys=None) -> None:
        super().__init__(keys)
        self.value = _factor_range(value, "HueTransform", center=0.0, bound=(-0.5, 0.5), clip_at_zero=False)

    def _apply_image(self, img):
        return img if self.value is None else F.adjust_hue(img, _uniform(*self.value))


class ColorJitter(BaseTransform):
    """Random brightness, contrast, saturation and hue changes, applied in a random order."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None) -> None:
        super().__init__(keys)
        self.brightness, self.contrast, self.saturation, self.hue = brightness, contrast, saturation, hue
        self._parts = [
            BrightnessTransform(brightness, keys),
            ContrastTransform(contrast, keys),
            SaturationTransform(saturation, keys),
            HueTransform(hue, keys),
        ]

    def _apply_image(self, img):
        for i in STATE.rng.permutation(len(self._parts)):
            img = self._parts[i]._apply_image(img)
        return img


class RandomCrop(BaseTransform):
    """Crop a random `size` window, after optional padding (see Pad); pad_if_needed pads a too-small image."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant", keys=None):
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else tuple(size)
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        w, h = _image_size(img)
        th, tw = self.size
        if self.pad_if_needed and w < tw:
            img = F.pad(img, (tw - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < th:
            img = F.pad(img, (0, th - h), self.fill, self.padding_mode)
        w, h = _image_size(img)
        if h < th or w < tw:
            raise ValueError(f"RandomCrop: the image ({h}x{w}) is smaller than the crop ({th}x{tw}); "
                             "use padding or pad_if_needed=True")  # fmt: skip
        return F.crop(img, _randint(0, h - th), _randint(0, w - tw), th, tw)


class Pad(BaseTransform):
    """Add a border: padding is an int, (left/right, top/bottom) or (left, top, right, bottom).

    padding_mode: 'constant' (with `fill`), 'edge', 'reflect' or 'symmetric'."""

    def __init__(self, padding, fill=0, padding_mode="constant", keys=None) -> None:
        if isinstance(padding, Sequence) and len(padding) not in (2, 4):
            raise ValueError(f"Pad: padding must be an int or 2 or 4 numbers, got {padding!r}")
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise ValueError(f"Pad: padding_mode must be constant, edge, reflect or symmetric, got {padding_mode!r}")
        super().__init__(keys)
        self.padding = tuple(padding) if isinstance(padding, list) else padding
        self.fill = tuple(fill) if isinstance(fill, list) else fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)


def _angle_range(degrees, name: str) -> tuple[float, float]:
    if isinstance(degrees, numbers.Number):
        if degrees < 0:
            raise ValueError(f"{name}: a single number of degrees must be non-negative, got {degrees}")
        return -float(degrees), float(degrees)
    if isinstance(degrees, Sequence) and len(degrees) == 2:
        return float(degrees[0]), float(degrees[1])
    raise ValueError(f"{name}: degrees must be a number or a (min, max) pair, got {degrees!r}")


class RandomRotation(BaseTransform):
    """Rotate by a random angle in [-degrees, degrees] (or the (min, max) given), counter-clockwise."""

    def __init__(self, degrees, interpolation="nearest", expand=False, center=None, fill=0, keys=None) -> None:
        self.degrees = _angle_range(degrees, "RandomRotation")
        super().__init__(keys)
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def _apply_image(self, img):
        angle = _uniform(*self.degrees)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)


class RandomAffine(BaseTransform):
    """A random affine map: rotation in `degrees`, translation up to `translate` (fractions of width and
    height), scale in `scale`, shear in `shear` degrees (x range, or x and y ranges)."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, interpolation="nearest", fill=0,
                 center=None, keys=None):  # fmt: skip
        self.degrees = _angle_range(degrees, "RandomAffine")
        super().__init__(keys)
        if translate is not None and not all(0.0 <= t <= 1.0 for t in translate):
            raise ValueError(f"RandomAffine: translate fractions must be in [0, 1], got {translate}")
        if scale is not None and not all(s > 0 for s in scale):
            raise ValueError(f"RandomAffine: scale values must be positive, got {scale}")
        if shear is not None:
            shear = list(_angle_range(shear, "RandomAffine")) if isinstance(shear, numbers.Number) else list(shear)
            if len(shear) not in (2, 4):
                raise ValueError(f"RandomAffine: shear must be a number or 2 or 4 numbers, got {shear}")
        self.translate, self.scale, self.shear = translate, scale, shear
        self.interpolation, self.fill, self.center = interpolation, fill, center

    def _apply_image(self, img):
        w, h = _image_size(img)
        angle = _uniform(*self.degrees)
        tx = ty = 0
        if self.translate is not None:
            tx = int(_uniform(-self.translate[0] * w, self.translate[0] * w))
            ty = int(_uniform(-self.translate[1] * h, self.translate[1] * h))
        scale = 1.0 if self.scale is None else _uniform(*self.scale)
        shear = (0.0, 0.0)
        if self.shear is not None:
            shear = (_uniform(*self.shear[:2]), _uniform(*self.shear[2:]) if len(self.shear) == 4 else 0.0)
        return F.affine(img, angle, (tx, ty), scale, shear, self.interpolation, self.fill, self.center)


class RandomPerspective(BaseTransform):
    """With probability `prob`, a random perspective warp: each corner of the image moves inwards by up to
    distortion_scale * half the image's width and height (Paddle's get_params), then F.perspective.

    Example:
        >>> T.RandomPerspective(prob=1.0, distortion_scale=0.3)(img).shape == img.shape
        True
    """

    def __init__(self, prob=0.5, distortion_scale=0.5, interpolation="nearest", fill=0, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError(f"RandomPerspective: prob must be in [0, 1], got {prob}")
        if not 0 <= distortion_scale <= 1:
            raise ValueError(f"RandomPerspective: distortion_scale must be in [0, 1], got {distortion_scale}")
        if not isinstance(fill, (numbers.Number, str, list, tuple)):
            raise TypeError(f"RandomPerspective: fill must be a number or a sequence, got {type(fill).__name__}")
        self.prob, self.distortion_scale = prob, distortion_scale
        self.interpolation, self.fill = check_interpolation(interpolation, "RandomPerspective"), fill

    def get_params(self, width, height, distortion_scale):
        """(startpoints, endpoints): the image's corners [top-left, top-right, bottom-right, bottom-left] and
        where they move, each corner drawn within distortion_scale of half the size from its own corner."""
        dx, dy = int(distortion_scale * (width // 2)), int(distortion_scale * (height // 2))

        def near_start(extent):
            return int(_uniform(0, extent + 1))

        def near_end(size, extent):
            return int(_uniform(size - extent - 1, size))

        topleft = [near_start(dx), near_start(dy)]
        topright = [near_end(width, dx), near_start(dy)]
        botright = [near_end(width, dx), near_end(height, dy)]
        botleft = [near_start(dx), near_end(height, dy)]
        startpoints = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return startpoints, [topleft, topright, botright, botleft]

    def _apply_image(self, img):
        width, height = _image_size(img)
        if _uniform(0.0, 1.0) < self.prob:
            startpoints, endpoints = self.get_params(width, height, self.distortion_scale)
            return F.perspective(img, startpoints, endpoints, self.interpolation, self.fill)
        return img


class Grayscale(BaseTransform):
    """Convert to gray, with 1 output channel or the gray repeated into 3."""

    def __init__(self, num_output_channels=1, keys=None) -> None:
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return F.to_grayscale(img, self.num_output_channels)


class RandomErasing(BaseTransform):
    """With probability `prob`, fill a random rectangle (area fraction in `scale`, aspect in `ratio`) with
    `value`: a number, one number per channel, or 'random' for normal noise."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1 or not 0 <= scale[0] <= scale[1] <= 1 or not 0 <= ratio[0] <= ratio[1]:
            raise ValueError(f"RandomErasing: need prob in [0, 1], scale (min, max) in [0, 1] and ratio (min, max) "
                             f">= 0, got {prob}, {scale}, {ratio}")  # fmt: skip
        if isinstance(value, str) and value != "random":
            raise ValueError(f"RandomErasing: a string value must be 'random', got {value!r}")
        self.prob, self.scale, self.ratio, self.value, self.inplace = prob, scale, ratio, value, inplace

    def _apply_image(self, img):
        if STATE.rng.random() >= self.prob:
            return img
        is_tensor = isinstance(img, Tensor)
        h, w = F._size(img, "RandomErasing")
        channels = img.shape[0] if is_tensor else (1 if np.ndim(img) == 2 else np.shape(img)[2])
        for _ in range(10):
            area = _uniform(*self.scale) * h * w
            aspect = math.exp(_uniform(math.log(self.ratio[0]), math.log(self.ratio[1])))
            eh, ew = int(round(math.sqrt(area * aspect))), int(round(math.sqrt(area / aspect)))
            if eh < h and ew < w:
                break
        else:
            return img
        if self.value == "random":
            v = STATE.rng.normal(size=(channels, eh, ew) if is_tensor else (eh, ew, channels))
            v = v if is_tensor or np.issubdtype(np.asarray(img).dtype, np.floating) else v * 255
        else:
            v = np.asarray(self.value, dtype=np.float64).reshape(-1)
            v = v.reshape(-1, 1, 1) if is_tensor else v
        if is_tensor:
            v = to_tensor(np.broadcast_to(v, (channels, eh, ew)).copy(), dtype=img.dtype)
        elif np.ndim(img) == 2:
            v = np.reshape(v, np.shape(v)[:2]) if np.ndim(v) == 3 else v[0]
        top, left = _randint(0, h - eh), _randint(0, w - ew)
        return F.erase(img, top, left, eh, ew, v, self.inplace)
