"""PASCAL VOC 2012 semantic segmentation, read from the original .tar archive (no unpacking).

Photos are JPEGs, decoded through Pillow (a RuntimeError says so when it is missing); the masks are palette
PNGs, read by png.py as class indices (255 marks object borders).
"""

from __future__ import annotations

import io
import tarfile

from minipaddle.core.state import STATE
from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file
from minipaddle.vision.datasets.mnist import check_mode_and_backend
from minipaddle.vision.image import decode_photo, require_pil
from minipaddle.vision.png import decode_png

__all__ = ["VOC2012"]


class VOC2012(Dataset):
    """PASCAL VOC 2012 semantic segmentation: `dataset[i]` is `(image, mask)`, read from the .tar archive.

    Args:
        data_file (str, optional): VOCtrainval_11-May-2012.tar. Default: the canonical file under the data
            home, downloaded when missing and `download` is True.
        mode (str): 'train' (the 'trainval' list, as Paddle), 'valid' ('val') or 'test' ('train').
        transform (callable, optional): applied to each image (not to the mask).
        backend (str, optional): 'cv2' (numpy arrays: HWC image, HW mask of class indices) or 'pil'.
    """

    URL = "https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar"
    MD5 = "6cd6e144f989b92b3379bac3b3de84fd"
    SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
    DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
    LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
    SPLITS = {"train": "trainval", "test": "train", "valid": "val"}

    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None) -> None:
        self.mode, self.backend = check_mode_and_backend("VOC2012", mode, backend, ("train", "valid", "test"))
        self.data_file = data_file or dataset_file(self.URL, self.MD5, "voc2012", download, "VOC2012(data_file)")
        self.transform = transform
        with tarfile.open(self.data_file) as archive:
            self.members = {m.name: m for m in archive.getmembers()}
            names = archive.extractfile(self.members[self.SET_FILE.format(self.SPLITS[self.mode])]).read()
        self.names = [line.strip().decode("utf-8") for line in names.splitlines() if line.strip()]
        self.dtype = STATE.default_dtype

    def _read(self, archive, name: str) -> bytes:
        return archive.extractfile(self.members[name]).read()

    def __getitem__(self, idx):
        name = self.names[idx]
        with tarfile.open(self.data_file) as archive:
            image = decode_photo(self._read(archive, self.DATA_FILE.format(name)), self.backend, "VOC2012")
            mask_bytes = self._read(archive, self.LABEL_FILE.format(name))
        if self.backend == "pil":
            mask = require_pil("VOC2012(backend='pil')").open(io.BytesIO(mask_bytes))
        else:
            mask = decode_png(mask_bytes, self.LABEL_FILE.format(name))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "cv2":
            return image.astype(self.dtype), mask.astype(self.dtype)
        return image, mask

    def __len__(self) -> int:
        return len(self.names)
