"""Layers of the nn core: train/eval behaviour (dropout, batch norm), Embedding's padding row, loss shapes and
argument checks, and a small MLP's loss and gradients against numbers printed by paddle 2.6."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from minipaddle import nn


def test_dropout_trains_and_evaluates():
    paddle.seed(0)
    drop = nn.Dropout(0.5)
    x = paddle.ones([200, 50])
    y = drop(x).numpy()
    assert set(np.unique(y)) == {0.0, 2.0} and abs((y == 0).mean() - 0.5) < 0.03
    drop.eval()
    assert drop(x) is x
    assert np.allclose(F.dropout(x, 0.5, training=False, mode="downscale_in_infer").numpy(), 0.5)
    rows = F.dropout(paddle.ones([6, 40]), 0.5, axis=0).numpy()
    assert all(len(set(row)) == 1 for row in rows)  # one draw per row, shared along axis 1
    channels = F.dropout2d(paddle.ones([4, 8, 3, 3]), 0.5).numpy()
    assert all(len(np.unique(c)) == 1 for c in channels.reshape(32, 9))
    assert not F.dropout(x, 1.0).numpy().any() and F.dropout(x, 0.0) is x
    with pytest.raises(ValueError, match="between 0 and 1"):
        F.dropout(x, 1.5)
    with pytest.raises(ValueError, match="mode"):
        F.dropout(x, 0.5, mode="scale")


def test_dropout_gradient_uses_the_same_mask():
    paddle.seed(1)
    x = paddle.ones([4, 6])
    x.stop_gradient = False
    y = F.dropout(x, 0.3)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), y.numpy())


def test_alpha_dropout_keeps_mean_and_variance():
    paddle.seed(2)
    x = paddle.randn([400, 400]) if hasattr(paddle, "randn") else paddle.to_tensor(np.random.randn(400, 400))
    y = nn.AlphaDropout(0.2)(x).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02


def test_batch_norm_train_updates_running_stats_and_eval_uses_them():
    paddle.seed(0)
    bn = nn.BatchNorm1D(3)
    x = paddle.to_tensor(np.random.default_rng(0).normal(2.0, 3.0, size=(64, 3)).astype("float32"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = bn(x).numpy()
    assert "always track global mean and variance" in str(caught[0].message)
    assert np.allclose(y.mean(0), 0, atol=1e-5) and np.allclose(y.std(0), 1, atol=1e-3)
    xs = x.numpy()
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * xs.mean(0), rtol=1e-5)
    np.testing.assert_allclose(bn._variance.numpy(), 0.9 + 0.1 * xs.var(0), rtol=1e-5)  # biased variance
    assert bn._mean.stop_gradient and not bn._mean.trainable
    bn.eval()
    running = bn._mean.numpy().copy()
    expected = (xs - running) / np.sqrt(bn._variance.numpy() + 1e-5)
    np.testing.assert_allclose(bn(x).numpy(), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(bn._mean.numpy(), running)  # eval does not update
    with pytest.raises(ValueError, match="expected 2D or 3D input"):
        bn(paddle.ones([2, 3, 4, 5]))


def test_batch_norm_parameters_and_layout_names():
    bn = nn.BatchNorm1D(4, weight_attr=False, bias_attr=False)
    assert bn.weight is None and bn.bias is None and list(bn.state_dict()) == ["_mean", "_variance"]
    assert "data_format=NCL" in repr(bn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bn(paddle.ones([2, 4]))
    assert "data_format" not in repr(bn)  # as in Paddle, the layout name is normalized by the first call
    named = nn.BatchNorm2D(2, name="bn")
    assert (named._mean.name, named._variance.name) == ("bn_mean", "bn_variance")


def test_embedding_padding_row_is_zero_and_gets_no_gradient():
    emb = nn.Embedding(5, 3, padding_idx=-1)
    assert not emb.weight.numpy()[4].any()
    ids = paddle.to_tensor([[4, 1], [1, 0]])
    out = emb(ids)
    assert out.shape == [2, 2, 3] and not out.numpy()[0, 0].any()
    out.sum().backward()
    np.testing.assert_array_equal(emb.weight.grad.numpy()[:, 0], [1, 2, 0, 0, 0])
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(5, 3, padding_idx=5)
    with pytest.raises(TypeError, match="integer ids"):
        emb(paddle.to_tensor([0.0]))
    with pytest.raises(IndexError, match="ids must be in"):
        emb(paddle.to_tensor([7]))


def test_a_static_embedding_with_a_padding_row_adds_no_op_to_the_main_program():
    """As Paddle, which zeroes the row in dynamic mode only: in the main Program the write would run before every
    lookup, and the parameter would be an op's output there (its backward through the write)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            out = nn.Embedding(5, 3, padding_idx=0)(paddle.static.data("ids", [None, 2], "int64"))
        exe = paddle.static.Executor()
        exe.run(startup)
        (got,) = exe.run(main, feed={"ids": np.array([[0, 1]])}, fetch_list=[out])
    finally:
        paddle.disable_static()
    assert [op.type for op in main.global_block().ops] == ["embedding"]
    assert not got[0, 0].any() and got[0, 1].any()  # the padding id still looks up zeros


@pytest.mark.parametrize("label_shape, soft, reduction, out_shape", [
    ([4], False, "none", [4]),
    ([4, 1], False, "none", [4, 1]),
    ([4, 5], True, "none", [4, 1]),
    ([4], False, "mean", []),
    ([4, 5], True, "sum", []),
])  # fmt: skip
def test_cross_entropy_shapes_as_paddle(label_shape, soft, reduction, out_shape):
    logits = paddle.randn([4, 5]) if hasattr(paddle, "randn") else paddle.to_tensor(np.random.randn(4, 5), "float32")
    if soft:
        label = F.softmax(paddle.to_tensor(np.random.randn(*label_shape).astype("float32")))
    else:
        label = paddle.to_tensor(np.random.randint(0, 5, size=label_shape))
    out = F.cross_entropy(logits, label, soft_label=soft, reduction=reduction)
    assert out.shape == out_shape
    assert nn.CrossEntropyLoss(soft_label=soft, reduction=reduction)(logits, label).shape == out_shape


def test_loss_argument_checks():
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match="reduction"):
        F.mse_loss(x, x, reduction="avg")
    with pytest.raises(ValueError, match="rank"):
        F.cross_entropy(x, paddle.to_tensor([[[0]]]))
    with pytest.raises(TypeError, match="hard labels must be integers"):
        F.cross_entropy(x, paddle.to_tensor([[0.0], [1.0]]))
    with pytest.raises(ValueError, match="labels must be in"):
        F.cross_entropy(x, paddle.to_tensor([0, 3]))
    with pytest.raises(ValueError, match="class dimension"):
        F.cross_entropy(x, paddle.to_tensor([0, 1]), weight=paddle.ones([4]))
    assert float(F.cross_entropy(x, paddle.to_tensor([-100, -100]))) == 0.0  # all ignored: 0, not nan


def test_mlp_loss_and_gradients_match_paddle():
    """Numbers printed by paddle 2.6 for this MLP (weights given), cross entropy, one backward."""
    fc1, fc2 = nn.Linear(3, 4), nn.Linear(4, 2)
    w1 = [[0.27, -0.46, -0.92, -0.97], [0.63, 0.83, 0.21, 0.46], [0.09, 0.87, 0.63, -0.99]]
    w2 = [[0.71, -0.93], [0.46, -0.65], [0.73, 0.08], [-0.4, -0.15]]
    fc1.set_state_dict({"weight": np.array(w1, "float32"), "bias": np.full([4], 0.1, "float32")})
    fc2.set_state_dict({"weight": np.array(w2, "float32"), "bias": np.array([0.2, -0.1], "float32")})
    x = paddle.to_tensor([[1.0, -2.0, 0.5], [0.3, 0.8, -1.0]])
    loss = F.cross_entropy(fc2(F.relu(fc1(x))), paddle.to_tensor([1, 0]))
    loss.backward()
    assert float(loss) == pytest.approx(0.5859658122062683, abs=1e-6)
    np.testing.assert_allclose(fc2.weight.grad.numpy(), [[-0.08094645, 0.08094645], [0.0, 0.0], [0.0, 0.0],
                                                         [-0.15876387, 0.15876388]], atol=1e-6)  # fmt: skip
    np.testing.assert_allclose(fc1.bias.grad.numpy(), [-0.22311291, 0.0, 0.0, 0.03401111], atol=1e-6)
