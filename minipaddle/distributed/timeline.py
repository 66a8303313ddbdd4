"""Recording what every rank did when: forward, backward, each gradient bucket's all-reduce, the optimizer step.

`with timeline.record() as rec:` installs a profiler hook on the door (core/state.py's OpHook) that times every
op and files it under a phase: inside `DataParallel.forward` or with gradients recorded, *forward*; run by an
optimizer's `step`, *optimizer*; the grad rules run by backward (gradients off), *backward*. DataParallel's
reducer adds one *allreduce* span per bucket. `rec.gather()` brings every rank's spans to rank 0 (times in
seconds since the ranks started recording together, after a barrier), as the trace `viz.plot_timeline` draws.
"""

from __future__ import annotations

import contextlib
import time

from minipaddle.core.state import STATE, OpHook, add_op_hook
from minipaddle.distributed import collective, parallel_env
from minipaddle.optimizer.optimizer import Optimizer

__all__ = ["Recorder", "phase", "record", "span"]

_RECORDERS: list = []  # the active recorders of this process (the subsystem's own state)
_PHASES: list[str] = []  # explicit phases entered (DataParallel.forward, Optimizer.step)


class Recorder(OpHook):
    """A profiler hook: the start and end of every op on this rank, with its phase."""

    phases = ("dynamic",)

    def __init__(self) -> None:
        self.spans: list[dict] = []  # {"kind", "name", "start", "end"}, seconds from self.t0
        self.t0 = time.perf_counter()
        self._starts: list[float] = []

    def before(self, op, inputs, attrs):
        self._starts.append(time.perf_counter())
        return inputs

    def after(self, op, inputs, attrs, outputs):
        start = self._starts.pop() if self._starts else time.perf_counter()
        if op.name.startswith("c_"):  # the reducer records its buckets as spans of their own
            kind = "communication"
        elif _PHASES:
            kind = _PHASES[-1]
        else:
            kind = "forward" if STATE.grad_enabled else "backward"
        self.add(kind, op.name, start, time.perf_counter())
        return outputs

    def add(self, kind: str, name: str, start: float, end: float) -> None:
        self.spans.append({"kind": kind, "name": name, "start": start - self.t0, "end": end - self.t0})

    def gather(self, dst: int = 0) -> dict | None:
        """Every rank's spans, on rank `dst`: {"world_size": n, "ranks": {rank: [span, ...]}} (None elsewhere).
        Every rank must call it. With one process, this rank's own spans."""
        rank = parallel_env.get_rank()
        everyone: list = []
        collective.all_gather_object(everyone, self.spans)
        if rank != dst:
            return None
        return {"world_size": len(everyone), "ranks": dict(enumerate(everyone))}


@contextlib.contextmanager
def record():
    """Record this rank's timeline while the block runs (all ranks enter it together, after a barrier).

    Example:
        >>> with timeline.record() as rec:
        ...     loss = model(x).mean(); loss.backward(); opt.step()
        >>> trace = rec.gather()          # on rank 0: every rank's spans
    """
    if parallel_env.is_initialized():
        collective.barrier()  # so the ranks' clocks start together (one host's monotonic clock is shared)
    rec = Recorder()
    handle = add_op_hook(rec)
    _RECORDERS.append(rec)
    step = _watch_optimizer_steps()
    try:
        yield rec
    finally:
        step.close()
        _RECORDERS.remove(rec)
        handle.remove()


@contextlib.contextmanager
def phase(name: str):
    """Ops run inside belong to phase `name` (when a recorder is active; otherwise this costs nothing)."""
    if not _RECORDERS:
        yield
        return
    _PHASES.append(name)
    start = time.perf_counter()
    try:
        yield
    finally:
        _PHASES.pop()
        for rec in _RECORDERS:
            rec.add(f"{name} (total)", name, start, time.perf_counter())


def span(name: str, start: float, end: float, kind: str) -> None:
    """Add a span measured by the caller (the reducer's buckets) to the active recorders."""
    for rec in _RECORDERS:
        rec.add(kind, name, start, end)


def _watch_optimizer_steps():
    """While recording, every Optimizer.step runs in the phase 'optimizer'."""
    original = Optimizer.step

    def step(self, *args, **kwargs):
        with phase("optimizer"):
            return original(self, *args, **kwargs)

    Optimizer.step = step
    stack = contextlib.ExitStack()
    stack.callback(setattr, Optimizer, "step", original)
    return stack
