"""paddle.amp.decorate (= amp_decorate): prepare models and optimizers for pure low-precision training (O2).

O2 casts every parameter and buffer to float16 or bfloat16, except in the layers that must stay float32: batch
normalization always; LayerNorm and InstanceNorm for float16 (bfloat16 has float32's range, so they are cast);
and the layers given in `excluded_layers`. The optimizers then keep a float32 "master" copy of each
low-precision parameter and update that (master_weight), so small updates are not rounded away.

Paddle 2.6 returns its inputs unchanged on a CPU; minipaddle applies the GPU behaviour on the CPU.
"""

from __future__ import annotations

from minipaddle import nn, ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, no_grad
from minipaddle.ops.amp_norms import keeps_float32_parameters
from minipaddle.optimizer.optimizer import Optimizer

__all__ = ["decorate", "amp_decorate"]

# The Paddle op each normalization layer runs: ops/amp_norms.py says which keep float32 parameters under O2.
_NORM_OP = (
    ((nn.BatchNorm, nn.BatchNorm1D, nn.BatchNorm2D, nn.BatchNorm3D), "batch_norm"),
    ((nn.SyncBatchNorm,), "sync_batch_norm"),
    ((nn.LayerNorm,), "layer_norm"),
    ((nn.InstanceNorm1D, nn.InstanceNorm2D, nn.InstanceNorm3D), "instance_norm"),
)
_SAVE_DTYPES = ("float16", "bfloat16", "float32", "float64")


def need_keep_fp32(layer, dtype: str) -> bool:
    """Whether O2 leaves this layer's parameters in float32 (paddle 2.6's rule)."""
    if not getattr(layer, "_cast_to_low_precison", True):  # (sic: paddle's attribute name)
        return True
    if any(isinstance(layer, types) and keeps_float32_parameters(op, dtype) for types, op in _NORM_OP):
        return True
    return layer._dtype == "float16"


def set_excluded_layers(models: list, excluded_layers) -> None:
    """Mark the excluded layers (instances, with their sublayers, or Layer types) to stay float32."""
    message = "excluded_layers must be either a nn.Layer instance/type or a list of nn.Layer instances/types."
    instances, types = [], []
    if excluded_layers is None:
        pass
    elif isinstance(excluded_layers, nn.Layer):
        instances = [excluded_layers]
    elif isinstance(excluded_layers, type) and issubclass(excluded_layers, nn.Layer):
        types = [excluded_layers]
    elif isinstance(excluded_layers, list):
        for item in excluded_layers:
            if isinstance(item, nn.Layer):
                instances.append(item)
            elif isinstance(item, type) and issubclass(item, nn.Layer):
                types.append(item)
            else:
                raise TypeError(message)
    else:
        raise TypeError(message)
    for inst in instances:
        for layer in inst.sublayers(include_self=True):
            layer._cast_to_low_precison = False
    types = tuple(types)
    for model in models:
        for layer in model.sublayers(include_self=True):
            if types and isinstance(layer, types):
                layer._cast_to_low_precison = False


def amp_initialize(models: list, dtype: str, excluded_layers) -> list:
    """Cast each layer's own floating parameters and buffers to `dtype`, except the layers kept in float32."""
    set_excluded_layers(models, excluded_layers)
    low = dtypes.to_dtype(dtype)
    for model in models:
        for layer in model.sublayers(include_self=True):
            if need_keep_fp32(layer, dtype):
                continue
            for t in list(layer._parameters.values()) + list(layer._buffers.values()):
                if t is not None and t.dtype.is_floating and t.dtype is not low:
                    _cast_in_place(t, low)
            layer._dtype = dtype
    return models


def _cast_in_place(t, dtype) -> None:
    """Give `t` a new dtype, keeping the object (optimizers and names still refer to it)."""
    with no_grad():
        t._data = ops.cast(t, dtype)._data
        if t.grad is not None:
            t.grad._data = ops.cast(t.grad, dtype)._data
    t._bump_version()


class StateDictHook:
    """A state_dict hook that casts floating entries to `save_dtype` (names kept); parameters are not changed."""

    def __init__(self, save_dtype: str) -> None:
        self._save_dtype = dtypes.to_dtype(save_dtype)

    def __call__(self, state_dict):
        for key in list(state_dict):
            value = state_dict[key]
            if value.dtype.is_floating and value.dtype is not self._save_dtype:
                with no_grad():
                    cast = ops.cast(value, self._save_dtype)
                cast.name = value.name
                state_dict[key] = cast


def _as_list(items, cls, what: str) -> tuple:
    if isinstance(items, cls):
        return [items], False
    if isinstance(items, list) and all(isinstance(i, cls) for i in items):
        return list(items), True
    raise TypeError(f"{what} must be either a single {what[:-1]} or a list of {what}.")


def amp_decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None, save_dtype=None,
                 master_grad=False, excluded_layers=None):  # fmt: skip
    """The same as `decorate`."""
    if level not in ("O1", "O2"):
        raise ValueError("level should be O1 or O2, O1 represent AMP train mode, O2 represent Pure fp16 train mode.")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError("dtype only support float16 or bfloat16.")
    if level == "O1":
        return models if optimizers is None else (models, optimizers)
    if STATE.static_mode:
        raise ValueError("current_tracer is None, maybe it is not in imperative mode.")
    model_list, models_is_list = _as_list(models, nn.Layer, "models")
    for m in model_list:
        if type(m).__name__ == "DataParallel":
            raise RuntimeError(
                "For distributed AMP training, you should first use paddle.amp.decorate() to decotate origin model, "
                "and then call paddle.DataParallel get distributed model."
            )
    amp_initialize(model_list, dtype, excluded_layers)

    if optimizers is not None:
        opt_list, optimizers_is_list = _as_list(optimizers, Optimizer, "optimizers")
        for opt in opt_list:
            opt._multi_precision = master_weight is not False
        if master_grad:  # GradScaler.unscale_ turns these parameters' gradients float32 (paddle: after backward)
            for m in model_list:
                for p in m.parameters():
                    if p.dtype is not dtypes.float32:
                        p._amp_master_grad = True

    if save_dtype is not None:
        if save_dtype not in _SAVE_DTYPES:
            raise ValueError(
                f"save_dtype can only be float16 float32 or float64, but your input save_dtype is {save_dtype}."
            )
        for m in model_list:
            for layer in m.sublayers(include_self=True):
                layer.register_state_dict_hook(StateDictHook(save_dtype))

    models = model_list if models_is_list else model_list[0]
    if optimizers is None:
        return models
    return models, (opt_list if optimizers_is_list else opt_list[0])


def decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None, save_dtype=None,
             master_grad=False, excluded_layers=None):  # fmt: skip
    """Prepare models (and optimizers) for AMP. O1 changes nothing; O2 casts parameters to the low dtype.

    Args:
        models (Layer|list of Layer): the models.
        optimizers (Optimizer|list of Optimizer, optional): their optimizers.
        level (str): 'O1' (returns the inputs) or 'O2' (pure float16/bfloat16: parameters cast, except batch
            norm layers, LayerNorm/InstanceNorm for float16, and excluded_layers).
        dtype (str): 'float16' or 'bfloat16'.
        master_weight (bool, optional): under O2, optimizers update a float32 copy of each low-precision
            parameter (None means yes).
        save_dtype (str, optional): the dtype `state_dict()` gives floating entries ('float16', 'bfloat16',
            'float32', 'float64'); the parameters themselves keep theirs.
        master_grad (bool): keep the low-precision parameters' gradients in float32 (paddle casts them at the end
            of backward; minipaddle when GradScaler unscales them, before the division, so small gradients do not
            underflow; an optimizer with master weights works on float32 gradients in any case).
        excluded_layers (Layer|type|list, optional): layers (instances or types) to keep in float32.

    Returns:
        models, or (models, optimizers) when optimizers are given, in the structure they came in.

    Example:
        >>> model, opt = paddle.amp.decorate(model, opt, level='O2')
        >>> model.weight.dtype       # a Linear's weight
        paddle.float16
    """
    return amp_decorate(models, optimizers, level, dtype, master_weight, save_dtype, master_grad, excluded_layers)
