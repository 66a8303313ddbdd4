"""Op-table section: the tensor-array ops (ops/tensor_array.py), on their dense values [n, *element].

The public functions (paddle.tensor.create_array, array_write, ...) take Python lists in dynamic mode, as Paddle;
the ops are what a Program runs, so the entries call them directly (as the to_static runtime does)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, r


def _i(k: int) -> np.ndarray:
    return np.asarray([k], np.int64)


def _np_write(array, x, i):
    k = int(i[0])
    if array.shape[0] == 0:
        return x[None].copy()
    out = np.concatenate([array, x[None]]) if k == array.shape[0] else array.copy()
    out[k] = x
    return out


def _write_samples(rng):
    return [
        Sample((r(rng, 3, 2, 4), r(rng, 2, 4), _i(1)), label="overwrite"),
        Sample((r(rng, 3, 2, 4), r(rng, 2, 4), _i(3)), label="append"),
        Sample((r(rng, 2, 5), r(rng, 5), _i(0)), label="1-d elements"),
    ]


def _np_write_grad(g, array, i):
    k, n = int(i[0]), array.shape[0]
    out = g[:n].copy()
    if k < n:
        out[k] = 0
    return out


def _write_grad_samples(rng):
    return [
        Sample((r(rng, 3, 2, 4), r(rng, 3, 2, 4), _i(1)), label="after an overwrite"),
        Sample((r(rng, 4, 2, 4), r(rng, 3, 2, 4), _i(3)), label="after an append"),
    ]


def _read_samples(rng):
    return [
        Sample((r(rng, 3, 2, 4), _i(2)), label="last"),
        Sample((r(rng, 4, 3), _i(0)), label="first"),
    ]


def _np_join(array, axis, use_stack):
    parts = list(array)
    return np.stack(parts, axis) if use_stack else np.concatenate(parts, axis)


def _join_samples(rng):
    return [
        Sample((r(rng, 3, 2, 4),), {"axis": 0, "use_stack": True}, "stack axis 0"),
        Sample((r(rng, 3, 2, 4),), {"axis": 2, "use_stack": True}, "stack last axis"),
        Sample((r(rng, 3, 2, 4),), {"axis": 1, "use_stack": False}, "concat axis 1"),
        Sample((r(rng, 2, 3, 4),), {"axis": -2, "use_stack": False}, "concat negative axis"),
    ]


def _join_grad_samples(rng):
    return [
        Sample((r(rng, 2, 3, 4), r(rng, 3, 2, 4)), {"axis": 1, "use_stack": True}, "stack"),
        Sample((r(rng, 2, 12), r(rng, 3, 2, 4)), {"axis": 1, "use_stack": False}, "concat"),
    ]


def _np_join_grad(g, array, axis, use_stack):
    n = array.shape[0]
    ax = axis % (array.ndim if use_stack else array.ndim - 1)
    if not use_stack:
        g = g.reshape(g.shape[:ax] + (n, array.shape[1 + ax]) + g.shape[ax + 1 :])
    return np.moveaxis(g, ax, 0)


ENTRIES: list[OpInfo] = [
    OpInfo(
        "create_array",
        lambda: ops.create_array("float64", (2, 3)),
        lambda: np.zeros((0, 2, 3)),
        lambda rng: [Sample(())],
        grad=False,
        dtypes=("float64",),
    ),  # fmt: skip
    OpInfo("write_to_array", ops.write_to_array, _np_write, _write_samples, double_grad=True),
    OpInfo(
        "write_to_array",
        ops.write_to_array,
        _np_write,
        lambda rng: [Sample((r(rng, 0, 3), r(rng, 3), _i(0)), label="into an empty array")],
        double_grad=True,
        no_grad_args=(0,),
    ),  # fmt: skip
    OpInfo(
        "write_to_array_grad",
        ops.write_to_array_grad,
        _np_write_grad,
        _write_grad_samples,
        double_grad=True,
        no_grad_args=(1,),
    ),  # fmt: skip
    OpInfo("read_from_array", ops.read_from_array, lambda a, i: a[int(i[0])], _read_samples, double_grad=True),
    OpInfo(
        "lod_array_length",
        ops.lod_array_length,
        lambda a: np.asarray([a.shape[0]], np.int64),
        lambda rng: [Sample((r(rng, 3, 2),)), Sample((r(rng, 0, 2),), label="empty")],
        grad=False,
    ),  # fmt: skip
    OpInfo(
        "tensor_array_to_tensor",
        lambda a, axis, use_stack: ops.tensor_array_to_tensor(a, axis, use_stack)[0],
        _np_join,
        _join_samples,
        double_grad=True,
    ),  # fmt: skip
    OpInfo(
        "tensor_array_to_tensor_grad",
        ops.tensor_array_to_tensor_grad,
        _np_join_grad,
        _join_grad_samples,
        double_grad=True,
        no_grad_args=(1,),
    ),  # fmt: skip
]
