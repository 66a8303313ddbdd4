"""paddle.vision.datasets on small files the tests write in the real formats: MNIST/FashionMNIST (IDX .gz),
Cifar10/100 (python-version .tar.gz of pickled dicts), DatasetFolder/ImageFolder (.png, .npy)."""

from __future__ import annotations

import gzip
import io
import os
import pickle
import struct
import sys
import tarfile

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.io import DataLoader
from minipaddle.static.pickle_reader import RefusedPickle, restricted_loads
from minipaddle.vision.datasets import MNIST, Cifar10, Cifar100, DatasetFolder, FashionMNIST, ImageFolder
from minipaddle.vision.png import read_png, write_png


def write_idx(folder, images: np.ndarray, labels: np.ndarray, image_magic=2051):
    image_path, label_path = str(folder / "images-idx3-ubyte.gz"), str(folder / "labels-idx1-ubyte.gz")
    with gzip.open(image_path, "wb") as f:
        f.write(struct.pack(">IIII", image_magic, *images.shape) + images.astype(np.uint8).tobytes())
    with gzip.open(label_path, "wb") as f:
        f.write(struct.pack(">II", 2049, len(labels)) + labels.astype(np.uint8).tobytes())
    return image_path, label_path


@pytest.fixture
def idx_files(tmp_path):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (7, 28, 28)).astype(np.uint8)
    labels = np.array([3, 1, 4, 1, 5, 9, 2])
    return (*write_idx(tmp_path, images, labels), images, labels)


@pytest.mark.parametrize("cls", [MNIST, FashionMNIST])
def test_mnist_reads_idx_files(idx_files, cls):
    image_path, label_path, images, labels = idx_files
    ds = cls(image_path=image_path, label_path=label_path, mode="test")
    assert len(ds) == 7
    image, label = ds[2]
    assert image.shape == (28, 28) and image.dtype == np.float32
    np.testing.assert_array_equal(image, images[2])
    assert label.shape == (1,) and label.dtype == np.int64 and label[0] == 4


def test_mnist_with_a_transform_through_a_loader(idx_files):
    image_path, label_path, images, labels = idx_files
    normalize = paddle.vision.transforms.Normalize(mean=[127.5], std=[127.5], data_format="CHW")
    ds = MNIST(image_path=image_path, label_path=label_path, transform=normalize)
    x, y = next(iter(DataLoader(ds, batch_size=4)))
    assert x.shape == [4, 1, 28, 28] and x.dtype == paddle.float32 and y.shape == [4, 1]
    np.testing.assert_allclose(x.numpy()[1, 0], (images[1] - 127.5) / 127.5, rtol=1e-6)


def test_mnist_pil_backend(idx_files):
    Image = pytest.importorskip("PIL.Image")
    image_path, label_path, images, _ = idx_files
    image, _ = MNIST(image_path=image_path, label_path=label_path, backend="pil")[0]
    assert isinstance(image, Image.Image) and image.mode == "L"
    np.testing.assert_array_equal(np.asarray(image), images[0])


def test_mnist_rejects_bad_files(tmp_path):
    image_path, label_path = write_idx(tmp_path, np.zeros((2, 28, 28)), np.array([1, 2]), image_magic=1234)
    with pytest.raises(ValueError, match="magic"):
        MNIST(image_path=image_path, label_path=label_path)
    other = tmp_path / "more"
    other.mkdir()
    image_path, _ = write_idx(other, np.zeros((3, 28, 28)), np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="labels"):
        MNIST(image_path=image_path, label_path=label_path)
    with pytest.raises(ValueError, match="mode"):
        MNIST(image_path=image_path, label_path=label_path, mode="valid")


def test_missing_files_and_no_network_give_clear_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIPADDLE_DATA_HOME", str(tmp_path))
    with pytest.raises(RuntimeError, match="download=False") as info:
        MNIST(mode="test", download=False)
    assert str(tmp_path) in str(info.value)  # says where to put the file
    monkeypatch.setattr(MNIST, "URL_PREFIX", "http://127.0.0.1:9/")  # nothing listens there
    with pytest.raises(RuntimeError, match="could not download") as info:
        MNIST(mode="test", download=True)
    assert "unreachable" in str(info.value) and "t10k-images-idx3-ubyte.gz" in str(info.value)
    assert os.listdir(tmp_path / "mnist") == []  # no half-written file left behind


def cifar_archive(path, members: dict):
    with tarfile.open(path, "w:gz") as tar:
        for name, obj in members.items():
            data = obj if isinstance(obj, bytes) else pickle.dumps(obj, protocol=2)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return str(path)


def cifar_batch(n, first_label, key=b"labels"):
    data = (np.arange(n * 3072) % 251).astype(np.uint8).reshape(n, 3072)
    return {b"batch_label": b"a batch", key: list(range(first_label, first_label + n)), b"data": data,
            b"filenames": [b"f%d.png" % i for i in range(n)]}  # fmt: skip


def test_cifar10_reads_the_python_archive(tmp_path):
    path = cifar_archive(tmp_path / "cifar-10-python.tar.gz", {
        "cifar-10-batches-py/data_batch_2": cifar_batch(2, 5),
        "cifar-10-batches-py/data_batch_1": cifar_batch(3, 0),
        "cifar-10-batches-py/test_batch": cifar_batch(4, 1),
        "cifar-10-batches-py/batches.meta": {b"label_names": [b"airplane"]},
    })  # fmt: skip
    train = Cifar10(data_file=path, mode="train")
    assert len(train) == 5 and [int(train[i][1]) for i in range(5)] == [0, 1, 2, 5, 6]  # batches in name order
    image, label = train[1]
    assert image.shape == (32, 32, 3) and image.dtype == np.float32 and label.dtype == np.int64 and label.shape == ()
    want = cifar_batch(3, 0)[b"data"][1].reshape(3, 32, 32).transpose(1, 2, 0)
    np.testing.assert_array_equal(image, want)
    assert len(Cifar10(data_file=path, mode="test")) == 4
    x, y = next(iter(DataLoader(Cifar10(data_file=path, transform=paddle.vision.transforms.ToTensor()), batch_size=2)))
    assert x.shape == [2, 3, 32, 32] and y.shape == [2]


def test_cifar100_reads_fine_labels(tmp_path):
    batch = cifar_batch(3, 40, key=b"fine_labels")
    batch[b"coarse_labels"] = [1, 2, 3]
    members = {"cifar-100-python/train": batch, "cifar-100-python/test": cifar_batch(1, 7, b"fine_labels")}
    path = cifar_archive(tmp_path / "c100.tar.gz", members)
    ds = Cifar100(data_file=path)
    assert [int(ds[i][1]) for i in range(3)] == [40, 41, 42]


class Payload:
    """Unpickling this would run a shell command."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_malicious_cifar_pickle_is_refused_without_running_it(tmp_path):
    marker = tmp_path / "pwned"
    evil = cifar_batch(2, 0)
    evil[b"data"] = Payload(marker)
    path = cifar_archive(tmp_path / "evil.tar.gz", {"cifar-10-batches-py/data_batch_1": evil})
    with pytest.raises(RefusedPickle, match="system"):
        Cifar10(data_file=path)
    assert not marker.exists()


def test_cifar_batches_read_through_the_one_restricted_reader():
    # A Python 2 str written at protocol 2 (SHORT_BINSTRING), as in the original CIFAR files: read as latin-1 str.
    assert restricted_loads(b"\x80\x02}q\x00(U\x04dataq\x01U\x03abcq\x02u.") == {"data": "abc"}
    for proto in (2, 3, 4):
        d = {b"labels": [1, -2, 2**40], "name": "x", b"a": np.arange(6, dtype=">i4").reshape(2, 3), b"f": 1.5}
        out = restricted_loads(pickle.dumps(d, protocol=proto))
        assert out[b"labels"] == [1, -2, 2**40] and out["name"] == "x" and out[b"f"] == 1.5
        np.testing.assert_array_equal(out[b"a"], d[b"a"])
    with pytest.raises(RefusedPickle, match="eval"):
        restricted_loads(b"\x80\x02cbuiltins\neval\nq\x00X\x01\x00\x00\x001q\x01\x85q\x02Rq\x03.")
    with pytest.raises(RefusedPickle):  # an object array could hold anything
        restricted_loads(pickle.dumps({b"a": np.array([object()])}, protocol=2))


def test_png_round_trip(tmp_path):
    rng = np.random.default_rng(1)
    for shape in [(5, 7), (5, 7, 3), (4, 6, 4), (3, 2, 2)]:
        img = rng.integers(0, 256, shape).astype(np.uint8)
        write_png(str(tmp_path / "x.png"), img)
        np.testing.assert_array_equal(read_png(str(tmp_path / "x.png")), img)
    with pytest.raises(TypeError, match="uint8"):
        write_png(str(tmp_path / "y.png"), np.zeros((2, 2)))


def test_png_written_by_pillow_with_its_filters(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    y, x = np.mgrid[0:40, 0:50]
    img = np.stack([x * 5, y * 6, (x * y) % 256], axis=2).astype(np.uint8)  # smooth: Pillow picks Paeth/Average
    Image.fromarray(img).save(tmp_path / "p.png")
    np.testing.assert_array_equal(read_png(str(tmp_path / "p.png")), img)
    Image.fromarray(img[..., 0]).convert("P").save(tmp_path / "palette.png")
    assert read_png(str(tmp_path / "palette.png")).shape == (40, 50)


def make_folder(root):
    rng = np.random.default_rng(2)
    for cls, n in [("cat", 2), ("dog", 3)]:
        (root / cls).mkdir(parents=True)
        for i in range(n):
            write_png(str(root / cls / f"{i}.png"), rng.integers(0, 256, (6, 5, 3)).astype(np.uint8))
    np.save(root / "dog" / "extra.npy", np.zeros((6, 5, 3), np.uint8))
    (root / "dog" / "notes.txt").write_text("not an image")


def test_dataset_folder_reads_png_and_npy(tmp_path):
    make_folder(tmp_path)
    ds = DatasetFolder(str(tmp_path))
    assert ds.classes == ["cat", "dog"] and len(ds) == 6 and ds.targets == [0, 0, 1, 1, 1, 1]
    image, target = ds[0]
    assert image.shape == (6, 5, 3) and image.dtype == np.uint8 and target == 0
    only_png = DatasetFolder(str(tmp_path), extensions=(".png",), transform=paddle.vision.transforms.ToTensor())
    assert len(only_png) == 5 and only_png[4][0].shape == [3, 6, 5]
    images = ImageFolder(str(tmp_path))
    assert len(images) == 6 and isinstance(images[0], list) and images[0][0].shape == (6, 5, 3)
    is_text = lambda p: p.endswith(".txt")  # noqa: E731
    custom = DatasetFolder(str(tmp_path), loader=lambda p: p, is_valid_file=is_text, extensions=None)
    assert len(custom) == 1 and custom[0][0].endswith("notes.txt")
    with pytest.raises(RuntimeError, match="no files"):
        DatasetFolder(str(tmp_path), extensions=(".bmp",))


def test_jpeg_without_pillow_says_what_is_needed(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.jpg").write_bytes(b"\xff\xd8 not really")
    monkeypatch.setitem(sys.modules, "PIL", None)
    ds = DatasetFolder(str(tmp_path))
    with pytest.raises(RuntimeError, match="Pillow"):
        ds[0]


def test_image_load_backends(tmp_path):
    img = np.random.default_rng(3).integers(0, 256, (4, 3, 3)).astype(np.uint8)
    write_png(str(tmp_path / "a.png"), img)
    np.testing.assert_array_equal(paddle.vision.image_load(str(tmp_path / "a.png")), img)
    t = paddle.vision.image_load(str(tmp_path / "a.png"), backend="tensor")
    assert t.shape == [3, 4, 3] and t.dtype == paddle.uint8
    with pytest.raises(ValueError, match="backend"):
        paddle.vision.image_load(str(tmp_path / "a.png"), backend="opencv")
