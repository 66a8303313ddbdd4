"""Workload counts for amp_mlp and amp_lenet, free of machine load: float32 against each AMP setting.

- default: ops through the door and Python calls per amp_lenet training step (the wall-clock ratios of
  amp_lenet.py are noise on a loaded machine);
- `--callgrind`: instructions per step of both workloads (valgrind's callgrind, each setting in its own process,
  instrumentation on only around the counted steps through _callgrind.py's client requests), each AMP step against
  the float32 step of its model: the 1.3x target of benchmarks/README.md, counted (the garbage collector run
  before the counted steps in every setting alike, so that a full collection owed to the warm-up does not land
  in one setting's window).

    python benchmarks/amp_counts.py [--callgrind [--steps 3] [--workload amp_lenet]]
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import _amp_steps
import _callgrind
import amp_lenet
import amp_mlp
import lenet
import mlp

HERE = Path(__file__).resolve().parent
WORKLOADS = {"amp_mlp": (amp_mlp.make_model, mlp.data), "amp_lenet": (amp_lenet.make_model, lenet.batch)}
SETTINGS = ((None, "float16"),) + _amp_steps.SETTINGS  # level None: the float32 step


def counts(paddle, level=None, dtype="float16") -> dict:
    """One warmed-up amp_lenet step: {'dispatches', 'python_calls', 'c_calls', 'ops': Counter of op names}."""
    from minipaddle.core.dispatch import tracing

    x, y = lenet.batch()
    step = _amp_steps.amp_step(paddle, amp_lenet.make_model, x, y, level, dtype)
    step()
    step()
    calls, ops = Counter(), Counter()

    def profile(frame, event, arg):
        if event in ("call", "c_call"):
            calls[event] += 1

    with tracing(lambda op, inputs, attrs, outputs: ops.update([op.name]), phases=("dynamic",)):
        sys.setprofile(profile)
        try:
            step()
        finally:
            sys.setprofile(None)
    return {"dispatches": sum(ops.values()), "python_calls": calls["call"], "c_calls": calls["c_call"], "ops": ops}


def _label(level, dtype) -> str:
    return "float32" if level is None else f"{level} {dtype}"


def _counted_steps(workload: str, level, dtype, steps: int, library: str) -> None:
    """What each process under valgrind runs: build the step, warm it up, count `steps` steps."""
    import minipaddle as paddle

    make_model, data = WORKLOADS[workload]
    x, y = data()
    step = _amp_steps.amp_step(paddle, make_model, x, y, level, dtype)
    step()
    step()
    # A full collection of the cyclic garbage collector walks every object of the process (~20M instructions
    # here), once per some hundred thousand allocations: landing in a 3-step window it added 7M a step to one
    # setting and not another. Collected before counting, the window holds what the steps themselves set off.
    gc.collect()
    _callgrind.count_steps(library, step, steps)


def instructions(steps: int = 3, workloads=tuple(WORKLOADS)) -> dict:
    """{workload: {setting label: instructions a step}}, each setting counted in its own valgrind process."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    figures: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        library = _callgrind.client_library(tmp)
        for workload in workloads:
            for level, dtype in SETTINGS:
                label = _label(level, dtype)
                out = f"{tmp}/cg.{workload}.{label.replace(' ', '_')}"
                grind = _callgrind.valgrind_command(out)
                job = json.dumps([workload, level, dtype, steps, library])
                subprocess.run([*grind, sys.executable, __file__, "--as-counted", job], env=env, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
                figures.setdefault(workload, {})[label] = _callgrind.instructions(Path(tmp), Path(out).name) / steps
    return figures


def print_instructions(figures: dict) -> None:
    print(
        f"amp_counts: instructions per step (callgrind), each AMP step / the float32 step; target {_amp_steps.TARGET}x"
    )
    for workload, by_setting in figures.items():
        base = by_setting["float32"]
        print(f"  {workload}")
        for label, n in by_setting.items():
            ratio = n / base
            verdict = "" if label == "float32" else ("  met" if ratio <= _amp_steps.TARGET else "  NOT met")
            print(f"    {label:12} {n / 1e6:9.2f}M  {ratio:.2f}x{verdict}")


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="amp_counts: AMP steps against the float32 step, counted")
    parser.add_argument("--callgrind", action="store_true", help="count instructions of amp_mlp and amp_lenet")
    parser.add_argument("--steps", type=int, default=3, help="steps counted per setting (with --callgrind)")
    parser.add_argument("--workload", choices=tuple(WORKLOADS), action="append", help="only these (with --callgrind)")
    args = parser.parse_args(argv)
    if args.callgrind:
        print_instructions(instructions(args.steps, args.workload or tuple(WORKLOADS)))
        return 0
    import minipaddle as paddle

    base = counts(paddle)
    print(f"{'setting':12} {'dispatches':>10} {'py calls':>9} {'c calls':>8}  py calls / float32")
    for level, dtype in SETTINGS:
        c = base if level is None else counts(paddle, level, dtype)
        ratio = c["python_calls"] / base["python_calls"]
        print(f"{_label(level, dtype):12} {c['dispatches']:>10} {c['python_calls']:>9} {c['c_calls']:>8}  {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--as-counted"]:
        _counted_steps(*json.loads(sys.argv[2]))
        sys.exit(0)
    sys.exit(main())
