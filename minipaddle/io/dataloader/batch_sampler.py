"""`paddle.io.dataloader.batch_sampler` of paddle 2.6: the batch samplers, re-exported from io/sampler.py (and the
endless sampler of an IterableDataset, from io/fetcher.py)."""

from minipaddle.io.fetcher import InfiniteIterableSampler as _InfiniteIterableSampler
from minipaddle.io.sampler import BatchSampler, DistributedBatchSampler

__all__ = ["BatchSampler", "DistributedBatchSampler", "_InfiniteIterableSampler"]
