"""paddle.io: datasets, samplers and the DataLoader that turns them into batches of Tensors.

dataset.py     Dataset, IterableDataset and the datasets made of others (TensorDataset, Subset, ...)
sampler.py     the order of the samples: Sequence/Random/WeightedRandom samplers, BatchSampler, ...
collate.py     how a list of samples becomes one batch
fetcher.py     reading one batch (shared by the main process and the workers)
reader.py      DataLoader, in the main process or with worker processes (paddle 2.6 defines it in paddle/io/reader.py)
worker.py      what runs inside a worker process; get_worker_info
dataloader/    paddle 2.6's module paths (paddle.io.dataloader.dataset, .sampler, ...), re-exporting the above
"""

from minipaddle.io.collate import default_collate_fn, default_convert_fn
from minipaddle.io.dataset import *  # noqa: F403
from minipaddle.io.dataset import __all__ as _dataset_all
from minipaddle.io.reader import DataLoader
from minipaddle.io.sampler import *  # noqa: F403
from minipaddle.io.sampler import __all__ as _sampler_all
from minipaddle.io.worker import get_worker_info

__all__ = _dataset_all + _sampler_all + ["DataLoader", "get_worker_info"]
