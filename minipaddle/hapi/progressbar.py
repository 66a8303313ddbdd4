"""The progress display of `Model.fit`, `evaluate` and `predict`, in Paddle's words.

verbose=2 (the default of fit and evaluate) and verbose=3 print one plain line every `log_freq` steps, exactly
as Paddle 2.6 does:

    step 10/100 - loss: 0.5123 - acc: 0.8750 - 12ms/step

verbose=1 draws one bar per epoch that redraws itself. Paddle draws it with `\\r` by hand; minipaddle lets tqdm
draw it (`tqdm.auto`: a widget in Jupyter, a text bar in a terminal) with Paddle's text around it:

    step 10/100 [=========.....................] - loss: 0.5123 - acc: 0.8750 - ETA: 1s - 12ms/step
"""

from __future__ import annotations

import shutil
import sys
import time

import numpy as np

__all__ = ["ProgressBar", "format_values", "format_time_per_step"]


def _number_text(v) -> str | None:
    """Paddle's number format: `%.4f`, or `%.4e` when |v| <= 1e-3 (so a tiny loss never shows as 0.0000)."""
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype in (np.float32, np.float64):
        v = v.item()
    if isinstance(v, (float, np.floating)):
        return f" {v:.4f}" if abs(v) > 1e-3 else f" {v:.4e}"
    return None


def format_values(values) -> str:
    """` - loss: 0.5123 - acc: 0.8750` from [(name, value or list of values), ...]."""
    text = ""
    for name, value in values:
        text += f" - {name}:"
        for v in value if isinstance(value, list) else [value]:
            number = _number_text(v)
            text += number if number is not None else f" {v}"
    return text


def format_time_per_step(seconds: float, unit: str = "step") -> str:
    """` - 12ms/step`: whole seconds from 1 s (and for 0), milliseconds from 1 ms, else microseconds."""
    if seconds >= 1 or seconds == 0:
        return f" - {seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f" - {seconds * 1e3:.0f}ms/{unit}"
    return f" - {seconds * 1e6:.0f}us/{unit}"


def _eta_text(seconds: float) -> str:
    """`34s`, `2:05` or `1:02:05` (whole units, truncated as Paddle's `%d` does)."""
    s = int(seconds)
    if seconds > 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    if seconds > 60:
        return f"{s // 60}:{s % 60:02d}"
    return f"{s}s"


def _bar_width(width: int) -> int:
    """Paddle's rule: at most `width`, 60% of the terminal, and 50 columns less than the terminal."""
    columns = shutil.get_terminal_size().columns or 80
    return max(1, min(width, int(columns * 0.6), columns - 50))


class ProgressBar:
    """Shows the progress of one pass over the data (an epoch of fit, or an evaluate or predict run).

    Args:
        num: the number of steps, or None when the data has no length.
        width: the bar's width in characters (verbose=1), at most 30 columns by default.
        verbose: 1 for a bar, 2 for a line per update, 3 for a line with reader and batch timings.
        start: start the clock now (else call `start()`).
        file: where to write (default: sys.stdout at the time of writing).
        name: the word before the counter, 'step'.

    Example:
        >>> bar = ProgressBar(num=100, verbose=2)
        >>> bar.update(10, [("loss", [0.5123]), ("acc", 0.875)])
        step  10/100 - loss: 0.5123 - acc: 0.8750 - 1ms/step
    """

    def __init__(self, num=None, width: int = 30, verbose: int = 1, start: bool = True, file=None, name="step"):
        if isinstance(num, int) and num <= 0:
            raise TypeError("num should be None or integer (> 0)")
        self._num = num
        self._width = _bar_width(width)
        self._verbose = verbose
        self.file = file
        self.name = name
        self._start = time.time() if start else None
        self._bar = None  # the tqdm bar of verbose=1, made at the first update

    def start(self) -> None:
        """(Re)start the clock that the time per step is measured from."""
        self._out().flush()
        self._start = time.time()

    def _out(self):
        return self.file if self.file is not None else sys.stdout

    def update(self, current_num: int, values=()) -> None:
        """Show that `current_num` steps are done, with the logged `values` [(name, value), ...]."""
        if self._start is None:
            self._start = time.time()
        per_step = (time.time() - self._start) / current_num if current_num else 0
        metrics = format_values(values)
        if self._verbose == 1:
            self._draw_bar(current_num, metrics, per_step)
            return
        if self._num:
            count = f"{self.name} {current_num:{len(str(self._num))}d}/{self._num}"
        else:
            count = f"{self.name} {current_num:3d}"
        out = self._out()
        out.write(count + metrics + format_time_per_step(per_step, self.name) + "\n")
        out.flush()

    def _draw_bar(self, current_num: int, metrics: str, per_step: float) -> None:
        from tqdm.auto import tqdm  # lazily: only verbose=1 needs it

        text = metrics
        if self._num is not None and current_num < self._num:
            text += f" - ETA: {_eta_text(per_step * (self._num - current_num))}"
        text += format_time_per_step(per_step, self.name)
        text = text.replace("{", "{{").replace("}", "}}")  # the text goes into tqdm's format string
        if self._num is not None:
            counter = f"{self.name} {{n:{len(str(self._num))}d}}/{{total}}"
            bar_format = f"{counter} [{{bar:{self._width}}}]{text}"
        else:
            bar_format = f"{self.name} {{n:3d}}{text}"
        if self._bar is None:
            self._bar = tqdm(total=self._num, initial=current_num, file=self._out(), ascii=".=", leave=True,
                             mininterval=0, bar_format=bar_format)  # fmt: skip
        else:
            self._bar.bar_format = bar_format
            self._bar.n = current_num
            self._bar.refresh()
        if self._num is not None and current_num >= self._num:
            self.close()

    def close(self) -> None:
        """End the bar's line (verbose=1); the plain lines of verbose 2 and 3 need nothing."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
