"""paddle.distributed.fleet, collective (data-parallel) mode on CPU ranks.

    fleet.init(is_collective=True, strategy=strategy)
    model = fleet.distributed_model(model)            # a DataParallel, configured by the strategy
    optimizer = fleet.distributed_optimizer(optimizer) # steps every k_steps with strategy.gradient_merge
    scaler = fleet.distributed_scaler(scaler)          # the user's GradScaler (DataParallel averages first)

Parameter-server mode (`is_collective=False`, init_server/run_server/init_worker) is not here.
"""

from __future__ import annotations

from minipaddle.distributed.fleet import utils
from minipaddle.distributed.fleet.fleet import (
    Fleet,
    barrier_worker,
    distributed_model,
    distributed_optimizer,
    distributed_scaler,
    get_hybrid_communicate_group,
    init,
    is_first_worker,
    worker_index,
    worker_num,
)
from minipaddle.distributed.fleet.strategy import DistributedStrategy

__all__ = [
    "DistributedStrategy",
    "Fleet",
    "barrier_worker",
    "distributed_model",
    "distributed_optimizer",
    "distributed_scaler",
    "get_hybrid_communicate_group",
    "init",
    "is_first_worker",
    "utils",
    "worker_index",
    "worker_num",
]
