"""`paddle.vision.transforms.functional_tensor`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.vision.transforms.functional import (
    adjust_brightness,
    adjust_contrast,
    adjust_hue,
    adjust_saturation,
    affine,
    center_crop,
    crop,
    erase,
    hflip,
    normalize,
    pad,
    perspective,
    resize,
    rotate,
    to_grayscale,
    vflip,
)

__all__ = [
    "adjust_brightness",
    "adjust_contrast",
    "adjust_hue",
    "adjust_saturation",
    "affine",
    "center_crop",
    "crop",
    "erase",
    "hflip",
    "normalize",
    "pad",
    "perspective",
    "resize",
    "rotate",
    "to_grayscale",
    "vflip",
]
