"""Record the names paddle 2.6.2 gives optimizer state under multi_precision into state_names.json.

Paddle's Adam, AdamW and Momentum add their accumulators to the float32 master weight, not to the float16
parameter, so a moment is named after the master (`w_fp32_master_0_moment1_0`): a .pdopt from O2 training holds
those keys. decorate() does nothing on a CPU, so the dynamic run casts the Linear to float16 by hand and asks for
the accumulators without a step (paddle has no float16 CPU kernels); the static run builds the Program only.

Run with the paddle 2.6 venv from the repository root: /work/paddle-venv/bin/python tests/golden/amp/make_state_names.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.base.layer_helper import LayerHelper

OPTIMIZERS = ("Adam", "AdamW", "Momentum")


def dynamic_names(cls_name: str) -> dict:
    """state_dict()'s keys and master_weights of a float16 Linear(2, 3) in a fresh name scope."""
    with paddle.utils.unique_name.guard():
        lin = paddle.nn.Linear(2, 3)
        lin.to(dtype="float16")
        opt = getattr(paddle.optimizer, cls_name)(parameters=lin.parameters(), multi_precision=True)
        opt.helper = LayerHelper(cls_name)  # what _create_optimization_pass sets before a step
        opt._create_accumulators(paddle.static.default_main_program().global_block(), lin.parameters())
        state = opt.state_dict()
    masters = {k: v.name for k, v in state.pop("master_weights").items()}
    return {"accumulators": sorted(state), "master_weights": masters}


def static_names(cls_name: str) -> list:
    """The persistable variables of a static Program minimizing mean(x @ w) with a float16 w."""
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
            x = paddle.static.data("x", [4, 2], "float16")
            w = paddle.create_parameter([2, 3], "float16", name="w")
            getattr(paddle.optimizer, cls_name)(multi_precision=True).minimize(paddle.mean(paddle.matmul(x, w)))
        return sorted(v.name for v in main.list_vars() if v.persistable)
    finally:
        paddle.disable_static()


def main() -> None:
    out = {name: {"dynamic": dynamic_names(name), "static": static_names(name)} for name in OPTIMIZERS}
    path = Path(__file__).with_name("state_names.json")
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
