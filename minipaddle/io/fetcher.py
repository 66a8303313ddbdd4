"""Reading one batch from a dataset: the step that the main process (num_workers=0) and every worker share."""

from __future__ import annotations

import itertools

__all__ = ["BatchFetcher", "InfiniteIterableSampler"]


class BatchFetcher:
    """Reads the samples of one batch and collates them.

    For a map-style dataset, `fetch(indices)` reads `dataset[i]` for each index (or `dataset[indices]` when
    automatic batching is off). For an IterableDataset the indices only say how many samples to take from the
    dataset's iterator; `fetch` raises StopIteration when the iterator is done (or when drop_last drops the
    last short batch).
    """

    def __init__(self, dataset, iterable: bool, auto_collate: bool, collate_fn, drop_last: bool) -> None:
        self.dataset = dataset
        self.iterable = iterable
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.iterator = iter(dataset) if iterable else None

    def fetch(self, indices):
        if self.iterable:
            if not self.auto_collate:
                return self.collate_fn(next(self.iterator))
            samples = list(itertools.islice(self.iterator, len(indices)))
            if not samples or (self.drop_last and len(samples) < len(indices)):
                raise StopIteration
            return self.collate_fn(samples)
        if not self.auto_collate:
            return self.collate_fn(self.dataset[indices])
        return self.collate_fn([self.dataset[i] for i in indices])


class InfiniteIterableSampler:
    """The index sampler of an IterableDataset: endless batches of placeholder indices (`[None] * batch_size`).

    The dataset's own iterator decides when the data ends."""

    def __init__(self, batch_size: int) -> None:
        self.batch_size = batch_size

    def __iter__(self):
        while True:
            yield [None] * self.batch_size
