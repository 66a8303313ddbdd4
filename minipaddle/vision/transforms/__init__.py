"""paddle.vision.transforms: image transforms for numpy (HWC), Tensor (CHW) and, when installed, PIL images.

transforms.py  the transform classes (Compose, ToTensor, Normalize, Resize, RandomCrop, ...)
functional.py  one function per operation (resize, rotate, pad, ...), dispatching on the image kind
geometry.py    the numpy pixel work for resize, pad and affine warps
color.py       the numpy pixel work for grayscale, brightness, contrast, saturation and hue
"""

from minipaddle.vision.transforms import functional
from minipaddle.vision.transforms.functional import *  # noqa: F403
from minipaddle.vision.transforms.functional import __all__ as _functional_all
from minipaddle.vision.transforms.transforms import *  # noqa: F403
from minipaddle.vision.transforms.transforms import __all__ as _transforms_all

__all__ = _transforms_all + _functional_all
