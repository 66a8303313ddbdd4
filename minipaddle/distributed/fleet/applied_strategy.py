"""What DistributedStrategy's `amp` and `recompute` switches do to the model and the optimizer here.

`strategy.amp`: `fleet.distributed_model` runs the model's forward under `paddle.amp.auto_cast` with
`amp_configs` (level O1, or O2 after `paddle.amp.decorate` with `use_pure_fp16`/`use_pure_bf16`; the custom
white and black lists), and builds a `paddle.amp.GradScaler` from `amp_configs` (as Paddle 2.6's
`distributed_model` does). The loss is scaled where the model hands its outputs on: a gradient hook on every
output multiplies the gradient flowing back in by the scale, which is what scaling the loss does to every
gradient inside the model. `fleet.distributed_optimizer` then unscales, skips the step when a gradient holds
Inf/NaN, and updates the scale. The gradients are all-reduced before that check, so an Inf on one rank reaches
every rank, and all ranks skip the same steps. (Paddle 2.6's dygraph `distributed_model` builds the scaler but
leaves auto_cast and the scaling to the user's code; here the switch does both, so the same training loop runs
with and without it. Code that also uses its own auto_cast and GradScaler still trains correctly: each scaler
removes its own scale.)

`strategy.recompute`: the sublayers named in `recompute_configs['checkpoints']` (names as `named_sublayers()`
gives them: `'fc1'`, `'blocks.0'`) run through `fleet.utils.recompute`, so their activations are recomputed in
backward instead of kept (Paddle 2.6 reads the checkpoints in static graphs only; in dygraph it leaves
recompute to the user's calls).
"""

from __future__ import annotations

from minipaddle.amp.auto_cast import auto_cast
from minipaddle.amp.decorate import decorate
from minipaddle.amp.grad_scaler import GradScaler
from minipaddle.core.tensor import Tensor
from minipaddle.distributed.data_parallel import DataParallel, _tensors
from minipaddle.distributed.fleet.utils.recompute import recompute
from minipaddle.nn import Layer
from minipaddle.tensor.math import scale

__all__ = ["AmpDataParallel", "AmpOptimizer", "amp_settings", "recompute_checkpoints"]


def amp_settings(configs: dict) -> tuple[dict, dict]:
    """(auto_cast's arguments, GradScaler's arguments) from `strategy.amp_configs`."""
    pure = configs["use_pure_fp16"] or configs["use_pure_bf16"]
    dtype = "bfloat16" if configs["use_pure_bf16"] else "float16"
    cast = {"level": "O2" if pure else "O1", "dtype": dtype,
            "custom_white_list": list(configs["custom_white_list"]) or None,
            "custom_black_list": list(configs["custom_black_list"]) or None}  # fmt: skip
    scaler = {k: configs[k] for k in ("init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                                      "decr_every_n_nan_or_inf", "use_dynamic_loss_scaling")}  # fmt: skip
    scaler["enable"] = dtype == "float16"  # as paddle: no loss scaling for bfloat16
    return cast, scaler


def prepare_amp(model: Layer, configs: dict) -> tuple[Layer, dict, GradScaler]:
    """The model (decorated for O2), auto_cast's arguments and the scaler, for `strategy.amp`."""
    cast, scaler_args = amp_settings(configs)
    if cast["level"] == "O2":
        model = decorate(models=model, level="O2", dtype=cast["dtype"])
    return model, cast, GradScaler(**scaler_args)


class AmpDataParallel(DataParallel):
    """DataParallel whose forward runs under auto_cast, and whose outputs' gradients come back multiplied by the
    loss scale (see the module docstring)."""

    def __init__(self, layers, cast: dict, scaler: GradScaler, **kwargs) -> None:
        super().__init__(layers, **kwargs)
        self._amp_cast = cast
        self._amp_scaler = scaler

    def forward(self, *inputs, **kwargs):
        with auto_cast(**self._amp_cast):
            outputs = super().forward(*inputs, **kwargs)
        if self._amp_scaler.is_enable():
            for t in _tensors(outputs):
                if not t.stop_gradient:
                    t.register_hook(self._scaled)
        return outputs

    def _scaled(self, g: Tensor) -> Tensor:
        return scale(g, float(self._amp_scaler.get_loss_scaling().numpy()[0]))  # keeps g's dtype


class AmpOptimizer:
    """The optimizer of `strategy.amp`: each step unscales the gradients, skips the step if one holds Inf/NaN,
    and updates the scale (GradScaler.step and update). Every other attribute is the inner optimizer's."""

    def __init__(self, inner, scaler_of) -> None:
        self.inner = inner
        self._scaler_of = scaler_of  # () -> the GradScaler of the distributed model, or None (no amp model yet)

    def step(self) -> None:
        scaler = self._scaler_of()
        if scaler is None:
            return self.inner.step()
        scaler.step(self.inner)
        scaler.update()
        return None

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        scaler = self._scaler_of()
        if scaler is None:
            return self.inner.minimize(loss, startup_program, parameters, no_grad_set)
        return scaler.minimize(self.inner, loss, startup_program, parameters, no_grad_set)

    def clear_grad(self, set_to_zero: bool = True) -> None:
        self.inner.clear_grad(set_to_zero)

    minimize_step = step

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def recompute_checkpoints(model: Layer, names: list) -> None:
    """Make each named sublayer of `model` run through fleet.utils.recompute (in place)."""
    sublayers = dict(model.named_sublayers())
    unknown = [n for n in names if n not in sublayers]
    if unknown:
        raise ValueError(
            f"fleet.distributed_model: recompute_configs['checkpoints'] names {unknown}, which are not sublayers of "
            f"the model; its sublayers are {sorted(sublayers)[:20]}"
        )
    for name in names:
        layer = sublayers[name]
        segment = _Segment(layer, layer.forward)
        layer.forward = _recomputed(segment)


def _recomputed(segment):
    def forward(*args, **kwargs):
        return recompute(segment, *args, **kwargs)

    return forward


class _Segment(Layer):
    """A checkpointed sublayer's own forward, as a Layer, so recompute sees its parameters."""

    def __init__(self, layer: Layer, forward) -> None:
        super().__init__()
        self.layer = layer
        self._forward = forward

    def forward(self, *args, **kwargs):
        return self._forward(*args, **kwargs)
