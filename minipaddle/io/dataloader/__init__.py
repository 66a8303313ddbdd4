"""`paddle.io.dataloader`, a package of paddle 2.6, so that imports from it run unchanged.

paddle 2.6 keeps its data loading in this package, one module per part; minipaddle keeps the same parts one
directory up (io/dataset.py, io/sampler.py, io/collate.py, io/fetcher.py, io/worker.py, io/reader.py) and these
modules, named as paddle names them, re-export them:

batch_sampler.py    BatchSampler, DistributedBatchSampler
collate.py          default_collate_fn, default_convert_fn
dataloader_iter.py  the DataLoader's iterators (one process, worker processes)
dataset.py          Dataset, IterableDataset, TensorDataset, ComposeDataset, ChainDataset, ConcatDataset, Subset, ...
fetcher.py          reading one batch
sampler.py          Sampler, SequenceSampler, RandomSampler, WeightedRandomSampler, SubsetRandomSampler
worker.py           get_worker_info, WorkerInfo
"""

from minipaddle.io.dataset import (
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from minipaddle.io.sampler import (
    BatchSampler,
    DistributedBatchSampler,
    RandomSampler,
    Sampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from minipaddle.io.worker import get_worker_info

__all__ = []  # as paddle 2.6: the names are reached through paddle.io
