"""Datasets from a folder of image files: DatasetFolder (one sub-folder per class) and ImageFolder (no labels).

Images are read by `paddle.vision.image_load` with the current backend: .png and .npy files by minipaddle
itself, other formats (.jpg, ...) through Pillow when it is installed. Pass `loader` to read anything else.
"""

from __future__ import annotations

import os

from minipaddle.core.state import STATE
from minipaddle.io.dataset import Dataset
from minipaddle.vision.image import get_image_backend, image_load

__all__ = ["DatasetFolder", "ImageFolder", "IMG_EXTENSIONS", "has_valid_extension", "make_dataset"]

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp", ".npy")


def has_valid_extension(filename: str, extensions) -> bool:
    if not isinstance(extensions, (list, tuple)):
        raise TypeError(f"extensions must be a list or tuple, got {type(extensions).__name__}")
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def _validity_check(extensions, is_valid_file):
    if extensions is not None:
        return lambda path: has_valid_extension(path, extensions)
    if is_valid_file is None:
        raise ValueError("give extensions or is_valid_file to say which files are samples")
    return is_valid_file


def make_dataset(dir: str, class_to_idx: dict, extensions=None, is_valid_file=None) -> list:  # noqa: A002
    """(path, class index) for every valid file under each class folder, in sorted order."""
    is_valid = _validity_check(extensions, is_valid_file)
    samples = []
    root = os.path.expanduser(dir)
    for target in sorted(class_to_idx):
        folder = os.path.join(root, target)
        if not os.path.isdir(folder):
            continue
        for current, _, names in sorted(os.walk(folder, followlinks=True)):
            for name in sorted(names):
                path = os.path.join(current, name)
                if is_valid(path):
                    samples.append((path, class_to_idx[target]))
    return samples


def default_loader(path: str):
    return image_load(path, get_image_backend())


class DatasetFolder(Dataset):
    """Samples from `root/<class>/.../<file>`: `dataset[i]` is `(image, class_index)`.

    Args:
        root (str): the folder whose sub-folders are the classes (sorted by name: index 0, 1, ...).
        loader (callable, optional): reads one file. Default: `paddle.vision.image_load`.
        extensions (tuple of str, optional): which files count. Default IMG_EXTENSIONS (with .npy).
        transform (callable, optional): applied to each image.
        is_valid_file (callable, optional): path -> bool, used when extensions is None.

    Attributes: classes, class_to_idx, samples (list of (path, index)), targets.
    """

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None) -> None:
        self.root = root
        self.transform = transform
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        if not os.path.isdir(os.path.expanduser(root)):
            raise RuntimeError(f"{type(self).__name__}: {root} is not a folder")
        self.classes = sorted(d.name for d in os.scandir(os.path.expanduser(root)) if d.is_dir())
        self.class_to_idx = {c: i for i, c in enumerate(self.classes)}
        self.samples = make_dataset(root, self.class_to_idx, extensions, is_valid_file)
        if not self.samples:
            raise RuntimeError(f"{type(self).__name__}: found no files in the sub-folders of {root}; supported "
                               f"extensions: {', '.join(extensions or ())}")  # fmt: skip
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.targets = [target for _, target in self.samples]
        self.dtype = STATE.default_dtype

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self) -> int:
        return len(self.samples)


class ImageFolder(Dataset):
    """Every image file under `root` (any depth, sorted), without labels: `dataset[i]` is `[image]`."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None) -> None:
        self.root = root
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        is_valid = _validity_check(extensions, is_valid_file)
        self.samples = [
            os.path.join(current, name)
            for current, _, names in sorted(os.walk(os.path.expanduser(root), followlinks=True))
            for name in sorted(names)
            if is_valid(os.path.join(current, name))
        ]
        if not self.samples:
            raise RuntimeError(f"{type(self).__name__}: found no files under {root}; supported extensions: "
                               f"{', '.join(extensions or ())}")  # fmt: skip
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.transform = transform

    def __getitem__(self, index):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self) -> int:
        return len(self.samples)
