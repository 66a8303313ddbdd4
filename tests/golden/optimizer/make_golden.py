"""Record what real Paddle 2.6 optimizers and learning-rate schedulers do, step by step, as golden cases for
tests/optimizer/.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/optimizer/make_golden.py

It writes two files next to this one:
- optimizers.json: for each case, the optimizer and its arguments, the parameters (name, values, ParamAttr
  learning rate, regularizer, need_clip), the gradient of every step, and what Paddle gives after each step:
  every parameter's values, get_lr(), and at the end the optimizer's state_dict (names and values).
- lr_schedulers.json: for each scheduler, the learning rate after each step (and the printed lines when verbose,
  and its state_dict at the end).

The gradients are fixed numbers: each step runs `sum(param * G).backward()`, whose gradient is exactly G.
How a spec becomes an optimizer, a scheduler and a step is in specs.py beside this file, which the tests use too
(functions such as LambdaDecay's lr_lambda are named there, in FUNCTIONS). The tests need no Paddle.
"""

import contextlib
import io
import json
import os

import numpy as np
import paddle
from specs import make_optimizer, make_regularizer, make_scheduler, replay_scheduler, run_step

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 4
rng = np.random.default_rng(2026)


def values(shape, scale=1.0, dtype="float32"):
    """Seeded values as nested lists of the float32 (or float64) numbers themselves."""
    return (rng.standard_normal(shape) * scale).astype(dtype).tolist()


def param_spec(name, shape, dtype="float32", **extra):
    return {"name": name, "shape": list(shape), "dtype": dtype, "value": values(shape, 1.0, dtype), **extra}


def two_params(**b_extra):
    return [param_spec("w0", [3, 4]), param_spec("b0", [4], **b_extra)]


# ---- running the cases on Paddle (specs.py reads the rest of a spec) ----------------------------------------


def make_param(spec):
    attr = paddle.ParamAttr(
        name=spec["name"],
        learning_rate=spec.get("lr", 1.0),
        regularizer=make_regularizer(paddle, spec.get("regularizer")),
        need_clip=spec.get("need_clip", True),
        initializer=paddle.nn.initializer.Assign(np.array(spec["value"], spec["dtype"])),
    )
    return paddle.create_parameter(spec["shape"], spec["dtype"], attr=attr)


def run_optimizer_case(case):
    with paddle.utils.unique_name.guard():
        params = [make_param(s) for s in case["params"]]
        scheduler = make_scheduler(paddle, case["learning_rate"])
        opt = make_optimizer(paddle, case, params, scheduler)
        scale = case.get("grad_scale", 1.0)
        case["grads"] = [
            {s["name"]: values(s["shape"], scale, s["dtype"]) for s in case["params"]} for _ in range(STEPS)
        ]
        case["expected"] = []
        for step_grads in case["grads"]:
            lr = run_step(paddle, case, params, opt, scheduler, step_grads)
            case["expected"].append({"lr": lr, "params": {p.name: p.numpy().tolist() for p in params}})
        state = opt.state_dict()
        case["state_dict"] = {
            k: (v if k == "LR_Scheduler" else np.asarray(v.numpy()).tolist())
            for k, v in state.items()
            if k != "master_weights"
        }
    return case


# ---- the optimizer cases ----------------------------------------------------------------------------------

L2, L1 = "L2", "L1"


def case(name, optimizer, learning_rate=0.1, params=None, **kwargs):
    spec = {"name": name, "optimizer": optimizer, "learning_rate": learning_rate, "params": params or two_params()}
    for key in ("groups", "minimize", "grad_scale"):
        if key in kwargs:
            spec[key] = kwargs.pop(key)
    spec["kwargs"] = kwargs
    return spec


def step_decay(lr=0.1):
    return {"type": "StepDecay", "kwargs": {"learning_rate": lr, "step_size": 2, "gamma": 0.5}}


OPTIMIZER_CASES = [
    # SGD and what every optimizer shares: weight decay, ParamAttr, clipping, schedulers, groups, minimize
    case("sgd", "SGD"),
    case("sgd_l2_float", "SGD", weight_decay=0.05),
    case("sgd_l1", "SGD", weight_decay=[L1, 0.05]),
    case(
        "sgd_paramattr_lr_and_regularizer",
        "SGD",
        weight_decay=0.05,
        params=[param_spec("w0", [3, 4], lr=0.5), param_spec("b0", [4], regularizer=[L1, 0.1])],
    ),
    case("sgd_clip_by_value", "SGD", grad_clip={"type": "ClipGradByValue", "max": 0.5, "min": -0.3}),
    case("sgd_clip_by_value_symmetric", "SGD", grad_clip={"type": "ClipGradByValue", "max": 0.4}),
    case("sgd_clip_by_norm", "SGD", grad_clip={"type": "ClipGradByNorm", "clip_norm": 1.0}),
    case("sgd_clip_by_global_norm", "SGD", grad_clip={"type": "ClipGradByGlobalNorm", "clip_norm": 1.0}),
    case(
        "sgd_clip_global_need_clip_false",
        "SGD",
        grad_clip={"type": "ClipGradByGlobalNorm", "clip_norm": 1.0},
        params=two_params(need_clip=False),
    ),
    case("sgd_clip_global_not_reached", "SGD", grad_clip={"type": "ClipGradByGlobalNorm", "clip_norm": 100.0}),
    case("sgd_clip_then_decay", "SGD", weight_decay=0.5, grad_clip={"type": "ClipGradByNorm", "clip_norm": 0.5}),
    case("sgd_step_decay", "SGD", learning_rate=step_decay()),
    case("sgd_minimize", "SGD", minimize=True),
    case(
        "sgd_groups",
        "SGD",
        weight_decay=0.05,
        groups=[{"params": ["w0"]}, {"params": ["b0"], "learning_rate": 0.1, "weight_decay": [L1, 0.2]}],
    ),
    case("sgd_float64", "SGD", params=[param_spec("w0", [3, 4], "float64"), param_spec("b0", [4], "float64")]),
    # Momentum
    case("momentum", "Momentum", momentum=0.9),
    case("momentum_nesterov", "Momentum", momentum=0.8, use_nesterov=True),
    case("momentum_l2_float", "Momentum", weight_decay=0.05),
    # (rescale_grad is left at 1: Paddle 2.6's CPU kernel ignores it, its GPU kernel and its docs apply it; minipaddle
    # applies it, checked in tests/optimizer/test_optimizer.py)
    case("momentum_l2_nesterov", "Momentum", weight_decay=[L2, 0.05], use_nesterov=True),
    case("momentum_l1", "Momentum", weight_decay=[L1, 0.05]),
    case(
        "momentum_paramattr_regularizers",
        "Momentum",
        weight_decay=[L1, 0.05],
        params=[param_spec("w0", [3, 4], regularizer=[L2, 0.1]), param_spec("b0", [4], lr=2.0)],
    ),
    case(
        "momentum_groups",
        "Momentum",
        momentum=0.9,
        groups=[{"params": ["w0"], "weight_decay": 0.01}, {"params": ["b0"], "momentum": 0.5, "learning_rate": 0.5}],
    ),
    # Adam
    case("adam", "Adam"),
    case("adam_betas_epsilon", "Adam", beta1=0.8, beta2=0.99, epsilon=1e-3),
    case("adam_l2_coupled", "Adam", weight_decay=0.1),
    case(
        "adam_global_clip_and_cosine",
        "Adam",
        learning_rate={"type": "CosineAnnealingDecay", "kwargs": {"learning_rate": 0.1, "T_max": 3}},
        grad_clip={"type": "ClipGradByGlobalNorm", "clip_norm": 0.5},
    ),
    case("adam_groups", "Adam", groups=[{"params": ["w0"]}, {"params": ["b0"], "beta1": 0.5, "learning_rate": 0.2}]),
    case("adam_paramattr_lr", "Adam", params=[param_spec("w0", [3, 4], lr=0.3), param_spec("b0", [4])]),
    # AdamW
    case("adamw", "AdamW", weight_decay=0.1),
    case("adamw_apply_decay_param_fun", "AdamW", weight_decay=0.1, apply_decay_param_fun="not_bias"),
    case(
        "adamw_groups", "AdamW", weight_decay=0.1, groups=[{"params": ["w0"]}, {"params": ["b0"], "weight_decay": 0.5}]
    ),
    case(
        "adamw_paramattr_regularizer",
        "AdamW",
        weight_decay=0.1,
        params=[param_spec("w0", [3, 4], regularizer=[L2, 0.2]), param_spec("b0", [4])],
    ),
    case("adamw_scheduler", "AdamW", weight_decay=0.05, learning_rate=step_decay(0.05)),
    # Adamax, Adagrad, Adadelta, RMSProp, Lamb
    case("adamax", "Adamax"),
    case("adamax_l2_betas", "Adamax", weight_decay=0.05, beta1=0.7, beta2=0.9, epsilon=1e-4),
    case("adagrad", "Adagrad"),
    case("adagrad_initial_accumulator", "Adagrad", initial_accumulator_value=0.5, epsilon=1e-3, weight_decay=0.05),
    case("adadelta", "Adadelta", learning_rate=1.0),
    case("adadelta_rho_epsilon", "Adadelta", learning_rate=0.5, rho=0.8, epsilon=1e-3),
    case("rmsprop", "RMSProp", learning_rate=0.01),
    case("rmsprop_momentum", "RMSProp", learning_rate=0.01, momentum=0.9, rho=0.9),
    case("rmsprop_centered", "RMSProp", learning_rate=0.01, centered=True),
    case(
        "rmsprop_centered_momentum_l1",
        "RMSProp",
        learning_rate=0.01,
        centered=True,
        momentum=0.5,
        weight_decay=[L1, 0.01],
    ),
    case("lamb", "Lamb"),
    case("lamb_exclude_bias", "Lamb", lamb_weight_decay=0.1, exclude_from_weight_decay_fn="is_bias"),
    case("lamb_no_decay", "Lamb", lamb_weight_decay=0.0),
    case("lamb_no_decay_always_adapt", "Lamb", lamb_weight_decay=0.0, always_adapt=True, beta1=0.8, epsilon=1e-4),
]

# ---- the learning-rate schedulers -------------------------------------------------------------------------

LR_STEPS = 14


def sched(name, type_, steps=LR_STEPS, epochs=None, metrics=None, verbose=False, **kwargs):
    return {"name": name, "type": type_, "kwargs": {**kwargs, **({"verbose": True} if verbose else {})},
            "steps": steps, "epochs": epochs, "metrics": metrics}  # fmt: skip


LR_CASES = [
    sched("noam", "NoamDecay", d_model=64, warmup_steps=4, learning_rate=2.0),
    sched("piecewise", "PiecewiseDecay", boundaries=[3, 6, 9], values=[1.0, 0.5, 0.25, 0.1]),
    sched("natural_exp", "NaturalExpDecay", learning_rate=0.5, gamma=0.1),
    sched("inverse_time", "InverseTimeDecay", learning_rate=0.5, gamma=0.2),
    sched("polynomial", "PolynomialDecay", learning_rate=0.5, decay_steps=5, end_lr=0.01, power=2.0),
    sched("polynomial_cycle", "PolynomialDecay", learning_rate=0.5, decay_steps=4, end_lr=0.0, cycle=True),
    sched("linear_warmup_float", "LinearWarmup", learning_rate=0.5, warmup_steps=4, start_lr=0.0, end_lr=0.5),
    sched(
        "linear_warmup_scheduler",
        "LinearWarmup",
        warmup_steps=3,
        start_lr=0.01,
        end_lr=0.1,
        learning_rate={"type": "StepDecay", "kwargs": {"learning_rate": 0.1, "step_size": 2, "gamma": 0.5}},
    ),
    sched("exponential", "ExponentialDecay", learning_rate=0.5, gamma=0.8, verbose=True),
    sched("multistep", "MultiStepDecay", learning_rate=0.5, milestones=[2, 5, 9], gamma=0.5),
    sched("step", "StepDecay", learning_rate=0.5, step_size=3, gamma=0.5),
    sched("step_last_epoch", "StepDecay", learning_rate=0.5, step_size=3, gamma=0.5, last_epoch=4),
    sched("lambda", "LambdaDecay", learning_rate=0.5, lr_lambda="pow_095"),
    sched("multiplicative", "MultiplicativeDecay", learning_rate=0.5, lr_lambda="const_09"),
    sched("cosine", "CosineAnnealingDecay", learning_rate=0.5, T_max=4, eta_min=0.05),
    sched("cosine_epochs", "CosineAnnealingDecay", learning_rate=0.5, T_max=4, epochs=[0, 3, 5, 9, 2]),
    sched("one_cycle_cos", "OneCycleLR", max_learning_rate=1.0, total_steps=12, steps=12),
    sched(
        "one_cycle_linear_three_phase",
        "OneCycleLR",
        max_learning_rate=1.0,
        total_steps=12,
        steps=12,
        anneal_strategy="linear",
        three_phase=True,
        phase_pct=0.25,
        divide_factor=10.0,
    ),
    sched("cyclic_triangular", "CyclicLR", base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=3),
    sched(
        "cyclic_triangular2",
        "CyclicLR",
        base_learning_rate=0.1,
        max_learning_rate=1.0,
        step_size_up=2,
        step_size_down=3,
        mode="triangular2",
    ),
    sched(
        "cyclic_exp_range",
        "CyclicLR",
        base_learning_rate=0.1,
        max_learning_rate=1.0,
        step_size_up=2,
        mode="exp_range",
        exp_gamma=0.9,
    ),
    sched("linear_lr", "LinearLR", learning_rate=0.5, total_steps=5, start_factor=0.2, end_factor=0.9),
    sched("cosine_warm_restarts", "CosineAnnealingWarmRestarts", learning_rate=0.5, T_0=3, T_mult=2, eta_min=0.01),
    sched(
        "cosine_warm_restarts_epochs",
        "CosineAnnealingWarmRestarts",
        learning_rate=0.5,
        T_0=3,
        T_mult=2,
        epochs=[1, 4, 10, 2, 20],
    ),
    sched(
        "reduce_on_plateau_min",
        "ReduceOnPlateau",
        learning_rate=1.0,
        patience=1,
        cooldown=1,
        factor=0.5,
        metrics=[5.0, 4.0, 4.0, 4.5, 3.0, 3.0, 3.0, 3.0, 2.9999, 2.0, 2.0, 2.0],
        verbose=True,
    ),
    sched(
        "reduce_on_plateau_max_abs",
        "ReduceOnPlateau",
        learning_rate=1.0,
        mode="max",
        patience=0,
        threshold=0.5,
        threshold_mode="abs",
        min_lr=0.2,
        factor=0.5,
        metrics=[1.0, 1.2, 2.0, 2.1, 2.2, 3.0, 3.1],
    ),
]


def run_lr_case(case):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        scheduler, lrs = replay_scheduler(paddle, case)
    case["lrs"] = lrs
    case["printed"] = out.getvalue().splitlines()
    case["last_epoch"] = scheduler.last_epoch
    case["state_dict"] = scheduler.state_dict()
    return case


def main():
    optimizer_cases = [run_optimizer_case(c) for c in OPTIMIZER_CASES]
    with open(os.path.join(HERE, "optimizers.json"), "w") as f:
        json.dump({"paddle_version": paddle.__version__, "steps": STEPS, "cases": optimizer_cases}, f)
    lr_cases = [run_lr_case(c) for c in LR_CASES]
    with open(os.path.join(HERE, "lr_schedulers.json"), "w") as f:
        json.dump({"paddle_version": paddle.__version__, "cases": lr_cases}, f, indent=1)
    print(f"wrote {len(optimizer_cases)} optimizer cases and {len(lr_cases)} scheduler cases to {HERE}")


if __name__ == "__main__":
    main()
