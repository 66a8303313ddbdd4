"""Datasets: what a DataLoader reads from (paddle.io.Dataset and friends).

A map-style `Dataset` answers `dataset[i]` and `len(dataset)`; an `IterableDataset` is read front to back with
`iter(dataset)`. The rest build datasets out of others: side by side (ComposeDataset), one after another
(ChainDataset, ConcatDataset), or a chosen part (Subset, random_split).
"""

from __future__ import annotations

import bisect
import itertools

from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "ComposeDataset",
    "ChainDataset",
    "ConcatDataset",
    "Subset",
    "random_split",
]


class Dataset:
    """A map-style dataset: subclass it and define `__getitem__(idx)` (one sample) and `__len__()`.

    A sample is usually a tuple of numpy arrays and numbers, e.g. `(image, label)`; the DataLoader stacks the
    samples of a batch field by field into Tensors.

    Example:
        >>> class RandomDataset(paddle.io.Dataset):
        ...     def __init__(self, n):
        ...         self.n = n
        ...     def __getitem__(self, idx):
        ...         return np.random.rand(784).astype('float32'), np.array([idx % 10])
        ...     def __len__(self):
        ...         return self.n
    """

    def __init__(self) -> None:
        pass

    def __getitem__(self, idx):
        raise TypeError(f"{type(self).__name__} is a Dataset but defines no __getitem__(idx)")

    def __len__(self) -> int:
        raise TypeError(f"{type(self).__name__} is a Dataset but defines no __len__()")


class IterableDataset(Dataset):
    """A dataset read as a stream: subclass it and define `__iter__()`, which yields the samples.

    With `num_workers > 0`, every worker process iterates its own copy; use `paddle.io.get_worker_info()` inside
    `__iter__` to give each worker its own share, or every sample arrives once per worker.
    """

    def __iter__(self):
        raise TypeError(f"{type(self).__name__} is an IterableDataset but defines no __iter__()")

    def __getitem__(self, idx):
        raise RuntimeError(f"{type(self).__name__} is an IterableDataset: it is read with iter(), not indexed")

    def __len__(self) -> int:
        # TypeError, Python's "has no len()": list(dataset) and friends then simply iterate.
        raise TypeError(f"{type(self).__name__} is an IterableDataset: it has no len()")


class TensorDataset(Dataset):
    """Samples are rows of the given Tensors: `dataset[i] == (tensors[0][i], tensors[1][i], ...)`.

    Args:
        tensors (list|tuple of Tensor): tensors with the same first dimension.

    Example:
        >>> ds = paddle.io.TensorDataset([paddle.rand([5, 3]), paddle.arange(5)])
        >>> x, y = ds[2]
    """

    def __init__(self, tensors) -> None:
        if not isinstance(tensors, (list, tuple)) or not tensors:
            raise TypeError(f"TensorDataset: tensors must be a non-empty list of Tensors, got {tensors!r}")
        for t in tensors:
            if not isinstance(t, Tensor):
                raise TypeError(f"TensorDataset: tensors must all be Tensors, got a {type(t).__name__}")
        firsts = [t.shape[0] if t.ndim else None for t in tensors]
        if None in firsts or len(set(firsts)) != 1:
            raise ValueError(f"TensorDataset: tensors must share their first dimension, got shapes "
                             f"{[t.shape for t in tensors]}")  # fmt: skip
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


def _as_list(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _check_datasets(datasets, fn: str) -> list:
    datasets = list(datasets)
    if not datasets:
        raise ValueError(f"{fn}: datasets must not be empty")
    for d in datasets:
        if not isinstance(d, Dataset):
            raise TypeError(f"{fn}: every dataset must be a paddle.io.Dataset, got {type(d).__name__}")
    return datasets


class ComposeDataset(Dataset):
    """Datasets of the same length side by side: sample i joins the fields of every dataset's sample i.

    Example:
        >>> ds = paddle.io.ComposeDataset([images, labels])   # ds[i] == (*images[i], *labels[i])
    """

    def __init__(self, datasets) -> None:
        self.datasets = _check_datasets(datasets, "ComposeDataset")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise TypeError("ComposeDataset: an IterableDataset cannot be composed (it has no index)")
        lengths = [len(d) for d in self.datasets]
        if len(set(lengths)) != 1:
            raise ValueError(f"ComposeDataset: the datasets must have the same length, got {lengths}")

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx):
        return tuple(field for d in self.datasets for field in _as_list(d[idx]))


class ChainDataset(IterableDataset):
    """IterableDatasets one after another: all samples of the first, then of the second, and so on."""

    def __init__(self, datasets) -> None:
        self.datasets = _check_datasets(datasets, "ChainDataset")
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise TypeError(f"ChainDataset: every dataset must be an IterableDataset, got {type(d).__name__}")

    def __iter__(self):
        return itertools.chain.from_iterable(self.datasets)


class ConcatDataset(Dataset):
    """Map-style datasets one after another: indices 0..len(a)-1 read `a`, the next ones read `b`, ..."""

    def __init__(self, datasets) -> None:
        self.datasets = _check_datasets(datasets, "ConcatDataset")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise TypeError("ConcatDataset: an IterableDataset cannot be concatenated by index")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        n = len(self)
        if not -n <= idx < n:
            raise IndexError(f"ConcatDataset: index {idx} is out of range for {n} samples")
        idx %= n
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order: `Subset(ds, [3, 1])[0] is ds[3]`."""

    def __init__(self, dataset, indices) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset, lengths, generator=None) -> list:
    """Split `dataset` at random into non-overlapping Subsets of the given lengths.

    The permutation comes from minipaddle's generator, so `paddle.seed(n)` makes the split repeatable.
    `generator` is accepted for Paddle compatibility and, as in Paddle, not used.

    Example:
        >>> train, val = paddle.io.random_split(dataset, [800, 200])
    """
    lengths = [int(n) for n in lengths]
    if any(n < 0 for n in lengths):
        raise ValueError(f"random_split: lengths must be non-negative, got {lengths}")
    if sum(lengths) != len(dataset):
        raise ValueError(f"random_split: the lengths {lengths} add up to {sum(lengths)}, "
                         f"but the dataset has {len(dataset)} samples")  # fmt: skip
    order = STATE.rng.permutation(sum(lengths)).tolist()
    ends = list(itertools.accumulate(lengths))
    return [Subset(dataset, order[end - n : end]) for end, n in zip(ends, lengths)]
