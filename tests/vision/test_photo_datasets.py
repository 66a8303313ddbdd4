"""Flowers (tgz of JPEGs + MATLAB files) and VOC2012 (tar of JPEGs + palette PNG masks), on small archives the
tests write in the real layouts; and the MATLAB 5 reader. JPEGs are written and decoded with Pillow."""

from __future__ import annotations

import io
import struct
import sys
import tarfile
import zlib

import numpy as np
import pytest

from minipaddle.vision.datasets import VOC2012, Flowers
from minipaddle.vision.datasets.matlab import read_mat
from minipaddle.vision.png import write_png


def element(kind: int, data: bytes) -> bytes:
    return struct.pack("<II", kind, len(data)) + data + b"\0" * (-len(data) % 8)


def small_element(kind: int, data: bytes) -> bytes:  # MATLAB's packed form for data of at most 4 bytes
    return struct.pack("<HH", kind, len(data)) + data.ljust(4, b"\0")


def matrix(name: str, values, stored="f8") -> bytes:
    """A double matrix, its values stored as `stored` (MATLAB packs whole numbers into small types)."""
    arr = np.atleast_2d(np.asarray(values, dtype=np.float64))
    kind = {"f8": 9, "u2": 4, "u1": 2}[stored]
    name_part = small_element(1, name.encode()) if len(name) <= 4 else element(1, name.encode())
    payload = (element(6, struct.pack("<II", 6, 0)) + element(5, np.array(arr.shape, "<i4").tobytes()) + name_part
               + element(kind, arr.ravel(order="F").astype("<" + stored).tobytes()))  # fmt: skip
    return element(14, payload)


def write_mat(path, *matrices, compress=False) -> str:
    header = b"MATLAB 5.0 MAT-file, written by the tests".ljust(116, b" ") + b"\0" * 8 + struct.pack("<H", 0x0100)
    body = b"".join(struct.pack("<II", 15, len(z)) + z for z in (zlib.compress(m) for m in matrices)) if compress \
        else b"".join(matrices)  # fmt: skip
    path.write_bytes(header + b"IM" + body)
    return str(path)


@pytest.mark.parametrize("compress", [False, True])
def test_read_mat(tmp_path, compress):
    grid = np.arange(6.0).reshape(2, 3)
    path = write_mat(tmp_path / "a.mat", matrix("labels", grid), matrix("ids", [[4, 5, 6]], "u2"), compress=compress)
    arrays = read_mat(path)
    np.testing.assert_array_equal(arrays["labels"], grid)  # column-major storage read back in order
    assert arrays["ids"].dtype == np.float64 and arrays["ids"].tolist() == [[4, 5, 6]]
    (tmp_path / "b.mat").write_bytes(b"not a mat file")
    with pytest.raises(ValueError, match="MATLAB"):
        read_mat(str(tmp_path / "b.mat"))


def jpeg(Image, seed, size=(12, 10)) -> bytes:
    arr = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3)).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(arr).save(out, format="JPEG")
    return out.getvalue()


def add(tar, name, data: bytes):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def flowers_files(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    with tarfile.open(tmp_path / "102flowers.tgz", "w:gz") as tar:
        for i in range(1, 7):
            add(tar, f"jpg/image_{i:05d}.jpg", jpeg(Image, i))
    labels = write_mat(tmp_path / "imagelabels.mat", matrix("labels", [[3, 1, 2, 3, 1, 2]], "u1"), compress=True)
    setid = write_mat(tmp_path / "setid.mat", matrix("trnid", [[1, 2]], "u2"), matrix("valid", [[3]], "u2"),
                      matrix("tstid", [[4, 5, 6]], "u2"), compress=True)  # fmt: skip
    return str(tmp_path / "102flowers.tgz"), labels, setid


def test_flowers(flowers_files):
    data, labels, setid = flowers_files
    train = Flowers(data_file=data, label_file=labels, setid_file=setid, mode="train")  # Paddle's train: tstid
    assert len(train) == 3
    image, label = train[0]
    assert image.shape == (10, 12, 3) and image.dtype == np.float32
    assert label.dtype == np.int64 and label.tolist() == [3]  # image 4's label
    test = Flowers(data_file=data, label_file=labels, setid_file=setid, mode="test")
    assert len(test) == 2 and test[1][1].tolist() == [1]


def test_flowers_without_pillow_says_so(flowers_files, monkeypatch):
    data, labels, setid = flowers_files
    ds = Flowers(data_file=data, label_file=labels, setid_file=setid, mode="valid")
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(RuntimeError, match="Pillow"):
        ds[0]


def test_voc2012(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    root = "VOCdevkit/VOC2012/"
    with tarfile.open(tmp_path / "voc.tar", "w") as tar:
        add(tar, root + "ImageSets/Segmentation/trainval.txt", b"2007_000032\n2007_000039\n")
        add(tar, root + "ImageSets/Segmentation/val.txt", b"2007_000039\n")
        for i, name in enumerate(["2007_000032", "2007_000039"]):
            add(tar, root + f"JPEGImages/{name}.jpg", jpeg(Image, i, size=(8, 6)))
            mask = np.zeros((6, 8), np.uint8)
            mask[2:4, 3:6] = 15 + i
            mask[0] = 255
            write_png(str(tmp_path / "m.png"), mask)
            add(tar, root + f"SegmentationClass/{name}.png", (tmp_path / "m.png").read_bytes())
    train = VOC2012(data_file=str(tmp_path / "voc.tar"), mode="train")
    assert len(train) == 2
    image, mask = train[1]
    assert image.shape == (6, 8, 3) and mask.shape == (6, 8)
    assert sorted(np.unique(mask).tolist()) == [0, 16, 255]
    assert len(VOC2012(data_file=str(tmp_path / "voc.tar"), mode="valid")) == 1
