"""Op-table section: reshaping, repeating, cutting and joining (paddle.tensor.manipulation)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r


def _weighted(parts):
    """Join a list of outputs into one tensor, each part scaled differently so a mixed-up gradient shows."""
    return paddle.concat([paddle.flatten(p) * (i + 1.0) for i, p in enumerate(parts)])


def _np_weighted(parts):
    return np.concatenate([np.ravel(p) * (i + 1.0) for i, p in enumerate(parts)])


def np_unfold(x, axis, size, step):
    starts = range(0, x.shape[axis] - size + 1, step)
    windows = [np.take(x, range(s, s + size), axis=axis) for s in starts]
    return np.moveaxis(np.stack(windows, axis=axis), axis + 1, -1)


def shard_ref(x, index_num, nshards, shard_id, ignore_value=-1):
    size = (index_num + nshards - 1) // nshards
    return np.where(x // size == shard_id, x % size, ignore_value)


def squeeze_ref(x, axis=None):
    return np.squeeze(x, axis) if axis is None or x.shape[axis] == 1 else x


def flatten_ref(x, start_axis=0, stop_axis=-1):
    return x.reshape(x.shape[:start_axis] + (-1,) + x.shape[stop_axis % x.ndim + 1 :])


def expand_ref(x, shape):
    lead = len(shape) - x.ndim
    return np.broadcast_to(x, [x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape)])


def split_ref(x, num_or_sections, axis=0):
    if isinstance(num_or_sections, int):
        return _np_weighted(np.split(x, num_or_sections, axis))
    known = sum(s for s in num_or_sections if s != -1)
    sizes = [x.shape[axis] - known if s == -1 else s for s in num_or_sections]
    return _np_weighted(np.split(x, np.cumsum(sizes)[:-1], axis))


def slices_ref(x, axis):
    return _np_weighted(list(np.moveaxis(x, axis, 0)))


ENTRIES: list[OpInfo] = [
    OpInfo("squeeze", paddle.squeeze, squeeze_ref,
           lambda rng: [Sample((r(rng, 3, 1, 4, 1),)), Sample((r(rng, 3, 1, 4),), {"axis": 1}),
                        Sample((r(rng, 3, 1, 4),), {"axis": 0}, "axis not of size 1 is kept")]),
    OpInfo("unsqueeze", paddle.unsqueeze, lambda x, axis: np.expand_dims(x, axis),
           lambda rng: [Sample((r(rng, 3, 4),), {"axis": 0}), Sample((r(rng, 3, 4),), {"axis": [0, -1]}),
                        Sample((r(rng, 3),), {"axis": (1, 2)})]),
    OpInfo("flatten", paddle.flatten,
           flatten_ref,
           lambda rng: [Sample((r(rng, 2, 3, 4),)), Sample((r(rng, 2, 3, 4, 2),), {"start_axis": 1, "stop_axis": 2})]),
    OpInfo("t", paddle.t, lambda x: x.T, lambda rng: [Sample((r(rng, 3, 4),)), Sample((r(rng, 5),))]),
    OpInfo("T", lambda x: x.T, lambda x: x.T, lambda rng: [Sample((r(rng, 2, 3, 4),))]),
    OpInfo("expand", paddle.expand, expand_ref,
           lambda rng: [Sample((r(rng, 3, 1),), {"shape": [2, 3, 4]}), Sample((r(rng, 1, 4),), {"shape": [3, -1]})]),
    OpInfo("broadcast_to", paddle.broadcast_to, lambda x, shape: np.broadcast_to(x, shape),
           lambda rng: [Sample((r(rng, 4),), {"shape": [3, 4]})]),
    OpInfo("expand_as", paddle.expand_as, lambda x, y: np.broadcast_to(x, y.shape),
           lambda rng: [Sample((r(rng, 3, 1), r(rng, 3, 5)))]),
    OpInfo("tile", paddle.tile, lambda x, repeat_times: np.tile(x, repeat_times),
           lambda rng: [Sample((r(rng, 2, 3),), {"repeat_times": [2, 2]}),
                        Sample((r(rng, 3),), {"repeat_times": [2, 1, 3]}),
                        Sample((r(rng, 2, 3, 2),), {"repeat_times": [2]})]),
    OpInfo("flip", paddle.flip, lambda x, axis: np.flip(x, axis),
           lambda rng: [Sample((r(rng, 3, 4),), {"axis": 0}), Sample((r(rng, 2, 3, 4),), {"axis": [0, 2]})]),
    OpInfo("reverse", paddle.reverse, lambda x, axis: np.flip(x, axis),
           lambda rng: [Sample((r(rng, 3, 4),), {"axis": [-1]})]),
    OpInfo("roll", paddle.roll, lambda x, shifts, axis=None: np.roll(x, shifts, axis),
           lambda rng: [Sample((r(rng, 3, 4),), {"shifts": 1}),
                        Sample((r(rng, 3, 4),), {"shifts": [1, -2], "axis": [0, 1]}),
                        Sample((r(rng, 3, 4),), {"shifts": 5, "axis": 1})]),
    OpInfo("split", lambda x, **k: _weighted(paddle.split(x, **k)),
           split_ref,
           lambda rng: [Sample((r(rng, 6, 2),), {"num_or_sections": 3}),
                        Sample((r(rng, 2, 7),), {"num_or_sections": [2, -1, 1], "axis": 1})]),
    OpInfo("chunk", lambda x, **k: _weighted(paddle.chunk(x, **k)),
           lambda x, chunks, axis=0: _np_weighted(np.split(x, chunks, axis)),
           lambda rng: [Sample((r(rng, 4, 3),), {"chunks": 2}), Sample((r(rng, 2, 6),), {"chunks": 3, "axis": -1})]),
    OpInfo("unbind", lambda x, **k: _weighted(paddle.unbind(x, **k)), lambda x, axis=0: slices_ref(x, axis),
           lambda rng: [Sample((r(rng, 3, 4),)), Sample((r(rng, 2, 3, 2),), {"axis": 1})]),
    OpInfo("unstack", lambda x, **k: _weighted(paddle.unstack(x, **k)), lambda x, axis=0, num=None: slices_ref(x, axis),
           lambda rng: [Sample((r(rng, 3, 4),), {"axis": -1, "num": 4})]),
    OpInfo("unfold", paddle.unfold, np_unfold,
           lambda rng: [Sample((r(rng, 7),), {"axis": 0, "size": 3, "step": 2}),
                        Sample((r(rng, 2, 6, 3),), {"axis": 1, "size": 2, "step": 1})]),
    OpInfo("shard_index", paddle.shard_index, shard_ref,
           lambda rng: [Sample((rng.integers(0, 20, (5, 1)),), {"index_num": 20, "nshards": 2, "shard_id": 1}),
                        Sample((rng.integers(0, 10, (4, 1)),),
                               {"index_num": 10, "nshards": 3, "shard_id": 0, "ignore_value": 7})],
           grad=False),
]  # fmt: skip
