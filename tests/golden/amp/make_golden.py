"""Record paddle 2.6's AMP facts: its lists (what it answers on a CPU too) into lists.json; GradScaler's
dynamic loss scaling driven by paddle's own code into grad_scaler.json; static AMP's rewrite (cast_model_to_fp16
with use_promote) into static_rewrite.json.

Paddle switches GradScaler off on a CPU; its Python logic (scale, unscale_ with check_finite_and_unscale, step
skipping the update, update/_update) runs on a CPU once the state the GPU branch of __init__ makes is set, and the
global AMP dtype says float16 (else scale() turns the scaler off for not-float16). Static AMP's rewrite is run
with an empty unsupported list (on a CPU every op lacks a float16 kernel, so paddle would keep all in float32).

Run with the paddle 2.6 venv from the repository root: /work/paddle-venv/bin/python tests/golden/amp/make_golden.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.amp import AutoMixedPrecisionLists
from paddle.static.amp.bf16 import AutoMixedPrecisionListsBF16
from paddle.static.amp.fp16_lists import gray_list

# Scripted series of steps: True marks a step whose gradient holds Inf (or NaN where said).
SCALER_RUNS = {
    "adam_step_update": {"kw": {"init_loss_scaling": 8.0, "incr_every_n_steps": 2, "decr_every_n_nan_or_inf": 2},
                         "opt": "Adam", "api": "step", "bad": [0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1]},
    "sgd_minimize": {"kw": {"init_loss_scaling": 1024.0, "incr_ratio": 4.0, "decr_ratio": 0.25,
                            "incr_every_n_steps": 3, "decr_every_n_nan_or_inf": 1},
                     "opt": "SGD", "api": "minimize", "bad": [1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0]},
    "momentum_nan": {"kw": {"init_loss_scaling": 4.0, "incr_every_n_steps": 1}, "opt": "Momentum", "api": "step",
                     "bad": [0, 0, "nan", 0, "nan", "nan", 0], },
    "static_scale": {"kw": {"init_loss_scaling": 16.0, "use_dynamic_loss_scaling": False}, "opt": "Adam",
                     "api": "step", "bad": [0, 1, 0, 1]},
}  # fmt: skip


def main() -> None:
    white, black = paddle.amp.white_list(), paddle.amp.black_list()
    bf16 = AutoMixedPrecisionListsBF16()
    static = AutoMixedPrecisionLists()
    out = {
        "white_list": {d: {lv: sorted(s) for lv, s in per.items()} for d, per in white.items()},
        "black_list": {d: {lv: sorted(s) for lv, s in per.items()} for d, per in black.items()},
        "static_gray_list": sorted(gray_list),
        "static_black_list": sorted(static.black_list),
        "static_white_list": sorted(static.white_list),
        "bf16_fp32_list": sorted(bf16.fp32_list),
        "bf16_bf16_list": sorted(bf16.bf16_list),
        "bf16_bits_of_1.5_2.25_3_4.1": paddle.to_tensor([1.5, 2.25, 3.0, 4.1]).astype("bfloat16").numpy().tolist(),
        "grad_scaler_defaults": [
            paddle.amp.GradScaler.__init__.__defaults__,
            paddle.amp.AmpScaler.__init__.__defaults__,
        ],
    }
    here = Path(__file__).resolve().parent
    (here / "lists.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    scaler = {name: run_scaler(**run) for name, run in SCALER_RUNS.items()}
    (here / "grad_scaler.json").write_text(json.dumps({"runs": SCALER_RUNS, "steps": scaler}, indent=1) + "\n")
    (here / "static_rewrite.json").write_text(json.dumps(static_rewrite(), indent=1) + "\n")


def _enabled_scaler(kw: dict):
    """A GradScaler whose state is the one __init__ makes on a GPU (paddle turns it off on a CPU)."""
    from collections import defaultdict

    import numpy as np
    from paddle.amp.grad_scaler import _refresh_optimizer_state

    s = paddle.amp.GradScaler(**kw)
    args = dict(zip(["enable", "init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                     "decr_every_n_nan_or_inf", "use_dynamic_loss_scaling"],
                    paddle.amp.GradScaler.__init__.__defaults__))  # fmt: skip
    args.update(kw)
    s._enable = True
    for k in ("init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf",
              "use_dynamic_loss_scaling"):  # fmt: skip
        setattr(s, "_" + k, args[k])
    s._incr_count = s._decr_count = 0
    for n in ("_found_inf", "_temp_found_inf_value_false", "_temp_found_inf_fp16", "_temp_found_inf_bf16",
              "_temp_found_inf_fp32"):  # fmt: skip
        setattr(s, n, paddle.to_tensor(np.array([0]).astype(np.bool_)))
    s._scale = paddle.to_tensor(np.array([s._init_loss_scaling]).astype(np.float32))
    s._cache_founf_inf = None
    s._optimizer_states = defaultdict(_refresh_optimizer_state)
    return s


def run_scaler(kw: dict, opt: str, api: str, bad: list) -> list:
    """Train Linear(2, 1) for len(bad) steps through paddle's GradScaler; per step: the scale and counters after
    update, whether the weight and the optimizer's state stayed as they were, and what the scaler printed."""
    import contextlib
    import io

    import numpy as np
    from paddle.amp.auto_cast import amp_global_state

    amp_global_state().amp_dtype = "float16"  # what auto_cast(dtype='float16') sets, on a GPU
    lin = paddle.nn.Linear(2, 1)
    lin.weight.set_value(np.array([[0.5], [-0.25]], np.float32))
    lin.bias.set_value(np.array([0.1], np.float32))
    optimizer = getattr(paddle.optimizer, opt)(0.1, parameters=lin.parameters())
    scaler = _enabled_scaler(kw)
    steps = []
    for b in bad:
        first = {0: 1.0, 1: float("inf"), "nan": float("nan")}[b]
        loss = lin(paddle.to_tensor([[first, 2.0]])).mean()
        before = [lin.weight.numpy().copy()] + [v.numpy().copy() for v in _opt_state(optimizer)]
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            scaled = scaler.scale(loss)
            scaled.backward()
            if api == "minimize":
                scaler.minimize(optimizer, scaled)
            else:
                scaler.step(optimizer)
                scaler.update()
            optimizer.clear_grad()
        after = [lin.weight.numpy()] + [v.numpy() for v in _opt_state(optimizer)]
        unchanged = len(before) == len(after) and all(np.array_equal(x, y) for x, y in zip(before, after))
        steps.append({"scale": float(scaler._scale), "incr_count": scaler._incr_count,
                      "decr_count": scaler._decr_count, "unchanged": bool(unchanged),
                      "printed": printed.getvalue()})  # fmt: skip
    steps.append({"state_dict": {k: (v.tolist() if hasattr(v, "tolist") else v)
                                 for k, v in scaler.state_dict().items()}})  # fmt: skip
    return steps


def _opt_state(optimizer) -> list:
    """The optimizer's accumulators (moments, velocities, beta powers), in a fixed order."""
    return [acc for name in sorted(optimizer._accumulators) for _, acc in sorted(optimizer._accumulators[name].items())]


def _static_program():
    x = paddle.static.data("x", [2, 3], "float32")
    w = paddle.create_parameter([3, 3], "float32")
    y = paddle.matmul(x, w)  # white
    z = paddle.abs(y)  # no list
    e = paddle.exp(z)  # fp16 black list
    a = paddle.add(e, x)  # gray, with a float32 data input
    paddle.nn.functional.softmax(a)  # fp16 black list


def static_rewrite() -> dict:
    """The op types and their output dtypes after cast_model_to_fp16 at O1/O2, with and without use_promote."""
    paddle.enable_static()
    out = {}
    try:
        for level in ("O1", "O2"):
            for promote in (False, True):
                main, start = paddle.static.Program(), paddle.static.Program()
                with paddle.static.program_guard(main, start):
                    _static_program()
                lists = AutoMixedPrecisionLists()
                lists.unsupported_list = set()
                paddle.static.amp.cast_model_to_fp16(main, lists, use_fp16_guard=False, level=level,
                                                     use_promote=promote)  # fmt: skip
                block = main.global_block()
                out[f"{level}_promote={promote}"] = [
                    (op.type, str(block.var(op.output_arg_names[0]).dtype).split(".")[-1])
                    for op in block.ops if op.type != "cast"
                ]  # fmt: skip
    finally:
        paddle.disable_static()
    return out


if __name__ == "__main__":
    main()
