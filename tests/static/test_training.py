"""Training in static mode: optimizer.minimize appends backward and update ops, and a static MLP / CNN trains
to the same losses as the same model in dynamic mode from the same weights."""

import numpy as np
import pytest

import minipaddle as paddle


def _mlp():
    return paddle.nn.Sequential(paddle.nn.Linear(6, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 3))


def _cnn():
    return paddle.nn.Sequential(
        paddle.nn.Conv2D(1, 4, 3, padding=1), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2), paddle.nn.Flatten(),
        paddle.nn.Linear(4 * 4 * 4, 3),
    )  # fmt: skip


def _data(shape, n=16, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, *shape)).astype("float32"), rng.integers(0, 3, (n, 1)).astype("int64")


OPTIMIZERS = {
    "sgd": lambda params: paddle.optimizer.SGD(learning_rate=0.1, parameters=params),
    "momentum": lambda params: paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=params),
    "adam": lambda params: paddle.optimizer.Adam(learning_rate=0.01, parameters=params),
    "adamw": lambda params: paddle.optimizer.AdamW(learning_rate=0.01, parameters=params, weight_decay=0.1),
}


def _dynamic_losses(build, make_opt, x, y, weights, steps):
    net = build()
    net.set_state_dict(weights)
    opt = make_opt(net.parameters())
    losses = []
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(net(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses


@pytest.mark.parametrize("model", ["mlp", "cnn"])
@pytest.mark.parametrize("opt_name", list(OPTIMIZERS))
def test_static_training_matches_dynamic(static_mode, model, opt_name):
    build, in_shape = {"mlp": (_mlp, (6,)), "cnn": (_cnn, (1, 8, 8))}[model]
    x, y = _data(in_shape)
    paddle.seed(7)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        xs = paddle.static.data("x", [-1, *in_shape], "float32")
        ys = paddle.static.data("y", [-1, 1], "int64")
        net = build()
        loss = paddle.nn.functional.cross_entropy(net(xs), ys)
        OPTIMIZERS[opt_name](None).minimize(loss)
    roles = {op.role for op in main.global_block().ops}
    assert roles == {"forward", "backward", "optimize"}
    exe, scope = paddle.static.Executor(), paddle.static.Scope()
    exe.run(startup, scope=scope)
    weights = {k: scope.vars[p.name].copy() for k, p in net.state_dict().items()}
    static_losses = [exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss], scope=scope)[0].item() for _ in range(5)]

    paddle.disable_static()
    dynamic_losses = _dynamic_losses(build, OPTIMIZERS[opt_name], x, y, weights, 5)
    paddle.enable_static()
    np.testing.assert_allclose(static_losses, dynamic_losses, rtol=2e-5)
    assert static_losses[-1] < static_losses[0]


def test_lr_scheduler_steps_between_runs(static_mode):
    x, y = _data((6,))
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=1, gamma=0.1)
    net = _mlp()
    loss = paddle.nn.functional.cross_entropy(net(paddle.static.data("x", [-1, 6], "float32")),
                                              paddle.static.data("y", [-1, 1], "int64"))  # fmt: skip
    paddle.optimizer.SGD(learning_rate=sched).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(paddle.static.default_startup_program())
    w = net[0].weight.name
    deltas = []
    for _ in range(3):
        before = paddle.static.global_scope().vars[w].copy()
        exe.run(feed={"x": x, "y": y}, fetch_list=[loss])
        deltas.append(np.abs(paddle.static.global_scope().vars[w] - before).max())
        sched.step()
    assert deltas[0] > 5 * deltas[1] > 25 * deltas[2] > 0  # each step's update shrinks with the learning rate
