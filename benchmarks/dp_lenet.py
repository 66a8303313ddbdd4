"""Workload `dp_lenet`: LeNet data-parallel on 2 ranks (batch 64 each) against one process (batch 64).

Each rank is a process started by `paddle.distributed.spawn` (through mpiexec) with one BLAS thread. Figures:

- one rank:     seconds per SGD step of LeNet on 64 images, in a job of one rank (the other core idle);
- two ranks:    seconds per step of `paddle.DataParallel(LeNet)` on 64 images per rank (128 per step in all);
- local only:   the same two ranks inside `no_sync()`: the step without its gradient all-reduce;
- communication = (two ranks - local only) / local only: what averaging the gradients adds to a step;
- throughput    = samples per second of the two ranks / samples per second of one rank.

- waited:       each rank's time per step from arriving at a bucket's all-reduce to the other rank arriving (the
                agreement on the call, before any data moves): the ranks' skew, which a synced step pays and
                no_sync does not; the rest of `communication` is moving data and the reducer's bookkeeping;
- overlap:      from a recorded timeline of a few steps: how long the buckets' all-reduces were in flight per
                step, and how much of that backward still had to wait at its end (`c_sync_comm_stream`): the
                rest was hidden behind the backward of earlier layers. `--bucket-mb 0.01` makes buckets smaller
                than LeNet's layers (with the default 1 MB first bucket all of LeNet is one bucket, which can only
                start once the whole backward is done).

Targets (issue 17): communication adds at most 10% to a step; on 2 cores the two ranks' throughput is at least
1.6x one rank's. A busy machine (other processes on the cores) lowers the throughput ratio: run it on an idle one.
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
BATCH = 64


def _lenet(paddle):
    nn = paddle.nn
    return nn.Sequential(
        nn.Conv2D(1, 6, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Flatten(),
        nn.Linear(256, 120), nn.ReLU(),
        nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, 10),
    )  # fmt: skip


def measure(out_path: str, steps: int, repeats: int, bucket_mb: float = 0.0) -> None:
    """What every rank runs: time `repeats` batches of `steps` steps, synced and (with 2+ ranks) in no_sync."""
    import numpy as np

    import minipaddle as paddle
    import minipaddle.distributed as dist

    dist.init_parallel_env() if dist.get_world_size() > 1 else None
    rank, n = dist.get_rank(), dist.get_world_size()
    paddle.seed(0)
    net = _lenet(paddle)
    sizes = {"comm_buffer_size": bucket_mb, "last_comm_buffer_size": bucket_mb} if bucket_mb else {}
    model = paddle.DataParallel(net, **sizes) if n > 1 else net
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=net.parameters())
    rng = np.random.default_rng(rank)
    x = paddle.to_tensor(rng.standard_normal((BATCH, 1, 28, 28)).astype("float32"))
    y = paddle.to_tensor(rng.integers(0, 10, size=(BATCH,)).astype("int64"))

    def step():
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()

    def timed(context) -> float:
        per_batch = []
        for _ in range(repeats):
            if n > 1:
                dist.barrier()
            start = time.perf_counter()
            with context():
                for _ in range(steps):
                    step()
            per_batch.append((time.perf_counter() - start) / steps)
        return statistics.median(per_batch)

    import contextlib

    for _ in range(3):
        step()  # warm up
    result = {"synced": timed(contextlib.nullcontext)}
    if n > 1:
        result["local"] = timed(model.no_sync)
        result.update(_overlap(step, steps))
        everyone = []
        dist.all_gather_object(everyone, result)
        result = {k: max(r[k] for r in everyone) for k in result}  # a step lasts as long as its slowest rank
        result["skew_by_rank"] = [r["skew"] for r in everyone]
    if rank == 0:
        Path(out_path).write_text(json.dumps(result))


def _overlap(step, steps: int) -> dict:
    """Seconds per step the buckets' all-reduces were in flight, and how long backward waited for them at its end."""
    from minipaddle.distributed import timeline

    with timeline.record() as rec:
        for _ in range(steps):
            step()
    flight = sum(s["end"] - s["start"] for s in rec.spans if s["kind"] == "allreduce")
    # from arriving at a bucket's all-reduce to every rank being there (its agreement done): waiting for the other
    skew = sum(s["end"] - s["start"] for s in rec.spans if s["kind"] == "wait")
    waits = [s["end"] - s["start"] for s in rec.spans if s["name"] == "c_sync_comm_stream"]
    buckets = sum(1 for s in rec.spans if s["kind"] == "allreduce") / steps
    # ops through the door per synced step: a figure the machine's load cannot move (all-reduce spans are not ops)
    door_ops = sum(1 for s in rec.spans if s["kind"] not in ("allreduce", "wait")) / steps
    # without a c_sync_comm_stream (a blocking reducer) every all-reduce is waited for in full
    waited = (sum(waits) if waits else flight) / steps
    return {
        "in_flight": flight / steps,
        "waited": waited,
        "buckets": buckets,
        "door_ops": door_ops,
        "skew": skew / steps,
    }


def _run_ranks(nprocs: int, steps: int, repeats: int, bucket_mb: float = 0.0) -> dict:
    import minipaddle.distributed as dist

    os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), *filter(None, os.environ.get("PYTHONPATH", "").split(":"))])
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"  # one BLAS thread per rank, in both runs
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.json")
        dist.spawn(_measure_entry(), args=(out, steps, repeats, bucket_mb), nprocs=nprocs)
        return json.loads(Path(out).read_text())


def _measure_entry():
    """`measure` as the ranks import it (this file is a module `dp_lenet` on their path, not their __main__)."""
    import importlib

    return importlib.import_module("dp_lenet").measure


def run(steps: int = 10, repeats: int = 5, bucket_mb: float = 0.0) -> dict:
    """Time one rank and two ranks; print the table and the two targets. Returns the figures."""
    sys.path.insert(0, str(HERE))
    one = _run_ranks(1, steps, repeats)["synced"]
    two = _run_ranks(2, steps, repeats, bucket_mb)
    comm = (two["synced"] - two["local"]) / two["local"]
    throughput = (2 * BATCH / two["synced"]) / (BATCH / one)
    buckets = f"{bucket_mb} MB buckets" if bucket_mb else "default buckets"
    print(f"dp_lenet: LeNet SGD step, batch {BATCH} per rank, 1 BLAS thread per rank, {os.cpu_count()} cores,", buckets)
    print(f"  one rank              {one * 1e3:8.2f} ms/step   {BATCH / one:8.0f} samples/s")
    print(f"  two ranks (synced)    {two['synced'] * 1e3:8.2f} ms/step   {2 * BATCH / two['synced']:8.0f} samples/s")
    print(f"  two ranks (no_sync)   {two['local'] * 1e3:8.2f} ms/step")
    print(f"  all-reduce            {two['buckets']:.0f} buckets, in flight {two['in_flight'] * 1e3:.2f} ms/step, "
          f"backward waited {two['waited'] * 1e3:.2f} ms/step for them")  # fmt: skip
    skews = two["skew_by_rank"]
    waits = ", ".join(f"rank {r} {w * 1e3:.2f}" for r, w in enumerate(skews))
    print(f"  waited for the other  {waits} ms/step (arrived at a bucket's all-reduce before the other rank)")
    beyond = (two["synced"] - two["local"] - sum(skews) / len(skews)) / two["local"]
    print(f"  communication less the mean wait for the other rank: {beyond * 100:+.1f}% (moving data and bookkeeping)")
    print(f"  door ops per step     {two['door_ops']:.0f} (synced, the larger rank's; does not depend on the load)")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"  load average          {load} (1, 5, 15 min; above the core count the timings are unreliable)")
    print(f"  target: communication <= 10% of a step: {comm * 100:+.1f}%  {'OK' if comm <= 0.10 else 'MISSED'}")
    print(f"  target: throughput of 2 ranks >= 1.6x one: {throughput:.2f}x  {'OK' if throughput >= 1.6 else 'MISSED'}")
    return {"one": one, **{f"two_{k}": v for k, v in two.items()}, "communication": comm, "throughput": throughput}


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="dp_lenet: LeNet data-parallel on 2 ranks against one")
    parser.add_argument("--bucket-mb", type=float, default=0.0, help="DataParallel's bucket sizes (default: its own)")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    cli = parser.parse_args()
    run(cli.steps, cli.repeats, cli.bucket_mb)
