"""Op-table section: the collective ops (ops/collective.py) and recompute (ops/recompute_ops.py).

In the test process there is no parallel environment, so every collective is what it is on a group of one:
the identity (all_gather and reduce_scatter of one rank keep the shape). Their communication is tested on
real ranks in tests/distributed/.
"""

from __future__ import annotations

import minipaddle as paddle
from minipaddle.core.dispatch import apply
from minipaddle.core.op import OPS
from tests.op_table.common import OpInfo, r, unary_samples


def _op(name: str, **attrs):
    return lambda x: apply(OPS[name], (x,), attrs)


def _identity(x):
    return x


def _recompute(x):
    from minipaddle.distributed.fleet.utils import recompute

    return recompute(lambda t: paddle.tanh(t) * t, x)


_DIFFERENTIABLE = ["c_allreduce_sum", "c_allreduce_avg", "alltoall"]
_NOT_DIFFERENTIABLE = ["c_allreduce_max", "c_allreduce_min", "c_allreduce_prod", "c_reduce_sum", "c_reduce_avg",
                       "c_reduce_max", "c_reduce_min", "c_reduce_prod", "c_broadcast", "send_v2", "recv_v2",
                       "barrier", "c_sync_comm_stream"]  # fmt: skip


def _rows(rng):
    return unary_samples(r)(rng)[:2]  # 2-d and 1-d: all_gather / scatter split the first dimension


ENTRIES: list[OpInfo] = [
    *[OpInfo(name, _op(name), _identity, _rows) for name in _DIFFERENTIABLE],
    *[OpInfo(name, _op(name), _identity, _rows, grad=False) for name in _NOT_DIFFERENTIABLE],
    OpInfo("c_allgather", _op("c_allgather", nranks=1), _identity, _rows),
    OpInfo("c_reducescatter", _op("c_reducescatter", nranks=1), _identity, _rows),
    OpInfo("c_scatter", _op("c_scatter", nranks=1), _identity, _rows, grad=False),
    OpInfo("recompute", _recompute, lambda x: __import__("numpy").tanh(x) * x, unary_samples(r), static=False),
]
