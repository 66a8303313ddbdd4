"""Reading the JSON specs of optimizers.json and lr_schedulers.json, once for both sides: make_golden.py runs them
on real Paddle 2.6, tests/optimizer/ replays them on minipaddle. Every function takes the framework as `paddle`
(the same Paddle 2.x lines run on both), so a spec always means the same optimizer, scheduler and step.

make_golden.py imports this file as its sibling module `specs`; the tests as `tests.golden.optimizer.specs`.
"""

import numpy as np

# The functions a spec names (LambdaDecay's lr_lambda, AdamW's apply_decay_param_fun, ...): JSON holds no code.
FUNCTIONS = {
    "pow_095": lambda epoch: 0.95**epoch,
    "const_09": lambda epoch: 0.9,
    "not_bias": lambda name: not name.startswith("b"),
    "is_bias": lambda param: param.name.startswith("b"),
}


def make_regularizer(paddle, spec):
    if spec is None or isinstance(spec, float):
        return spec
    kind, coeff = spec
    return {"L1": paddle.regularizer.L1Decay, "L2": paddle.regularizer.L2Decay}[kind](coeff)


def make_clip(paddle, spec):
    if spec is None:
        return None
    spec = dict(spec)
    return getattr(paddle.nn, spec.pop("type"))(**spec)


def make_scheduler(paddle, spec):
    """An LRScheduler from {"type", "kwargs"} (a nested one for LinearWarmup's learning_rate), or a float as is."""
    if not isinstance(spec, dict):
        return spec
    kwargs = dict(spec["kwargs"])
    if "lr_lambda" in kwargs:
        kwargs["lr_lambda"] = FUNCTIONS[kwargs["lr_lambda"]]
    if isinstance(kwargs.get("learning_rate"), dict):
        kwargs["learning_rate"] = make_scheduler(paddle, kwargs["learning_rate"])
    return getattr(paddle.optimizer.lr, spec["type"])(**kwargs)


def make_optimizer(paddle, case, params, learning_rate):
    """The case's optimizer over `params` (or over the parameter groups the case names)."""
    kwargs = dict(case["kwargs"])
    if "weight_decay" in kwargs:
        kwargs["weight_decay"] = make_regularizer(paddle, kwargs["weight_decay"])
    if "grad_clip" in kwargs:
        kwargs["grad_clip"] = make_clip(paddle, kwargs["grad_clip"])
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
                g["weight_decay"] = make_regularizer(paddle, g["weight_decay"])
            if "grad_clip" in g:
                g["grad_clip"] = make_clip(paddle, g["grad_clip"])
            parameters.append(g)
    return getattr(paddle.optimizer, case["optimizer"])(learning_rate=learning_rate, parameters=parameters, **kwargs)


def run_step(paddle, case, params, opt, scheduler, grads: dict) -> float:
    """One step: sum(param * G).backward() (so the gradient is exactly G), get_lr(), step (or minimize),
    clear_grad, then the scheduler's step. Returns the learning rate of the step."""
    loss = None
    for p in params:
        term = (p * paddle.to_tensor(np.array(grads[p.name], dtype=p.numpy().dtype))).sum()
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


def replay_scheduler(paddle, case):
    """(scheduler, its learning rate at the start and after each step), stepped with the case's metrics, epochs
    or plain steps."""
    scheduler = make_scheduler(paddle, {"type": case["type"], "kwargs": case["kwargs"]})
    lrs = [scheduler()]
    if case["metrics"] is not None:
        for m in case["metrics"]:
            scheduler.step(m)
            lrs.append(scheduler())
    elif case["epochs"] is not None:
        for e in case["epochs"]:
            scheduler.step(e)
            lrs.append(scheduler())
    else:
        for _ in range(case["steps"]):
            scheduler.step()
            lrs.append(scheduler())
    return scheduler, lrs
