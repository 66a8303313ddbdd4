"""A training Program that paddle.static.amp.decorate (or decorate_bf16) minimized, written as minipaddle's JSON
program and read back (static/serialize.py), is the same Program: it keeps `amp_loss_scaling` (what the decorator
was asked for, which the .pdmodel writer follows), so it writes the same Paddle file and trains on with the same
losses, loss scale, step counters, parameters and moments, overflowing steps included."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.pdmodel import write_program_desc

STEPS = 6
SCALING = dict(init_loss_scaling=3e38, incr_every_n_steps=2, decr_every_n_nan_or_inf=1)  # the first steps overflow
CASES = {
    "o1_fp16_dynamic_sgd": lambda: paddle.static.amp.decorate(paddle.optimizer.SGD(0.01), level="O1", **SCALING),
    "o2_fp16_dynamic_adam": lambda: paddle.static.amp.decorate(paddle.optimizer.Adam(0.001), level="O2", **SCALING),
    "o2_fp16_static_momentum": lambda: paddle.static.amp.decorate(
        paddle.optimizer.Momentum(0.01, 0.9), level="O2", use_dynamic_loss_scaling=False, init_loss_scaling=8.0
    ),
    "o1_bf16_decorate_sgd": lambda: paddle.static.amp.decorate(paddle.optimizer.SGD(0.01), dtype="bfloat16"),
    "o2_bf16_sgd": lambda: paddle.static.amp.bf16.decorate_bf16(paddle.optimizer.SGD(0.01), use_pure_bf16=True,
                                                                use_bf16_guard=False),
}  # fmt: skip


def _minimized(case: str) -> tuple:
    paddle.seed(0)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        h = paddle.nn.functional.relu(paddle.static.nn.fc(x, 16))
        loss = paddle.mean(paddle.nn.functional.cross_entropy(paddle.static.nn.fc(h, 4), y))
        opt = CASES[case]()
        opt.minimize(loss)
    return main, startup, loss, opt


def _trained(program, start_values: dict, feed: dict, names: list) -> tuple:
    """STEPS steps of `program` in a fresh scope that starts from `start_values`: (fetched per step, persistables)."""
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        for name, value in start_values.items():
            scope.var(name).get_tensor().set(value.copy(), paddle.CPUPlace())
        exe = paddle.static.Executor()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the overflowing steps
            steps = [[np.asarray(v) for v in exe.run(program, feed=feed, fetch_list=names)] for _ in range(STEPS)]
        persistables = {v.name: np.array(scope.find_var(v.name).get_tensor()) for v in program.list_vars()
                        if v.persistable and scope.find_var(v.name) is not None}  # fmt: skip
    return steps, persistables


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_decorated_program_round_trips_through_the_json_format_and_trains_equal(static_mode, case):
    main, startup, loss, opt = _minimized(case)
    back = paddle.static.deserialize_program(main.to_json().encode("utf-8"))
    assert main.amp_loss_scaling is not None and back.amp_loss_scaling == main.amp_loss_scaling
    assert write_program_desc(back) == write_program_desc(main)  # the same Paddle file, loss scaling ops and all
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        paddle.static.Executor().run(startup)
        opt.amp_init(paddle.CPUPlace(), scope=scope)  # O2: the float16 parameters, as paddle's
        start = {n: np.array(scope.find_var(n).get_tensor()) for n in scope.vars}
    rng = np.random.default_rng(0)
    feed = {"x": (rng.standard_normal((6, 8)) * 10).astype("float32"), "y": rng.integers(0, 4, (6, 1))}
    names = [loss.name] + (["loss_scaling_0"] if back.global_block().has_var("loss_scaling_0") else [])
    before, before_state = _trained(main, start, feed, names)
    after, after_state = _trained(back, start, feed, names)
    for step_before, step_after in zip(before, after):
        for a, b in zip(step_before, step_after):
            np.testing.assert_array_equal(a, b)
    assert before_state.keys() == after_state.keys()
    for name in before_state:
        assert before_state[name].dtype == after_state[name].dtype, name
        np.testing.assert_array_equal(before_state[name], after_state[name], err_msg=name)
    if main.amp_loss_scaling.updates_the_scale:  # the case's overflows happened and the scale moved
        scales = [float(s[1].reshape(-1)[0]) for s in before]
        assert scales[0] < 3e38 and len(set(scales)) > 1


def test_a_damaged_amp_loss_scaling_is_refused_by_name(static_mode):
    main, _, _, _ = _minimized("o1_fp16_dynamic_sgd")
    data = json.loads(main.to_json())
    data["amp_loss_scaling"]["level"] = "O3"
    with pytest.raises(ValueError, match="damaged 'amp_loss_scaling'.*'level': 'O1' \\| 'O2'"):
        paddle.static.deserialize_program(json.dumps(data).encode("utf-8"))
    del data["amp_loss_scaling"]
    assert paddle.static.deserialize_program(json.dumps(data).encode("utf-8")).amp_loss_scaling is None
