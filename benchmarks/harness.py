"""Timing harness: time workloads side by side in one process and print their ratio to a numpy floor.

How a figure is made:
1. warm up (first calls fill caches and run lazy imports);
2. calibrate: double the number of calls per batch until one batch lasts at least `min_time` seconds, so the
   clock's resolution and the loop's own cost are negligible;
3. time `repeats` batches and keep the median time per call (robust to the odd slow batch; the min is printed too).
In `compare`, the contenders' batches are interleaved (A B C, B C A, C A B, ...), so a slow spell of the machine
(another process, a CPU frequency change) falls on all of them alike instead of on whoever ran at the time.

The garbage collector stays on: a framework that makes reference cycles pays for them, as it would in real use.

The table also counts minor page faults per call (Linux, macOS). On this kind of machine they explain runs that
are twice as slow as others: glibc hands big freed arrays back to the OS and every new one is faulted in again,
page by page. Which contender suffers depends on the whole process's allocations, so compare ratios from runs whose
fault counts agree, or start Python with MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ raised (benchmarks/README).

A workload file (tiny.py, mlp.py, ...) holds only its workload: one step function per contender. The scaffolding
they share lives here: `run_workload` imports the frameworks, times them beside the numpy floor and prints the
target line; `main` is their command line (`--framework`, `--min-time`, `--repeats`).
"""

from __future__ import annotations

import argparse
import importlib
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

try:
    import resource  # page-fault counts; not on Windows
except ImportError:
    resource = None

FRAMEWORKS = ("minipaddle", "numpy", "torch", "paddle")


def _batch(fn: Callable[[], object], n: int) -> float:
    """Seconds per call, averaged over one batch of n calls."""
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def _page_faults() -> int:
    """Minor page faults of this process so far (0 where the OS does not say)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt if resource is not None else 0


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


def python_calls(fn: Callable[[], object], calls: int = 20) -> float:
    """Python function calls per call of fn() (cProfile's primitive count, C functions included): what a
    framework's bookkeeping costs, in a figure the machine's load does not move."""
    import cProfile
    import pstats

    fn()  # (warm: lazy imports and first-call caches are not the step's)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(calls):
        fn()
    profile.disable()
    return (sum(stat[0] for stat in pstats.Stats(profile).stats.values()) - 1) / calls  # (less disable() itself)


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
    faults: dict[str, list[float]] = {label: [] for label in ready}
    labels = list(ready)
    for r in range(repeats if labels else 0):
        for label in labels[r % len(labels) :] + labels[: r % len(labels)]:  # rotate the order each round
            fn, n = ready[label]
            before = _page_faults()
            samples[label].append(_batch(fn, n))
            faults[label].append((_page_faults() - before) / n)

    medians = {label: statistics.median(times) for label, times in samples.items()}
    floor = medians.get(floor_label)
    print(f"\n== {name} ==   ({environment()})")
    print(f"{'contender':<14}{'per step':>12}{'min':>12}{'x ' + floor_label:>12}{'faults/step':>14}")
    for label in labels:
        ratio = f"{medians[label] / floor:.2f}" if floor else "-"
        print(f"{label:<14}{format_time(medians[label]):>12}{format_time(min(samples[label])):>12}{ratio:>12}"
              f"{statistics.median(faults[label]):>14.0f}")  # fmt: skip
    for label, why in failed.items():
        print(f"{label}: {why}")
    return medians


# ---- what every workload file shares -------------------------------------------------------------------------


class Target(NamedTuple):
    """A workload's goal, printed under its table: medians[label] / medians[over] <= most."""

    claim: str  # e.g. "minipaddle <= 1.1 x numpy"
    label: str
    over: str
    most: float
    ratio_name: str | None = None  # how the ratio is named in the line; "label / over" when None

    def report(self, medians: dict[str, float]) -> None:
        """Print the target line, when both contenders ran."""
        if self.label in medians and self.over in medians:
            ratio = medians[self.label] / medians[self.over]
            verdict = "met" if ratio <= self.most else "NOT met"
            name = self.ratio_name or f"{self.label} / {self.over}"
            print(f"target {self.claim}: {name} = {ratio:.2f}  ({verdict})")


def import_framework(name: str):
    """(module, None), or (None, why not): 'not installed', or the error that a broken import raised."""
    try:
        return importlib.import_module(name), None
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None, "not installed"
        return None, f"import failed: {type(exc).__name__}: {exc}"
    except Exception as exc:
        return None, f"import failed: {type(exc).__name__}: {exc}"


def run_workload(
    workload: str,
    title: str,
    frameworks: tuple[str, ...],
    *,
    paddle_api_step: Callable[[object], Callable[[], object]],
    torch_step: Callable[[object], Callable[[], object]],
    numpy_step: Callable[[], Callable[[], object]],
    target: Target,
    warmup: int = 10,
    min_time: float = 0.05,
    repeats: int = 7,
) -> dict[str, float]:
    """Time the chosen frameworks (the numpy floor always) and print the table and the target line.

    Each framework that imports gets its step from `torch_step(torch)` or `paddle_api_step(module)` (minipaddle
    and PaddlePaddle run the same Paddle 2.x lines); one that does not import, or fails to set up, is named
    under the table with the reason. Returns {label: median seconds per step}.
    """
    contenders: dict[str, Callable[[], object]] = {}
    skipped: dict[str, str] = {}
    for name in frameworks:
        if name == "numpy":
            continue
        module, why_not = import_framework(name)
        if module is None:
            skipped[name] = why_not
            if name == "paddle" and why_not == "not installed":
                skipped[name] += (
                    f" (time it in a venv with paddlepaddle: python benchmarks/{workload}.py --framework paddle)"
                )
            continue
        try:
            contenders[name] = torch_step(module) if name == "torch" else paddle_api_step(module)
        except Exception as exc:
            skipped[name] = f"failed to set up: {type(exc).__name__}: {exc}"
    contenders["numpy"] = numpy_step()

    medians = compare(title, contenders, "numpy", warmup=warmup, min_time=min_time, repeats=repeats, skipped=skipped)
    target.report(medians)
    return medians


def option_parser(
    doc: str,
    min_time: float,
    choices: tuple[str, ...] = ("all", *FRAMEWORKS),
    default: str = "all",
    framework_help: str | None = "time only this one (beside the numpy floor); 'all' times every one that imports",
) -> argparse.ArgumentParser:
    """A workload's command line: --framework, --min-time, --repeats; `doc` is its module docstring."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--framework", choices=choices, default=default, help=framework_help)
    parser.add_argument(
        "--min-time", type=float, default=min_time, help=f"seconds per timed batch (default {min_time})"
    )
    parser.add_argument("--repeats", type=int, default=7, help="timed batches per contender (default 7)")
    return parser


def main(argv: list[str] | None, doc: str, run: Callable[..., dict[str, float]], min_time: float) -> dict[str, float]:
    """Parse a workload's command line and call its `run(frameworks, min_time=, repeats=)`."""
    args = option_parser(doc, min_time).parse_args(argv)
    frameworks = FRAMEWORKS if args.framework == "all" else (args.framework,)
    return run(frameworks, min_time=args.min_time, repeats=args.repeats)
