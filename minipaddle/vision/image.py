"""Image files and the image backend (paddle.vision.set_image_backend / get_image_backend / image_load).

The backend says what datasets hand out: 'cv2' (minipaddle's default: numpy arrays, HWC, RGB; no OpenCV is
needed, the name is Paddle's), 'pil' (PIL images; needs Pillow) or 'tensor' (CHW uint8 Tensors).
Files minipaddle reads itself: .png (8-bit, see png.py) and .npy (numpy arrays, never pickles). Other formats
(.jpg, .bmp, ...) are read through Pillow when it is installed.
"""

from __future__ import annotations

import io
import os

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.tensor.creation import to_tensor
from minipaddle.vision.png import read_png

__all__ = ["set_image_backend", "get_image_backend", "image_load"]

BACKENDS = ("pil", "cv2", "tensor")


def _check_backend(backend, fn: str) -> str:
    if backend not in BACKENDS:
        raise ValueError(f"{fn}: backend must be one of {list(BACKENDS)}, got {backend!r}")
    if backend == "pil":
        require_pil(f"{fn}(backend='pil')")
    return backend


def require_pil(what: str):
    """Import Pillow, or say clearly that `what` needs it (minipaddle itself does not depend on it)."""
    try:
        from PIL import Image
    except ImportError:
        raise RuntimeError(f"{what} needs Pillow, which is not installed; install it (pip install pillow) or use "
                           "the default numpy backend 'cv2'") from None  # fmt: skip
    return Image


def set_image_backend(backend) -> None:
    """Choose what vision datasets return: 'cv2' (numpy HWC arrays, the default), 'pil' or 'tensor'."""
    STATE.image_backend = _check_backend(backend, "set_image_backend")


def get_image_backend() -> str:
    """The current image backend: 'cv2' (numpy), 'pil' or 'tensor'."""
    return STATE.image_backend


def read_image(path: str) -> np.ndarray:
    """The image at `path` as a numpy array (HW or HWC, RGB)."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".npy":
        return np.load(path, allow_pickle=False)
    if ext == ".png":
        return read_png(path)
    image_class = require_pil(f"reading {ext or 'this'} files ({path})")
    with image_class.open(path) as img:
        return np.asarray(img.convert("RGB") if img.mode not in ("L", "RGB", "RGBA") else img)


def decode_photo(data: bytes, backend: str, what: str):
    """A JPEG (or other Pillow-readable) file's bytes as a PIL image ('pil') or a numpy RGB array."""
    image_class = require_pil(f"{what} (its images are JPEGs)")
    img = image_class.open(io.BytesIO(data))
    return img if backend == "pil" else np.asarray(img.convert("RGB"))


def from_numpy(img: np.ndarray, backend: str):
    """A numpy HW/HWC image in the form `backend` asks for."""
    if backend == "pil":
        return require_pil("the 'pil' backend").fromarray(img)
    if backend == "tensor":
        return to_tensor(np.ascontiguousarray((img[..., None] if img.ndim == 2 else img).transpose(2, 0, 1)))
    return img


def image_load(path, backend=None):
    """Read an image file with the given backend (default: the current one).

    Example:
        >>> img = paddle.vision.image_load('cat.png')          # numpy HWC uint8
        >>> t = paddle.vision.image_load('cat.png', 'tensor')  # CHW uint8 Tensor
    """
    backend = _check_backend(STATE.image_backend if backend is None else backend, "image_load")
    return from_numpy(read_image(path), backend)
