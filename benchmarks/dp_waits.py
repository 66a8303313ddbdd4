"""Workload `dp_waits`: how long a 250 KB all-reduce takes on 2 ranks, spinning in its waits or sleeping at once.

A collective's wait tests its MPI request in a loop. Sleeping between the tests leaves the core to other work
but wakes up late; spinning (testing back to back, up to MINIPADDLE_SPIN_SECONDS) answers at once. Each run
starts 2 ranks with `spawn` and times `repeats` all-reduces of 62,500 float32 (250 KB, about LeNet's gradients
in one bucket), each after a barrier; the figure is the median over the repeats of the slower rank's time.

Figures: `spin` with MINIPADDLE_SPIN_SECONDS=0.005 (the default when each rank has a core), `sleep` with 0 (the
default when the ranks oversubscribe the cores). On a loaded machine both are noisy: read them side by side.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOATS = 62_500  # 250 KB of float32


def measure(out_path: str, repeats: int) -> None:
    """What every rank runs: `repeats` timed all-reduces, each after a barrier."""
    import numpy as np

    import minipaddle as paddle
    import minipaddle.distributed as dist

    dist.init_parallel_env()
    x = paddle.to_tensor(np.ones(FLOATS, dtype="float32"))
    times = []
    for _ in range(repeats + 3):
        dist.barrier()
        start = time.perf_counter()
        dist.all_reduce(x)
        times.append(time.perf_counter() - start)
    everyone = []
    dist.all_gather_object(everyone, times[3:])  # the first three warm up
    if dist.get_rank() == 0:
        slowest = [max(t) for t in zip(*everyone)]  # an all-reduce lasts until its slowest rank has it
        Path(out_path).write_text(json.dumps({"median": statistics.median(slowest), "min": min(slowest)}))


def _measure_entry():
    """`measure` as the ranks import it (this file is a module `dp_waits` on their path, not their __main__)."""
    import importlib

    return importlib.import_module("dp_waits").measure


def _run(spin_seconds: float, repeats: int) -> dict:
    import minipaddle.distributed as dist

    os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), *filter(None, os.environ.get("PYTHONPATH", "").split(":"))])
    os.environ["MINIPADDLE_SPIN_SECONDS"] = str(spin_seconds)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.json")
        dist.spawn(_measure_entry(), args=(out, repeats), nprocs=2)
        return json.loads(Path(out).read_text())


def run(repeats: int = 50) -> dict:
    """Time the all-reduce with and without spinning; print both. Returns the figures (seconds)."""
    sys.path.insert(0, str(HERE))
    spin, sleep = _run(0.005, repeats), _run(0.0, repeats)
    print(f"dp_waits: all-reduce of 250 KB on 2 ranks, {os.cpu_count()} cores, median (min) of {repeats}")
    print(f"  spin 5 ms then back off   {spin['median'] * 1e3:8.3f} ms   ({spin['min'] * 1e3:.3f} ms)")
    print(f"  sleep between tests       {sleep['median'] * 1e3:8.3f} ms   ({sleep['min'] * 1e3:.3f} ms)")
    return {"spin": spin, "sleep": sleep}


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="dp_waits: a 250 KB all-reduce with spinning and sleeping waits")
    parser.add_argument("--repeats", type=int, default=50)
    run(parser.parse_args().repeats)
