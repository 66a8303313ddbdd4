"""Instructions per step of a workload's minipaddle step, counted by valgrind's callgrind: free of machine load,
so two trees can be compared to a fraction of a percent (the wall-clock tables cannot, on a busy machine).

    python benchmarks/instructions.py tiny mlp --steps 20
    python benchmarks/instructions.py tiny --checkout /path/to/older/minipaddle --checkout .

Each checkout's minipaddle runs the step defined here (this folder's workloads, the same code for both trees),
in a process of its own under callgrind with one BLAS thread and PYTHONHASHSEED=0; only the counted steps are
instrumented (_callgrind.py), after a warm-up. Repeat runs of one tree agree to ~1K instructions (about 0.5% of
`tiny`, nothing on the others): dicts keyed by id() lay out differently from run to run.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import _callgrind

HERE = Path(__file__).resolve().parent

# workload -> (module, the function that builds its minipaddle step from the paddle module)
STEPS = {
    "tiny": ("tiny", "paddle_api_step"),
    "mlp": ("mlp", "paddle_api_step"),
    "lenet": ("lenet", "paddle_api_step"),
    "static_mlp": ("static_mlp", "static_step"),
    "to_static_mlp": ("to_static_mlp", "to_static_step"),
    "to_static_lenet": ("to_static_lenet", "to_static_step"),
    "numpy_mlp": ("mlp", "numpy_step"),  # the mlp floor: the same math by hand, which the ratios divide by
    "int8_lenet_infer.float32": ("int8_lenet_infer", "float32_step"),
    "int8_lenet_infer.int8": ("int8_lenet_infer", "int8_step"),
}


def _child(library: str, workload: str, steps: int, warmup: int) -> None:
    """Runs under valgrind: build the step, warm it up, count `steps` of it."""
    import numpy as np

    np.random.seed(0)
    import minipaddle as paddle

    module, factory = STEPS[workload]
    build = getattr(importlib.import_module(module), factory)
    step = build() if workload.startswith("numpy_") else build(paddle)
    for _ in range(warmup):
        step()
    _callgrind.count_steps(library, step, steps)


def count(checkout: str, workload: str, steps: int, warmup: int, library: str, tmp: str) -> float:
    """Instructions per step of `workload` with the minipaddle of `checkout`."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join([str(Path(checkout).resolve()), str(HERE)])
    folder = tempfile.mkdtemp(dir=tmp)  # (callgrind's dumps of this run only)
    out = os.path.join(folder, f"cg.{workload}")
    child = [sys.executable, str(Path(__file__)), "--as-child", library, workload, str(steps), str(warmup)]
    subprocess.run(_callgrind.valgrind_command(out) + child, env=env, check=True, capture_output=True)
    return _callgrind.instructions(Path(folder), "cg.") / steps


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workloads", nargs="+", choices=sorted(STEPS))
    parser.add_argument("--steps", type=int, default=None, help="counted steps (default: 200 for tiny, else 10)")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--checkout", action="append", help="a minipaddle tree (repeatable; default: this one)")
    cli = parser.parse_args(argv)
    checkouts = cli.checkout or [str(HERE.parent)]
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        library = _callgrind.client_library(tmp)
        for workload in cli.workloads:
            steps = cli.steps or (200 if workload == "tiny" else 10)
            for checkout in checkouts:
                figures[workload, checkout] = count(checkout, workload, steps, cli.warmup, library, tmp)
                per_step, first = figures[workload, checkout], figures[workload, checkouts[0]]
                print(f"{workload:14} {per_step:>14,.0f} instructions/step  x{per_step / first:.4f}  {checkout}")
    return figures


if __name__ == "__main__":
    if sys.argv[1:2] == ["--as-child"]:
        library, workload, steps, warmup = sys.argv[2:]
        _child(library, workload, int(steps), int(warmup))
        sys.exit(0)
    main()
