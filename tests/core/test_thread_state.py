"""State per thread (DESIGN.md wall 6): grad mode, static mode, the Layer scope and the hooks are each thread's own;
the default dtype, the seed and the flags are shared by the process, as in Paddle."""

import threading

import numpy as np

import minipaddle as paddle
from minipaddle.core.state import STATE


def _train_mlp(seed: int, steps: int = 30) -> list:
    """A small MLP trained with SGD on fixed data; its parameters at the end."""
    rng = np.random.default_rng(seed)
    x = paddle.to_tensor(rng.standard_normal((32, 8)).astype("float32"))
    y = paddle.to_tensor(rng.integers(0, 3, (32,)).astype("int64"))
    layers = [paddle.nn.Linear(8, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 3)]
    w = rng.standard_normal  # deterministic weights, independent of the shared generator
    for layer in (layers[0], layers[2]):
        layer.weight.set_value(w(layer.weight.shape).astype("float32") * 0.3)
        layer.bias.set_value(np.zeros(layer.bias.shape, "float32"))
    net = paddle.nn.Sequential(*layers)
    opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    return [p.numpy().copy() for p in net.parameters()]


def test_two_threads_training_at_once_equal_running_one_after_the_other():
    expected = [_train_mlp(1), _train_mlp(2)]
    results = {}
    start = threading.Barrier(2)

    def work(seed):
        start.wait()
        results[seed] = _train_mlp(seed, steps=30)

    threads = [threading.Thread(target=work, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    for seed, want in zip((1, 2), expected):
        for got, ref in zip(results[seed], want):
            np.testing.assert_array_equal(got, ref)  # bit for bit


def test_no_grad_and_enable_static_stay_in_their_thread():
    inside = threading.Event()
    release = threading.Event()
    seen = {}

    def other():
        with paddle.no_grad():
            paddle.enable_static()
            inside.set()
            release.wait(timeout=30)
            seen["static_there"] = not paddle.in_dynamic_mode()
            paddle.disable_static()

    t = threading.Thread(target=other)
    t.start()
    assert inside.wait(timeout=30)
    try:
        # While the other thread is in no_grad and static mode, this one records gradients and runs ops now.
        assert paddle.in_dynamic_mode() and paddle.is_grad_enabled()
        x = paddle.to_tensor([2.0], stop_gradient=False)
        (x * x).sum().backward()
        assert float(x.grad) == 4.0
    finally:
        release.set()
        t.join(timeout=30)
    assert seen["static_there"]


def test_a_new_thread_starts_from_the_defaults_but_shares_dtype_and_seed():
    seen = {}

    def other():
        seen["grad"] = STATE.grad_enabled
        seen["dtype"] = paddle.get_default_dtype()
        seen["scope"] = STATE.scope
        seen["draw"] = paddle.rand([3]).numpy()

    paddle.set_default_dtype("float64")
    try:
        with paddle.no_grad():
            paddle.seed(7)
            t = threading.Thread(target=other)
            t.start()
            t.join(timeout=30)
        paddle.seed(7)
        assert seen["grad"] is True and seen["scope"] == ""
        assert seen["dtype"] == "float64"  # process-wide, as in Paddle
        np.testing.assert_array_equal(seen["draw"], paddle.rand([3]).numpy())  # one generator for the process
    finally:
        paddle.set_default_dtype("float32")
