"""History: the training record of `Model.fit`, as plain data that plots (viz) can read live.

`Model.fit` always records one: after fit, `model.history` holds it; pass your own to watch it while training:

    history = paddle.callbacks.History()
    history.subscribe(lambda record: print(record["kind"], record.get("loss")))
    model.fit(train_data, eval_data, epochs=2, callbacks=[history])

Every record is a dict of plain Python numbers and strings, appended to `history.records` in the order things
happened, and passed to every subscriber the moment it is made. Its `kind` says what it is:

    kind          when                            keys
    'train_step'  after each training batch       epoch, step, global_step, batch_size, lr, loss, <metrics>
    'train_epoch' at the end of each epoch        epoch, steps, global_step, lr, loss, <metrics>
    'eval'        at the end of each evaluation   epoch (None outside fit), samples, loss, <metrics>

`epoch` and `step` count from 0, `global_step` counts training batches from 1 across epochs. `loss` is the
batch's loss (a float, the sum when a model has several losses); a metric is its running value over the epoch so
far (a float; a metric with several values, like top-k accuracy, gives one key per name: acc_top1, acc_top2).
`lr` is the optimizer's learning rate when the batch ran. A key is missing when the run has no such thing (no
loss function, no optimizer).

`history.train_steps`, `history.train_epochs`, `history.evals` are the records of one kind, and
`history.series("loss")` gives (x, y) lists to plot straight away.
"""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle.hapi.callbacks import Callback

__all__ = ["History"]


def _plain(value):
    """A float from what the loop logs: a number, a 0-d/1-element array, or a list of one (the loss)."""
    if isinstance(value, (list, tuple)):
        if len(value) != 1:
            return [_plain(v) for v in value]
        value = value[0]
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.item()
    if isinstance(value, np.generic):
        value = value.item()
    return float(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else value


class _Subscription:
    """Returned by `History.subscribe`; `remove()` stops the calls."""

    def __init__(self, subscribers: list, fn) -> None:
        self._subscribers, self._fn = subscribers, fn

    def remove(self) -> None:
        if self._fn in self._subscribers:
            self._subscribers.remove(self._fn)


class History(Callback):
    """Records the losses, metrics and learning rate of every training step, epoch and evaluation as plain
    dicts, and calls subscribers with each record as it is made (see the module docstring for the keys).

    Example:
        >>> history = paddle.callbacks.History()
        >>> model.fit(train_data, epochs=2, verbose=0, callbacks=[history])
        >>> steps, losses = history.series("loss")
        >>> history.train_epochs[-1]["acc"]
        0.91
    """

    def __init__(self):
        super().__init__()
        self.records: list[dict] = []
        self._subscribers: list = []
        self._epoch = None
        self._global_step = 0
        self._in_fit = False
        self._lr_at_batch = None
        self._eval_metrics: list = []
        self._eval_samples = 0

    # ---- subscribing ----

    def subscribe(self, fn) -> _Subscription:
        """Call `fn(record)` for every record from now on; returns a handle whose `remove()` stops it."""
        if not callable(fn):
            raise TypeError(f"History.subscribe: expected a function of one record, got {type(fn).__name__}")
        self._subscribers.append(fn)
        return _Subscription(self._subscribers, fn)

    def clear(self) -> None:
        """Forget every record (the subscribers stay)."""
        self.records.clear()
        self._global_step = 0

    def _add(self, kind: str, logs, **fields) -> None:
        record = {"kind": kind, **fields}
        for name in self.params.get("metrics", []) if kind != "eval" else self._eval_metrics:
            if logs and name in logs:
                record[name] = _plain(logs[name])
        self.records.append(record)
        for fn in list(self._subscribers):
            fn(record)

    def _lr(self):
        optimizer = getattr(self.model, "_optimizer", None)
        return None if optimizer is None else float(optimizer.get_lr())

    # ---- views ----

    def of_kind(self, kind: str) -> list:
        """The records of one kind ('train_step', 'train_epoch' or 'eval')."""
        return [r for r in self.records if r["kind"] == kind]

    @property
    def train_steps(self) -> list:
        return self.of_kind("train_step")

    @property
    def train_epochs(self) -> list:
        return self.of_kind("train_epoch")

    @property
    def evals(self) -> list:
        return self.of_kind("eval")

    def series(self, key: str = "loss", kind: str = "train_step") -> tuple:
        """(x, y) lists of `key` over the records of `kind`: x is global_step for train steps, epoch otherwise."""
        xs, ys = [], []
        for r in self.of_kind(kind):
            if key in r:
                xs.append(r["global_step"] if kind == "train_step" else r["epoch"])
                ys.append(r[key])
        return xs, ys

    # ---- the hooks ----

    def on_train_begin(self, logs=None):
        self._in_fit = True

    def on_train_end(self, logs=None):
        self._in_fit = False
        self._epoch = None

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch
        self._lr_at_batch = None

    def on_train_batch_begin(self, step, logs=None):
        self._lr_at_batch = self._lr()  # before the LRScheduler callback steps the schedule

    def on_train_batch_end(self, step, logs=None):
        self._global_step += 1
        fields = {"epoch": self._epoch, "step": step, "global_step": self._global_step}
        if logs and "batch_size" in logs:
            fields["batch_size"] = int(logs["batch_size"])
        if self._lr_at_batch is not None:
            fields["lr"] = self._lr_at_batch
        self._add("train_step", logs, **fields)

    def on_epoch_end(self, epoch, logs=None):
        fields = {"epoch": epoch, "steps": (logs or {}).get("step", -1) + 1, "global_step": self._global_step}
        if self._lr_at_batch is not None:
            fields["lr"] = self._lr_at_batch
        self._add("train_epoch", logs, **fields)

    def on_eval_begin(self, logs=None):
        self._eval_metrics = list((logs or {}).get("metrics", []))
        self._eval_samples = 0

    def on_eval_batch_end(self, step, logs=None):
        self._eval_samples += int((logs or {}).get("batch_size", 1))

    def on_eval_end(self, logs=None):
        epoch = self._epoch if self._in_fit else None
        self._add("eval", logs, epoch=epoch, samples=self._eval_samples)
