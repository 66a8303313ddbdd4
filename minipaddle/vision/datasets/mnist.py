"""MNIST and Fashion-MNIST, read from the original IDX files (gzip-compressed).

IDX: a big-endian header (magic number 2051 for images, 2049 for labels, then the sizes) followed by the raw
uint8 values. The four files per dataset are the canonical ones (train/t10k images/labels).
"""

from __future__ import annotations

import gzip
import struct

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file
from minipaddle.vision.image import get_image_backend, require_pil

__all__ = ["MNIST", "FashionMNIST", "read_idx_images", "read_idx_labels"]


def _read_gz(path: str, what: str) -> bytes:
    try:
        with gzip.open(path, "rb") as f:
            return f.read()
    except (OSError, EOFError) as e:
        raise ValueError(f"{what}: cannot read {path} as a gzip file ({e})") from None


def read_idx_images(path: str, what: str = "read_idx_images") -> np.ndarray:
    """The images of an IDX3 file (.gz): uint8, [N, rows, cols]."""
    data = _read_gz(path, what)
    if len(data) < 16:
        raise ValueError(f"{what}: {path} is too short to be an IDX image file")
    magic, n, rows, cols = struct.unpack(">IIII", data[:16])
    if magic != 2051:
        raise ValueError(f"{what}: {path} is not an IDX image file (magic number {magic}, expected 2051)")
    if len(data) != 16 + n * rows * cols:
        raise ValueError(f"{what}: {path} should hold {n} images of {rows}x{cols} but has {len(data) - 16} bytes")
    return np.frombuffer(data, dtype=np.uint8, offset=16).reshape(n, rows, cols).copy()


def read_idx_labels(path: str, what: str = "read_idx_labels") -> np.ndarray:
    """The labels of an IDX1 file (.gz): uint8, [N]."""
    data = _read_gz(path, what)
    if len(data) < 8:
        raise ValueError(f"{what}: {path} is too short to be an IDX label file")
    magic, n = struct.unpack(">II", data[:8])
    if magic != 2049:
        raise ValueError(f"{what}: {path} is not an IDX label file (magic number {magic}, expected 2049)")
    if len(data) != 8 + n:
        raise ValueError(f"{what}: {path} should hold {n} labels but has {len(data) - 8} bytes")
    return np.frombuffer(data, dtype=np.uint8, offset=8).copy()


def check_mode_and_backend(cls_name: str, mode: str, backend, modes=("train", "test")) -> tuple[str, str]:
    if not isinstance(mode, str) or mode.lower() not in modes:
        raise ValueError(f"{cls_name}: mode must be one of {list(modes)}, got {mode!r}")
    backend = get_image_backend() if backend is None else backend
    if backend not in ("pil", "cv2"):
        raise ValueError(f"{cls_name}: backend must be 'pil' or 'cv2', got {backend!r}")
    if backend == "pil":
        require_pil(f"{cls_name}(backend='pil')")
    return mode.lower(), backend


class GrayDigitImages(Dataset):
    """A dataset of MNIST's conventions held in memory (MNIST, FashionMNIST, EmbeddedDigits): `images` uint8
    [N, H, W], `labels` int64 [N, 1], a `backend`, a `transform` and a `dtype`. `dataset[i]` is (image, label):
    with the 'cv2' backend the image is float32 0..255 before the transform and `dtype` after it; with 'pil', a
    PIL image in mode 'L'."""

    def __getitem__(self, idx):
        image = self.images[idx]
        if self.backend == "pil":
            image = require_pil("the 'pil' backend").fromarray(image, mode="L")
        else:
            image = image.astype(np.float32)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "cv2":
            image = image.astype(self.dtype)  # a numpy array or a Tensor (after ToTensor)
        return image, self.labels[idx].copy()

    def __len__(self) -> int:
        return len(self.labels)


class MNIST(GrayDigitImages):
    """The MNIST handwritten digits: 28x28 gray images, labels 0-9 (60000 train, 10000 test).

    Args:
        image_path, label_path (str, optional): the IDX .gz files. Default: the canonical files under the data
            home (see vision/datasets/download.py), downloaded when missing and `download` is True.
        mode (str): 'train' or 'test'.
        transform (callable, optional): applied to each image.
        download (bool): fetch missing files. Without a network this fails with a RuntimeError saying where to
            put the files. Default True.
        backend (str, optional): 'cv2' (numpy float32 HxW images with values 0..255, minipaddle's default) or
            'pil' (PIL images; needs Pillow).

    `dataset[i]` is `(image, label)` with label an int64 array of shape [1]. No download possible? The
    embedded `EmbeddedDigits` dataset has the same shapes and needs no file.

    Example:
        >>> train = paddle.vision.datasets.MNIST(mode='train', transform=Normalize(mean=[127.5], std=[127.5]))
    """

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    FILES = {
        ("train", "image"): ("train-images-idx3-ubyte.gz", "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
        ("train", "label"): ("train-labels-idx1-ubyte.gz", "d53e105ee54ea40749a09fcbcd1e9432"),
        ("test", "image"): ("t10k-images-idx3-ubyte.gz", "9fb629c4189551a2d022fa330f9573f3"),
        ("test", "label"): ("t10k-labels-idx1-ubyte.gz", "ec29112dd5afa0611ce80d1b7f02629c"),
    }

    def __init__(self, image_path=None, label_path=None, mode="train", transform=None, download=True, backend=None):
        name = type(self).__name__
        self.mode, self.backend = check_mode_and_backend(name, mode, backend)
        self.image_path = image_path or self._file("image", download)
        self.label_path = label_path or self._file("label", download)
        self.transform = transform
        self.images = read_idx_images(self.image_path, name)
        self.labels = read_idx_labels(self.label_path, name).astype(np.int64).reshape(-1, 1)
        if len(self.images) != len(self.labels):
            raise ValueError(f"{name}: {self.image_path} has {len(self.images)} images but {self.label_path} has "
                             f"{len(self.labels)} labels")  # fmt: skip
        self.dtype = STATE.default_dtype

    def _file(self, kind: str, download: bool) -> str:
        filename, md5 = self.FILES[(self.mode, kind)]
        return dataset_file(self.URL_PREFIX + filename, md5, self.NAME, download, f"{type(self).__name__}({kind}_path)")


class FashionMNIST(MNIST):
    """Fashion-MNIST: 28x28 gray images of clothes in 10 classes, in MNIST's file format and layout."""

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
    FILES = {
        ("train", "image"): ("train-images-idx3-ubyte.gz", "8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
        ("train", "label"): ("train-labels-idx1-ubyte.gz", "25c81989df183df01b3e8a0aad5dffbe"),
        ("test", "image"): ("t10k-images-idx3-ubyte.gz", "bef4ecab320f06d8554ea6380940ec79"),
        ("test", "label"): ("t10k-labels-idx1-ubyte.gz", "bb300cfdad3c16e7a12a480ee83cd310"),
    }
