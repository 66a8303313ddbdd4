"""Where a minipaddle step spends its time: in numpy kernels, op by op, or in the framework's own bookkeeping.

    python benchmarks/breakdown.py mlp        (or lenet, tiny)

The step and its hand-written numpy floor come from the workload's file. The step is timed as it is, then run
again with a stopwatch around every op's kernel (each OpDef's `kernel` and `kernel_into`), which splits that
run's time into

- kernels: the numpy work, per op (calls per step and microseconds per step), and
- framework: the rest, i.e. the door (Tensors, GradNodes, checks), Layer calls, the backward walk and the
  optimizer's Python.

`kernels / floor` is the ratio a framework with no bookkeeping at all would reach while doing the same numpy
work: an op-by-op framework with paddle's semantics (gradients accumulated into `.grad`, zeroed by `clear_grad`)
cannot go below it, whatever its door costs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import Counter, defaultdict

import harness

import minipaddle as paddle
from minipaddle.core.op import OPS


def _stopwatch(op, attr: str, seconds: dict, calls: Counter):
    """`op.<attr>` wrapped so each call adds its duration to seconds[op.name] (an instance attribute that
    shadows the class's method; deleting it restores the op)."""
    inner = getattr(op, attr)

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            seconds[op.name] += time.perf_counter() - start
            calls[op.name] += 1

    setattr(op, attr, timed)


def kernel_times(step, steps: int) -> tuple[float, dict, Counter]:
    """Run `step` `steps` times with every kernel timed: (seconds in all, {op name: seconds}, {op name: calls})."""
    seconds: dict = defaultdict(float)
    calls: Counter = Counter()
    ops = list(OPS.values())
    for op in ops:
        for attr in ("kernel", "kernel_into"):
            if getattr(op, attr, None) is not None:
                _stopwatch(op, attr, seconds, calls)
    try:
        start = time.perf_counter()
        for _ in range(steps):
            step()
        elapsed = time.perf_counter() - start
    finally:
        for op in ops:
            for attr in ("kernel", "kernel_into"):
                op.__dict__.pop(attr, None)
    return elapsed, seconds, calls


def breakdown(workload: str, min_time: float = 0.2, steps: int | None = None) -> dict[str, float]:
    """Print the split for one workload; returns {'step', 'floor', 'kernels', 'framework'} in seconds per step."""
    module = importlib.import_module(workload)
    step, floor = module.paddle_api_step(paddle), module.numpy_step()
    step_time = harness.time_per_call(step, min_time=min_time)
    floor_time = harness.time_per_call(floor, min_time=min_time)
    steps = steps or max(10, int(min_time / step_time))
    elapsed, seconds, calls = kernel_times(step, steps)
    # Both from the same timed run, so the split adds up even when the machine is busy.
    timed_step, kernels = elapsed / steps, sum(seconds.values()) / steps
    print(f"== {workload}: one minipaddle step, split ==   ({harness.environment()})")
    print(f"{'op':32s} {'calls':>6s} {'per step':>10s}")
    for name, total in sorted(seconds.items(), key=lambda kv: -kv[1]):
        print(f"{name:32s} {calls[name] / steps:6.0f} {harness.format_time(total / steps):>10s}")
    fmt = harness.format_time
    print(f"step with stopwatches {fmt(timed_step)}: kernels {fmt(kernels)} ({sum(calls.values()) / steps:.0f} "
          f"calls), framework {fmt(timed_step - kernels)}")  # fmt: skip
    print(f"step {fmt(step_time)}, numpy floor {fmt(floor_time)}: step / floor = {step_time / floor_time:.2f}, "
          f"kernels alone / floor = {kernels / floor_time:.2f}")  # fmt: skip
    return {"step": step_time, "floor": floor_time, "kernels": kernels, "framework": timed_step - kernels}


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workload", nargs="?", default="mlp", help="a workload file in benchmarks/ (default mlp)")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per timed batch (default 0.2)")
    args = parser.parse_args(argv)
    return breakdown(args.workload, args.min_time)


if __name__ == "__main__":
    main(sys.argv[1:])
