"""Record paddle 2.6.2's update_loss_scaling op over scripted runs of finite and inf steps into
update_loss_scaling.json: after each step the scale, the good and bad step counters, and whether the gradient
came out zeroed. The op's CPU kernel runs in dygraph (paddle.static.amp.amp_nn.update_loss_scaling, which static
decorate appends to the Program), so this is the kernel static AMP trains with: the decrease clamped at 1, an
increase kept only while the new scale is finite, stop_update freezing the state.

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/amp/make_update_loss_scaling.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.amp.amp_nn import update_loss_scaling

# kw are the op's attributes; bad marks a step whose found_inf is True.
RUNS = {
    "grow_and_shrink": {"scale": 8.0, "kw": {"incr_every_n_steps": 2, "decr_every_n_nan_or_inf": 2,
                                             "incr_ratio": 2.0, "decr_ratio": 0.5},
                        "bad": [0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1]},
    "clamped_at_one": {"scale": 4.0, "kw": {"incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 1,
                                            "incr_ratio": 2.0, "decr_ratio": 0.25},
                       "bad": [1, 1, 1, 1, 0, 1]},
    "no_infinite_growth": {"scale": 2.0**127, "kw": {"incr_every_n_steps": 1, "decr_every_n_nan_or_inf": 1,
                                                     "incr_ratio": 4.0, "decr_ratio": 0.5},
                           "bad": [0, 0, 1, 0]},
    "stop_update": {"scale": 16.0, "kw": {"incr_every_n_steps": 1, "decr_every_n_nan_or_inf": 1,
                                          "incr_ratio": 2.0, "decr_ratio": 0.5, "stop_update": True},
                    "bad": [0, 1, 0]},
}  # fmt: skip


def run(spec: dict) -> list:
    kw = {"stop_update": False, **spec["kw"]}
    scale = paddle.to_tensor([spec["scale"]], dtype="float32")
    good = paddle.to_tensor([0], dtype="int32")
    bad = paddle.to_tensor([0], dtype="int32")
    steps = []
    for is_bad in spec["bad"]:
        grad = paddle.to_tensor([1.0, 2.0], dtype="float32")
        found_inf = paddle.to_tensor([bool(is_bad)])
        update_loss_scaling([grad], found_inf, scale, good, bad, kw["incr_every_n_steps"],
                            kw["decr_every_n_nan_or_inf"], kw["incr_ratio"], kw["decr_ratio"],
                            stop_update=kw["stop_update"])  # fmt: skip
        steps.append({"scale": float(scale.numpy()[0]), "good": int(good.numpy()[0]), "bad": int(bad.numpy()[0]),
                      "grad_zeroed": bool(np.all(grad.numpy() == 0))})  # fmt: skip
    return steps


def main() -> None:
    out = {"runs": RUNS, "steps": {name: run(spec) for name, spec in RUNS.items()}}
    path = Path(__file__).with_name("update_loss_scaling.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
