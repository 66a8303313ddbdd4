"""CIFAR-10 and CIFAR-100, read from the original python-version archives (cifar-10/100-python.tar.gz).

Each batch in the archive is a pickled dict; it is read with static/pickle_reader.py, which runs no code from the file.
"""

from __future__ import annotations

import tarfile

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.io.dataset import Dataset
from minipaddle.static.pickle_reader import restricted_loads
from minipaddle.vision.datasets.download import dataset_file
from minipaddle.vision.datasets.mnist import check_mode_and_backend
from minipaddle.vision.image import require_pil

__all__ = ["Cifar10", "Cifar100"]

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"


class Cifar10(Dataset):
    """CIFAR-10: 32x32 colour images in 10 classes (50000 train, 10000 test).

    Args:
        data_file (str, optional): the cifar-10-python.tar.gz archive. Default: the canonical file under the data
            home, downloaded when missing and `download` is True.
        mode (str): 'train' or 'test'.
        transform (callable, optional): applied to each image.
        download (bool): fetch a missing archive (a clear RuntimeError without network). Default True.
        backend (str, optional): 'cv2' (numpy float32 HWC images, values 0..255, the default) or 'pil'.

    `dataset[i]` is `(image, label)` with label an int64 0-d array.
    """

    URL = URL_PREFIX + "cifar-10-python.tar.gz"
    MD5 = "c58f30108f718f92721af3b95e74349a"
    FLAGS = {"train": "data_batch", "test": "test_batch"}  # which archive members hold each split

    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None) -> None:
        name = type(self).__name__
        self.mode, self.backend = check_mode_and_backend(name, mode, backend)
        self.data_file = data_file or dataset_file(self.URL, self.MD5, "cifar", download, f"{name}(data_file)")
        self.transform = transform
        self.images, self.labels = self._load(self.FLAGS[self.mode], name)
        self.dtype = STATE.default_dtype

    def _load(self, flag: str, name: str) -> tuple[np.ndarray, np.ndarray]:
        images, labels = [], []
        with tarfile.open(self.data_file, mode="r") as archive:
            members = sorted((m for m in archive.getmembers() if m.isfile() and flag in m.name), key=lambda m: m.name)
            for member in members:
                batch = _read_batch(archive.extractfile(member).read(), f"{self.data_file}:{member.name}", name)
                found = batch.get("labels", batch.get("fine_labels"))
                if "data" not in batch or found is None:
                    raise ValueError(f"{name}: {member.name} in {self.data_file} has no data or labels")
                images.append(np.asarray(batch["data"], dtype=np.uint8).reshape(-1, 3, 32, 32))
                labels.append(np.asarray(found, dtype=np.int64))
        if not images:
            raise ValueError(f"{name}: {self.data_file} holds no '{flag}' batch; is it the python-version archive?")
        images, labels = np.concatenate(images), np.concatenate(labels)
        if len(images) != len(labels):
            raise ValueError(f"{name}: {self.data_file} has {len(images)} images but {len(labels)} labels")
        return images.transpose(0, 2, 3, 1), labels  # HWC, as the images are handed out

    def __getitem__(self, idx):
        image = self.images[idx]
        if self.backend == "pil":
            image = require_pil("the 'pil' backend").fromarray(image)
        if self.transform is not None:
            image = self.transform(image)
        label = np.array(self.labels[idx], dtype=np.int64)
        if self.backend == "cv2":
            return image.astype(self.dtype), label
        return image, label

    def __len__(self) -> int:
        return len(self.labels)


class Cifar100(Cifar10):
    """CIFAR-100: 32x32 colour images in 100 classes (the fine labels), from cifar-100-python.tar.gz."""

    URL = URL_PREFIX + "cifar-100-python.tar.gz"
    MD5 = "eb9058c3a382ffc7106e4002c42a8d85"
    FLAGS = {"train": "train", "test": "test"}


def _read_batch(data: bytes, where: str, name: str) -> dict:
    """One pickled CIFAR batch through the one restricted reader (static/pickle_reader.py: nothing in the file can
    run), with its keys as str whether Python 2 wrote them (str, read as latin-1) or Python 3 (bytes)."""
    batch = restricted_loads(data)
    if not isinstance(batch, dict):
        raise ValueError(f"{name}: {where} is not a pickled dict, got {type(batch).__name__}")
    return {k.decode("latin-1") if isinstance(k, bytes) else k: v for k, v in batch.items()}
