"""Loss scaling for mixed precision: AmpScaler and GradScaler (paddle 2.6's python/paddle/amp/grad_scaler.py).

float16 holds numbers from 6e-8 (subnormal; 6.1e-5 normal) to 65504. Small gradients underflow to zero, so the
loss is multiplied by a large scale before backward and the gradients divided by it before the update. A scale
too large makes some gradient Inf: that step is skipped entirely (no parameter and no optimizer state changes)
and the scale shrinks; after `incr_every_n_steps` good steps in a row it grows again (dynamic loss scaling).

The state machine per optimizer: INIT --unscale_--> UNSCALED --step--> STEPPED --update--> INIT.
Every update appends a ScaleRecord to `scaler.history` (the scale used, whether the step was skipped), which
`viz.plot_loss_scale` draws.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from enum import Enum
from typing import NamedTuple

import numpy as np

from minipaddle import ops
from minipaddle.amp import auto_cast as _auto_cast
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, no_grad
from minipaddle.core.tensor import Tensor

__all__ = ["AmpScaler", "GradScaler", "OptimizerState", "ScaleRecord"]


class OptimizerState(Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_optimizer_state() -> dict:
    return {"state": OptimizerState.INIT}


class ScaleRecord(NamedTuple):
    """One update of the loss scale: the step's number, the scale its loss was multiplied by, whether its
    gradients held Inf/NaN (then the step was skipped), and the scale after the update."""

    step: int
    scale: float
    found_inf: bool
    new_scale: float


def _check_number(v, fn: str, arg: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"{fn}: {arg} must be a number, got {type(v).__name__}")
    return v


def _check_count(v, fn: str, arg: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ValueError(f"{fn}: {arg} must be a positive int, got {v!r}")
    return int(v)


class AmpScaler:
    """Loss scaling for AMP in dynamic mode (the base of GradScaler, with its older defaults).

    Args:
        enable (bool): scale at all (default True). Unlike paddle 2.6, which disables the scaler on a CPU,
            minipaddle scales on the CPU.
        init_loss_scaling (float): the first scale (2**15).
        incr_ratio (float): the scale's growth factor, > 1 (2.0).
        decr_ratio (float): the scale's shrink factor, < 1 (0.5).
        incr_every_n_steps (int): grow after this many steps in a row without Inf/NaN (1000).
        decr_every_n_nan_or_inf (int): shrink after this many steps with Inf/NaN (1).
        use_dynamic_loss_scaling (bool): change the scale as above (True); False keeps it fixed.
    """

    def __init__(self, enable=True, init_loss_scaling=2.0**15, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=1000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True) -> None:  # fmt: skip
        cls = type(self).__name__
        if STATE.static_mode:
            raise ValueError("current_tracer is None, maybe it is not in imperative mode.")
        self._enable = bool(enable)
        self.history: list[ScaleRecord] = []
        if not self._enable:
            return
        _check_number(init_loss_scaling, cls, "init_loss_scaling")
        if not _check_number(incr_ratio, cls, "incr_ratio") > 1.0:
            raise AssertionError("The incr_ratio must be > 1.0.")
        if not _check_number(decr_ratio, cls, "decr_ratio") < 1.0:
            raise AssertionError("The decr_ratio must be < 1.0.")
        self._init_loss_scaling = init_loss_scaling
        self._incr_ratio = incr_ratio
        self._decr_ratio = decr_ratio
        self._incr_every_n_steps = _check_count(incr_every_n_steps, cls, "incr_every_n_steps")
        self._decr_every_n_nan_or_inf = _check_count(decr_every_n_nan_or_inf, cls, "decr_every_n_nan_or_inf")
        self._incr_count = 0
        self._decr_count = 0
        self._use_dynamic_loss_scaling = bool(use_dynamic_loss_scaling)
        self._found_inf = False
        self._scale = Tensor(np.array([init_loss_scaling], np.float32))
        self._cache_founf_inf = None  # (sic: paddle's name) whether the last step found Inf/NaN
        self._optimizer_states = defaultdict(_refresh_optimizer_state)
        self._steps = 0

    # ---- the three moves ----

    def scale(self, var: Tensor) -> Tensor:
        """`var * scale` (the loss before backward); `var` itself when the scaler is off.

        As in paddle 2.6, dynamic loss scaling is meant for float16: when the last auto_cast was not float16
        (bfloat16, or no auto_cast yet) the scaler turns itself off with a warning and returns `var`.
        """
        if not isinstance(var, Tensor):
            raise TypeError(f"The type of 'var' in AmpScaler.scale() must be Tensor, but received {type(var).__name__}")
        amp_dtype = _auto_cast.last_amp_dtype()
        if self._enable and amp_dtype != "float16" and self._use_dynamic_loss_scaling:
            self._enable = False
            self._use_dynamic_loss_scaling = False
            warnings.warn(
                f"It is not recommended to use dynamic loss scaling for {amp_dtype}, so GradScaler is disable "
                "by default.",
                stacklevel=2,
            )
        if not self._enable:
            return var
        return ops.multiply(var, self._scale)

    def _unscale(self, optimizer) -> None:
        """grad /= scale for every gradient the optimizer updates (in each gradient's own dtype, computed in
        float32), noting whether any holds Inf or NaN: one check_finite_and_unscale op (ops/loss_scaling.py)."""
        if not self._enable:
            return
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        params, grads = [], []
        for param in _parameters_of(optimizer):
            g = param.grad
            if g is None:
                continue
            if getattr(param, "_amp_master_grad", False) and g.dtype is not dtypes.float32:
                with no_grad():
                    param.grad = g = ops.cast(g, dtypes.float32)  # decorate(master_grad=True)
            params.append(param)
            grads.append(g)
        found = False
        if grads:  # one fused op over every gradient, as paddle's check_finite_and_unscale_
            with no_grad():
                *unscaled, found_inf = ops.check_finite_and_unscale(grads, self._scale)
            for g, u in zip(grads, unscaled):
                _take_over(g, u)
            found = bool(found_inf.numpy()[0])
        self._found_inf = found
        state["state"] = OptimizerState.UNSCALED

    def minimize(self, optimizer, *args, **kwargs):
        """Unscale (unless unscale_ ran), then `optimizer.minimize(*args, **kwargs)` unless the gradients hold
        Inf/NaN (the step is skipped), then update the scale. Returns what optimizer.minimize returns, or
        (None, None) for a skipped step."""
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        if self._optimizer_states[id(optimizer)]["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        optimize_ops, params_grads = None, None
        if self._found_inf:
            self._cache_founf_inf = True
        else:
            optimize_ops, params_grads = optimizer.minimize(*args, **kwargs)
            self._cache_founf_inf = False
        if self._use_dynamic_loss_scaling:
            self._update()
        else:
            self._record(float(self._scale.numpy()[0]))
        self._optimizer_states = defaultdict(_refresh_optimizer_state)
        return optimize_ops, params_grads

    def _update(self) -> None:
        """Shrink the scale after decr_every_n_nan_or_inf bad steps, grow it after incr_every_n_steps good ones."""
        if not self._enable:
            return
        old = float(self._scale.numpy()[0])
        if self._cache_founf_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                print(f"Found inf or nan, current scale is: {old}, decrease to: {old}*{float(self._decr_ratio)}")
                self._scale = ops.scale(self._scale, float(self._decr_ratio), 0.0)
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                self._scale = ops.scale(self._scale, float(self._incr_ratio), 0.0)
                self._incr_count = 0
        self._record(old)

    def _record(self, old: float) -> None:
        self.history.append(ScaleRecord(self._steps, old, bool(self._cache_founf_inf), float(self._scale.numpy()[0])))
        self._steps += 1

    # ---- getters and setters ----

    def is_enable(self) -> bool:
        """Whether loss scaling is on."""
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        """Whether the scale changes with overflows (True) or stays fixed."""
        return self._enable and self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self):
        """The initial loss scale."""
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling) -> None:
        """Set the initial loss scale, and restart the current scale from it."""
        _check_number(new_init_loss_scaling, "set_init_loss_scaling", "new_init_loss_scaling")
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = Tensor(np.array([new_init_loss_scaling], np.float32))

    def get_incr_ratio(self):
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio) -> None:
        if not _check_number(new_incr_ratio, "set_incr_ratio", "new_incr_ratio") > 1.0:
            raise AssertionError("The new_incr_ratio must be > 1.0.")
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self):
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio) -> None:
        if not _check_number(new_decr_ratio, "set_decr_ratio", "new_decr_ratio") < 1.0:
            raise AssertionError("The new_decr_ratio must be < 1.0.")
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self) -> int:
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps) -> None:
        self._incr_every_n_steps = _check_count(new_incr_every_n_steps, "set_incr_every_n_steps",
                                                "new_incr_every_n_steps")  # fmt: skip

    def get_decr_every_n_nan_or_inf(self) -> int:
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf) -> None:
        self._decr_every_n_nan_or_inf = _check_count(new_decr_every_n_nan_or_inf, "set_decr_every_n_nan_or_inf",
                                                     "new_decr_every_n_nan_or_inf")  # fmt: skip

    def get_loss_scaling(self) -> Tensor:
        """The current scale (a float32 Tensor of shape [1])."""
        return self._scale

    # ---- saving ----

    def state_dict(self) -> dict:
        """The scaler's state ({} when disabled): scale (a numpy array), the ratios and periods, the counters."""
        if not self._enable:
            return {}
        return {
            "scale": self._scale.numpy(),
            "incr_ratio": self._incr_ratio,
            "decr_ratio": self._decr_ratio,
            "incr_every_n_steps": self._incr_every_n_steps,
            "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
            "incr_count": self._incr_count,
            "decr_count": self._decr_count,
            "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling,
        }

    def load_state_dict(self, state_dict: dict) -> None:
        """Load a state from `state_dict()`; the scale restarts from the saved one."""
        if not self._enable:
            return
        if not isinstance(state_dict, dict):
            raise TypeError(f"load_state_dict: expected a dict, got {type(state_dict).__name__}")
        if len(state_dict) == 0:
            raise RuntimeError(
                "The input state dict is empty, possibly because it was saved from a disabled instance of GradScaler."
            )
        self._init_loss_scaling = np.asarray(state_dict["scale"]).reshape(-1)[0]
        self._scale = Tensor(np.array([self._init_loss_scaling], np.float32))
        self._incr_ratio = state_dict["incr_ratio"]
        self._decr_ratio = state_dict["decr_ratio"]
        self._incr_every_n_steps = state_dict["incr_every_n_steps"]
        self._decr_every_n_nan_or_inf = state_dict["decr_every_n_nan_or_inf"]
        self._incr_count = state_dict["incr_count"]
        self._decr_count = state_dict["decr_count"]
        self._use_dynamic_loss_scaling = state_dict["use_dynamic_loss_scaling"]


def _take_over(grad: Tensor, unscaled: Tensor) -> None:
    """grad := unscaled, in place as paddle's op writes its outputs into its inputs: the gradient object stays the
    one the optimizer and the user hold, its version counts the change."""
    grad._data = unscaled._data
    grad._bump_version()


def _parameters_of(optimizer) -> list:
    groups = getattr(optimizer, "_param_groups", None)
    if groups is None:
        raise TypeError(f"GradScaler: expected a paddle.optimizer.Optimizer, got {type(optimizer).__name__}")
    return [p for group in groups for p in group["params"]]


class GradScaler(AmpScaler):
    """Loss scaling for AMP training in dynamic mode.

    Args:
        enable (bool): scale at all (default True; minipaddle scales on the CPU, where paddle 2.6 disables it).
        init_loss_scaling (float): the first scale (65536.0).
        incr_ratio (float): the growth factor, > 1 (2.0). decr_ratio (float): the shrink factor, < 1 (0.5).
        incr_every_n_steps (int): grow after this many good steps in a row (2000).
        decr_every_n_nan_or_inf (int): shrink after this many steps with Inf/NaN (1).
        use_dynamic_loss_scaling (bool): change the scale (True) or keep it fixed.

    Example:
        >>> scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
        >>> with paddle.amp.auto_cast():
        ...     loss = model(x).mean()
        >>> scaler.scale(loss).backward()
        >>> scaler.step(opt)          # skipped if a gradient is Inf/NaN
        >>> scaler.update()           # shrink or grow the scale
        >>> opt.clear_grad()
    """

    def __init__(self, enable=True, init_loss_scaling=2.0**16, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=2000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True) -> None:  # fmt: skip
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)  # fmt: skip

    def step(self, optimizer) -> None:
        """Unscale (unless unscale_ ran) and `optimizer.step()`, unless the gradients hold Inf/NaN: then the
        whole step is skipped (no parameter, no moment changes)."""
        if not self._enable:
            return optimizer.step()
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        if self._found_inf:
            self._cache_founf_inf = True
        else:
            optimizer.step()
            self._cache_founf_inf = False
        state["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._record(float(self._scale.numpy()[0]))
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    def update(self) -> None:
        """Update the loss scale from the last step (dynamic loss scaling), and start the next step."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    def unscale_(self, optimizer) -> None:
        """Divide the optimizer's gradients by the scale now (e.g. to clip them before step)."""
        return self._unscale(optimizer)
