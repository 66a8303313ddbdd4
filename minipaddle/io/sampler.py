"""Samplers: the order in which a DataLoader visits a map-style dataset (paddle.io.Sampler and friends).

A Sampler yields sample indices; a BatchSampler groups them into lists, one list per batch. Random samplers
draw from minipaddle's generator (core/state.py), so `paddle.seed(n)` makes every shuffle repeatable.
"""

from __future__ import annotations

import math
import os

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.io.dataset import IterableDataset
from minipaddle.tensor.checks import check_bool

__all__ = [
    "Sampler",
    "SequenceSampler",
    "RandomSampler",
    "WeightedRandomSampler",
    "SubsetRandomSampler",
    "BatchSampler",
    "DistributedBatchSampler",
]


def _positive_int(value, fn: str, arg: str) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{fn}: {arg} must be a positive int, got {value!r}")
    return int(value)


class Sampler:
    """The base of all samplers: subclass it and define `__iter__` (yield indices) and, if known, `__len__`."""

    def __init__(self, data_source=None) -> None:
        self.data_source = data_source

    def __iter__(self):
        raise TypeError(f"{type(self).__name__} is a Sampler but defines no __iter__()")


class SequenceSampler(Sampler):
    """Indices 0, 1, ..., len(data_source) - 1 in order."""

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """Indices in random order: a permutation, or `num_samples` draws with replacement.

    Args:
        data_source (Dataset): the dataset to sample from.
        replacement (bool): draw with replacement. Default False (each index exactly once).
        num_samples (int, optional): how many draws; only with replacement=True. Default len(data_source).
        generator (iterator, optional): if given, the indices are taken from it instead of drawn.
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None) -> None:
        self.data_source = data_source
        self.replacement = check_bool(replacement, "RandomSampler", "replacement")
        if num_samples is not None and not replacement:
            raise ValueError("RandomSampler: num_samples can only be given with replacement=True")
        self._num_samples = num_samples
        self.generator = generator
        _positive_int(self.num_samples, "RandomSampler", "num_samples")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is not None:
            for _, index in zip(range(self.num_samples), self.generator):
                yield index
        elif self.replacement:
            yield from STATE.rng.integers(0, n, size=self.num_samples).tolist()
        else:
            yield from STATE.rng.permutation(n).tolist()

    def __len__(self) -> int:
        return self.num_samples


class WeightedRandomSampler(Sampler):
    """`num_samples` indices drawn with probability proportional to `weights`.

    Args:
        weights (list|tuple|numpy.ndarray|Tensor): one non-negative weight per sample (1-D); a 2-D array
            gives one row of draws per row of weights, flattened one row after another.
        num_samples (int): how many indices to draw (per row).
        replacement (bool): draw with replacement. Default True.

    Example:
        >>> sampler = paddle.io.WeightedRandomSampler([0.1, 0.9, 0.0], num_samples=5)
        >>> list(sampler)   # mostly 1s, never 2
    """

    def __init__(self, weights, num_samples, replacement=True) -> None:
        self.num_samples = _positive_int(num_samples, "WeightedRandomSampler", "num_samples")
        self.replacement = check_bool(replacement, "WeightedRandomSampler", "replacement")
        w = np.asarray(weights.numpy() if isinstance(weights, Tensor) else weights, dtype=np.float64)
        if w.ndim not in (1, 2) or w.shape[-1] == 0:
            raise ValueError(f"WeightedRandomSampler: weights must be a non-empty 1-D or 2-D array, got shape "
                             f"{list(w.shape)}")  # fmt: skip
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError("WeightedRandomSampler: weights must be finite and non-negative")
        positive = (w.reshape(-1, w.shape[-1]) > 0).sum(axis=1)
        if np.any(positive == 0):
            raise ValueError("WeightedRandomSampler: every row of weights needs at least one positive weight")
        if not replacement and np.any(positive < num_samples):
            raise ValueError(f"WeightedRandomSampler: without replacement, num_samples ({num_samples}) must not "
                             f"exceed the number of positive weights ({positive.min()})")  # fmt: skip
        self.weights = w

    def __iter__(self):
        rows = self.weights.reshape(-1, self.weights.shape[-1])
        draws = [STATE.rng.choice(len(p), self.num_samples, self.replacement, p / p.sum()) for p in rows]
        return iter(np.concatenate(draws).tolist())

    def __len__(self) -> int:
        return self.num_samples * (self.weights.size // self.weights.shape[-1])


class SubsetRandomSampler(Sampler):
    """The given indices, in a random order each epoch."""

    def __init__(self, indices) -> None:
        if len(indices) == 0:
            raise ValueError("SubsetRandomSampler: indices must not be empty")
        self.indices = indices

    def __iter__(self):
        for i in STATE.rng.permutation(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class BatchSampler(Sampler):
    """Group a sampler's indices into batches (lists of `batch_size` indices).

    Give either `dataset` (then `shuffle` picks a RandomSampler or a SequenceSampler) or `sampler`.

    Args:
        dataset (Dataset, optional): the map-style dataset to batch.
        sampler (Sampler, optional): the sampler whose indices are grouped.
        shuffle (bool): with `dataset`, visit it in random order. Default False.
        batch_size (int): indices per batch. Default 1.
        drop_last (bool): drop the last batch when it is smaller than batch_size. Default False.

    Example:
        >>> list(paddle.io.BatchSampler(dataset=range(5), batch_size=2))
        [[0, 1], [2, 3], [4]]
    """

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False) -> None:
        if dataset is None:
            if sampler is None:
                raise ValueError("BatchSampler: give either dataset or sampler")
            if not isinstance(sampler, Sampler):
                raise TypeError(f"BatchSampler: sampler must be a paddle.io.Sampler, got {type(sampler).__name__}")
            if shuffle:
                raise ValueError("BatchSampler: shuffle must be False when a sampler is given (the sampler decides)")
            self.sampler = sampler
        else:
            if isinstance(dataset, IterableDataset):
                raise TypeError("BatchSampler: an IterableDataset has no indices to sample")
            if sampler is not None:
                raise ValueError("BatchSampler: give dataset or sampler, not both")
            shuffle = check_bool(shuffle, "BatchSampler", "shuffle")
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        self.shuffle = bool(shuffle)
        self.batch_size = _positive_int(batch_size, "BatchSampler", "batch_size")
        self.drop_last = check_bool(drop_last, "BatchSampler", "drop_last")

    def __iter__(self):
        yield from self._batches(self.sampler)

    def _batches(self, indices):
        """The indices in lists of batch_size, the last one shorter (or dropped, with drop_last)."""
        batch = []
        for idx in indices:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)


class DistributedBatchSampler(BatchSampler):
    """The share of the batches that one of `num_replicas` processes reads.

    The index list is padded (by repeating its start) to a multiple of num_replicas, optionally shuffled with
    a permutation that depends only on the epoch (so every rank agrees), then each rank takes its slices.
    Call `set_epoch(epoch)` each epoch to get a new order.

    Args:
        dataset (Dataset): the map-style dataset.
        batch_size (int): indices per batch on each rank.
        num_replicas (int, optional): the number of processes. Default: the PADDLE_TRAINERS_NUM environment
            variable, else 1.
        rank (int, optional): this process's rank. Default: PADDLE_TRAINER_ID, else 0.
        shuffle (bool): shuffle by epoch. Default False.
        drop_last (bool): drop the last incomplete batch. Default False.
    """

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False, drop_last=False) -> None:
        fn = "DistributedBatchSampler"
        self.dataset = dataset
        self.batch_size = _positive_int(batch_size, fn, "batch_size")
        self.shuffle = check_bool(shuffle, fn, "shuffle")
        self.drop_last = check_bool(drop_last, fn, "drop_last")
        if num_replicas is None:
            num_replicas = int(os.environ.get("PADDLE_TRAINERS_NUM", "1"))
        if rank is None:
            rank = int(os.environ.get("PADDLE_TRAINER_ID", "0"))
        self.nranks = _positive_int(num_replicas, fn, "num_replicas")
        if not isinstance(rank, (int, np.integer)) or isinstance(rank, bool) or not 0 <= rank < self.nranks:
            raise ValueError(f"{fn}: rank must be an int in [0, {self.nranks}), got {rank!r}")
        self.local_rank = int(rank)
        self.epoch = 0
        self.num_samples = math.ceil(len(dataset) / self.nranks)
        self.total_size = self.num_samples * self.nranks

    def __iter__(self):
        n = len(self.dataset)
        indices = list(range(n))
        indices += (indices * math.ceil(self.total_size / max(n, 1)))[: self.total_size - n]  # pad by wrapping
        if self.shuffle:
            # Paddle's permutation (numpy's legacy RandomState seeded by the epoch), so ranks agree and the
            # batches equal Paddle's for the same epoch.
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            indices = self._this_ranks_share(indices)
        yield from self._batches(indices)

    def _this_ranks_share(self, indices: list) -> list:
        """Whole batches dealt round-robin to the ranks, then an equal slice of the tail to each."""
        per_round = self.batch_size * self.nranks
        tail = self.total_size % per_round
        share = []
        for start in range(self.local_rank * self.batch_size, len(indices) - tail, per_round):
            share.extend(indices[start : start + self.batch_size])
        tail_each = tail // self.nranks
        rest = indices[len(indices) - tail :]
        share.extend(rest[self.local_rank * tail_each : (self.local_rank + 1) * tail_each])
        return share

    def __len__(self) -> int:
        n = self.num_samples
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)

    def set_epoch(self, epoch: int) -> None:
        """Use `epoch` as the seed of the next shuffle (call it at the start of every epoch)."""
        self.epoch = epoch
