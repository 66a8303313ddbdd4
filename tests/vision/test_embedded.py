"""The datasets minipaddle makes itself: EmbeddedDigits and the 2-D toys."""

from __future__ import annotations

import time

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.io import DataLoader
from minipaddle.vision.datasets import EmbeddedDigits, make_blobs, make_moons, make_spirals, render_digits


def test_digits_are_mnist_shaped_and_balanced():
    images, labels = render_digits(500, seed=3)
    assert images.shape == (500, 28, 28) and images.dtype == np.uint8 and labels.dtype == np.int64
    assert np.bincount(labels).tolist() == [50] * 10
    assert images.max() > 200 and np.median(images) < 30  # white strokes on a dark background


def test_digits_are_deterministic_per_seed():
    a, la = render_digits(50, seed=7)
    b, lb = render_digits(50, seed=7)
    c, _ = render_digits(50, seed=8)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(la, lb)
    assert not np.array_equal(a, c)


def test_embedded_digits_dataset_interface():
    train = EmbeddedDigits(mode="train", num_samples=200)
    test = EmbeddedDigits(mode="test", num_samples=200)
    assert len(train) == 200
    image, label = train[0]
    assert image.shape == (28, 28) and image.dtype == np.float32 and label.shape == (1,) and label.dtype == np.int64
    assert not np.array_equal(train.images, test.images)  # different streams for train and test
    assert EmbeddedDigits(mode="train", num_samples=200).images is train.images  # drawn once, then cached
    with pytest.raises(ValueError):
        train.images[0, 0, 0] = 1  # the cached arrays are read-only
    norm = paddle.vision.transforms.Normalize(mean=[127.5], std=[127.5], data_format="CHW")
    x, y = next(iter(DataLoader(EmbeddedDigits(num_samples=200, transform=norm), batch_size=16)))
    assert x.shape == [16, 1, 28, 28] and y.shape == [16, 1] and -1.0 <= x.numpy().min()


def test_default_sizes_draw_quickly():
    start = time.perf_counter()
    images, _ = render_digits(2000, seed=11)  # the default test split's size
    assert time.perf_counter() - start < 10.0  # about half a second on an idle machine
    assert len(images) == 2000


def softmax_regression_accuracy(x, y, x_test, y_test, epochs=8, lr=0.5):
    w, b = np.zeros((x.shape[1], 10)), np.zeros(10)
    targets = np.eye(10)[y]
    rng = np.random.default_rng(0)
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(x)), len(x) // 100):
            z = x[batch] @ w + b
            p = np.exp(z - z.max(axis=1, keepdims=True))
            g = (p / p.sum(axis=1, keepdims=True) - targets[batch]) / len(batch)
            w -= lr * x[batch].T @ g
            b -= lr * g.sum(axis=0)
    return float(np.mean((x_test @ w + b).argmax(axis=1) == y_test))


def test_digits_are_learnable_by_a_linear_model():
    """A CNN does far better than softmax regression; > 80% here means LeNet will pass 90% easily."""
    x, y = render_digits(3000, seed=21)
    xt, yt = render_digits(1000, seed=22)
    acc = softmax_regression_accuracy(x.reshape(3000, -1) / 255.0, y, xt.reshape(1000, -1) / 255.0, yt, epochs=5)
    assert acc > 0.8, acc


def test_moons():
    x, y = make_moons(101, noise=0.05, seed=1)
    assert x.shape == (101, 2) and x.dtype == np.float32 and y.dtype == np.int64 and np.bincount(y).tolist() == [51, 50]
    assert x[y == 0, 1].mean() > x[y == 1, 1].mean()  # the top moon is class 0
    np.testing.assert_array_equal(make_moons(101, noise=0.05, seed=1)[0], x)


def test_spirals():
    x, y = make_spirals(300, n_classes=3, noise=0.0, seed=2)
    assert x.shape == (300, 2) and sorted(set(y.tolist())) == [0, 1, 2]
    assert np.abs(x).max() <= 1.0 + 1e-6
    with pytest.raises(ValueError):
        make_spirals(10, n_classes=1)


def test_blobs():
    centers = np.array([[0.0, 0.0], [10.0, 10.0]])
    x, y = make_blobs(200, centers=centers, cluster_std=0.5, seed=3)
    for k in range(2):
        np.testing.assert_allclose(x[y == k].mean(axis=0), centers[k], atol=0.3)
    assert make_blobs(30, centers=4)[1].max() == 3
