"""Classroom toy datasets of 2-D points, for drawing decision boundaries: two moons, spirals, blobs.

Paddle has no such API; minipaddle keeps them beside the other datasets (see docs/datasets.md). Each function
returns `(x, y)`: float32 points [n_samples, 2] and int64 labels [n_samples], the same for the same seed. Wrap
them for a DataLoader with `paddle.io.TensorDataset([paddle.to_tensor(x), paddle.to_tensor(y)])`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["make_moons", "make_spirals", "make_blobs"]


def _count(n_samples, fn: str) -> int:
    if not isinstance(n_samples, int) or isinstance(n_samples, bool) or n_samples < 1:
        raise ValueError(f"{fn}: n_samples must be a positive int, got {n_samples!r}")
    return n_samples


def _shuffled(x: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    order = rng.permutation(len(y))
    return x[order].astype(np.float32), y[order].astype(np.int64)


def make_moons(n_samples=200, noise=0.1, seed=0):
    """Two interleaving half circles (class 0 on top, class 1 below), with Gaussian `noise`.

    Example:
        >>> x, y = make_moons(200, noise=0.1)
        >>> x.shape, y.shape
        ((200, 2), (200,))
    """
    n = _count(n_samples, "make_moons")
    rng = np.random.default_rng(seed)
    n_top = n // 2 + n % 2
    t_top, t_bottom = np.linspace(0, np.pi, n_top), np.linspace(0, np.pi, n - n_top)
    top = np.stack([np.cos(t_top), np.sin(t_top)], axis=1)
    bottom = np.stack([1 - np.cos(t_bottom), 0.5 - np.sin(t_bottom)], axis=1)
    x = np.concatenate([top, bottom]) + rng.normal(0.0, noise, (n, 2))
    y = np.concatenate([np.zeros(n_top), np.ones(n - n_top)])
    return _shuffled(x, y, rng)


def make_spirals(n_samples=300, n_classes=2, noise=0.2, turns=1.5, seed=0):
    """`n_classes` interleaved spiral arms around the origin (radius up to 1), one class per arm."""
    n = _count(n_samples, "make_spirals")
    if not isinstance(n_classes, int) or n_classes < 2:
        raise ValueError(f"make_spirals: n_classes must be an int >= 2, got {n_classes!r}")
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    r = (np.arange(n) // n_classes + 1) / (n // n_classes + 1)  # from the centre outwards, per arm
    angle = 2 * np.pi * (turns * r + y / n_classes) + rng.normal(0.0, noise, n) * r
    x = np.stack([r * np.cos(angle), r * np.sin(angle)], axis=1)
    return _shuffled(x, y, rng)


def make_blobs(n_samples=300, centers=3, cluster_std=1.0, center_box=(-8.0, 8.0), seed=0):
    """Gaussian clusters: `centers` is a number of clusters (placed at random in `center_box`) or their
    coordinates [k, 2]. Returns (x, y) with y the cluster index."""
    n = _count(n_samples, "make_blobs")
    rng = np.random.default_rng(seed)
    if isinstance(centers, int):
        if centers < 1:
            raise ValueError(f"make_blobs: centers must be positive, got {centers}")
        centers = rng.uniform(center_box[0], center_box[1], (centers, 2))
    centers = np.asarray(centers, dtype=np.float64)
    if centers.ndim != 2 or centers.shape[1] != 2:
        raise ValueError(f"make_blobs: centers must be an int or a [k, 2] array, got shape {list(centers.shape)}")
    y = np.arange(n) % len(centers)
    spread = np.broadcast_to(np.asarray(cluster_std, dtype=np.float64), (len(centers),))  # one std or one each
    x = centers[y] + rng.normal(0.0, 1.0, (n, 2)) * spread[y, None]
    return _shuffled(x, y, rng)
