"""Timing harness: time workloads side by side in one process and print their ratio to a numpy floor.

How a figure is made:
1. warm up (first calls fill caches and run lazy imports);
2. calibrate: double the number of calls per batch until one batch lasts at least `min_time` seconds, so the
   clock's resolution and the loop's own cost are negligible;
3. time `repeats` batches and keep the median time per call (robust to the odd slow batch; the min is printed too).
In `compare`, the contenders' batches are interleaved (A B C, B C A, C A B, ...), so a slow spell of the machine
(another process, a CPU frequency change) falls on all of them alike instead of on whoever ran at the time.

The garbage collector stays on: a framework that makes reference cycles pays for them, as it would in real use.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np


def _batch(fn: Callable[[], object], n: int) -> float:
    """Seconds per call, averaged over one batch of n calls."""
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def _calibrate(fn: Callable[[], object], min_time: float) -> int:
    """The number of calls that makes one batch last at least min_time seconds."""
    n = 1
    while True:
        elapsed = _batch(fn, n) * n
        if elapsed >= min_time or n >= 1 << 30:
            return n
        # Jump close to the target when we know enough, else double.
        n = max(2 * n, int(n * min_time / elapsed * 1.1)) if elapsed > 1e-4 else 2 * n


def time_per_call(fn: Callable[[], object], warmup: int = 10, min_time: float = 0.05, repeats: int = 7) -> float:
    """Median seconds per call of fn() over `repeats` batches, each lasting at least min_time seconds."""
    for _ in range(warmup):
        fn()
    n = _calibrate(fn, min_time)
    return statistics.median(_batch(fn, n) for _ in range(repeats))


def format_time(seconds: float) -> str:
    """1.23 µs, 45.6 ms, 2.00 s: three significant digits in the unit that fits."""
    for unit, scale in (("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0)):  # noqa: B007 (used after the loop)
        if seconds / scale < 999.5:
            break
    value = seconds / scale
    decimals = 0 if value >= 99.95 else 1 if value >= 9.995 else 2
    return f"{value:.{decimals}f} {unit}"


def environment() -> str:
    """One line naming what the figures were measured on."""
    return f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, {sys.platform}"


def compare(
    name: str,
    contenders: dict[str, Callable[[], object]],
    floor_label: str = "numpy",
    *,
    warmup: int = 10,
    min_time: float = 0.05,
    repeats: int = 7,
    skipped: dict[str, str] | None = None,
) -> dict[str, float]:
    """Time every contender, interleaved, and print one table. Returns {label: median seconds per call}.

    `skipped` maps a label to why it is not there (e.g. 'not installed'); it is printed in the table. A contender
    that raises is reported the same way and left out; the others still run.
    """
    ready: dict[str, tuple[Callable[[], object], int]] = {}
    failed: dict[str, str] = dict(skipped or {})
    for label, fn in contenders.items():
        try:
            for _ in range(warmup):
                fn()
            ready[label] = (fn, _calibrate(fn, min_time))
        except Exception as exc:  # a broken contender must not stop the others
            failed[label] = f"failed: {type(exc).__name__}: {exc}"

    samples: dict[str, list[float]] = {label: [] for label in ready}
    labels = list(ready)
    for r in range(repeats if labels else 0):
        for label in labels[r % len(labels) :] + labels[: r % len(labels)]:  # rotate the order each round
            fn, n = ready[label]
            samples[label].append(_batch(fn, n))

    medians = {label: statistics.median(times) for label, times in samples.items()}
    floor = medians.get(floor_label)
    print(f"\n== {name} ==   ({environment()})")
    print(f"{'contender':<14}{'per step':>12}{'min':>12}{'x ' + floor_label:>12}")
    for label in labels:
        ratio = f"{medians[label] / floor:.2f}" if floor else "-"
        print(f"{label:<14}{format_time(medians[label]):>12}{format_time(min(samples[label])):>12}{ratio:>12}")
    for label, why in failed.items():
        print(f"{label}: {why}")
    return medians
