"""Training curves: loss and metrics plotted live in Jupyter while a model trains, saved as a file from scripts.

With `Model.fit`, pass the callback (it is a paddle.callbacks.History, so it also keeps the records):

    curves = viz.TrainingCurves()                  # or TrainingCurves(path="curves.png") in a script
    model.fit(train_data, eval_data, epochs=3, callbacks=[curves])
    curves.save("curves.svg")

In a hand-written loop, log the numbers yourself:

    curves = viz.LiveCurves()
    curves.show()                                  # in Jupyter: the figure appears here and redraws as you log
    for step, (x, y) in enumerate(loader):
        ...
        curves.log(step, loss=loss, acc=acc)       # numbers or one-element Tensors
    curves.log(step, kind="eval", loss=val_loss)   # evaluation points, drawn as dots on the same panels
    curves.finish()                                # the last redraw (and the file, with path=...)

And after the fact: `viz.plot_history(model.history)` (or any History) draws a finished run.

One panel per quantity (loss first): the training values as a line, evaluations as dots joined by a dashed line,
and a dotted vertical line at the end of each epoch. The learning rate gets a panel only when it changed. In
Jupyter the figure is an SVG in a display that is updated in place (IPython display handles), at most once per
`every` seconds so that plotting never slows training down; in scripts nothing is shown and `save` writes the
file (.svg .png .pdf or .html). Figures are drawn with matplotlib's object API, never pyplot, so nothing else in
the notebook is disturbed.
"""

from __future__ import annotations

import io
import os
import time

import numpy as np

from minipaddle.static.files import atomic_write
from viz.render import html_page, svg_element

TRAIN_COLOR, EVAL_COLOR = "#3d85c6", "#e69138"
_BOOKKEEPING = {"kind", "epoch", "step", "global_step", "batch_size", "steps", "samples"}  # History keys, not curves
_FORMATS = (".svg", ".png", ".pdf", ".html")


def in_notebook() -> bool:
    """Whether this code runs in a Jupyter kernel (where displays can be shown and updated)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and hasattr(shell, "kernel")


def _number(name: str, value) -> float:
    a = np.asarray(value)
    if a.size != 1 or a.dtype.kind not in "biuf":
        raise TypeError(f"LiveCurves.log: {name} must be a number or a one-element Tensor, got {type(value).__name__}")
    return float(a.reshape(-1)[0])


class LiveCurves:
    """Curves of named quantities over steps, redrawn live in Jupyter; see the module docstring.

    Args:
        title: the figure's title.
        every: redraw at most once per this many seconds while logging (the last point always shows at finish).
        path: a file to write at finish() (.svg .png .pdf .html); useful in scripts.
    """

    def __init__(self, title: str = "training", every: float = 0.5, path=None) -> None:
        if path is not None:
            _check_suffix(path, "LiveCurves")
        self.title = title
        self.every = every
        self.path = path
        self.series = {}  # name -> {"train": ([x], [y]), "eval": ([x], [y])}
        self.epoch_ends = []  # x positions
        self.last_step = 0
        self._handle = None
        self._drawn_at = 0.0

    # ---- adding points ----

    def log(self, step=None, kind: str = "train", **values) -> None:
        """Add a point to each named curve at `step` (default: the step after the last one for "train", the last
        step for "eval"). `kind` is "train" (a line) or "eval" (dots)."""
        if kind not in ("train", "eval"):
            raise ValueError(f"LiveCurves.log: kind must be 'train' or 'eval', got {kind!r}")
        if not values:
            raise ValueError("LiveCurves.log: name at least one value, e.g. curves.log(step, loss=0.5)")
        if step is None:
            step = self.last_step + 1 if kind == "train" else self.last_step
        step = _number("step", step)
        self.last_step = max(self.last_step, step)
        for name, value in values.items():
            xs, ys = self.series.setdefault(name, {"train": ([], []), "eval": ([], [])})[kind]
            xs.append(step)
            ys.append(_number(name, value))
        self._redraw(force=False)

    def epoch_end(self, step=None) -> None:
        """Mark the end of an epoch (a dotted vertical line) at `step` (default: the last step)."""
        self.epoch_ends.append(self.last_step if step is None else _number("step", step))

    def add_record(self, record: dict) -> None:
        """Take one record of a paddle.callbacks.History (`history.subscribe(curves.add_record)`)."""
        values = {k: v for k, v in record.items() if k not in _BOOKKEEPING and isinstance(v, (int, float))}
        if record["kind"] == "train_step" and values:
            self.log(record["global_step"], **values)
        elif record["kind"] == "train_epoch":
            self.epoch_end(record["global_step"])
        elif record["kind"] == "eval" and values:
            values.pop("lr", None)
            self.log(self.last_step, kind="eval", **values)

    # ---- showing ----

    def show(self) -> None:
        """In Jupyter: show the figure here; later logs update it in place. Elsewhere: nothing."""
        if in_notebook():
            from IPython.display import SVG, display

            self._handle = display(SVG(self.svg()), display_id=True)
            self._drawn_at = time.monotonic()

    def finish(self) -> None:
        """Draw the last points now, and write `path` if one was given."""
        self._redraw(force=True)
        if self.path is not None:
            self.save(self.path)

    def _redraw(self, force: bool) -> None:
        if self._handle is None or (not force and time.monotonic() - self._drawn_at < self.every):
            return
        from IPython.display import SVG

        self._handle.update(SVG(self.svg()))
        self._drawn_at = time.monotonic()

    # ---- the picture ----

    def panels(self) -> list:
        """The names drawn, one panel each: loss first, then in the order first logged; lr only if it changed."""
        names = sorted(self.series, key=lambda n: (n != "loss", n == "lr"))  # stable: keeps the logging order
        if "lr" in self.series and len(set(self.series["lr"]["train"][1])) <= 1:
            names.remove("lr")
        return names

    def figure(self):
        """The curves as a matplotlib Figure (not attached to pyplot)."""
        from matplotlib.figure import Figure

        names = self.panels()
        cols = min(3, max(1, len(names)))
        rows = -(-max(1, len(names)) // cols)
        fig = Figure(figsize=(4.2 * cols, 2.9 * rows), layout="constrained")
        fig.suptitle(self.title)
        axes = np.atleast_1d(fig.subplots(rows, cols)).reshape(-1)
        for ax in axes[len(names) :]:
            ax.set_visible(False)
        if not names:
            axes[0].set_visible(True)
            axes[0].text(0.5, 0.5, "nothing logged yet", ha="center", va="center", transform=axes[0].transAxes)
            axes[0].set_axis_off()
        for ax, name in zip(axes, names):
            (tx, ty), (ex, ey) = self.series[name]["train"], self.series[name]["eval"]
            if tx:
                ax.plot(tx, ty, color=TRAIN_COLOR, lw=1.2, label="train")
            if ex:
                ax.plot(ex, ey, "o--", color=EVAL_COLOR, lw=1, ms=5, label="eval")
            for x in self.epoch_ends:
                ax.axvline(x, color="#bbbbbb", lw=0.8, ls=":")
            ax.set_title(name)
            ax.set_xlabel("step")
            ax.grid(alpha=0.3)
            if tx and ex:
                ax.legend(fontsize=8)
        return fig

    def svg(self) -> str:
        import matplotlib

        with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as text: smaller, and searchable
            return self._render("svg").decode("utf-8")

    def png(self) -> bytes:
        return self._render("png")

    def _render(self, fmt: str) -> bytes:
        out = io.BytesIO()
        self.figure().savefig(out, format=fmt, dpi=100)
        return out.getvalue()

    def _repr_svg_(self) -> str:
        return self.svg()

    def save(self, path) -> str:
        """Write the figure to `path` (.svg .png .pdf .html, from the suffix); returns path."""
        suffix = _check_suffix(path, "LiveCurves.save")
        if suffix == ".html":
            data = html_page(self.title, svg_element(self.svg())).encode("utf-8")
        elif suffix == ".svg":
            data = self.svg().encode("utf-8")
        else:
            data = self._render(suffix[1:])
        atomic_write(os.fspath(path), data)
        return os.fspath(path)

    def __repr__(self) -> str:
        points = sum(len(s["train"][0]) + len(s["eval"][0]) for s in self.series.values())
        return f"<viz.LiveCurves {self.title!r}: {len(self.series)} curves, {points} points>"


def _check_suffix(path, fn: str) -> str:
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in _FORMATS:
        raise ValueError(f"{fn}: cannot tell the format from {os.fspath(path)!r}; use one of {', '.join(_FORMATS)}")
    return suffix


def plot_history(history, title: str = "training") -> LiveCurves:
    """The curves of a finished run, from a paddle.callbacks.History (e.g. `model.history`).

    Example:
        >>> model.fit(train_data, epochs=2, verbose=0)
        >>> viz.plot_history(model.history).save("curves.png")
    """
    if not hasattr(history, "records"):
        raise TypeError(f"plot_history: expected a paddle.callbacks.History, got {type(history).__name__}")
    curves = LiveCurves(title=title)
    for record in history.records:
        curves.add_record(record)
    return curves


def _training_curves_class():
    """TrainingCurves is built on first use: its base class lives in paddle.callbacks (the high-level API), which
    `import viz` does not load."""
    from minipaddle.callbacks import History

    class TrainingCurves(History):
        """A `Model.fit` callback that plots the History it records, live in Jupyter (see viz/curves.py).

        Args:
            title: the figure's title.
            every: redraw at most once per this many seconds.
            path: a file to write when training ends (.svg .png .pdf .html): the way to get the curves from a script.

        Example:
            >>> curves = viz.TrainingCurves(path="curves.png")
            >>> model.fit(train_data, eval_data, epochs=2, callbacks=[curves])
        """

        def __init__(self, title: str = "training", every: float = 0.5, path=None) -> None:
            super().__init__()
            self.curves = LiveCurves(title=title, every=every, path=path)
            self.subscribe(self.curves.add_record)

        def on_train_begin(self, logs=None):
            super().on_train_begin(logs)
            self.curves.show()

        def on_train_end(self, logs=None):
            super().on_train_end(logs)
            self.curves.finish()

        def save(self, path) -> str:
            return self.curves.save(path)

        def _repr_svg_(self) -> str:
            return self.curves.svg()

    TrainingCurves.__module__, TrainingCurves.__qualname__ = __name__, "TrainingCurves"
    return TrainingCurves


def __getattr__(name: str):
    if name == "TrainingCurves":
        cls = globals()["TrainingCurves"] = _training_curves_class()
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
