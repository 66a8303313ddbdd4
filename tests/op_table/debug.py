"""Op-table section: the debugging ops (static.Print, static.py_func)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, r, unary_samples


def _py_sin(x):
    if isinstance(x, paddle.static.Variable):  # static mode: py_func writes into an output variable made first
        out = paddle.static.default_main_program().current_block().create_var(shape=x.shape, dtype=x.dtype)
        return paddle.static.py_func(np.sin, x, out, backward_func=lambda a, y, dy: np.cos(a) * dy)
    out = paddle.Tensor(np.zeros(x.shape, x.dtype.np))
    return paddle.static.py_func(np.sin, x, out, backward_func=lambda a, y, dy: np.cos(a) * dy)


ENTRIES: list[OpInfo] = [
    OpInfo("Print", lambda x: paddle.static.Print(x, summarize=2, print_phase="both"), lambda x: x, unary_samples(r)),
    OpInfo("py_func", _py_sin, np.sin, unary_samples(r)),
]
