"""paddle.static's WeightNormParamAttr, auc, cuda_places/xpu_places and static.nn's bilinear_tensor_product,
row_conv, spectral_norm, sparse_embedding: values against Paddle 2.6 (tests/golden/fluid_layers, recorded by its
make_golden.py from the cases in cases.py, which run here on minipaddle) and behaviour."""

import numpy as np
import pytest

import minipaddle as paddle
from tests.static.golden_cases import build as _build
from tests.static.golden_cases import check_against_paddle


@pytest.mark.parametrize("group", ["weight_norm_cases", "auc_cases", "layer_cases"])
def test_values_match_paddle(group):
    check_against_paddle("fluid_layers", group)


# ---- WeightNormParamAttr -------------------------------------------------------------------------------------------


def test_weight_norm_parameters_named_and_shaped_as_paddle(static_mode):
    main, startup, _ = _build(lambda: [
        paddle.static.nn.fc(paddle.static.data("x", [-1, 3], "float32"), 4,
                            weight_attr=paddle.static.WeightNormParamAttr(dim=d))
        for d in (None, 0, 1)
    ])  # fmt: skip
    shapes = {p.name: p.shape for p in main.all_parameters()}
    assert shapes["fc_0.w_0_g"] == [1, 1] and shapes["fc_0.w_0_v"] == [3, 4]
    assert shapes["fc_1.w_0_g"] == [3, 1] and shapes["fc_2.w_0_g"] == [1, 4]
    assert "fc_0.w_0" not in shapes
    assert {p.name for p in startup.all_parameters()} == set(shapes)


def test_weight_norm_starts_as_the_initializer_and_trains(static_mode):
    w0 = np.arange(1, 13, dtype="float32").reshape(3, 4) / 10
    attr = paddle.static.WeightNormParamAttr(dim=1, initializer=paddle.nn.initializer.Assign(w0))

    def build():
        x = paddle.static.data("x", [-1, 3], "float32")
        y = paddle.static.nn.fc(x, 4, weight_attr=attr, bias_attr=False)
        loss = paddle.mean(y)
        paddle.optimizer.SGD(0.1).minimize(loss)
        return y

    main, startup, y = _build(build)
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    x = np.eye(3, dtype="float32")
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        np.testing.assert_allclose(scope.vars["fc_0.w_0_g"], np.linalg.norm(w0, axis=0, keepdims=True), rtol=1e-6)
        (first,) = exe.run(main, feed={"x": x}, fetch_list=[y])
        np.testing.assert_allclose(first, w0, rtol=1e-6)
        (second,) = exe.run(main, feed={"x": x}, fetch_list=[y])
    assert not np.allclose(first, second)  # g and v were updated


def test_weight_norm_errors(static_mode):
    with pytest.raises(TypeError, match="WeightNormParamAttr: dim"):
        paddle.static.WeightNormParamAttr(dim=-1)
    with pytest.raises(ValueError, match="less than the weight's rank"):
        _build(lambda: paddle.static.nn.fc(paddle.static.data("x", [-1, 3], "float32"), 4,
                                           weight_attr=paddle.static.WeightNormParamAttr(dim=2)))  # fmt: skip
    paddle.disable_static()
    with pytest.raises(RuntimeError, match="static mode only"):
        paddle.nn.Linear(3, 4, weight_attr=paddle.static.WeightNormParamAttr(dim=0))


# ---- auc --------------------------------------------------------------------------------------------------------


def test_auc_state_is_persistable_and_reset_by_startup(static_mode):
    def build():
        p = paddle.static.data("p", [-1, 2], "float32")
        label = paddle.static.data("l", [-1, 1], "int64")
        return paddle.static.auc(p, label, num_thresholds=3)

    main, startup, (auc, batch_auc, states) = _build(build)
    assert [s.persistable for s in states] == [True] * 4
    assert auc.dtype == paddle.float64 and auc.shape == []
    exe = paddle.static.Executor()
    feeds = [{"p": np.array([[0.1, 0.9], [0.8, 0.2]], "float32"), "l": np.array([[1], [0]])},
             {"p": np.array([[0.3, 0.7], [0.6, 0.4]], "float32"), "l": np.array([[0], [1]])}]  # fmt: skip
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        first = exe.run(main, feed=feeds[0], fetch_list=[auc, batch_auc])
        second = exe.run(main, feed=feeds[1], fetch_list=[auc, batch_auc, states[2]])
        exe.run(startup)
        again = exe.run(main, feed=feeds[0], fetch_list=[auc])
    assert first[0] == 1.0 and second[1] == 0.0  # the second batch alone is ranked the wrong way
    assert second[0] == 0.625  # both batches: 2 of 4 pairs right, 1 tied in a bucket (0.9 and 0.7 with 3 thresholds)
    np.testing.assert_array_equal(second[2], [[0, 1, 1, 0]])
    assert again[0] == 1.0


def test_auc_dynamic_mode_counts_one_batch():
    p = paddle.to_tensor([[0.2, 0.8], [0.9, 0.1], [0.4, 0.6]])
    auc, batch_auc, states = paddle.static.auc(p, paddle.to_tensor([[1], [0], [0]]), num_thresholds=9)
    assert auc.item() == 1.0 and batch_auc.item() == 1.0
    assert states[0].shape == [2 * 10 + 1] and states[2].shape == [1, 10]
    assert states[2].numpy().sum() == 1 and states[3].numpy().sum() == 2


def test_auc_errors():
    p = paddle.to_tensor([[0.2, 0.8]])
    with pytest.raises(TypeError, match="auc: label must be int32 or int64"):
        paddle.static.auc(p, paddle.to_tensor([[1.0]]))
    with pytest.raises(TypeError, match="auc: input must be float32 or float64"):
        paddle.static.auc(paddle.to_tensor([[0, 1]]), paddle.to_tensor([[1]]))
    with pytest.raises(ValueError, match="auc: num_thresholds"):
        paddle.static.auc(p, paddle.to_tensor([[1]]), num_thresholds=0)


# ---- places -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fn", ["cuda_places", "xpu_places"])
def test_accelerator_places_raise_on_cpu(fn):
    with pytest.raises(RuntimeError, match=f"{fn}: minipaddle runs on the CPU only"):
        getattr(paddle.static, fn)()


# ---- layers -------------------------------------------------------------------------------------------------------


def test_sparse_embedding_is_a_dense_lookup(static_mode):
    table = np.arange(18, dtype="float32").reshape(6, 3)

    def build():
        ids = paddle.static.data("ids", [-1, 1], "int64")
        attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(table))
        return paddle.static.nn.sparse_embedding(ids, [6, 3], padding_idx=-1, param_attr=attr)

    main, startup, out = _build(build)
    assert out.shape == [-1, 3]
    assert [p.name for p in main.all_parameters()] == ["sparse_embedding_0.w_0"]
    exe = paddle.static.Executor()
    exe.run(startup)
    (value,) = exe.run(main, feed={"ids": np.array([[2], [5], [0]])}, fetch_list=[out])
    np.testing.assert_array_equal(value, np.stack([table[2], np.zeros(3), table[0]]))


def test_sparse_embedding_errors(static_mode):
    ids32 = paddle.static.data("ids32", [-1, 1], "int32")
    ids2 = paddle.static.data("ids2", [-1, 2], "int64")
    with pytest.raises(TypeError, match="sparse_embedding: input must be int64"):
        paddle.static.nn.sparse_embedding(ids32, [6, 3])
    with pytest.raises(ValueError, match="last dimension must be 1"):
        paddle.static.nn.sparse_embedding(ids2, [6, 3])
    with pytest.raises(ValueError, match="table_class"):
        paddle.static.nn.sparse_embedding(paddle.static.data("ids", [-1, 1], "int64"), [6, 3], table_class="x")


def test_spectral_norm_reads_u_and_v_without_updating_them(static_mode):
    main, startup, out = _build(lambda: paddle.static.nn.spectral_norm(paddle.static.data("w", [3, 4], "float32")))
    names = [p.name for p in main.all_parameters()]
    assert names == ["spectral_norm_0.w_0", "spectral_norm_0.w_1"]
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        before = {n: scope.vars[n].copy() for n in names}
        exe.run(main, feed={"w": np.ones((3, 4), "float32")}, fetch_list=[out])
    for n in names:
        np.testing.assert_array_equal(scope.vars[n], before[n])


def test_layer_argument_errors(static_mode):
    x = paddle.static.data("x", [2, 5, 3], "float32")
    with pytest.raises(ValueError, match="spectral_norm: dim must be 0"):
        paddle.static.nn.spectral_norm(x, dim=2)
    with pytest.raises(TypeError, match="spectral_norm: eps must be float"):
        paddle.static.nn.spectral_norm(x, eps=1)
    with pytest.raises(TypeError, match="row_conv: input must be float32"):
        paddle.static.nn.row_conv(paddle.static.data("i", [2, 5, 3], "int64"), 1)
    with pytest.raises(ValueError, match="row_conv: future_context_size"):
        paddle.static.nn.row_conv(x, -1)
    with pytest.raises(ValueError, match="bilinear_tensor_product: x and y must be 2-D"):
        paddle.static.nn.bilinear_tensor_product(x, x, 4)


def test_row_conv_and_bilinear_run_in_dynamic_mode():
    x = paddle.ones([1, 4, 2])
    out = paddle.static.nn.row_conv(x, 1, param_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0)))
    np.testing.assert_allclose(out.numpy()[0, :, 0], [2, 2, 2, 1])
    a, b = paddle.ones([2, 3]), paddle.ones([2, 2])
    attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.5))
    y = paddle.static.nn.bilinear_tensor_product(a, b, 4, param_attr=attr)
    np.testing.assert_allclose(y.numpy(), np.full((2, 4), 3.0))
