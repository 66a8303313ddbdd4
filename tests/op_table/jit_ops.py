"""Op-table section: the ops of dynamic-to-static (shape, assert, run_program and its grad, run_program_grad)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from minipaddle import ops
from tests.op_table.common import OpInfo, r, unary_samples


@paddle.jit.to_static
def _converted(x):
    """A converted function: each call is one run_program op; its gradient is one run_program_grad op."""
    if x.mean() > 0:
        y = paddle.tanh(x) * 2
    else:
        y = x * x + 1
    return y


def _np_converted(x):
    return np.tanh(x) * 2 if x.mean() > 0 else x * x + 1


ENTRIES: list[OpInfo] = [
    OpInfo("shape", ops.shape_of, lambda x: np.asarray(x.shape, np.int32), unary_samples(r), grad=False),
    OpInfo(
        "assert",
        lambda x: ops.assert_true(paddle.greater_than(x, paddle.full_like(x, -5.0))),
        lambda x: x > -5.0,
        unary_samples(r),
        grad=False,
    ),  # fmt: skip
    OpInfo("run_program", _converted, _np_converted, unary_samples(r), static=False),
]
