"""jit.save's configs, each with its meaning (or a clear refusal): output_spec, with_hook, skip_forward,
skip_prune_program, input_names_after_prune, clip_extra, combine_params."""

import os

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn as nn
from minipaddle.static import InputSpec


class TwoOut(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x, y):
        h = self.fc(x)
        return h * 2, paddle.tanh(h) + y.sum()


SPECS = [InputSpec([None, 4], "float32", "x"), InputSpec([1], "float32", "y")]


def _x(n=3):
    return paddle.to_tensor(np.random.default_rng(0).standard_normal((n, 4)).astype("float32"))


def _y():
    return paddle.to_tensor(np.array([0.5], "float32"))


def _ops(path):
    return [d.type for d in paddle.jit.load(path).program().global_block().ops]


def test_output_spec_prunes_the_outputs_and_their_ops(tmp_path):
    paddle.seed(1)
    net = TwoOut()
    full, first = str(tmp_path / "full"), str(tmp_path / "first")
    paddle.jit.save(net, full, input_spec=SPECS)
    concrete = paddle.jit.to_static(net.forward, input_spec=SPECS).concrete_program
    paddle.jit.save(net, first, input_spec=SPECS, output_spec=[0])
    assert "tanh" in _ops(full) and "tanh" not in _ops(first)
    loaded = paddle.jit.load(first)
    assert len(loaded._output_spec()) == 1
    np.testing.assert_allclose(loaded(_x(), _y()).numpy(), net(_x(), _y())[0].numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="is not an output of the traced Program"):
        paddle.jit.save(net, first, input_spec=SPECS, output_spec=[5])
    assert concrete.outputs  # (the traced Program had both)


def test_input_names_after_prune_keeps_only_the_named_feeds(tmp_path):
    paddle.seed(1)
    net = TwoOut()
    path = str(tmp_path / "x_only")
    paddle.jit.save(net, path, input_spec=SPECS, output_spec=[0], input_names_after_prune=["x"])
    loaded = paddle.jit.load(path)
    assert [s.name for s in loaded._input_spec()] == ["x"]
    np.testing.assert_allclose(loaded(_x()).numpy(), net(_x(), _y())[0].numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="input_names_after_prune names 'z'"):
        paddle.jit.save(net, path, input_spec=SPECS, input_names_after_prune=["z"])
    with pytest.raises(TypeError, match="input_names_after_prune must be a list of str"):
        paddle.jit.save(net, path, input_spec=SPECS, input_names_after_prune="x")


def test_with_hook_traces_the_layers_hooks_into_the_program(tmp_path):
    paddle.seed(1)
    net = TwoOut()
    plain = str(tmp_path / "plain")
    paddle.jit.save(net, plain, input_spec=SPECS, with_hook=True)  # no hooks: the same Program as without
    handle = net.register_forward_post_hook(lambda layer, inputs, outputs: (outputs[0] + 100.0, outputs[1]))
    pre = net.register_forward_pre_hook(lambda layer, inputs: (inputs[0] * 0.5, inputs[1]))
    hooked = str(tmp_path / "hooked")
    paddle.jit.save(net, hooked, input_spec=SPECS)  # hooks present: with_hook turns on by itself, as Paddle
    got = paddle.jit.load(hooked)(_x(), _y())
    want = net(_x(), _y())  # dynamic mode runs the hooks
    np.testing.assert_allclose(got[0].numpy(), want[0].numpy(), rtol=1e-6)
    np.testing.assert_allclose(got[1].numpy(), want[1].numpy(), rtol=1e-6)
    assert not np.allclose(paddle.jit.load(plain)(_x(), _y())[0].numpy(), want[0].numpy())
    with pytest.raises(RuntimeError, match="not support specify output_spec while founding pre/post hooks"):
        paddle.jit.save(net, hooked, input_spec=SPECS, output_spec=[0])
    handle.remove()
    pre.remove()


class WithMethod(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    @paddle.jit.to_static(input_spec=[InputSpec([None, 4], "float32", "x")])
    def forward(self, x):
        return self.fc(x)

    @paddle.jit.to_static(input_spec=[InputSpec([None, 4], "float32", "x")])
    def scores(self, x):
        return paddle.nn.functional.softmax(self.fc(x))


def test_skip_forward_saves_only_the_other_methods(tmp_path):
    net = WithMethod()
    path = str(tmp_path / "m")
    paddle.jit.save(net, path, skip_forward=True)
    assert not os.path.exists(path + ".pdmodel")
    assert os.path.exists(path + ".scores.pdmodel")
    paddle.jit.save(net, path)
    assert os.path.exists(path + ".pdmodel")


def test_skip_prune_program_keeps_ops_no_output_needs(tmp_path):
    def f(x):
        unused = paddle.exp(x)  # noqa: F841 (an op no output needs)
        return x * 2

    pruned, kept = str(tmp_path / "pruned"), str(tmp_path / "kept")
    spec = [InputSpec([None, 4], "float32", "x")]
    paddle.jit.save(f, pruned, input_spec=spec)
    paddle.jit.save(f, kept, input_spec=spec, skip_prune_program=True)
    exe = paddle.static.Executor()
    paddle.enable_static()
    try:
        ops = [[d.type for d in paddle.static.load_inference_model(p, exe)[0].global_block().ops]
               for p in (pruned, kept)]  # fmt: skip
    finally:
        paddle.disable_static()
    assert "exp" not in ops[0] and "exp" in ops[1]


def test_clip_extra_and_combine_params(tmp_path):
    net = TwoOut()
    path = str(tmp_path / "c")
    paddle.jit.save(net, path, input_spec=SPECS, clip_extra=True)  # what minipaddle always writes
    assert os.path.exists(path + ".pdmodel")
    with pytest.raises(NotImplementedError, match="clip_extra=False"):
        paddle.jit.save(net, path, input_spec=SPECS, clip_extra=False)
    with pytest.raises(NotImplementedError, match="combine_params=True"):
        paddle.jit.save(net, path, input_spec=SPECS, combine_params=True)
    paddle.jit.save(net, path, input_spec=SPECS, combine_params=False)
    with pytest.raises(TypeError, match="'with_hook' must be a bool"):
        paddle.jit.save(net, path, input_spec=SPECS, with_hook="yes")
    with pytest.raises(ValueError, match="unknown configs"):
        paddle.jit.save(net, path, input_spec=SPECS, prune=True)


def test_property_functions_are_not_saved_as_programs(tmp_path):
    """A to_static function with property=True is a value (paddle 2.6.2 evaluates it for combine_params' .meta
    only): jit.save writes forward and the other methods, and no file for the property."""

    class WithProperty(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a, self.b = paddle.nn.Linear(3, 2), paddle.nn.Linear(3, 4)

        @paddle.jit.to_static(input_spec=[paddle.static.InputSpec([None, 3], "float32")])
        def forward(self, x):
            return self.a(x)

        @paddle.jit.to_static(input_spec=[paddle.static.InputSpec([None, 3], "float32")])
        def other(self, x):
            return self.b(x)

        @paddle.jit.to_static(property=True)
        def fsize(self):
            return 7

    net = WithProperty()
    assert net.fsize() == 7
    path = str(tmp_path / "p")
    paddle.jit.save(net, path)
    written = sorted(f for f in os.listdir(tmp_path) if not f.endswith(".pdset"))  # (.pdset: the file set's list)
    assert written == ["p.other.pdiparams", "p.other.pdiparams.info", "p.other.pdmodel", "p.pdiparams",
                       "p.pdiparams.info", "p.pdmodel"]  # fmt: skip
    x = paddle.ones([2, 3])
    np.testing.assert_allclose(paddle.jit.load(path)(x).numpy(), net.a(x).numpy(), rtol=1e-6)
