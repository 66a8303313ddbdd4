"""Record which parameters paddle 2.6.2's static O2 stores in float16 into static_o2_parameters.json: decorate
with use_pure_fp16, minimize, run the startup Program, amp_init (which calls cast_parameters_to_fp16), then each
parameter's dtype in the scope, with and without use_fp16_guard.

Paddle cannot run the float16 Program on a CPU, but its rewrite and amp_init do run; the rewrite is given an
empty unsupported list (on a CPU every op lacks a float16 kernel, so paddle would keep all in float32), as
make_golden.py's static_rewrite.

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/amp/make_o2_parameters.py
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.amp import AutoMixedPrecisionLists


def o2_program(guard: bool):
    """A small model with each kind of O2 parameter: an embedding table (a black-list op's: float16 all the
    same, unless outside fp16_guard), fc weights and biases (float16), a layer_norm's scale and bias (float32).
    With `guard`, only the fc layers are inside fp16_guard. tests/amp/test_cast_parameters.py builds the same."""
    maybe_guard = paddle.static.amp.fp16_guard if guard else contextlib.nullcontext
    ids = paddle.static.data("ids", [4, 3], "int64")
    h = paddle.static.nn.embedding(ids, [10, 6])
    with maybe_guard():
        h = paddle.nn.functional.relu(paddle.static.nn.fc(h, 5, num_flatten_dims=2))
    h = paddle.static.nn.layer_norm(h, begin_norm_axis=2)
    with maybe_guard():
        return paddle.mean(paddle.static.nn.fc(h, 2, num_flatten_dims=2))


def static_o2_parameters() -> dict:
    """{'use_fp16_guard=...': {parameter name: its dtype in the scope after amp_init}}."""
    paddle.enable_static()
    out = {}
    try:
        for guard in (False, True):
            paddle.utils.unique_name.switch()
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, start):
                loss = o2_program(guard)
                lists = AutoMixedPrecisionLists()
                lists.unsupported_list = set()
                opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), lists, use_pure_fp16=True,
                                                 use_fp16_guard=guard)  # fmt: skip
                opt.minimize(loss)
            scope = paddle.static.Scope()
            paddle.static.Executor(paddle.CPUPlace()).run(start, scope=scope)
            opt.amp_init(paddle.CPUPlace(), scope=scope)
            out[f"use_fp16_guard={guard}"] = {
                p.name: str(np.array(scope.find_var(p.name).get_tensor()).dtype)
                for p in main.global_block().all_parameters()
            }
    finally:
        paddle.disable_static()
    return out


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    (here / "static_o2_parameters.json").write_text(json.dumps(static_o2_parameters(), indent=1) + "\n")
