"""Oxford 102 Flowers, read from its original files: a .tgz of JPEG photos and two MATLAB files.

The photos are decoded through Pillow (a RuntimeError says so when it is missing); the labels and splits are
read by matlab.py.
"""

from __future__ import annotations

import os
import shutil
import tarfile

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file
from minipaddle.vision.datasets.matlab import read_mat
from minipaddle.vision.datasets.mnist import check_mode_and_backend
from minipaddle.vision.image import decode_photo

__all__ = ["Flowers"]


class Flowers(Dataset):
    """Oxford 102 Flowers: colour photos of 102 kinds of flowers.

    Args:
        data_file (str, optional): 102flowers.tgz. label_file: imagelabels.mat. setid_file: setid.mat.
            Default: the canonical files under the data home, downloaded when missing and `download` is True.
        mode (str): 'train', 'valid' or 'test' (Paddle's split: 'train' uses the larger 'tstid' list).
        transform (callable, optional): applied to each image.
        download (bool): fetch missing files. Default True.
        backend (str, optional): 'cv2' (numpy HWC images, the default) or 'pil'. Decoding needs Pillow.

    `dataset[i]` is `(image, label)` with label an int64 array of shape [1] (1..102). The archive is unpacked
    once, into a folder beside it.
    """

    URLS = {
        "data": ("http://paddlemodels.bj.bcebos.com/flowers/102flowers.tgz", "52808999861908f626f3c1f4e79d11fa"),
        "label": ("http://paddlemodels.bj.bcebos.com/flowers/imagelabels.mat", "e0620be6f572b9609742df49c70aed4d"),
        "setid": ("http://paddlemodels.bj.bcebos.com/flowers/setid.mat", "a5357ecc9cb78c4bef273ce3793fc85c"),
    }
    SPLITS = {"train": "tstid", "test": "trnid", "valid": "valid"}

    def __init__(self, data_file=None, label_file=None, setid_file=None, mode="train", transform=None,
                 download=True, backend=None):  # fmt: skip
        self.mode, self.backend = check_mode_and_backend("Flowers", mode, backend, ("train", "valid", "test"))
        data_file = data_file or self._file("data", download)
        label_file = label_file or self._file("label", download)
        setid_file = setid_file or self._file("setid", download)
        self.transform = transform
        self.labels = read_mat(label_file)["labels"].reshape(-1)
        self.indexes = read_mat(setid_file)[self.SPLITS[self.mode]].reshape(-1).astype(np.int64)
        self.data_path = os.path.splitext(data_file)[0]
        if not os.path.isdir(os.path.join(self.data_path, "jpg")):
            _unpack(data_file, self.data_path)
        self.dtype = STATE.default_dtype

    def _file(self, kind: str, download: bool) -> str:
        url, md5 = self.URLS[kind]
        return dataset_file(url, md5, "flowers", download, f"Flowers({kind}_file)")

    def __getitem__(self, idx):
        index = int(self.indexes[idx])
        label = np.array([self.labels[index - 1]]).astype(np.int64)
        with open(os.path.join(self.data_path, "jpg", f"image_{index:05d}.jpg"), "rb") as f:
            image = decode_photo(f.read(), self.backend, "Flowers")
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "cv2":
            return image.astype(self.dtype), label
        return image, label

    def __len__(self) -> int:
        return len(self.indexes)


def _unpack(archive_path: str, folder: str) -> None:
    """Unpack the archive's plain files into `folder`, whole or not at all (a temporary folder, then renamed).

    Members with absolute paths or '..' (which could write outside the folder) and links are skipped."""
    partial = folder + ".part"
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(archive_path) as archive:
        safe = [m for m in archive.getmembers()
                if m.isfile() and not os.path.isabs(m.name) and ".." not in m.name.split("/")]  # fmt: skip
        options = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python's own check, where it has one
        archive.extractall(partial, members=safe, **options)
    os.replace(partial, folder)
