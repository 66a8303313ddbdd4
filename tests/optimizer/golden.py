"""Rebuild, in minipaddle, the cases that tests/golden/optimizer/make_golden.py ran on real Paddle 2.6.

The optimizers, schedulers and steps come from the generator's own builders (tests/golden/optimizer/specs.py,
given minipaddle as `paddle`), so the same JSON spec means the same thing on both sides. The parameters are made
directly as `paddle.Parameter`s with the attributes a ParamAttr would give them, so these tests depend on nothing
but the optimizer package.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.golden.optimizer import specs
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = GOLDEN_ROOT / "optimizer"
OPTIMIZER_CASES = read_json(GOLDEN / "optimizers.json")["cases"]
LR_CASES = read_json(GOLDEN / "lr_schedulers.json")["cases"]


def make_param(spec) -> paddle.Parameter:
    """A Parameter as `paddle.create_parameter(attr=ParamAttr(...))` makes it: name, values, lr factor,
    regularizer, need_clip."""
    p = paddle.Parameter(np.array(spec["value"], dtype=spec["dtype"]), name=spec["name"])
    p.optimize_attr = {"learning_rate": spec.get("lr", 1.0)}
    p.regularizer = specs.make_regularizer(paddle, spec.get("regularizer"))
    p.need_clip = spec.get("need_clip", True)
    return p


def build(case):
    """(params, optimizer, scheduler or None) for a case, under fresh name counters (as the generator)."""
    params = [make_param(s) for s in case["params"]]
    scheduler = specs.make_scheduler(paddle, case["learning_rate"])
    return params, specs.make_optimizer(paddle, case, params, scheduler), scheduler
