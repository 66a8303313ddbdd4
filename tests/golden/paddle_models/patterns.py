"""The parameter values of the golden models whose weights are not stored (resnet18, mobilenet_v2, vgg11):
make_golden.py sets them in Paddle, and tests/static/test_paddle_models.py writes the same values into a
.pdiparams file. Plain integer arithmetic, so both sides get exactly the same float32 numbers. Also the static
MLP both libraries build for the static.save goldens (`static_mlp(paddle)`, given either library)."""

import numpy as np


def pattern_values(i: int, shape, kind: str = "weight") -> np.ndarray:
    """Deterministic parameter values: small, varied, exactly the same on every machine (integers / 1000)."""
    n = int(np.prod(shape)) if len(shape) else 1
    k = (np.arange(n, dtype=np.int64) * 7919 + (i + 1) * 104729) % 2001 - 1000  # in [-1000, 1000]
    v = k.astype(np.float64) / 1000.0
    if kind == "variance":
        v = np.abs(v) + 0.5
    elif kind == "weight" and len(shape) > 1:
        fan_in = n // shape[0] if len(shape) == 4 else shape[0]
        v = v * np.sqrt(3.0 / fan_in)
    return v.astype(np.float32).reshape(shape)


def kind_of(structured_name: str) -> str:
    return "variance" if structured_name.endswith("_variance") else "weight"


def static_mlp(paddle):
    """A static MLP trained one Adam step (shared by the generator and the paddle-gated tests): (main, startup,
    test program, loss, feed)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():  # names from fc_0
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 1], "float32")
        out = paddle.static.nn.fc(paddle.nn.functional.relu(paddle.static.nn.fc(x, 8)), 1)
        test = main.clone(for_test=True)
        loss = paddle.mean((out - y) ** 2)
        paddle.optimizer.Adam(0.01).minimize(loss)
    rng = np.random.default_rng(5)
    feed = {"x": rng.standard_normal((3, 4)).astype("float32"), "y": rng.standard_normal((3, 1)).astype("float32")}
    return main, startup, test, loss, feed
