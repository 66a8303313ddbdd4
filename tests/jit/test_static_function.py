"""StaticFunction's API, InputSpec, the switches, code printing, and errors in the user's terms."""

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn as nn
from minipaddle.static import InputSpec


def _t(*shape, dtype="float32"):
    return paddle.to_tensor(np.ones(shape, dtype))


def test_input_spec():
    s = InputSpec([None, 4], "float32", "x")
    assert s.shape == (-1, 4) and s.dtype == paddle.float32
    assert hash(s) == hash(InputSpec([-1, 4], "float32", "other")) and s != InputSpec([-1, 4], "float32", "other")
    assert InputSpec.from_tensor(_t(2, 3)).shape == (2, 3)
    assert InputSpec.from_numpy(np.zeros((5,), "int64")).dtype == paddle.int64
    assert s.batch(8).shape == (8, -1, 4) and s.unbatch().shape == (4,)
    assert "InputSpec(shape=(-1, 4)" in repr(s)
    with pytest.raises(TypeError, match="batch_size"):
        s.batch("8")


def test_cache_by_shape_dtype_and_spec():
    @paddle.jit.to_static
    def f(x):
        return x + 1

    f(_t(2, 3)), f(_t(2, 3)), f(_t(4, 3)), f(_t(2, 3, dtype="float64"))
    assert f.get_traced_count() == 3

    @paddle.jit.to_static(input_spec=[InputSpec([None, 3], "float32", "x")])
    def g(x):
        return x * 2

    g(_t(2, 3)), g(_t(7, 3))
    assert g.get_traced_count() == 1
    assert g.main_program.global_block().var("x").shape == [-1, 3]
    with pytest.raises(ValueError, match=r"argument 'x' has shape \[2, 4\].*expects shape \[-1, 3\]"):
        g(_t(2, 4))
    with pytest.raises(ValueError, match="dtype float64"):
        g(_t(2, 3, dtype="float64"))


def test_properties_concrete_program_and_rollback():
    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 2)

        def forward(self, x):
            return self.fc(x)

    net = Net()
    static = paddle.jit.to_static(net, input_spec=[InputSpec([None, 3])])
    assert static is net and isinstance(net.forward, paddle.jit.StaticFunction)
    concrete, partial = net.forward.get_concrete_program(InputSpec([None, 3]))
    assert [v.name for v in concrete.inputs] == ["x"] and len(concrete.outputs) == 1
    assert net.forward.concrete_program is concrete
    assert "matmul" in [d.type for d in net.forward.main_program.global_block().ops]
    assert "def forward(self, x):" in net.forward.code and "_jst.Call(self.fc)(x)" in net.forward.code
    restored = net.forward.rollback()
    assert not isinstance(net.forward, paddle.jit.StaticFunction) and restored.__name__ == "forward"
    with pytest.raises(ValueError, match="No valid transformed program"):
        _ = paddle.jit.to_static(lambda x: x).concrete_program


def test_class_decorator_binds_per_instance_and_train_eval_modes():
    class Net(nn.Layer):
        def __init__(self, k):
            super().__init__()
            self.k = k

        @paddle.jit.to_static
        def forward(self, x):
            return x * self.k

    a, b = Net(2.0), Net(3.0)
    np.testing.assert_allclose(a(_t(1)).numpy(), [2.0])
    np.testing.assert_allclose(b(_t(1)).numpy(), [3.0])
    with pytest.raises(RuntimeError, match="call train"):
        a.forward.train()


def test_enable_to_static_false_runs_dynamic_code():
    calls = []

    @paddle.jit.to_static
    def f(x):
        calls.append(type(x).__name__)
        return x + 1

    paddle.jit.enable_to_static(False)
    try:
        f(_t(1))
        assert calls == ["Tensor"] and f.get_traced_count() == 0
    finally:
        paddle.jit.enable_to_static(True)
    f(_t(1))
    assert calls[-1] == "Variable"


def test_static_mode_call_refused():
    @paddle.jit.to_static
    def f(x):
        return x

    paddle.enable_static()
    try:
        with pytest.raises(RuntimeError, match="NOT in dynamic mode"):
            f(_t(1))
    finally:
        paddle.disable_static()


def test_set_code_level_prints_after_a_transformer(capsys):
    def h(x):
        if x.sum() > 0:
            x = x + 1
        return x

    paddle.jit.set_code_level(8, also_to_stdout=True)
    try:
        paddle.jit.to_static(h)(_t(2))
    finally:
        paddle.jit.set_code_level(-1)
    out = capsys.readouterr().out
    assert "After the level 8 ast transformer: 'IfElseTransformer', the transformed code:" in out
    assert "_jst.IfElse(" in out
    paddle.jit.set_verbosity(1, also_to_stdout=True)
    try:

        def helper(x):
            return x * 2

        def k(x):
            return helper(x)

        paddle.jit.to_static(k)(_t(1))
    finally:
        paddle.jit.set_verbosity(-1)
    assert "Convert callable object: convert" in capsys.readouterr().out


def test_error_points_at_the_users_line():
    def helper(x):
        y = x * 2
        return paddle.reshape(y, [7, 7])  # bad shape

    @paddle.jit.to_static
    def f(x):
        z = helper(x)
        return z

    with pytest.raises(ValueError) as info:
        f(_t(2, 3))
    text = str(info.value)
    assert text.startswith("In transformed code:")
    assert f'File "{__file__}"' in text and "in helper" in text and "in f" in text
    assert "return paddle.reshape(y, [7, 7])  # bad shape" in text
    assert "~~~~~ <--- HERE" in text.replace("~" * 10, "~~~~~")
    assert "minipaddle/" not in text.split("<--- HERE")[1].split("ValueError")[0]  # minipaddle's frames are hidden


def test_unconvertible_syntax_names_the_line():
    def gen(x):
        yield x

    with pytest.raises(NotImplementedError, match=r"(?s)generator.*line \d+.*not_to_static"):
        paddle.jit.to_static(gen)(_t(1))

    def in_try(x):
        try:
            if x.sum() > 0:
                x = x + 1
        except ValueError:
            pass
        return x

    with pytest.raises(NotImplementedError, match="inside a `try` block"):
        paddle.jit.to_static(in_try)(_t(1))

    def global_write(x):
        global _COUNTER
        if x.sum() > 0:
            _COUNTER = 1
        return x

    with pytest.raises(NotImplementedError, match="global variable '_COUNTER' is written inside control flow"):
        paddle.jit.to_static(global_write)(_t(1))


def test_undefined_variable_error():
    @paddle.jit.to_static
    def f(x):
        if x.sum() > 0:
            y = x + 1
        return y * 2

    with pytest.raises(NameError, match="'y' has no value here"):
        f(_t(1))


def test_to_static_arguments():
    with pytest.raises(ValueError, match="backend"):
        paddle.jit.to_static(lambda x: x, backend="TVM")
    with pytest.raises(TypeError, match="build_strategy"):
        paddle.jit.to_static(lambda x: x, build_strategy=1)
    sf = paddle.jit.to_static(lambda x: x, full_graph=True)
    assert isinstance(sf, paddle.jit.StaticFunction)


def test_paddle_model_accepts_converted_networks():
    paddle.seed(0)
    net = paddle.jit.to_static(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
    model = paddle.Model(
        net, inputs=[InputSpec([None, 4], "float32", "x")], labels=[InputSpec([None, 1], "int64", "y")]
    )
    model.prepare(paddle.optimizer.Adam(0.01, parameters=net.parameters()), nn.CrossEntropyLoss())
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 4)).astype("float32")
    y = (x[:, :1] > 0).astype("int64")
    first = model.train_batch([x], [y])
    for _ in range(30):
        last = model.train_batch([x], [y])
    assert float(np.asarray(last[0]).reshape(-1)[0]) < float(np.asarray(first[0]).reshape(-1)[0])
