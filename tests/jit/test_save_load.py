"""jit.save / jit.load: files through static/io.py, TranslatedLayer outputs and fine-tuning, load_inference_model."""

import os
import subprocess
import sys

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn as nn
from minipaddle.static import InputSpec
from minipaddle.static.pickle_reader import restricted_loads

PADDLE_PYTHON = "/work/paddle-venv/bin/python"


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.bn = nn.BatchNorm1D(3)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        y = self.fc(x)
        if paddle.mean(y) > 0:
            y = y * 2
        return self.drop(self.bn(y))


def _x(n=5, seed=0):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal((n, 4)).astype("float32"))


@pytest.fixture
def saved(tmp_path):
    paddle.seed(3)
    net = paddle.jit.to_static(Net())
    for _ in range(2):
        net(_x())  # train a little: BN statistics move
    path = str(tmp_path / "model" / "net")
    paddle.jit.save(net, path, input_spec=[InputSpec([None, 4], "float32", "x")])
    return net, path


def test_files_and_info(saved):
    net, path = saved
    for suffix in (".pdmodel", ".pdiparams", ".pdiparams.info"):
        assert os.path.isfile(path + suffix)
    data = open(path + ".pdiparams.info", "rb").read()
    assert data[:2] == b"\x80\x02", "a protocol-2 pickle, as Paddle writes it"
    info = restricted_loads(data)
    names = {v["structured_name"] for v in info.values()}
    assert names == {"fc.weight", "fc.bias", "bn.weight", "bn.bias", "bn._mean", "bn._variance"}
    assert info[net.fc.weight.name] == {"structured_name": "fc.weight", "stop_gradient": False, "trainable": True}
    assert net.training  # jit.save switched to eval only while saving


def test_load_matches_eval_and_reads_with_load_inference_model(saved):
    net, path = saved
    net.eval()
    x = _x(7, seed=1)
    loaded = paddle.jit.load(path)
    assert isinstance(loaded, paddle.jit.TranslatedLayer) and not loaded.training
    np.testing.assert_allclose(loaded(x).numpy(), net(x).numpy(), rtol=1e-5, atol=1e-6)
    assert "cond" in [d.type for d in loaded.program().global_block().ops]
    assert sorted(loaded.state_dict()) == [f"param_{i}" for i in range(6)]  # as Paddle names them
    exe = paddle.static.Executor()
    program, feeds, fetches = paddle.static.load_inference_model(path, exe)
    assert feeds == ["x"]
    paddle.enable_static()
    try:
        (out,) = exe.run(program, feed={"x": x.numpy()}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, net(x).numpy(), rtol=1e-5, atol=1e-6)


def test_fine_tuning_reaches_parameters(saved):
    _, path = saved
    loaded = paddle.jit.load(path)
    loaded.train()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=loaded.parameters())
    before = [p.numpy().copy() for p in loaded.parameters()]
    x = _x()
    loss0 = float(loaded(x).pow(2).mean())
    for _ in range(5):
        loss = loaded(x).pow(2).mean()
        loss.backward()
        assert all(p.grad is not None for p in loaded.parameters() if p.trainable)
        assert sum(p.trainable for p in loaded.parameters()) == 4  # fc and bn weights; not the statistics
        opt.step()
        opt.clear_grad()
    assert any(not np.allclose(b, p.numpy()) for b, p in zip(before, loaded.parameters()))
    assert float(loaded(x).pow(2).mean()) < loss0


def test_plain_layer_with_input_spec_and_function(tmp_path):
    paddle.seed(0)
    net = nn.Sequential(nn.Linear(4, 2), nn.ReLU())
    path = str(tmp_path / "plain")
    paddle.jit.save(net, path, input_spec=[InputSpec([None, 4], "float32")])
    assert not isinstance(net.__dict__.get("forward"), paddle.jit.StaticFunction)
    x = _x()
    np.testing.assert_allclose(paddle.jit.load(path)(x).numpy(), net(x).numpy(), rtol=1e-6)

    def f(x):
        return x * 2 + 1

    fpath = str(tmp_path / "fn")
    paddle.jit.save(paddle.jit.to_static(f), fpath, input_spec=[InputSpec([None, 4])])
    np.testing.assert_allclose(paddle.jit.load(fpath)(x).numpy(), x.numpy() * 2 + 1, rtol=1e-6)


def test_a_layer_keeping_its_layers_in_an_attribute_named_layers_is_saved_whole(tmp_path):
    """Only a DataParallel is unwrapped to its `_layers`: a user's Layer may keep a LayerList under that name."""

    class Stack(nn.Layer):
        def __init__(self):
            super().__init__()
            self._layers = nn.LayerList([nn.Linear(4, 4), nn.Linear(4, 2)])

        def forward(self, x):
            for layer in self._layers:
                x = layer(x)
            return x

    net = Stack()
    path = str(tmp_path / "stack")
    paddle.jit.save(net, path, input_spec=[InputSpec([None, 4], "float32")])
    x = _x()
    np.testing.assert_allclose(paddle.jit.load(path)(x).numpy(), net(x).numpy(), rtol=1e-6)


def test_save_errors(tmp_path):
    net = nn.Linear(4, 2)
    with pytest.raises(ValueError, match="No valid transformed program"):
        paddle.jit.save(net, str(tmp_path / "m"))
    with pytest.raises(ValueError, match="file_prefix is empty"):
        paddle.jit.save(net, str(tmp_path) + "/", input_spec=[InputSpec([None, 4])])
    with pytest.raises(TypeError, match="input_spec must be a list"):
        paddle.jit.save(net, str(tmp_path / "m"), input_spec=InputSpec([None, 4]))
    with pytest.raises(ValueError, match="not allowed"):
        paddle.jit.save(net, str(tmp_path / "m"), input_spec=[InputSpec([None, 4])], model_filename="x")


def test_load_in_a_fresh_process(saved, tmp_path):
    net, path = saved
    net.eval()
    x = _x(3, seed=2)
    np.save(tmp_path / "x.npy", x.numpy())
    code = (
        "import numpy as np, minipaddle as paddle\n"
        f"m = paddle.jit.load({path!r})\n"
        f"print(repr(m(paddle.to_tensor(np.load({str(tmp_path / 'x.npy')!r}))).numpy().tolist()))\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root,
                         env={**os.environ, "PYTHONPATH": root})  # fmt: skip
    assert out.returncode == 0, out.stderr
    np.testing.assert_allclose(np.array(eval(out.stdout)), net(x).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddles_jit_load_runs_what_jit_save_wrote(saved, tmp_path):
    """paddle 2.6.2's jit.load unpickles .pdiparams.info: minipaddle's (JSON before) now reads there."""
    net, path = saved
    net.eval()
    x = _x(3, seed=2)
    np.save(tmp_path / "x.npy", x.numpy())
    code = (
        "import numpy.random, numpy as np, paddle\n"
        f"m = paddle.jit.load({path!r})\n"
        "m.eval()\n"
        f"print(repr(m(paddle.to_tensor(np.load({str(tmp_path / 'x.npy')!r}))).numpy().tolist()))\n"
    )
    out = subprocess.run([PADDLE_PYTHON, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    np.testing.assert_allclose(np.array(eval(out.stdout.splitlines()[-1])), net(x).numpy(), rtol=1e-5, atol=1e-6)
