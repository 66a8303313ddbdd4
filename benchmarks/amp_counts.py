"""Workload counts for amp_lenet, free of machine load: ops through the door and Python calls per training step,
float32 against each AMP setting (the wall-clock ratios of amp_lenet.py are noise on a loaded machine).

    python benchmarks/amp_counts.py
"""

from __future__ import annotations

import sys
from collections import Counter

import _amp_steps
import amp_lenet
from lenet import batch


def counts(paddle, level=None, dtype="float16") -> dict:
    """One warmed-up amp_lenet step: {'dispatches', 'python_calls', 'c_calls', 'ops': Counter of op names}."""
    from minipaddle.core.dispatch import tracing

    x, y = batch()
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


def main() -> int:
    import minipaddle as paddle

    base = counts(paddle)
    print(f"{'setting':12} {'dispatches':>10} {'py calls':>9} {'c calls':>8}  py calls / float32")
    for label, level, dtype in [("float32", None, "float16")] + [(f"{lv} {dt}", lv, dt) for lv, dt in
                                                                  _amp_steps.SETTINGS]:  # fmt: skip
        c = base if level is None else counts(paddle, level, dtype)
        ratio = c["python_calls"] / base["python_calls"]
        print(f"{label:12} {c['dispatches']:>10} {c['python_calls']:>9} {c['c_calls']:>8}  {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
