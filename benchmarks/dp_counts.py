"""Workload counts for dp_lenet, free of machine load: what DataParallel's reducer adds to a step, counted.

`dp_lenet.py` times the two ranks' step synced and inside `no_sync()`; on a loaded machine the difference is
noise (and mostly one rank waiting for the other). Here the same LeNet step on 2 ranks is counted instead:

- Python calls and C calls per step (`sys.setprofile`), synced and in `no_sync()`, on each rank: the
  difference is the reducer's own bookkeeping and the engine's MPI calls. The calls made while a wait polls
  its MPI request (inside `engine.Spin.wait`) are counted apart as `polls`: their number is the time waited;
- with `--callgrind`, instructions per step (valgrind's callgrind, rank 0 run under it with instrumentation on
  only around the counted steps, through a client request of a tiny C library built here with the system's cc).
  Rank 0 under valgrind is ~50x slower than rank 1, so it always arrives last: its waits for rank 1 are short and
  its count is the work of the step itself, numpy copies and MPI included, not the other rank's skew.

    python benchmarks/dp_counts.py [--steps 10] [--callgrind]
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import _callgrind

HERE = Path(__file__).resolve().parent
MODES = ("synced", "local")  # local: inside no_sync(), the step without its all-reduce


def _rank(out_path: str, steps: int, mode: str, library: str) -> None:
    """What every rank runs: warm up, then count `steps` steps in `mode` (profile calls, or callgrind's region)."""
    import ctypes

    import numpy as np
    from dp_lenet import BATCH, _lenet

    import minipaddle as paddle
    import minipaddle.distributed as dist

    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(0)
    net = _lenet(paddle)
    model = paddle.DataParallel(net)
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=net.parameters())
    rng = np.random.default_rng(rank)
    x = paddle.to_tensor(rng.standard_normal((BATCH, 1, 28, 28)).astype("float32"))
    y = paddle.to_tensor(rng.integers(0, 10, size=(BATCH,)).astype("int64"))
    context = model.no_sync if mode == "local" else contextlib.nullcontext

    def step():
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()

    for warm in (contextlib.nullcontext, model.no_sync, context):
        with warm():
            step()
    dist.barrier()
    calls = {"call": 0, "c_call": 0, "poll": 0}
    if library and rank == 0:
        counted = ctypes.CDLL(library)
        counted.counted_start()
        with context():
            for _ in range(steps):
                step()
        counted.counted_stop()
    else:
        from minipaddle.distributed.engine import Spin

        wait, inside = Spin.wait.__code__, []  # the Spin.wait frame being run: calls in it are polls

        def profile(frame, event, arg):
            if event == "call" and frame.f_code is wait:
                inside.append(frame)
            elif event == "return" and inside and frame is inside[-1]:
                inside.pop()
            elif event in calls:
                calls["poll" if inside else event] += 1

        with context():
            sys.setprofile(profile)
            try:
                for _ in range(steps):
                    step()
            finally:
                sys.setprofile(None)
    everyone = []
    dist.all_gather_object(everyone, {k: v / steps for k, v in calls.items()})
    if rank == 0:
        Path(out_path).write_text(json.dumps(everyone))


def _run(mode: str, steps: int, library: str = "", tmp: str = "") -> list:
    """Start 2 ranks with mpiexec (rank 0 under callgrind when `library` is given); each rank's counts."""
    from minipaddle.distributed.launcher import mpiexec

    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))])
    out = os.path.join(tmp, f"{mode}.json")
    rank = [sys.executable, str(Path(__file__)), "--as-rank", out, str(steps), mode, library]
    if library:
        grind = _callgrind.valgrind_command(f"{tmp}/cg.{mode}")
        command = [mpiexec(), "-n", "1", *grind, *rank, ":", "-n", "1", *rank]
    else:
        command = [mpiexec(), "-n", "2", *rank]
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    counts = json.loads(Path(out).read_text())
    if library:
        counts[0]["instructions"] = _callgrind.instructions(Path(tmp), f"cg.{mode}") / steps
    return counts


def run(steps: int = 10, callgrind: bool = False) -> dict:
    """Count both modes; print the table. Returns {mode: [rank 0's counts, rank 1's counts]}."""
    with tempfile.TemporaryDirectory() as tmp:
        library = _callgrind.client_library(tmp) if callgrind else ""
        figures = {mode: _run(mode, steps, library, tmp) for mode in MODES}
    print(f"dp_counts: LeNet SGD step on 2 ranks (batch 64 each), per step, mean of {steps} steps")
    print(f"  {'':18}{'synced':>12}{'no_sync':>12}{'reducer adds':>14}")
    rows = [(what, r, key) for what, key in (("python calls", "call"), ("C calls", "c_call"), ("polls", "poll"))
            for r in (0, 1)]  # fmt: skip
    if callgrind:
        rows.append(("instructions", 0, "instructions"))
    for label, r, key in rows:
        synced, local = figures["synced"][r].get(key), figures["local"][r].get(key)
        if not synced:  # rank 0 under callgrind is not profiled
            continue
        print(f"  {label + f' rank {r}':18}{synced:>12,.0f}{local:>12,.0f}{synced - local:>+14,.0f}")
    return figures


if __name__ == "__main__":
    if sys.argv[1:2] == ["--as-rank"]:
        out_path, steps, mode, *library = sys.argv[2:]
        _rank(out_path, int(steps), mode, library[0] if library else "")
        sys.exit(0)
    import argparse

    parser = argparse.ArgumentParser(description="dp_counts: what the reducer adds to dp_lenet's step, counted")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--callgrind", action="store_true", help="also count instructions on rank 0 (valgrind)")
    cli = parser.parse_args()
    run(cli.steps, cli.callgrind)
