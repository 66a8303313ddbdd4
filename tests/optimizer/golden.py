"""Rebuild, in minipaddle, the cases that tests/golden/optimizer/make_golden.py ran on real Paddle 2.6.

The builders mirror the generator's: the same JSON spec gives the same parameters, optimizer and scheduler. The
parameters are made directly as `paddle.Parameter`s with the attributes a ParamAttr would give them, so these
tests depend on nothing but the optimizer package.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import minipaddle as paddle

GOLDEN = Path(__file__).parents[1] / "golden" / "optimizer"
OPTIMIZER_CASES = json.loads((GOLDEN / "optimizers.json").read_text())["cases"]
LR_CASES = json.loads((GOLDEN / "lr_schedulers.json").read_text())["cases"]

# The same named functions as the generator's table.
FUNCTIONS = {
    "pow_095": lambda epoch: 0.95**epoch,
    "const_09": lambda epoch: 0.9,
    "not_bias": lambda name: not name.startswith("b"),
    "is_bias": lambda param: param.name.startswith("b"),
}


def make_regularizer(spec):
    if spec is None or isinstance(spec, float):
        return spec
    kind, coeff = spec
    return {"L1": paddle.regularizer.L1Decay, "L2": paddle.regularizer.L2Decay}[kind](coeff)


def make_clip(spec):
    if spec is None:
        return None
    spec = dict(spec)
    return getattr(paddle.nn, spec.pop("type"))(**spec)


def make_scheduler(spec):
    if not isinstance(spec, dict):
        return spec
    kwargs = dict(spec["kwargs"])
    if "lr_lambda" in kwargs:
        kwargs["lr_lambda"] = FUNCTIONS[kwargs["lr_lambda"]]
    if isinstance(kwargs.get("learning_rate"), dict):
        kwargs["learning_rate"] = make_scheduler(kwargs["learning_rate"])
    return getattr(paddle.optimizer.lr, spec["type"])(**kwargs)


def make_param(spec) -> paddle.Parameter:
    """A Parameter as `paddle.create_parameter(attr=ParamAttr(...))` makes it: name, values, lr factor,
    regularizer, need_clip."""
    p = paddle.Parameter(np.array(spec["value"], dtype=spec["dtype"]), name=spec["name"])
    p.optimize_attr = {"learning_rate": spec.get("lr", 1.0)}
    p.regularizer = make_regularizer(spec.get("regularizer"))
    p.need_clip = spec.get("need_clip", True)
    return p


def make_optimizer(case, params, learning_rate):
    kwargs = dict(case["kwargs"])
    if "weight_decay" in kwargs:
        kwargs["weight_decay"] = make_regularizer(kwargs["weight_decay"])
    if "grad_clip" in kwargs:
        kwargs["grad_clip"] = make_clip(kwargs["grad_clip"])
    for key in ("apply_decay_param_fun", "exclude_from_weight_decay_fn"):
        if key in kwargs:
            kwargs[key] = FUNCTIONS[kwargs[key]]
    parameters = params
    if "groups" in case:
        by_name = {p.name: p for p in params}
        parameters = []
        for g in case["groups"]:
            g = dict(g, params=[by_name[n] for n in g["params"]])
            if "weight_decay" in g:
                g["weight_decay"] = make_regularizer(g["weight_decay"])
            if "grad_clip" in g:
                g["grad_clip"] = make_clip(g["grad_clip"])
            parameters.append(g)
    return getattr(paddle.optimizer, case["optimizer"])(learning_rate=learning_rate, parameters=parameters, **kwargs)


def build(case):
    """(params, optimizer, scheduler or None) for a case, under fresh name counters (as the generator)."""
    params = [make_param(s) for s in case["params"]]
    scheduler = make_scheduler(case["learning_rate"])
    return params, make_optimizer(case, params, scheduler), scheduler


def run_step(case, params, opt, scheduler, grads: dict) -> float:
    """One step as the generator ran it: sum(param * G).backward(), step (or minimize), clear_grad, scheduler."""
    loss = None
    for p in params:
        term = (p * paddle.to_tensor(np.array(grads[p.name], dtype=p.dtype.name))).sum()
        loss = term if loss is None else loss + term
    loss.backward()
    lr = opt.get_lr()
    if case.get("minimize"):
        opt.minimize(loss)
    else:
        opt.step()
    opt.clear_grad()
    if isinstance(scheduler, paddle.optimizer.lr.LRScheduler):
        scheduler.step()
    return lr
