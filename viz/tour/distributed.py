"""The tour's section on distributed training: a real 2-rank timeline of LeNet under DataParallel, and the ring
all-reduce drawn step by step.

Starting MPI ranks inside the tour would add their start-up (an `import minipaddle` each) to every tour build,
so the timeline is drawn from a trace recorded once by a real 2-rank run and kept next to this file
(`dp_trace.json`: every op's start and end on both ranks, and each gradient bucket's all-reduce). Record it
again after changing the reducer or the timeline:

    python -m viz.tour.distributed          # spawns 2 ranks, writes viz/tour/dp_trace.json

The run: LeNet, 32 images per rank, DataParallel with 0.01 MB buckets (so LeNet's gradients make several
buckets and the first ones can be all-reduced while backward computes the others), one warm-up step, then two
recorded steps.
"""

from __future__ import annotations

import json
import os
from html import escape

TRACE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dp_trace.json")
BUCKET_MB = 0.01


def _lenet(nn):
    return nn.Sequential(
        nn.Conv2D(1, 6, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Flatten(), nn.Linear(256, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10),
    )  # fmt: skip


def record_rank(path: str, steps: int = 2) -> None:
    """What each of the 2 ranks runs: train LeNet data-parallel, record `steps` steps, rank 0 writes the trace."""
    import numpy as np

    import minipaddle as paddle
    import minipaddle.distributed as dist
    from minipaddle.distributed import timeline

    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(0)
    net = _lenet(paddle.nn)
    model = paddle.DataParallel(net, comm_buffer_size=BUCKET_MB, last_comm_buffer_size=BUCKET_MB)
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=net.parameters())
    rng = np.random.default_rng(rank)
    x = paddle.to_tensor(rng.standard_normal((32, 1, 28, 28)).astype("float32"))
    y = paddle.to_tensor(rng.integers(0, 10, size=(32,)).astype("int64"))

    def step():
        paddle.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        opt.clear_grad()

    step()  # warm-up
    with timeline.record() as rec:
        for _ in range(steps):
            step()
    trace = rec.gather()
    if rank == 0:
        for spans in trace["ranks"].values():
            for s in spans:
                s["start"], s["end"] = round(s["start"], 6), round(s["end"], 6)
        trace["recorded"] = f"2 ranks, LeNet, 32 images per rank, {BUCKET_MB} MB buckets, {steps} steps"
        with open(path, "w") as f:
            json.dump(trace, f, separators=(",", ":"))


def record(path: str = TRACE) -> None:
    """Run the 2 ranks (through paddle.distributed.spawn) and write the trace to `path`."""
    import minipaddle.distributed as dist

    dist.spawn(record_rank, args=(os.path.abspath(path),), nprocs=2)


def load_trace(path: str = TRACE) -> dict:
    """The recorded trace, with the ranks as ints again (JSON keys are strings)."""
    with open(path) as f:
        trace = json.load(f)
    trace["ranks"] = {int(r): spans for r, spans in trace["ranks"].items()}
    return trace


def overlap(trace: dict) -> dict:
    """Per rank, milliseconds per recorded run: all-reduces in flight, and how long backward waited for them at
    its end (`c_sync_comm_stream`); the rest of the flight time was hidden behind computation."""
    out = {}
    for rank, spans in trace["ranks"].items():
        flight = sum(s["end"] - s["start"] for s in spans if s["kind"] == "allreduce")
        waited = sum(s["end"] - s["start"] for s in spans if s["name"] == "c_sync_comm_stream")
        out[rank] = {"in_flight_ms": flight * 1e3, "waited_ms": waited * 1e3}
    return out


def distributed_tour_section(path: str = TRACE) -> tuple[str, str]:
    """(title, HTML): the timeline of the recorded run, its overlap figures, and the ring all-reduce's steps."""
    from viz.collective import draw_collective
    from viz.render import svg_element
    from viz.timeline import plot_timeline

    trace = load_trace(path)
    lines = [f"rank {r}: all-reduces in flight {o['in_flight_ms']:.1f} ms, backward waited {o['waited_ms']:.1f} ms "
             "for them at its end" for r, o in sorted(overlap(trace).items())]  # fmt: skip
    html = (
        f"<p class='note'>Recorded by a real run ({escape(trace.get('recorded', ''))}); "
        "<code>python -m viz.tour.distributed</code> records it again.</p>"
        + svg_element(
            plot_timeline(trace, title="LeNet on 2 ranks: each bucket's all-reduce starts during backward").svg()
        )  # fmt: skip
        + f"<pre>{escape(chr(10).join(lines))}</pre>"
        + "<p>What each all-reduce does inside: the ring all-reduce on 4 ranks, 2(N-1) = 6 steps "
        "(viz.draw_collective)</p>" + svg_element(draw_collective("ring_all_reduce", 4).svg())
    )
    return "Data-parallel training on 2 ranks (viz.plot_timeline, viz.draw_collective)", html


if __name__ == "__main__":
    record()
    print(f"wrote {TRACE}")
