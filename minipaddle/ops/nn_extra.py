"""Ops behind paddle 2.6's extra nn functions that are not compositions of other ops: sequence_mask (lengths to
a 0/1 mask), gather_tree (beam-search backtracking) and class_center_sample (PartialFC's class sampling).

None of them has a gradient: their outputs are masks and indices.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = ["sequence_mask", "gather_tree", "class_center_sample"]  # the raw op functions


@register
class SequenceMask(OpDef):
    """out[..., j] = j < x[...], for j in [0, maxlen); maxlen None means the largest length in x (truncated)."""

    name = "sequence_mask"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, maxlen=None, dtype=np.int64):
        if maxlen is None:
            maxlen = int(x.max()) if x.size else 0
        return (np.arange(maxlen) < x[..., None]).astype(dtype)

    def infer_meta(self, x: Meta, maxlen=None, dtype=np.int64) -> Meta:
        return Meta((*x.shape, -1 if maxlen is None else maxlen), dtypes.from_numpy(np.dtype(dtype)))


def sequence_mask(x: Tensor, maxlen, dtype) -> Tensor:
    return apply(SequenceMask, (x,), {"maxlen": maxlen, "dtype": np.dtype(dtype)})


@register
class GatherTree(OpDef):
    """The full beam paths from per-step ids and parent beams ([max_time, batch, beam] each).

    Walking back from the last step, each beam follows its parent pointers: out[t] = ids[t, parent chain]. The
    walk is sequential in time and vectorized over batch and beam.
    """

    name = "gather_tree"
    differentiable = False
    saves_inputs = False

    def kernel(self, ids, parents):
        out = np.empty_like(ids)
        if ids.shape[0] == 0:
            return out
        batch = np.arange(ids.shape[1])[:, None]
        beam = np.broadcast_to(np.arange(ids.shape[2]), ids.shape[1:])
        for t in range(ids.shape[0] - 1, -1, -1):
            out[t] = ids[t, batch, beam]
            beam = parents[t, batch, beam]
        return out

    def infer_meta(self, ids: Meta, parents: Meta) -> Meta:
        return ids


def gather_tree(ids: Tensor, parents: Tensor) -> Tensor:
    return apply(GatherTree, (ids, parents))


@register
class ClassCenterSample(OpDef):
    """Sample `num_samples` class centers out of `num_classes`: every class in `label` (sorted), then, if room is
    left, other classes drawn at random without replacement. Returns the labels renumbered by their place among
    the sampled centers, and the sampled centers."""

    name = "class_center_sample"
    differentiable = False
    saves_inputs = False
    random = True

    def kernel(self, label, num_classes, num_samples):
        positive, remapped = np.unique(label, return_inverse=True)
        room = num_samples - len(positive)
        if room > 0:
            others = np.setdiff1d(np.arange(num_classes, dtype=label.dtype), positive)
            positive = np.concatenate([positive, STATE.rng.permutation(others)[:room]])
        return remapped.reshape(label.shape).astype(label.dtype), positive.astype(label.dtype)

    def infer_meta(self, label: Meta, num_classes, num_samples) -> tuple:
        return label, Meta((-1,), label.dtype)


def class_center_sample(label: Tensor, num_classes: int, num_samples: int) -> tuple:
    return apply(ClassCenterSample, (label,), {"num_classes": num_classes, "num_samples": num_samples})
