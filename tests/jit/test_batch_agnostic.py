"""Batch-agnostic models: with an InputSpec's None batch dimension, `x.shape[0]` inside converted code is a
Tensor (`paddle.shape(x)[0]`, Paddle 2.6's TensorShapeTransformer + convert_shape), and paddle.zeros / full /
reshape / expand / tile take it, so ONE Program serves every batch size: in to_static calls, training, jit.save +
jit.load and the inference predictor."""

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn as nn
import minipaddle.nn.functional as F
from minipaddle import inference
from minipaddle.static import InputSpec


class BatchAgnostic(nn.Layer):
    """Every op whose size follows the batch: reshape, full, zeros, expand of a parameter, tile of a parameter."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(12, 8), nn.Linear(8, 4)
        self.scale = self.create_parameter([1, 4], default_initializer=nn.initializer.Uniform(0.5, 1.5))
        self.row = self.create_parameter([1, 4], default_initializer=nn.initializer.Uniform(-0.5, 0.5))

    def forward(self, x):
        h = x.reshape([x.shape[0], -1])
        h = F.relu(self.fc1(h)) + paddle.full([x.shape[0], 8], 0.5, dtype=x.dtype)
        z = paddle.zeros([x.shape[0], 4], dtype=x.dtype)
        e = paddle.expand(self.scale, [x.shape[0], 4])
        t = paddle.tile(self.row, [x.shape[0], 1])
        return self.fc2(h) * e + t + z


SPEC = [InputSpec([None, 3, 4], "float32", "x")]


def _x(batch, dtype="float32"):
    return paddle.to_tensor(np.random.default_rng(batch).standard_normal((batch, 3, 4)).astype(dtype))


@pytest.fixture
def nets():
    paddle.seed(0)
    dynamic = BatchAgnostic()
    converted = BatchAgnostic()
    converted.set_state_dict(dynamic.state_dict())
    return dynamic, paddle.jit.to_static(converted, input_spec=SPEC)


def test_shape_is_a_list_with_tensors_where_the_size_is_unknown():
    seen = {}

    @paddle.jit.to_static(input_spec=[InputSpec([None, 3], "float32")])
    def f(x):
        seen["shape"] = x.shape
        return x.shape[0] * 2

    out = f(paddle.ones([5, 3]))
    assert int(out) == 10
    batch, width = seen["shape"]
    assert width == 3 and type(width) is int  # known sizes stay Python ints
    assert isinstance(batch, paddle.static.Variable) and batch.dtype == paddle.int32 and batch.shape == []
    assert "_jst.Shape(x)[0]" in f.code
    assert int(f(paddle.ones([7, 3]))) == 14 and f.get_traced_count() == 1


def test_known_shapes_stay_python():
    @paddle.jit.to_static
    def f(x):
        return paddle.zeros([x.shape[0], x.shape[1] * 2])

    out = f(paddle.ones([2, 3]))
    assert out.shape == [2, 6]
    assert [op.type for op in f.main_program.global_block().ops] == []  # a constant, no op reads a size


def test_one_program_equals_dynamic_at_batch_1_and_5(nets):
    dynamic, converted = nets
    for batch in (1, 5):
        x = _x(batch)
        np.testing.assert_allclose(converted(x).numpy(), dynamic(x).numpy(), rtol=1e-6, atol=1e-6)
    assert converted.forward.get_traced_count() == 1
    types = {op.type for op in converted.forward.main_program.global_block().ops}
    assert {"shape", "reshape_with_shape", "full_with_shape", "expand_with_shape", "tile_with_repeats"} <= types


def test_jit_save_load_and_predictor_at_batch_1_and_5(nets, tmp_path):
    dynamic, converted = nets
    dynamic.eval()
    converted.eval()
    prefix = str(tmp_path / "agnostic")
    paddle.jit.save(converted, prefix)
    loaded = paddle.jit.load(prefix)
    config = inference.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.disable_glog_info()
    predictor = inference.create_predictor(config)
    for batch in (1, 5):
        x = _x(batch)
        want = dynamic(x).numpy()
        np.testing.assert_allclose(loaded(x).numpy(), want, rtol=1e-6, atol=1e-6)
        handle = predictor.get_input_handle(predictor.get_input_names()[0])
        handle.reshape([batch, 3, 4])
        handle.copy_from_cpu(x.numpy())
        predictor.run()
        got = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype,tol", [("float64", 1e-6), ("float32", 1e-5)])
def test_training_at_two_batch_sizes_equals_dynamic(dtype, tol):
    def train(convert):
        paddle.set_default_dtype(dtype)
        try:
            paddle.seed(3)
            net = BatchAgnostic()
            if convert:
                net = paddle.jit.to_static(net, input_spec=[InputSpec([None, 3, 4], dtype, "x")])
            opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=net.parameters())
            losses = []
            for step in range(8):
                batch = (3, 5)[step % 2]
                x = _x(batch, dtype)
                y = paddle.to_tensor(np.arange(batch) % 4)
                loss = F.cross_entropy(net(x), y)
                loss.backward()
                opt.step()
                opt.clear_grad()
                losses.append(float(loss))
            return np.array(losses), net
        finally:
            paddle.set_default_dtype("float32")

    dynamic, dnet = train(False)
    static, snet = train(True)
    np.testing.assert_allclose(static, dynamic, rtol=tol, atol=tol)
    assert dynamic[-2] < dynamic[0] and dynamic[-1] < dynamic[1]  # it did train, at each batch size
    for (name, a), b in zip(dnet.state_dict().items(), snet.state_dict().values()):  # scale and row too
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=tol * 10, atol=tol * 10, err_msg=name)
    assert snet.forward.get_traced_count() == 1


def test_gradients_through_the_size_ops_equal_dynamic(nets):
    dynamic, converted = nets
    x1, x2 = _x(4), _x(4)
    x1.stop_gradient = x2.stop_gradient = False
    (dynamic(x1) ** 2).sum().backward()
    (converted(x2) ** 2).sum().backward()
    np.testing.assert_allclose(x2.grad.numpy(), x1.grad.numpy(), rtol=1e-5, atol=1e-6)
    for p, q in zip(dynamic.parameters(), converted.parameters()):
        np.testing.assert_allclose(q.grad.numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_a_loop_over_the_batch_size_is_a_tensor_loop():
    @paddle.jit.to_static(input_spec=[InputSpec([None, 2], "float32")])
    def row_sums(x):
        total = paddle.zeros([2])
        for i in range(x.shape[0]):
            total = total + x[i] * (i + 1)
        return total

    for batch in (2, 4):
        xs = np.random.default_rng(batch).standard_normal((batch, 2)).astype("float32")
        want = (xs * np.arange(1, batch + 1)[:, None]).sum(0)
        np.testing.assert_allclose(row_sums(paddle.to_tensor(xs)).numpy(), want, rtol=1e-6)
    assert row_sums.get_traced_count() == 1
    assert "while" in {op.type for op in row_sums.main_program.global_block().ops}


def _build(fn, shape=(-1, 3)):
    """Build fn(x) into a Program with x's batch size -1, run it at batch 2; return (output Variable, value)."""
    main = paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", list(shape))
            out = fn(x, paddle.shape(x)[0])
        value = paddle.static.Executor().run(main, feed={"x": np.ones((2, *shape[1:]), "float32")}, fetch_list=[out])
    finally:
        paddle.disable_static()
    return out, value[0]


@pytest.mark.parametrize(
    "fn,static_shape,value_shape,dtype",
    [
        (lambda x, n: paddle.zeros([n, 4]), [-1, 4], (2, 4), "float32"),
        (lambda x, n: paddle.ones([n, 2], dtype="int64"), [-1, 2], (2, 2), "int64"),
        (lambda x, n: paddle.full([1, n], True, dtype="bool"), [1, -1], (1, 2), "bool"),
        (lambda x, n: paddle.empty([n]), [-1], (2,), "float32"),
        (lambda x, n: paddle.zeros(paddle.shape(x)), [-1, -1], (2, 3), "float32"),  # one shape Tensor
        (lambda x, n: x.reshape([n, 3, 1]), [-1, 3, 1], (2, 3, 1), "float32"),
        (lambda x, n: paddle.reshape(x, [n, 0]), [-1, 3], (2, 3), "float32"),
        (lambda x, n: paddle.broadcast_to(paddle.ones([3]), [n, 3]), [-1, 3], (2, 3), "float32"),
        (lambda x, n: paddle.expand(x, [n, n, -1]), [-1, -1, 3], (2, 2, 3), "float32"),
        (lambda x, n: paddle.tile(x, [1, n]), [-1, -1], (2, 6), "float32"),
        (lambda x, n: paddle.tile(paddle.ones([3]), [n, 2]), [-1, 6], (2, 6), "float32"),
    ],
)  # fmt: skip
def test_static_functions_take_tensor_sizes(fn, static_shape, value_shape, dtype):
    out, value = _build(fn)
    assert out.shape == static_shape and out.dtype.name == dtype
    assert value.shape == value_shape and value.dtype == np.dtype(dtype)


def test_tensor_size_errors():
    with pytest.raises(TypeError, match="zeros: a size given as a Tensor must be int32 or int64, got float32"):
        _build(lambda x, n: paddle.zeros([paddle.cast(n, "float32"), 2]))
    with pytest.raises(ValueError, match="reshape: each size given as a Tensor must hold one value"):
        _build(lambda x, n: x.reshape([paddle.shape(x), 3]))
    with pytest.raises(ValueError, match="reshape: only one dimension can be -1"):
        _build(lambda x, n: x.reshape([n, -1, -1]))
    with pytest.raises(ValueError, match=r"tile: repeat_times must be positive, got \[None, 0\]"):
        _build(lambda x, n: paddle.tile(x, [n, 0]))
    with pytest.raises(TypeError, match="full: shape must contain ints or int Tensors, got str"):
        _build(lambda x, n: paddle.full([n, "2"], 1.0))
    with pytest.raises(ValueError, match=r"cannot reshape a tensor of shape \[2, 3\] \(6 elements\) to \[2, 4\]"):
        _build(lambda x, n: x.reshape([n, 4]))  # found when the Program runs
