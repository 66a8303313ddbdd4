"""Callbacks: code that `Model.fit`, `evaluate` and `predict` call at fixed moments of the loop.

The loop calls, in this order (each hook gets `logs`, a dict: `loss` as a list of one float, each metric's
running value, `step`, `batch_size`):

    on_train_begin
      on_epoch_begin(epoch)
        on_train_batch_begin(step) ... on_train_batch_end(step)      for every batch
      on_epoch_end(epoch)
      on_eval_begin ... on_eval_batch_begin/end(step) ... on_eval_end  every eval_freq epochs, with eval_data
    on_train_end

`evaluate` calls the eval hooks alone, `predict` the predict hooks. `config_callbacks` adds what fit always has:
a ProgBarLogger (when verbose), a ModelCheckpoint (saving only with a save_dir) and an LRScheduler stepper.
The History stream for live plots is in hapi/history.py.
"""

from __future__ import annotations

import numbers
import os
import time
import warnings

import numpy as np

from minipaddle.hapi.progressbar import ProgressBar
from minipaddle.optimizer import lr as lr_schedules

__all__ = [
    "Callback",
    "ProgBarLogger",
    "ModelCheckpoint",
    "VisualDL",
    "LRScheduler",
    "EarlyStopping",
    "ReduceLROnPlateau",
]

_MODES = ("train", "eval", "predict")


def config_callbacks(callbacks=None, model=None, batch_size=None, epochs=None, steps=None, log_freq=2, verbose=2,
                     save_freq=1, save_dir=None, metrics=None, mode="train"):  # fmt: skip
    """The callbacks a run uses: the user's, plus a ProgBarLogger (if verbose and none given), a ModelCheckpoint
    and an LRScheduler stepper (if none given), all bound to `model` and told the run's parameters."""
    cbks = callbacks or []
    cbks = list(cbks) if isinstance(cbks, (list, tuple)) else [cbks]
    for c in cbks:
        if not isinstance(c, Callback):
            raise TypeError(f"Model: callbacks must be paddle.callbacks.Callback instances, got {type(c).__name__}")
    if verbose and not any(isinstance(k, ProgBarLogger) for k in cbks):
        cbks = [ProgBarLogger(log_freq, verbose=verbose)] + cbks
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks = cbks + [ModelCheckpoint(save_freq, save_dir)]
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks = cbks + [LRScheduler()]
    cbk_list = CallbackList(cbks)
    cbk_list.set_model(model)
    metrics = (metrics or []) if mode != "test" else []
    cbk_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps, "verbose": verbose,
                         "metrics": metrics})  # fmt: skip
    return cbk_list


class CallbackList:
    """Several callbacks called as one, in order."""

    def __init__(self, callbacks=None):
        self.callbacks = list(callbacks or [])
        self.params = {}
        self.model = None

    def append(self, callback) -> None:
        self.callbacks.append(callback)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params: dict) -> None:
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model) -> None:
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name: str, *args) -> None:
        for c in self.callbacks:
            getattr(c, name)(*args)

    @staticmethod
    def _check_mode(mode: str) -> None:
        if mode not in _MODES:
            raise ValueError(f"CallbackList: mode must be one of {_MODES}, got {mode!r}")

    def on_begin(self, mode: str, logs=None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode: str, logs=None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch=None, logs=None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch=None, logs=None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode: str, step=None, logs=None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode: str, step=None, logs=None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """The base class of callbacks: override the hooks you need. `self.model` is the `paddle.Model` running,
    `self.params` holds the run's `batch_size`, `epochs`, `steps`, `verbose` and `metrics` (names).

    Example:
        >>> class PrintLoss(paddle.callbacks.Callback):
        ...     def on_epoch_end(self, epoch, logs=None):
        ...         print(epoch, logs["loss"])
        >>> model.fit(train_data, epochs=2, callbacks=[PrintLoss()])
    """

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params: dict) -> None:
        self.params = params

    def set_model(self, model) -> None:
        self.model = model

    def on_train_begin(self, logs=None):
        """Called once when fit starts."""

    def on_train_end(self, logs=None):
        """Called once when fit ends; logs are the last epoch's."""

    def on_eval_begin(self, logs=None):
        """Called when an evaluation starts; logs has `steps` and `metrics` (names)."""

    def on_eval_end(self, logs=None):
        """Called when an evaluation ends; logs has the final loss and metrics."""

    def on_predict_begin(self, logs=None):
        """Called when predict starts; logs has `steps`."""

    def on_predict_end(self, logs=None):
        """Called when predict ends."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of each training epoch (counted from 0)."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of each training epoch with its logs."""

    def on_train_batch_begin(self, step, logs=None):
        """Called before each training batch."""

    def on_train_batch_end(self, step, logs=None):
        """Called after each training batch, with the batch's loss and the running metrics."""

    def on_eval_batch_begin(self, step, logs=None):
        """Called before each evaluation batch."""

    def on_eval_batch_end(self, step, logs=None):
        """Called after each evaluation batch."""

    def on_predict_batch_begin(self, step, logs=None):
        """Called before each predict batch."""

    def on_predict_batch_end(self, step, logs=None):
        """Called after each predict batch."""


class ProgBarLogger(Callback):
    """Prints the progress of fit, evaluate and predict: step lines (verbose=2), a bar (verbose=1), or step lines
    with timings (verbose=3). fit and evaluate add one on their own when verbose is not 0.

    Args:
        log_freq: print every log_freq steps (and always at the end of an epoch).
        verbose: 0 (silent), 1 (a bar), 2 (a line per log_freq steps), 3 (2 plus reader/batch timings).

    Example:
        >>> model.fit(train_data, epochs=2, verbose=0, callbacks=[paddle.callbacks.ProgBarLogger(log_freq=5)])
    """

    def __init__(self, log_freq: int = 1, verbose: int = 2):
        super().__init__()
        self.epochs = None
        self.steps = None
        self.progbar = None
        self.verbose = verbose
        self.log_freq = log_freq

    def _is_print(self) -> bool:
        return bool(self.verbose)

    # ---- timers for verbose=3 ----

    @staticmethod
    def _new_timer() -> dict:
        return {"data_time": 0.0, "batch_time": 0.0, "count": 0, "samples": 0, "batch_start_time": time.time()}

    def _batch_begin(self, timer: dict) -> None:
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, timer: dict, logs: dict) -> None:
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += logs.get("batch_size", 1)

    def _updates(self, logs: dict, mode: str) -> None:
        metrics = getattr(self, f"{mode}_metrics")
        progbar = getattr(self, f"{mode}_progbar")
        steps = getattr(self, f"{mode}_step")
        values = [(k, logs[k]) for k in metrics if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            cnt = timer["count"] if timer["count"] > 0 else 1.0
            samples = timer["samples"] if timer["samples"] > 0 else 1.0
            total = timer["data_time"] + timer["batch_time"]
            values.append(("avg_reader_cost", f"{timer['data_time'] / cnt:.5f} sec"))
            values.append(("avg_batch_cost", f"{timer['batch_time'] / cnt:.5f} sec"))
            values.append(("ips", f"{samples / total if total else 0.0:.5f} samples/sec"))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        progbar.update(steps, values)

    # ---- train ----

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._train_timer = self._new_timer()
        if self._is_print():
            print(
                "The loss value printed in the log is the current step, and the metric is the average value of "
                "previous steps."
            )

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def on_train_batch_begin(self, step, logs=None):
        self._batch_begin(self._train_timer)

    def on_train_batch_end(self, step, logs=None):
        logs = logs or {}
        self.train_step += 1
        self._batch_end(self._train_timer, logs)
        if self._is_print() and self.train_step % self.log_freq == 0:
            if self.steps is None or self.train_step < self.steps:
                self._updates(logs, "train")
        self._train_timer["batch_start_time"] = time.time()

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self._is_print() and self.steps is not None:
            self._updates(logs, "train")
        self.train_progbar.close()

    # ---- evaluate and predict: the same bookkeeping, under Paddle's attribute names eval_* and test_* ----

    def _phase_begin(self, mode: str, logs, title: str) -> None:
        logs = logs or {}
        steps = logs.get("steps", None)
        setattr(self, f"{mode}_steps", steps)
        setattr(self, f"{mode}_metrics", logs.get("metrics", []))
        setattr(self, f"{mode}_step", 0)
        setattr(self, "evaled_samples" if mode == "eval" else "tested_samples", 0)
        timer = self._new_timer()
        setattr(self, f"_{mode}_timer", timer)
        setattr(self, f"{mode}_progbar", ProgressBar(num=steps, verbose=self.verbose))
        if self._is_print():
            print(title)
        timer["batch_start_time"] = time.time()

    def _phase_batch_end(self, mode: str, samples: str, logs) -> None:
        logs = logs or {}
        step = getattr(self, f"{mode}_step") + 1
        setattr(self, f"{mode}_step", step)
        setattr(self, samples, getattr(self, samples) + logs.get("batch_size", 1))
        timer = getattr(self, f"_{mode}_timer")
        self._batch_end(timer, logs)
        steps = getattr(self, f"{mode}_steps")
        if self._is_print() and step % self.log_freq == 0 and (steps is None or step < steps):
            self._updates(logs, mode)
        timer["batch_start_time"] = time.time()

    def on_eval_begin(self, logs=None):
        self._phase_begin("eval", logs, "Eval begin...")

    def on_eval_batch_begin(self, step, logs=None):
        self._batch_begin(self._eval_timer)

    def on_eval_batch_end(self, step, logs=None):
        self._phase_batch_end("eval", "evaled_samples", logs)

    def on_eval_end(self, logs=None):
        logs = logs or {}
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs, "eval")
            print(f"Eval samples: {self.evaled_samples}")
        self.eval_progbar.close()

    # ---- predict ----

    def on_predict_begin(self, logs=None):
        self._phase_begin("test", logs, "Predict begin...")

    def on_predict_batch_begin(self, step, logs=None):
        self._batch_begin(self._test_timer)

    def on_predict_batch_end(self, step, logs=None):
        self._phase_batch_end("test", "tested_samples", logs)

    def on_predict_end(self, logs=None):
        logs = logs or {}
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs, "test")
            print(f"Predict samples: {self.tested_samples}")
        self.test_progbar.close()


class ModelCheckpoint(Callback):
    """Saves the model (`model.save(f"{save_dir}/{epoch}")`) every save_freq epochs, and `{save_dir}/final` when
    training ends. fit adds one on its own; it saves only when a save_dir is given.

    Args:
        save_freq: save every save_freq epochs (epochs 0, save_freq, 2*save_freq, ...).
        save_dir: the directory; None saves nothing.

    Example:
        >>> model.fit(train_data, epochs=3, callbacks=[paddle.callbacks.ModelCheckpoint(1, "./ckpt")])
    """

    def __init__(self, save_freq: int = 1, save_dir=None):
        super().__init__()
        self.save_freq = save_freq
        self.save_dir = save_dir

    def on_epoch_begin(self, epoch=None, logs=None):
        self.epoch = epoch

    def _is_save(self) -> bool:  # only rank 0 of data-parallel ranks writes checkpoints (as Paddle)
        return bool(self.model and self.save_dir) and os.environ.get("PADDLE_TRAINER_ID", "0") in ("0", "")

    def on_epoch_end(self, epoch, logs=None):
        if self._is_save() and self.epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs=None):
        if self._is_save():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate schedule (a paddle.optimizer.lr.LRScheduler): after every batch
    (by_step, the default, as paddle 2.6 does) or after every epoch (by_epoch). fit adds one on its own.

    Args:
        by_step: call `scheduler.step()` after each training batch.
        by_epoch: call it after each epoch instead.

    Example:
        >>> sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2)
        >>> model.fit(train_data, epochs=4, callbacks=[paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)])
    """

    def __init__(self, by_step: bool = True, by_epoch: bool = False):
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step = by_step
        self.by_epoch = by_epoch

    def _step(self) -> None:
        optimizer = getattr(self.model, "_optimizer", None)
        schedule = getattr(optimizer, "_learning_rate", None)
        if isinstance(schedule, lr_schedules.LRScheduler):
            schedule.step()

    def on_epoch_end(self, epoch, logs=None):
        if self.by_epoch:
            self._step()

    def on_train_batch_end(self, step, logs=None):
        if self.by_step:
            self._step()


def _monitored(logs, monitor: str, who: str):
    """The value of `monitor` in eval logs (the first of a list), or None (with a warning when it is absent)."""
    if logs is None or monitor not in logs:
        warnings.warn(f"Monitor of {who} should be loss or metric name.", stacklevel=3)
        return None
    current = logs[monitor]
    if isinstance(current, (list, tuple)):
        return current[0]
    return current if isinstance(current, numbers.Number) else None


class EarlyStopping(Callback):
    """Stops training when the monitored eval value stops improving. Needs eval_data in fit.

    Args:
        monitor: 'loss' or a metric name ('acc').
        mode: 'min', 'max', or 'auto' ('max' for names with 'acc', else 'min').
        patience: how many evaluations without improvement to wait before stopping.
        verbose: print `Epoch N: Early stopping.` when stopping (1) or not (0).
        min_delta: the smallest change that counts as an improvement.
        baseline: a value to beat from the start (None: the first evaluation sets it).
        save_best_model: save the best model to `{save_dir}/best_model` (with fit's save_dir).

    Example:
        >>> stop = paddle.callbacks.EarlyStopping("loss", patience=2)
        >>> model.fit(train_data, eval_data, epochs=50, callbacks=[stop])
    """

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0, baseline=None,
                 save_best_model=True):  # fmt: skip
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_best_model = save_best_model
        self.save_dir = None  # fit sets it from its save_dir
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        if mode == "max" or (mode == "auto" and "acc" in self.monitor):
            self.monitor_op = np.greater
        else:
            self.monitor_op = np.less
            self.min_delta *= -1  # an improvement lowers the value by at least min_delta

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op == np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs=None):
        current = _monitored(logs, self.monitor, "EarlyStopping")
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    best = os.path.abspath(os.path.join(self.save_dir, "best_model"))
                    print(f"Best checkpoint has been saved at {best}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` when the monitored eval value stops improving. The optimizer's
    learning rate must be a float (a schedule sets its own rates).

    Args:
        monitor: 'loss' or a metric name.
        factor: the multiplier (< 1).
        patience: evaluations without improvement before reducing.
        verbose: print a line when reducing.
        mode: 'min', 'max' or 'auto' ('max' for names with 'acc').
        min_delta: the smallest change that counts as an improvement.
        cooldown: evaluations to wait after a reduction before counting again.
        min_lr: the rate never goes below this.

    Example:
        >>> model.fit(train_data, eval_data, epochs=20, callbacks=[paddle.callbacks.ReduceLROnPlateau(patience=3)])
    """

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto", min_delta=1e-4, cooldown=0,
                 min_lr=0):  # fmt: skip
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best = 0
        self.mode = mode
        self.monitor_op = None
        self.epoch = 0
        self._reset()

    def _reset(self) -> None:
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {self.mode} is unknown, fallback to auto mode.", stacklevel=3)
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.", stacklevel=2)
            return
        optimizer = getattr(self.model, "_optimizer", None)
        lr = getattr(optimizer, "_learning_rate", None)
        if not isinstance(lr, float):
            warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.", stacklevel=2)
            return
        current = _monitored(logs, self.monitor, "ReduceLROnPlateau")
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    optimizer.set_lr(new_lr)
                    if self.verbose > 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


class VisualDL(Callback):
    """Writes the train and eval scalars to VisualDL's log files (needs the `visualdl` package installed).

    Args:
        log_dir: the directory VisualDL reads (`visualdl --logdir log_dir`).

    Example:
        >>> model.fit(train_data, eval_data, callbacks=[paddle.callbacks.VisualDL("./log")])
    """

    def __init__(self, log_dir):
        super().__init__()
        self.log_dir = log_dir
        self.epochs = None
        self.steps = None
        self.epoch = 0

    def _writer(self):
        if not hasattr(self, "writer"):
            try:
                import visualdl
            except ImportError:
                raise ImportError(
                    "paddle.callbacks.VisualDL needs the visualdl package: pip install visualdl "
                    "(paddle.callbacks.History keeps the same numbers in memory without it)"
                ) from None
            self.writer = visualdl.LogWriter(self.log_dir)
        return self.writer

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _updates(self, logs: dict, mode: str) -> None:
        metrics = getattr(self, f"{mode}_metrics")
        total_step = self.train_step if mode == "train" else self.epoch
        for k in metrics:
            if k in logs:
                value = logs[k][0] if isinstance(logs[k], (list, tuple)) else logs[k]
                if isinstance(value, numbers.Number):
                    self._writer().add_scalar(tag=f"{mode}/{k}", step=total_step, value=value)

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0

    def on_train_end(self, logs=None):
        if hasattr(self, "writer"):
            self.writer.close()
            del self.writer

    def on_eval_end(self, logs=None):
        self._updates(logs or {}, "eval")
        if not hasattr(self, "_is_fit") and hasattr(self, "writer"):
            self.writer.close()
            del self.writer
