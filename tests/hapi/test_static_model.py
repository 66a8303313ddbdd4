"""paddle.Model under paddle.enable_static(): the static adapter builds train/eval/test Programs and runs them with
an Executor (as Paddle's hapi StaticGraphAdapter). LeNet on the embedded digits: the losses of a few Adam steps
from the same weights equal the dynamic Model's; fit, evaluate, predict, save and load work."""

from __future__ import annotations

import contextlib
import os
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import InputSpec
from minipaddle.vision.transforms import Normalize

INPUTS = [InputSpec([None, 1, 28, 28], "float32", "image")]
LABELS = [InputSpec([None, 1], "int64", "label")]


def _digits(n=48):
    return paddle.vision.datasets.EmbeddedDigits(mode="train", num_samples=n, transform=Normalize([127.5], [127.5]))


def _batches(data, size=16):
    images = np.stack([data[i][0] for i in range(len(data))]).astype("float32")
    labels = np.stack([data[i][1] for i in range(len(data))]).astype("int64")
    return [(images[k : k + size], labels[k : k + size]) for k in range(0, len(data), size)]


@contextlib.contextmanager
def _static():
    """Static mode with fresh default Programs and a fresh global Scope (nothing leaks between tests)."""
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            with paddle.static.scope_guard(paddle.static.Scope()):
                yield
    finally:
        paddle.disable_static()


def _prepare(model):
    opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    model.prepare(opt, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    return model


@pytest.fixture(scope="module")
def dynamic_run(tmp_path_factory):
    """The dynamic Model's losses and final eval / predictions, and the starting weights saved to a file."""
    paddle.seed(7)
    net = paddle.vision.models.LeNet()
    start = str(tmp_path_factory.mktemp("start") / "lenet")
    paddle.save(net.state_dict(), start + ".pdparams")
    model = _prepare(paddle.Model(net, INPUTS, LABELS))
    batches = _batches(_digits())
    losses = [float(model.train_batch([x], [y])[0][0]) for x, y in batches]
    evaluated = model.eval_batch([batches[0][0]], [batches[0][1]])
    predicted = model.predict_batch([batches[1][0]])
    return start, batches, losses, evaluated, predicted


def test_static_model_trains_as_the_dynamic_model(dynamic_run):
    start, batches, losses, evaluated, predicted = dynamic_run
    with _static():
        model = _prepare(paddle.Model(paddle.vision.models.LeNet(), INPUTS, LABELS))
        model.load(start)  # the dynamic Model's starting weights
        got = []
        for x, y in batches:
            out, (acc,) = model.train_batch([x], [y])
            got.append(float(out[0]))
            assert 0.0 <= acc <= 1.0
        loss, (acc,) = model.eval_batch([batches[0][0]], [batches[0][1]])
        pred = model.predict_batch([batches[1][0]])
        ops = [d.type for d in model._adapter._progs["train"].global_block().ops]
    np.testing.assert_allclose(got, losses, rtol=1e-5, atol=1e-5)
    assert got[-1] < got[0]
    np.testing.assert_allclose(loss[0], evaluated[0][0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(acc, evaluated[1][0])
    np.testing.assert_allclose(pred[0], predicted[0], rtol=1e-4, atol=1e-5)
    assert "adam_param" in ops and "conv2d" in ops  # one Program: forward, backward and the Adam updates


def test_fit_evaluate_predict_and_save_load_in_static_mode(dynamic_run, tmp_path):
    start = dynamic_run[0]
    data = _digits(32)
    with _static():
        model = _prepare(paddle.Model(paddle.vision.models.LeNet(), INPUTS, LABELS))
        model.load(start)
        model.fit(data, data, batch_size=16, epochs=2, verbose=0, shuffle=False)
        assert len(model.history.train_epochs) == 2 and len(model.history.evals) == 2
        result = model.evaluate(data, batch_size=16, verbose=0)
        assert set(result) == {"loss", "acc"}
        preds = model.predict(data, batch_size=16, verbose=0, stack_outputs=True)
        assert preds[0].shape == (32, 10)

        path = str(tmp_path / "ckpt" / "final")
        model.save(path)
        assert os.path.exists(path + ".pdparams") and os.path.exists(path + ".pdopt")
        model.fit(data, batch_size=16, epochs=1, verbose=0, shuffle=False)  # move away from the checkpoint
        assert model.evaluate(data, batch_size=16, verbose=0)["loss"] != result["loss"]
        model.load(path)  # weights and Adam's moments back
        np.testing.assert_allclose(model.evaluate(data, batch_size=16, verbose=0)["loss"], result["loss"],
                                   rtol=1e-6)  # fmt: skip

        infer = str(tmp_path / "infer" / "lenet")
        model.save(infer, training=False)
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(infer, exe)
        images = np.stack([data[i][0] for i in range(16)]).astype("float32")
        (out,) = exe.run(program, feed={feeds[0]: images}, fetch_list=fetches)
    np.testing.assert_allclose(out, preds[0][:16], rtol=1e-4, atol=1e-5)

    # the static checkpoint's weights load into a dynamic Model too (same structured names)
    dyn = _prepare(paddle.Model(paddle.vision.models.LeNet(), INPUTS, LABELS))
    dyn.load(path, reset_optimizer=True)
    np.testing.assert_allclose(dyn.predict_batch([images])[0], preds[0][:16], rtol=1e-4, atol=1e-5)


def test_static_model_argument_errors():
    with _static():
        with pytest.raises(TypeError, match="'inputs' must be list or tuple or dict"):
            paddle.Model(paddle.vision.models.LeNet())
        model = paddle.Model(paddle.vision.models.LeNet(), INPUTS, LABELS)
        with pytest.raises(RuntimeError, match="call `model.prepare\\(\\)` first"):
            model.train_batch([np.zeros((1, 1, 28, 28), "float32")], [np.zeros((1, 1), "int64")])
        with pytest.raises(ValueError, match="The level of amp_configs should be 'O0', 'O1' or 'O2'"):
            model.prepare(paddle.optimizer.SGD(parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                          amp_configs="O3")  # fmt: skip
        with pytest.raises(ValueError, match="could not be recognized"):
            model.prepare(paddle.optimizer.SGD(parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                          amp_configs={"level": "O1", "loss_scale": 2.0})  # fmt: skip
        _prepare(model)
        with pytest.raises(NotImplementedError, match="update=False"):
            model.train_batch([np.zeros((1, 1, 28, 28), "float32")], [np.zeros((1, 1), "int64")], update=False)


AMP_CONFIGS = [  # (amp_configs, tolerance against the dynamic Model, steps skipped on overflow)
    ("O1", 1e-4, 0),
    # a loss scale float16 cannot hold: the first steps overflow and are skipped (the scale falls 4x each time)
    ({"level": "O1", "init_loss_scaling": 2.0**20, "decr_ratio": 0.25, "custom_black_list": ["relu"]}, 1e-4, 1),
    # static O2 casts the whole Program, the loss too (Paddle's static rewrite), the dynamic Model only the
    # forward: the losses agree to float16's rounding (use_fp16_guard=False, a static-only key: cast every op)
    ({"level": "O2", "init_loss_scaling": 64.0, "use_fp16_guard": False}, 2e-3, 0),
]


@pytest.mark.parametrize("amp_configs,tol,skipped", AMP_CONFIGS, ids=["O1", "O1-overflow-lists", "O2"])
def test_static_model_with_amp_trains_as_the_dynamic_model(amp_configs, tol, skipped, tmp_path):
    """prepare(amp_configs=...) in static mode wraps the optimizer with paddle.static.amp.decorate (as Paddle's
    static adapter): the train Program computes in float16 where the lists say, with loss scaling; its losses
    over a few SGD steps equal the dynamic Model's under the same amp_configs (overflowing steps skipped alike)."""
    paddle.seed(3)
    net = paddle.nn.Sequential(paddle.nn.Linear(16, 32), paddle.nn.ReLU(), paddle.nn.Linear(32, 4))
    start = str(tmp_path / "start")
    paddle.save(net.state_dict(), start + ".pdparams")
    inputs, labels = [InputSpec([None, 16], "float32", "x")], [InputSpec([None, 1], "int64", "y")]
    rng = np.random.default_rng(0)
    batch = (rng.standard_normal((8, 16)).astype("float32"), rng.integers(0, 4, (8, 1)).astype("int64"))

    def train(model, cfg):
        model.prepare(paddle.optimizer.SGD(0.2, parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                      amp_configs=cfg)  # fmt: skip
        model.load(start)
        return np.array([float(model.train_batch([batch[0]], [batch[1]])[0]) for _ in range(5)])

    in_dynamic = amp_configs  # (use_fp16_guard is a static-mode key)
    if isinstance(amp_configs, dict):
        in_dynamic = {k: v for k, v in amp_configs.items() if k != "use_fp16_guard"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the overflowing steps warn)
        dynamic = train(paddle.Model(net, inputs, labels), in_dynamic)
        with _static():
            network = paddle.nn.Sequential(paddle.nn.Linear(16, 32), paddle.nn.ReLU(), paddle.nn.Linear(32, 4))
            model = paddle.Model(network, inputs, labels)
            static = train(model, amp_configs)
            block = model._adapter._progs["train"].global_block()
    assert "cast" in [d.type for d in block.ops] and any(v.dtype == paddle.float16 for v in block.vars.values())
    np.testing.assert_allclose(static, dynamic, rtol=tol, atol=tol)
    assert np.all(static[: skipped + 1] == static[0]) and static[skipped + 1] < static[skipped]
