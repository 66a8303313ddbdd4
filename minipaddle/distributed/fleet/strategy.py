"""fleet.DistributedStrategy: paddle 2.6's switches and config dicts, with its defaults.

What they do here (dygraph, CPU, with 2+ ranks; one process trains the model as it is, as in Paddle):
`gradient_merge` with `gradient_merge_configs` {k_steps, avg} makes `fleet.distributed_optimizer` step once every
k_steps calls (the gradients summed, or averaged with avg); `amp` with `amp_configs` runs the model's forward
under auto_cast, scales the loss and unscales in the optimizer's step, skipping steps with Inf/NaN (see
fleet/applied_strategy.py); `recompute` runs the sublayers named in `recompute_configs['checkpoints']` through
`fleet.utils.recompute`; `find_unused_parameters` and `last_comm_group_size_MB` / `fuse_grad_size_in_MB` go to
DataParallel. The other switches (sharding, pipeline, tensor_parallel, lars, lamb, dgc, localsgd, ...) are
accepted and kept, as Paddle's CPU build accepts them, but change nothing: they are GPU or static-graph
meta-optimizers (docs/distributed.md lists them).
"""

from __future__ import annotations

import copy

__all__ = ["DistributedStrategy"]

_FLAGS = {
    "amp": False, "recompute": False, "gradient_merge": False, "sharding": False, "pipeline": False,
    "tensor_parallel": False, "lars": False, "lamb": False, "dgc": False, "localsgd": False,
    "adaptive_localsgd": False, "fuse_all_reduce_ops": True, "fuse_grad_size_in_MB": 32, "a_sync": True,
    "find_unused_parameters": False, "without_graph_optimization": True, "heter_ccl_mode": False,
    "fp16_allreduce": False, "last_comm_group_size_MB": 1.0, "sync_nccl_allreduce": True, "nccl_comm_num": 1,
    "use_hierarchical_allreduce": False, "sync_batch_norm": False, "auto": False, "semi_auto": False,
    "qat": False, "asp": False, "fuse_grad_merge": False, "cudnn_exhaustive_search": False,
    "conv_workspace_size_limit": 512, "cudnn_batchnorm_spatial_persistent": False,
}  # fmt: skip

_CONFIGS = {
    "amp_configs": {
        "init_loss_scaling": 32768.0, "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0,
        "decr_ratio": 0.8, "use_dynamic_loss_scaling": True, "custom_white_list": [], "custom_black_list": [],
        "custom_black_varnames": [], "use_pure_fp16": False, "use_fp16_guard": True, "use_optimizer_fp16": False,
        "use_pure_bf16": False,
    },
    "recompute_configs": {
        "checkpoints": [], "enable_offload": False, "checkpoint_shape": [], "enable_tuning": False,
        "refined_ops_patterns": [],
    },
    "gradient_merge_configs": {"k_steps": 1, "avg": True},
    "sharding_configs": {
        "sharding_segment_strategy": "segment_broadcast_MB", "segment_broadcast_MB": 32.0, "segment_anchors": [],
        "sharding_degree": 8, "mp_degree": 1, "dp_degree": 1, "hybrid_dp": False, "gradient_merge_acc_step": 1,
        "optimize_offload": False, "pp_allreduce_in_optimize": False, "pp_degree": 1, "optimize_cast": False,
        "_dp_as_optimizer_sharding": False, "stage": 1, "enable_tuning": False, "use_calc_stream": False,
    },
    "pipeline_configs": {
        "micro_batch_size": 1, "accumulate_steps": 1, "schedule_mode": "1F1B", "p2p_cache_shape": True,
        "enable_partial_send_recv": True,
    },
    "hybrid_configs": {"dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1, "sep_degree": 1},
    "lars_configs": {"lars_coeff": 0.001, "lars_weight_decay": 0.0005, "epsilon": 0.0, "exclude_from_weight_decay": []},
    "lamb_configs": {"lamb_weight_decay": 0.01, "exclude_from_weight_decay": []},
    "localsgd_configs": {"k_steps": 1, "begin_step": 1},
    "dgc_configs": {"rampup_begin_step": 0, "rampup_step": 1, "sparsity": [0.999]},
    "tensor_parallel_configs": {"tensor_parallel_degree": 1, "tensor_init_seed": -1},
}  # fmt: skip


class DistributedStrategy:
    """The switches of fleet's distributed training, with paddle 2.6's defaults.

    Example:
        >>> strategy = fleet.DistributedStrategy()
        >>> strategy.gradient_merge = True
        >>> strategy.gradient_merge_configs = {"k_steps": 4, "avg": True}
        >>> fleet.init(is_collective=True, strategy=strategy)
    """

    def __init__(self) -> None:
        object.__setattr__(self, "_values", dict(_FLAGS))
        object.__setattr__(self, "_configs", copy.deepcopy(_CONFIGS))

    def __getattr__(self, name: str):
        values = object.__getattribute__(self, "_values")
        configs = object.__getattribute__(self, "_configs")
        if name in values:
            return values[name]
        if name in configs:
            return copy.deepcopy(configs[name])
        raise AttributeError(f"DistributedStrategy has no field {name!r}")

    def __setattr__(self, name: str, value) -> None:
        if name in self._values:
            default = _FLAGS[name]
            kind = float if isinstance(default, float) else type(default)
            if kind is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"DistributedStrategy.{name} must be a {kind.__name__}, got {value!r}")
            self._values[name] = value
        elif name in self._configs:
            if not isinstance(value, dict):
                raise TypeError(f"DistributedStrategy.{name} must be a dict, got {type(value).__name__}")
            unknown = set(value) - set(self._configs[name])
            if unknown:
                known = sorted(self._configs[name])
                raise ValueError(f"DistributedStrategy.{name}: unknown key(s) {sorted(unknown)}; known: {known}")
            self._configs[name].update(copy.deepcopy(value))
        else:
            raise AttributeError(f"DistributedStrategy has no field {name!r}")

    def __repr__(self) -> str:
        on = [k for k, v in self._values.items() if v is True and not _FLAGS[k]]
        return f"DistributedStrategy(on: {', '.join(on) or 'defaults'})"
