"""`Model.prepare(amp_configs=...)`: train the high-level API in mixed precision, as paddle 2.6's Model does.

amp_configs is 'O0' / 'O1' / 'O2' or a dict with 'level' (default 'O1') and the arguments of paddle.amp.GradScaler
(init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps, decr_every_n_nan_or_inf, use_dynamic_loss_scaling)
and auto_cast's custom_white_list / custom_black_list. train_batch then runs the network's forward under auto_cast,
scales the loss, and lets a GradScaler skip overflowing steps; O2 first decorates the network and optimizer.
In static mode (paddle.enable_static()) the static adapter wraps the optimizer with paddle.static.amp.decorate
instead, whose minimize casts the train Program and scales its loss; there `use_fp16_guard` is allowed too.
"""

from __future__ import annotations

from minipaddle import amp
from minipaddle.static import amp as static_amp

__all__ = ["AmpTraining"]

_SCALER_KEYS = {"init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf",
                "use_dynamic_loss_scaling"}  # fmt: skip
_LIST_KEYS = ("custom_white_list", "custom_black_list", "custom_black_varnames")


class AmpTraining:
    """The parsed amp_configs of one Model: level, custom lists, the GradScaler's arguments (and the scaler)."""

    def __init__(self, amp_configs, static: bool = False) -> None:
        self.level, self.lists, self.scaler_args, self.scaler = "O0", {}, {}, None
        self.use_fp16_guard = None  # (static mode only: O2 then casts only the ops inside paddle.static.amp.fp16_guard)
        if not amp_configs:
            return
        if isinstance(amp_configs, str):
            if amp_configs not in ("O0", "O1", "O2"):
                raise ValueError("The level of amp_configs should be 'O0', 'O1' or 'O2'.")
            self.level = amp_configs
            return
        if not isinstance(amp_configs, dict):
            raise TypeError(f"Model.prepare: amp_configs must be a str or a dict, got {type(amp_configs).__name__}")
        level = amp_configs.get("level", "O1")
        if level not in ("O0", "O1", "O2"):
            raise ValueError("amp_configs['level'] should be 'O0', 'O1' or 'O2'.")
        self.level = level
        keys = set(amp_configs) - {"level"}
        if not keys or level == "O0":
            return
        if "use_pure_fp16" in keys:
            raise ValueError("'use_pure_fp16' is an invalid parameter, the level of mixed precision training only "
                             "depends on 'O1' or 'O2'.")  # fmt: skip
        for name in _LIST_KEYS:
            if name in keys:
                self.lists[name] = amp_configs[name]
                keys.discard(name)
        if "use_fp16_guard" in keys:
            if not static:
                raise ValueError("'use_fp16_guard' is supported in static graph mode only.")
            self.use_fp16_guard = amp_configs["use_fp16_guard"]
            keys.discard("use_fp16_guard")
        if keys - _SCALER_KEYS:
            raise ValueError(
                "Except for 'level', the keys of 'amp_configs' must be accepted by mixed precision APIs, but "
                f"{tuple(keys - _SCALER_KEYS)} could not be recognized."
            )
        self.scaler_args = {k: amp_configs[k] for k in keys}

    @property
    def enabled(self) -> bool:
        return self.level != "O0"

    def decorate(self, network, optimizer):
        """O2: cast the network's parameters (optimizer keeps float32 master weights). Returns (network, opt)."""
        if self.level == "O2" and optimizer is not None:
            return amp.decorate(network, optimizer, level="O2")
        return network, optimizer

    def static_decorate(self, optimizer):
        """Static mode (hapi's static adapter): the optimizer wrapped by paddle.static.amp.decorate with these
        settings, as paddle 2.6's adapter does, so its minimize casts the train Program and scales the loss."""
        lists = static_amp.AutoMixedPrecisionLists(**self.lists) if self.lists else None
        return static_amp.decorate(optimizer, amp_lists=lists, use_pure_fp16=self.level == "O2",
                                   use_fp16_guard=self.use_fp16_guard, **self.scaler_args)  # fmt: skip

    def auto_cast(self):
        lists = {k: v for k, v in self.lists.items() if k != "custom_black_varnames"}  # (a static-mode list)
        return amp.auto_cast(enable=self.enabled, level=self.level if self.enabled else "O1", **lists)

    def backward_and_step(self, loss, optimizer, update: bool) -> None:
        """scaler.scale(loss).backward(), then scaler.minimize (skipped on Inf/NaN) when updating."""
        if self.scaler is None:
            self.scaler = amp.GradScaler(**self.scaler_args)
        scaled = self.scaler.scale(loss)
        scaled.backward()
        if update:
            self.scaler.minimize(optimizer, scaled)
