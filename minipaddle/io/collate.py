"""Turning a list of samples into one batch (the DataLoader's default `collate_fn`), and batches into Tensors.

`default_collate_fn` stacks field by field, keeping the samples' structure: numpy arrays and numbers are
stacked into numpy arrays, Tensors into a Tensor; dicts stay dicts and lists/tuples become lists; strings
are gathered into a list. The DataLoader then turns every numpy array of the batch into a Tensor
(`to_tensors`); worker processes send their batches as numpy (`to_numpy`), never as Tensors.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.manipulation import stack

__all__ = ["default_collate_fn", "default_convert_fn"]


def default_collate_fn(batch: list):
    """Stack a list of samples into a batch, field by field (Paddle's default_collate_fn).

    Example:
        >>> default_collate_fn([(np.zeros(3), 1), (np.ones(3), 2)])
        [array of shape (2, 3), array([1, 2])]
    """
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        shapes = {s.shape for s in batch}
        if len(shapes) != 1:
            raise ValueError(f"default_collate_fn: the samples' arrays must share one shape to be stacked, got "
                             f"{sorted(map(list, shapes))}")  # fmt: skip
        return np.stack(batch)
    if isinstance(sample, Tensor):
        return stack(batch, axis=0)
    if isinstance(sample, (numbers.Number, np.generic)) and not isinstance(sample, (str, bytes)):
        return np.array(batch)  # Python int -> int64, float -> float64, numpy scalars keep their dtype
    if isinstance(sample, (str, bytes)):
        return list(batch)
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([s[key] for s in batch]) for key in sample}
    if isinstance(sample, Sequence):
        if any(len(s) != len(sample) for s in batch):
            raise RuntimeError(f"default_collate_fn: the samples of a batch have different numbers of fields "
                               f"({sorted({len(s) for s in batch})})")  # fmt: skip
        return [default_collate_fn(list(fields)) for fields in zip(*batch)]
    raise TypeError(f"default_collate_fn: a sample may hold Tensors, numpy arrays, numbers, strings, dicts and "
                    f"lists, got {type(sample).__name__}")  # fmt: skip


def default_convert_fn(batch):
    """The collate used when automatic batching is off (batch_size=None): the sample is already a batch."""
    if isinstance(batch, np.ndarray):
        return batch.copy()  # the batch's Tensor must not share memory with the dataset's storage
    if isinstance(batch, (Tensor, str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {key: default_convert_fn(value) for key, value in batch.items()}
    if isinstance(batch, Sequence):
        return [default_convert_fn(value) for value in batch]
    return batch


def _map_leaves(data, fn):
    """`data` with `fn` applied to every leaf; dicts stay dicts, lists and tuples become lists (as in Paddle)."""
    if isinstance(data, Mapping):
        return {key: _map_leaves(value, fn) for key, value in data.items()}
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        return [_map_leaves(value, fn) for value in data]
    return fn(data)


def to_tensors(batch):
    """Every numpy array in the batch becomes a Tensor (stop_gradient=True); other leaves stay as they are."""
    return _map_leaves(batch, lambda v: _tensor_of(v) if isinstance(v, np.ndarray) else v)


def _tensor_of(array: np.ndarray) -> Tensor:
    dtypes.from_numpy(array.dtype)  # a TypeError naming the dtype when Paddle has no such dtype (strings, objects)
    return Tensor(array)


def to_numpy(batch):
    """Every Tensor in the batch becomes a numpy array: what a worker process sends back to the main process."""
    return _map_leaves(batch, lambda v: v.numpy() if isinstance(v, Tensor) else v)
