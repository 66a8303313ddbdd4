"""The fleet object: init, the worker's place, distributed_model, distributed_optimizer and distributed_scaler."""

from __future__ import annotations

from minipaddle.amp.grad_scaler import AmpScaler
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import no_grad
from minipaddle.distributed import collective, parallel_env
from minipaddle.distributed.data_parallel import DataParallel
from minipaddle.distributed.fleet import applied_strategy
from minipaddle.distributed.fleet.strategy import DistributedStrategy
from minipaddle.nn import Layer

__all__ = [
    "Fleet",
    "barrier_worker",
    "distributed_model",
    "distributed_optimizer",
    "distributed_scaler",
    "get_hybrid_communicate_group",
    "init",
    "is_first_worker",
    "worker_index",
    "worker_num",
]


class Fleet:
    """What `fleet.init` sets up (one per process, as Paddle's `fleet` singleton)."""

    def __init__(self) -> None:
        self.strategy = None
        self.initialized = False
        self.scaler = None  # strategy.amp's GradScaler, made by distributed_model

    def init(self, role_maker=None, is_collective=False, strategy=None, log_level="INFO"):
        if strategy is not None and not isinstance(strategy, DistributedStrategy):
            raise TypeError(f"fleet.init: strategy must be a DistributedStrategy, got {type(strategy).__name__}")
        if not is_collective:
            raise NotImplementedError(
                "fleet.init: parameter-server mode (is_collective=False) is not in minipaddle; use "
                "fleet.init(is_collective=True) for data-parallel training"
            )
        self.strategy = strategy if strategy is not None else DistributedStrategy()
        parallel_env.init_parallel_env() if parallel_env.get_world_size() > 1 else None
        self.initialized = True

    def _strategy(self) -> DistributedStrategy:
        return self.strategy if self.strategy is not None else DistributedStrategy()


_FLEET = Fleet()


def init(role_maker=None, is_collective=False, strategy=None, log_level="INFO"):
    """Set up collective training: the parallel environment (with 2+ ranks) and the strategy.

    Args:
        role_maker: accepted for Paddle's signature (the environment says the ranks).
        is_collective (bool): must be True here (data-parallel training; no parameter servers).
        strategy (DistributedStrategy, optional): the switches; default DistributedStrategy().
        log_level (str): accepted.
    """
    _FLEET.init(role_maker, is_collective, strategy, log_level)


def worker_index() -> int:
    """This worker's rank."""
    return parallel_env.get_rank()


def worker_num() -> int:
    """The number of workers (ranks)."""
    return parallel_env.get_world_size()


def is_first_worker() -> bool:
    return worker_index() == 0


def barrier_worker() -> None:
    """Wait for every worker."""
    if parallel_env.is_initialized():
        collective.barrier()


def get_hybrid_communicate_group():
    raise NotImplementedError("fleet.get_hybrid_communicate_group: hybrid (tensor/pipeline) parallelism is not here")


def distributed_model(model):
    """`model` wrapped for data-parallel training as the strategy says (a DataParallel with 2+ ranks)."""
    if not isinstance(model, Layer):
        raise TypeError(f"fleet.distributed_model: model must be a paddle.nn.Layer, got {type(model).__name__}")
    s = _FLEET._strategy()
    if parallel_env.get_world_size() < 2:  # as paddle: one process trains the model as it is
        return model
    sizes = {"comm_buffer_size": s.fuse_grad_size_in_MB, "last_comm_buffer_size": s.last_comm_group_size_MB,
             "find_unused_parameters": s.find_unused_parameters}  # fmt: skip
    if s.recompute:
        checkpoints = s.recompute_configs["checkpoints"]
        if not checkpoints:
            raise ValueError(
                "fleet.distributed_model: strategy.recompute is on but recompute_configs['checkpoints'] is empty; "
                "name the sublayers to recompute, e.g. {'checkpoints': ['encoder.layers.0']}"
            )
        applied_strategy.recompute_checkpoints(model, list(checkpoints))
    if s.amp:
        model, cast, _FLEET.scaler = applied_strategy.prepare_amp(model, s.amp_configs)
        return applied_strategy.AmpDataParallel(model, cast, _FLEET.scaler, **sizes)
    return DataParallel(model, **sizes)


def distributed_optimizer(optimizer, strategy=None):
    """`optimizer` for distributed training: with `strategy.gradient_merge`, it steps once every
    `gradient_merge_configs['k_steps']` calls (gradients summed, or averaged with `avg`), which equals training
    on a batch k times larger; otherwise the optimizer itself (DataParallel already averages the gradients)."""
    if strategy is not None:
        _FLEET.strategy = strategy
    s = _FLEET._strategy()
    if s.amp and parallel_env.get_world_size() > 1:  # the scaler comes from distributed_model (called before or after)
        optimizer = applied_strategy.AmpOptimizer(optimizer, lambda: _FLEET.scaler)
    if s.gradient_merge and s.gradient_merge_configs["k_steps"] > 1:
        return GradientMergeOptimizer(optimizer, s.gradient_merge_configs["k_steps"], s.gradient_merge_configs["avg"])
    return optimizer


def distributed_scaler(scaler):
    """The GradScaler for fleet training: `scaler` itself, as paddle 2.6.2 returns it in data parallel.

    Every rank must skip the same steps. paddle patches the scaler's unscale to all-reduce found_inf (MAX over the
    ranks) in its hybrid modes (sharding, tensor, pipeline parallel), where ranks hold different gradients; in data
    parallel, the only mode of minipaddle's fleet, DataParallel has averaged the gradients before the scaler checks
    them, so an Inf or NaN in one rank's gradient is in every rank's average and every rank's check finds it.
    (With one process paddle patches it too; an all-reduce over one rank changes nothing.)

    Example:
        >>> fleet.init(is_collective=True)
        >>> scaler = fleet.distributed_scaler(paddle.amp.GradScaler(init_loss_scaling=1024))
    """
    if not _FLEET.initialized:
        raise RuntimeError("fleet.distributed_scaler: call fleet.init(is_collective=True) first")
    if not isinstance(scaler, AmpScaler):
        raise TypeError(f"fleet.distributed_scaler: scaler must be a paddle.amp.GradScaler, got "
                        f"{type(scaler).__name__}")  # fmt: skip
    return scaler


class GradientMergeOptimizer:
    """Steps the inner optimizer every k_steps-th `step()`; the gradients accumulate in between (`clear_grad`
    only clears after a real step)."""

    def __init__(self, inner, k_steps: int, avg: bool) -> None:
        if not isinstance(k_steps, int) or k_steps < 1:
            raise ValueError(f"gradient_merge: k_steps must be a positive int, got {k_steps!r}")
        self.inner = inner
        self.k_steps = k_steps
        self.avg = avg
        self.calls = 0

    def step(self) -> None:
        self.calls += 1
        if self.calls % self.k_steps:
            return
        if self.avg:
            with no_grad():
                for p in (p for group in self.inner._param_groups for p in group["params"]):
                    if p.grad is not None:
                        apply_inplace(get_op("scale"), p.grad, (p.grad,), {"scale": 1.0 / self.k_steps})
        self.inner.step()

    def clear_grad(self, set_to_zero: bool = True) -> None:
        if self.calls % self.k_steps == 0:
            self.inner.clear_grad(set_to_zero)

    minimize_step = step

    def __getattr__(self, name: str):
        return getattr(self.inner, name)
