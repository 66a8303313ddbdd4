"""paddle.optimizer.lr: learning-rate schedules.

A scheduler is a small Python object that says what the learning rate is at each epoch (or step: it only counts
calls to `step()`). Hand one to an optimizer as its `learning_rate`; the optimizer asks `scheduler()` for the
current value at every update. You call `scheduler.step()` yourself, once per epoch or once per batch:

    >>> scheduler = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
    >>> sgd = paddle.optimizer.SGD(learning_rate=scheduler, parameters=linear.parameters())
    >>> for epoch in range(6):
    ...     train_one_epoch(sgd)
    ...     scheduler.step()          # 0.5, 0.5, 0.05, 0.05, 0.005, ...

Every schedule follows paddle 2.6's formula, written with e = `last_epoch`. Creating a scheduler calls `step()`
once, so `last_epoch` starts at 0 (or at the `last_epoch` you pass, plus one) and `last_lr` is the rate for it.
`state_dict()` / `set_state_dict()` save and restore the counters, so a restored scheduler continues identically.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from minipaddle.core.tensor import Tensor

__all__ = [
    "LRScheduler",
    "NoamDecay",
    "PiecewiseDecay",
    "NaturalExpDecay",
    "InverseTimeDecay",
    "PolynomialDecay",
    "LinearWarmup",
    "ExponentialDecay",
    "MultiStepDecay",
    "StepDecay",
    "LambdaDecay",
    "ReduceOnPlateau",
    "CosineAnnealingDecay",
    "MultiplicativeDecay",
    "OneCycleLR",
    "CyclicLR",
    "LinearLR",
    "CosineAnnealingWarmRestarts",
]


def _is_number(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _check_positive_int(v, cls: str, arg: str) -> None:
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"{cls}: {arg} must be an int, got {type(v).__name__}")
    if v <= 0:
        raise ValueError(f"{cls}: {arg} must be a positive integer, got {v}")


class LRScheduler:
    """The base of every schedule. A subclass defines `get_lr()`: the rate for epoch `self.last_epoch`.

    Args:
        learning_rate: the initial rate (`base_lr`), a float or int >= 0.
        last_epoch: the epoch to resume after (default -1: start from the beginning).
        verbose: print the new rate at every step.

    Attributes: `base_lr`, `last_lr` (the current rate), `last_epoch`.
    """

    def __init__(self, learning_rate=0.1, last_epoch: int = -1, verbose: bool = False) -> None:
        name = type(self).__name__
        if not _is_number(learning_rate):
            raise TypeError(f"{name}: learning_rate must be a float or int, got {type(learning_rate).__name__}")
        if learning_rate < 0:
            raise ValueError(f"{name}: learning_rate must be >= 0, got {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._var_name = None  # in static mode: the learning-rate variable it sets (program.lr_scheduler)
        self.step()

    def __call__(self) -> float:
        """The current learning rate."""
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        """Move to the next epoch (or to `epoch`) and recompute `last_lr`."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            closed_form = getattr(self, "_get_closed_form_lr", None)
            self.last_lr = closed_form() if closed_form is not None else self.get_lr()
        self._print_lr()

    def _print_lr(self) -> None:
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to {self.last_lr}.")

    def get_lr(self) -> float:
        raise TypeError(f"{type(self).__name__} defines no get_lr(); subclass LRScheduler and write one")

    # ---- saving and restoring ----

    def state_keys(self) -> None:
        """Set `self.keys`: the attributes `state_dict` saves."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict:
        """The scheduler's counters: {'last_epoch': ..., 'last_lr': ...} (plus a subclass's own keys)."""
        self.state_keys()
        state = {}
        for key in self.keys:
            if key not in self.__dict__:
                continue
            value = self.__dict__[key]
            if isinstance(value, Tensor):  # ReduceOnPlateau's `best` may be a one-element Tensor
                if value.size != 1:
                    raise ValueError(f"{type(self).__name__}.state_dict: {key} must have one element, has {value.size}")
                value = float(value.item())
            state[key] = value
        return state

    def set_state_dict(self, state_dict: dict) -> None:
        """Restore the counters saved by `state_dict()`."""
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError(
                    f"{type(self).__name__}.set_state_dict: the state dict has no '{key}'; was it saved from "
                    f"a different scheduler? It has {sorted(state_dict)}"
                )
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn(
                f"{type(self).__name__}.set_state_dict: some values in the state dict were not used "
                f"({sorted(set(state_dict) - set(self.keys))}); was it saved from a different scheduler?",
                stacklevel=2,
            )

    set_dict = set_state_dict


class NoamDecay(LRScheduler):
    """The Transformer schedule: lr * d_model^-0.5 * min(e^-0.5, warmup_steps^-1.5 * e) (e^-0.5 taken as 1 at e=0).

    Args:
        d_model: the model width (> 0). warmup_steps: steps of linear increase. learning_rate: a factor (1.0).
    """

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False) -> None:
        if d_model <= 0:
            raise ValueError(f"NoamDecay: d_model must be > 0, got {d_model}")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        a = 1 if self.last_epoch == 0 else self.last_epoch**-0.5
        b = self.warmup_steps**-1.5 * self.last_epoch
        return self.base_lr * self.d_model**-0.5 * min(a, b)


class PiecewiseDecay(LRScheduler):
    """values[i] for the first boundaries[i] with e < boundaries[i]; values[-1] after the last boundary.

    Args:
        boundaries: increasing epochs, e.g. [100, 200]. values: one more rate than boundaries, e.g. [1.0, 0.5, 0.1].
    """

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False) -> None:
        if len(boundaries) == 0:
            raise ValueError("PiecewiseDecay: boundaries must not be empty")
        if len(values) <= len(boundaries):
            raise ValueError(
                f"PiecewiseDecay: values needs one more element than boundaries, got {len(values)} values "
                f"for {len(boundaries)} boundaries"
            )
        self.boundaries = boundaries
        self.values = values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self) -> float:
        for boundary, value in zip(self.boundaries, self.values):
            if self.last_epoch < boundary:
                return value
        return self.values[-1]


class NaturalExpDecay(LRScheduler):
    """lr * exp(-gamma * e). Args: learning_rate, gamma (> 0)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False) -> None:
        if not gamma > 0.0:
            raise ValueError(f"NaturalExpDecay: gamma must be > 0 so that the rate decays, got {gamma}")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """lr / (1 + gamma * e). Args: learning_rate, gamma."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """(lr - end_lr) * (1 - e' / d')^power + end_lr.

    Without `cycle`, e' = min(e, decay_steps) and d' = decay_steps (the rate stays at end_lr afterwards). With
    `cycle`, e' = e and d' = decay_steps * ceil(e / decay_steps) (1 cycle at e = 0): the decay restarts, ever longer.

    Args:
        learning_rate, decay_steps (positive int), end_lr (0.0001), power (> 0, default 1.0: linear), cycle (False).
    """

    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False, last_epoch=-1,
                 verbose=False) -> None:  # fmt: skip
        _check_positive_int(decay_steps, "PolynomialDecay", "decay_steps")
        if not power > 0.0:
            raise ValueError(f"PolynomialDecay: power must be > 0 so that the rate decays, got {power}")
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            cycles = 1 if self.last_epoch == 0 else math.ceil(float(self.last_epoch) / float(self.decay_steps))
            steps = self.decay_steps * cycles
        else:
            epoch = min(self.last_epoch, self.decay_steps)
        return (self.base_lr - self.end_lr) * (1 - float(epoch) / float(steps)) ** self.power + self.end_lr


class LinearWarmup(LRScheduler):
    """Rise linearly from start_lr to end_lr over warmup_steps, then follow `learning_rate`.

        e < warmup_steps:  start_lr + (end_lr - start_lr) * e / warmup_steps
        afterwards:        learning_rate (a float), or the wrapped scheduler's rate at epoch e - warmup_steps

    Args:
        learning_rate: a float, or an LRScheduler to hand over to. warmup_steps: a positive int.
        start_lr, end_lr: the ramp (end_lr > start_lr).
    """

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1, verbose=False) -> None:
        if not (_is_number(learning_rate) or isinstance(learning_rate, LRScheduler)):
            raise TypeError(
                f"LinearWarmup: learning_rate must be a float, int or LRScheduler, got {type(learning_rate).__name__}"
            )
        _check_positive_int(warmup_steps, "LinearWarmup", "warmup_steps")
        if not end_lr > start_lr:
            raise ValueError(f"LinearWarmup: end_lr ({end_lr}) must be greater than start_lr ({start_lr})")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self) -> dict:
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict: dict) -> None:
        inner = {k: v for k, v in state_dict.items() if k != "LinearWarmup_LR"}
        super().set_state_dict(inner)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    set_dict = set_state_dict

    def get_lr(self) -> float:
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class ExponentialDecay(LRScheduler):
    """lr * gamma^e. Args: learning_rate, gamma in (0, 1)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False) -> None:
        if not 0.0 < gamma < 1.0:
            raise ValueError(f"ExponentialDecay: gamma must be in (0.0, 1.0) so that the rate decays, got {gamma}")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma**self.last_epoch)


class MultiStepDecay(LRScheduler):
    """lr * gamma^k, where k is the number of milestones <= e.

    Args: learning_rate, milestones (increasing list or tuple of epochs), gamma (< 1.0, default 0.1).
    """

    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False) -> None:
        if not isinstance(milestones, (tuple, list)):
            raise TypeError(f"MultiStepDecay: milestones must be a list or tuple, got {type(milestones).__name__}")
        if not all(a < b for a, b in zip(milestones, milestones[1:])):
            raise ValueError(f"MultiStepDecay: milestones must increase, got {list(milestones)}")
        if gamma >= 1.0:
            raise ValueError(f"MultiStepDecay: gamma must be < 1.0, got {gamma}")
        self.milestones = milestones
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        for i, milestone in enumerate(self.milestones):
            if self.last_epoch < milestone:
                return self.base_lr * self.gamma**i
        return self.base_lr * self.gamma ** len(self.milestones)


class StepDecay(LRScheduler):
    """lr * gamma^(e // step_size). Args: learning_rate, step_size (positive int), gamma (< 1.0, default 0.1)."""

    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False) -> None:
        _check_positive_int(step_size, "StepDecay", "step_size")
        if gamma >= 1.0:
            raise ValueError(f"StepDecay: gamma must be < 1.0, got {gamma}")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class LambdaDecay(LRScheduler):
    """lr * lr_lambda(e). Args: learning_rate, lr_lambda (a function of the epoch)."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False) -> None:
        if not callable(lr_lambda):
            raise TypeError(f"LambdaDecay: lr_lambda must be a function, got {type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """lr * lr_lambda(1) * lr_lambda(2) * ... * lr_lambda(e). Args: learning_rate, lr_lambda."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False) -> None:
        if not callable(lr_lambda):
            raise TypeError(f"MultiplicativeDecay: lr_lambda must be a function, got {type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        lr = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            lr = lr * self.lr_lambda(epoch)
        return lr


class ReduceOnPlateau(LRScheduler):
    """Cut the rate by `factor` when a metric (e.g. the validation loss) stops improving for `patience` epochs.

    Unlike the others it starts at last_epoch = 0 and is stepped with the metric: `scheduler.step(val_loss)`.
    Improvement means, for mode 'min': metric < best - best * threshold ('rel') or < best - threshold ('abs');
    for 'max' the other way round. After a cut it waits `cooldown` epochs before counting again, and never
    goes below `min_lr`; a cut smaller than `epsilon` is skipped.

    Args:
        learning_rate, mode ('min' | 'max'), factor (< 1.0, default 0.1), patience (10), threshold (1e-4),
        threshold_mode ('rel' | 'abs'), cooldown (0), min_lr (0), epsilon (1e-8), verbose.
    """

    def __init__(self, learning_rate, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, epsilon=1e-8, verbose=False) -> None:  # fmt: skip
        mode, threshold_mode = str(mode).lower(), str(threshold_mode).lower()
        if mode not in ("min", "max"):
            raise ValueError(f"ReduceOnPlateau: mode must be 'min' or 'max', got {mode!r}")
        if factor >= 1.0:
            raise ValueError(f"ReduceOnPlateau: factor must be < 1.0 (new_lr = lr * factor), got {factor}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"ReduceOnPlateau: threshold_mode must be 'rel' or 'abs', got {threshold_mode!r}")
        if not _is_number(learning_rate):
            raise TypeError(f"ReduceOnPlateau: learning_rate must be a float, got {type(learning_rate).__name__}")
        self.mode = mode
        self.factor = factor
        self.threshold_mode = threshold_mode
        self.patience = patience
        self.threshold = threshold
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose
        self._var_name = None  # in static mode: the learning-rate variable it sets (program.lr_scheduler)

    def state_keys(self) -> None:
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics, epoch: int | None = None) -> None:
        """Count one epoch with the metric's value (a number, or a one-element Tensor or numpy array)."""
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if isinstance(metrics, (Tensor, np.ndarray)):
            if metrics.size != 1:
                raise ValueError(
                    f"ReduceOnPlateau.step: metrics must have one element, but has shape {list(metrics.shape)}; "
                    "reduce it first (e.g. paddle.mean)"
                )
            metrics = float(metrics.item())
        elif not _is_number(metrics):
            raise TypeError(
                "ReduceOnPlateau.step: metrics must be a number, a Tensor or a numpy array, "
                f"got {type(metrics).__name__}"
            )
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                self._print_lr()

    def _is_better(self, current, best) -> bool:
        if self.mode == "min":
            margin = best * self.threshold if self.threshold_mode == "rel" else self.threshold
            return current < best - margin
        margin = best * self.threshold if self.threshold_mode == "rel" else self.threshold
        return current > best + margin


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing between lr and eta_min with half-period T_max, computed recursively as paddle 2.6 does.

        e = 0:                            lr
        (e - 1 - T_max) % (2 T_max) = 0:  last + (lr - eta_min) * (1 - cos(pi / T_max)) / 2
        otherwise:                        eta_min + (last - eta_min)
                                          * (1 + cos(pi e / T_max)) / (1 + cos(pi (e - 1) / T_max))

    `step(epoch)` with an explicit epoch uses the closed form eta_min + (lr - eta_min) * (1 + cos(pi e / T_max)) / 2.

    Args: learning_rate, T_max (positive int), eta_min (0).
    """

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False) -> None:  # noqa: N803
        _check_positive_int(T_max, "CosineAnnealingDecay", "T_max")
        if not _is_number(eta_min):
            raise TypeError(f"CosineAnnealingDecay: eta_min must be a float or int, got {type(eta_min).__name__}")
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e, t = self.last_epoch, self.T_max
        if e == 0:
            return self.base_lr
        if (e - 1 - t) % (2 * t) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / t)) / 2
        ratio = (1 + math.cos(math.pi * e / t)) / (1 + math.cos(math.pi * (e - 1) / t))
        return ratio * (self.last_lr - self.eta_min) + self.eta_min

    def _get_closed_form_lr(self) -> float:
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class OneCycleLR(LRScheduler):
    """The one-cycle policy: warm up from max_learning_rate / divide_factor to max_learning_rate over the first
    `phase_pct` of total_steps, then anneal down to end_learning_rate ('cos' or 'linear' annealing).
    With three_phase, the way down first returns to the initial rate, then to end_learning_rate.

    Args:
        max_learning_rate, total_steps (positive int), divide_factor (25.0), end_learning_rate (0.0001),
        phase_pct (0.3), anneal_strategy ('cos' | 'linear'), three_phase (False).
    """

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0, end_learning_rate=0.0001, phase_pct=0.3,
                 anneal_strategy="cos", three_phase=False, last_epoch=-1, verbose=False) -> None:  # fmt: skip
        if not _is_number(max_learning_rate) or max_learning_rate < 0:
            raise ValueError(f"OneCycleLR: max_learning_rate must be a number >= 0, got {max_learning_rate!r}")
        if not _is_number(end_learning_rate) or end_learning_rate < 0:
            raise ValueError(f"OneCycleLR: end_learning_rate must be a number >= 0, got {end_learning_rate!r}")
        _check_positive_int(total_steps, "OneCycleLR", "total_steps")
        if not isinstance(phase_pct, float):
            raise TypeError(f"OneCycleLR: phase_pct must be a float, got {type(phase_pct).__name__}")
        if not 0 <= phase_pct <= 1:
            raise ValueError(f"OneCycleLR: phase_pct must be between 0 and 1, got {phase_pct}")
        if not _is_number(divide_factor):
            raise TypeError(f"OneCycleLR: divide_factor must be a float or int, got {type(divide_factor).__name__}")
        self.total_steps = total_steps
        initial_lr = max_learning_rate / float(divide_factor)
        min_lr = float(end_learning_rate)
        up_end = phase_pct * total_steps - 1
        if three_phase:
            if phase_pct >= 0.5:
                raise ValueError("OneCycleLR: with three_phase=True, phase_pct must be less than 0.5")
            down_end = 2 * phase_pct * total_steps - 2
            self._step_config = [0, up_end, down_end, total_steps - 1, total_steps - 1]
            self._lr_config = [initial_lr, max_learning_rate, initial_lr, min_lr]
        else:
            self._step_config = [0, up_end, total_steps - 1, total_steps - 1]
            self._lr_config = [initial_lr, max_learning_rate, min_lr]
        ends = self._step_config
        self._steps_size = [ends[i + 1] - ends[i] for i in range(len(self._lr_config) - 1)]
        self._steps_size.append(self._steps_size[-1])  # paddle repeats the last phase's length
        if anneal_strategy == "cos":
            self.anneal_func = self._cos_annealing
        elif anneal_strategy == "linear":
            self.anneal_func = self._linear_annealing
        else:
            raise ValueError(f"OneCycleLR: anneal_strategy must be 'cos' or 'linear', got {anneal_strategy!r}")
        super().__init__(initial_lr, last_epoch, verbose)

    @staticmethod
    def _cos_annealing(start_lr, end_lr, pct):
        return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _linear_annealing(start_lr, end_lr, pct):
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self) -> float:
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"OneCycleLR: stepped {step} times, but total_steps is {self.total_steps}")
        phases = zip(self._step_config[1:], self._steps_size)
        for i, (end_step, step_size) in enumerate(phases):
            if step <= end_step or i == len(self._lr_config) - 2:
                pct = (step - self._step_config[i]) / step_size
                return self.anneal_func(self._lr_config[i], self._lr_config[i + 1], pct)


class CyclicLR(LRScheduler):
    """Cycle the rate between base_learning_rate and max_learning_rate: up for step_size_up steps, down for
    step_size_down. The height of each cycle is scaled by mode: 'triangular' (constant), 'triangular2' (halved
    each cycle), 'exp_range' (exp_gamma ** iterations), or by your own scale_fn of the cycle or iteration number.

    Args:
        base_learning_rate, max_learning_rate, step_size_up (positive int), step_size_down (default: step_size_up),
        mode ('triangular'), exp_gamma (1.0), scale_fn (None), scale_mode ('cycle' | 'iterations').
    """

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None, mode="triangular",
                 exp_gamma=1.0, scale_fn=None, scale_mode="cycle", last_epoch=-1, verbose=False) -> None:  # fmt: skip
        if not _is_number(max_learning_rate):
            raise TypeError(
                f"CyclicLR: max_learning_rate must be a float or int, got {type(max_learning_rate).__name__}"
            )
        if max_learning_rate < 0:
            raise ValueError(f"CyclicLR: max_learning_rate must be >= 0, got {max_learning_rate}")
        _check_positive_int(step_size_up, "CyclicLR", "step_size_up")
        if step_size_down is not None:
            _check_positive_int(step_size_down, "CyclicLR", "step_size_down")
        if not isinstance(exp_gamma, float):
            raise TypeError(f"CyclicLR: exp_gamma must be a float, got {type(exp_gamma).__name__}")
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(
                f"CyclicLR: mode must be 'triangular', 'triangular2' or 'exp_range' (or pass scale_fn), got {mode!r}"
            )
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError(f"CyclicLR: scale_mode must be 'cycle' or 'iterations', got {scale_mode!r}")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == "triangular":
            self.scale_fn, self.scale_mode = (lambda x: 1.0), "cycle"
        elif mode == "triangular2":
            self.scale_fn, self.scale_mode = (lambda x: 1 / (2.0 ** (x - 1))), "cycle"
        else:
            self.scale_fn, self.scale_mode = (lambda x: self.gamma**x), "iterations"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct_per_cycle = 1.0 + iterations / self.cycle_size - cycle
        if pct_per_cycle <= self.step_up_pct:
            scale_factor = pct_per_cycle / self.step_up_pct
        else:
            scale_factor = (1 - pct_per_cycle) / (1 - self.step_up_pct)
        x = cycle if self.scale_mode == "cycle" else iterations
        return self.base_lr + self.amplitude * scale_factor * self.scale_fn(x)


class LinearLR(LRScheduler):
    """Scale the rate linearly from start_factor * lr to end_factor * lr over total_steps, then keep it
    (computed recursively from the previous rate, as paddle 2.6 does).

    Args: learning_rate, total_steps (> 0), start_factor (1/3, in (0, 1]), end_factor (1.0, in [0, 1]).
    """

    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0, last_epoch=-1,
                 verbose=False) -> None:  # fmt: skip
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(f"LinearLR: start_factor must be in (0, 1], got {start_factor}")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError(f"LinearLR: end_factor must be in [0, 1], got {end_factor}")
        if total_steps <= 0:
            raise ValueError(f"LinearLR: total_steps must be > 0, got {total_steps}")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        start = self.total_steps * self.start_factor
        change = self.end_factor - self.start_factor
        return self.last_lr * (1.0 + change / (start + (self.last_epoch - 1) * change))


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing that restarts: eta_min + (lr - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2, where T_cur
    counts the epochs since the last restart and each period T_i is T_mult times the one before (T_0 first).

    Its state dict also keeps T_cur and T_i (paddle 2.6 keeps only last_epoch and last_lr, so a restored paddle
    scheduler restarts its period; minipaddle's continues identically).

    Args: learning_rate, T_0 (positive int), T_mult (int >= 1, default 1), eta_min (0).
    """

    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False) -> None:  # noqa: N803
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"CosineAnnealingWarmRestarts: T_0 must be a positive integer, got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"CosineAnnealingWarmRestarts: T_mult must be an integer >= 1, got {T_mult}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def state_keys(self) -> None:
        self.keys = ["last_epoch", "last_lr", "T_cur", "T_i"]

    def get_lr(self) -> float:
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch: int | None = None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"CosineAnnealingWarmRestarts.step: epoch must be >= 0, got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult**n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        self._print_lr()
