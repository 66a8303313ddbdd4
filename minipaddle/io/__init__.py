"""paddle.io: datasets, samplers and the DataLoader that turns them into batches of Tensors.

dataset.py     Dataset, IterableDataset and the datasets made of others (TensorDataset, Subset, ...)
sampler.py     the order of the samples: Sequence/Random/WeightedRandom samplers, BatchSampler, ...
collate.py     how a list of samples becomes one batch
fetcher.py     reading one batch (shared by the main process and the workers)
dataloader.py  DataLoader, in the main process or with worker processes
worker.py      what runs inside a worker process; get_worker_info
"""

from minipaddle.io.collate import default_collate_fn, default_convert_fn
from minipaddle.io.dataloader import DataLoader
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

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "ComposeDataset",
    "ChainDataset",
    "ConcatDataset",
    "Subset",
    "random_split",
    "Sampler",
    "SequenceSampler",
    "RandomSampler",
    "WeightedRandomSampler",
    "SubsetRandomSampler",
    "BatchSampler",
    "DistributedBatchSampler",
    "DataLoader",
    "get_worker_info",
]
