"""What the ranks run in tests/distributed/test_amp_data_parallel.py: DataParallel with the user's own auto_cast
and GradScaler (top-level functions, so spawn finds them by name; each rank checks itself with asserts).

paddle 2.6.2's GradScaler does no communication of its own: DataParallel has averaged the gradients by the end of
backward, so an Inf or NaN in one rank's gradient is in every rank's average, each rank's check_finite_and_unscale
finds it, and every rank skips the step and shrinks its scale alike. (fleet.distributed_scaler all-reduces
found_inf only in hybrid parallel modes, where ranks hold different gradients; in data parallel it returns the
scaler as it is.)
"""

from __future__ import annotations

import warnings

import numpy as np

import minipaddle as paddle
import minipaddle.distributed as dist
from minipaddle import nn
from minipaddle.distributed import fleet


class NormNet(nn.Layer):
    """Linear -> LayerNorm -> tanh -> Linear: under O2 (float16) the Linears are float16 and the LayerNorm stays
    float32, so DataParallel all-reduces a float16 and a float32 bucket."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.norm = nn.LayerNorm(16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(paddle.tanh(self.norm(self.fc1(x))))


def _everyone(value) -> list:
    """`value` from every rank, in rank order."""
    out = []
    dist.all_gather_object(out, value)
    return out


def _state(model, opt) -> dict:
    """Every parameter, master weight and optimizer moment, as numpy arrays."""
    state = {f"param:{n}": p.numpy().copy() for n, p in model.named_parameters()}
    for key, value in opt.state_dict().items():
        if hasattr(value, "numpy"):
            state[f"opt:{key}"] = np.array(value.numpy(), copy=True)
    return state


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)


def _step(model, opt, scaler, x, y, level: str, poison=None) -> float:
    """One AMP step of this rank on its share (x, y); `poison(model)` may plant a non-finite gradient first."""
    with paddle.amp.auto_cast(level=level):
        out = model(paddle.to_tensor(x, dtype="float32"))
    loss = ((out.astype("float32") - paddle.to_tensor(y, dtype="float32")) ** 2).mean()
    handles = poison(model) if poison is not None else []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an Inf step's arithmetic
        scaler.scale(loss).backward()
        scaler.step(opt)
    scaler.update()
    opt.clear_grad()
    for h in handles:
        h.remove()
    return float(scaler.get_loss_scaling().numpy()[0])


def _inf_gradient_on_rank_1(name: str):
    """A gradient hook that makes parameter `name`'s gradient Inf on rank 1 only: one gradient, one rank."""

    def poison(model):
        if dist.get_rank() != 1:
            return []
        param = dict(model._layers.named_parameters())[name]
        return [param.register_hook(lambda g: g * float("inf"))]

    return poison


def one_inf_gradient_skips_the_step_on_every_rank() -> None:
    """O1 (float32 parameters, SGD and Adam) and O2 (float16 parameters with a float32 LayerNorm, Adam with master
    weights): a step where one gradient is Inf on one rank only (a gradient hook; once in the float32 group, once
    in the float16 one), or where one rank's input holds an Inf, changes no parameter, master weight or moment on
    any rank, and every rank's scale shrinks alike; the good steps around it keep the ranks equal."""
    fleet.init(is_collective=True)
    r, n = dist.get_rank(), dist.get_world_size()
    assert n == 2
    rng = np.random.default_rng(3)
    xs, ys = rng.normal(size=(8, 4 * n, 6)), rng.normal(size=(8, 4 * n, 3))
    cases = [
        ("O1", "sgd", "fc1.weight"),
        ("O1", "adam", "norm.bias"),
        ("O2", "adam", "norm.weight"),  # float32 under O2: the float32 bucket
        ("O2", "adam", "fc2.bias"),  # float16 under O2: the float16 bucket
    ]
    for level, kind, poisoned in cases:
        paddle.seed(20 + r)  # different weights per rank: DataParallel broadcasts rank 0's
        net = NormNet()
        opt = (paddle.optimizer.SGD(0.05, parameters=net.parameters()) if kind == "sgd"
               else paddle.optimizer.Adam(0.01, parameters=net.parameters()))  # fmt: skip
        if level == "O2":
            net, opt = paddle.amp.decorate(net, opt, level="O2")
            assert net.norm.weight.dtype == paddle.float32 and net.fc1.weight.dtype == paddle.float16
        model = paddle.DataParallel(net)  # (after decorate, as paddle requires)
        scaler = fleet.distributed_scaler(paddle.amp.GradScaler(init_loss_scaling=1024.0, incr_every_n_steps=2))
        share = slice(r * 4, (r + 1) * 4)
        scales = []
        for step, (x, y) in enumerate(zip(xs, ys)):
            poison = _inf_gradient_on_rank_1(poisoned) if step == 3 else None
            x = x[share].copy()
            if step == 5 and r == 0:
                x[0, 0] = np.inf  # an Inf in rank 0's batch only: its loss and every gradient of it
            before = _state(net, opt)
            scales.append(_step(model, opt, scaler, x, y[share], level, poison))
            after = _state(net, opt)
            where = f"{level} {kind}, step {step}"
            if step in (3, 5):
                assert _same(before, after), f"{where}: a rank updated on an overflowing step"
                assert scales[-1] == scales[-2] / 2 if step else True, (where, scales)
            else:
                assert not _same(before, after), f"{where}: a good step was skipped"
            states = _everyone(after)
            assert _same(states[0], states[1]), f"{where}: the ranks differ"
        everyone = _everyone(scales)
        assert everyone[0] == everyone[1], everyone
        assert scales[1:4] == [2048.0, 2048.0, 1024.0] and scales[5] == 512.0, scales  # grew, shrank twice
        assert [rec.found_inf for rec in scaler.history] == [s in (3, 5) for s in range(len(xs))]


def distributed_scaler_needs_fleet_and_a_scaler() -> None:
    """fleet.distributed_scaler before fleet.init is a RuntimeError (paddle's needs the fleet's parallel mode);
    anything but a GradScaler is a TypeError; it returns the scaler itself (data parallel)."""
    dist.init_parallel_env()
    try:
        fleet.distributed_scaler(paddle.amp.GradScaler())
    except RuntimeError as e:
        assert "fleet.init" in str(e), e
    else:
        raise AssertionError("distributed_scaler before fleet.init was accepted")
    fleet.init(is_collective=True)
    try:
        fleet.distributed_scaler("scaler")
    except TypeError as e:
        assert "GradScaler" in str(e), e
    else:
        raise AssertionError("distributed_scaler('scaler') was accepted")
    scaler = paddle.amp.GradScaler()
    assert fleet.distributed_scaler(scaler) is scaler
