"""paddle 2.6's extra nn functions, layers, paddle.nn.utils and the 1.x initializer names, against values
recorded from paddle 2.6 (tests/golden/attention_sequences/make_golden.py) and paddle's documented behaviour."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from minipaddle.core.tensor import Parameter
from minipaddle.nn.utils import (
    clip_grad_norm_,
    clip_grad_value_,
    parameters_to_vector,
    remove_weight_norm,
    spectral_norm,
    vector_to_parameters,
    weight_norm,
)
from tests.golden_files import GOLDEN_ROOT, read_arrays

G = read_arrays(GOLDEN_ROOT / "attention_sequences" / "arrays.npz")


def leaf(a):
    return paddle.to_tensor(a, stop_gradient=False)


def check_grads(prefix, y, leaves, rtol=1e-5, atol=1e-6):
    cot = paddle.to_tensor(G[prefix + "cot"], dtype=y.dtype)
    grads = paddle.grad([y], leaves, [cot])
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g.numpy(), G[f"{prefix}grad{i}"], rtol=rtol, atol=atol)


# ---- functions: values and gradients as paddle 2.6 --------------------------------------------------------------


def test_scaled_dot_product_attention_matches_paddle():
    q, k, v = leaf(G["sdpa_q"]), leaf(G["sdpa_k"]), leaf(G["sdpa_v"])
    y = F.scaled_dot_product_attention(q, k, v)
    np.testing.assert_allclose(y.numpy(), G["sdpa_out"], rtol=1e-10)
    check_grads("sdpa_", y, [q, k, v])


def test_scaled_dot_product_attention_dropout_only_while_training():
    paddle.seed(1)
    q = paddle.rand([1, 4, 1, 8])
    full = F.scaled_dot_product_attention(q, q, q)
    assert np.allclose(F.scaled_dot_product_attention(q, q, q, dropout_p=0.9, training=False).numpy(), full.numpy())
    assert not np.allclose(F.scaled_dot_product_attention(q, q, q, dropout_p=0.9).numpy(), full.numpy())


def test_scaled_dot_product_attention_causal_first_query_sees_only_first_key():
    q = paddle.rand([1, 3, 1, 2])
    v = paddle.to_tensor(np.arange(6.0, dtype=np.float32).reshape(1, 3, 1, 2))
    out = F.scaled_dot_product_attention(q, q, v, is_causal=True)
    np.testing.assert_allclose(out.numpy()[0, 0, 0], [0.0, 1.0], atol=1e-6)  # masked keys weigh exp(-64), as paddle


def test_scaled_dot_product_attention_errors():
    q = paddle.rand([1, 3, 2, 4])
    with pytest.raises(ValueError, match="scaled_dot_product_attention: query must be 4-D"):
        F.scaled_dot_product_attention(q[0], q, q)
    with pytest.raises(ValueError, match="same head_dim"):
        F.scaled_dot_product_attention(q, paddle.rand([1, 3, 2, 5]), q)
    with pytest.raises(TypeError, match="one dtype"):
        F.scaled_dot_product_attention(q, q.astype("float64"), q)
    with pytest.raises(TypeError, match="attn_mask must be a float mask"):
        F.scaled_dot_product_attention(q, q, q, paddle.zeros([1, 2, 3, 3], dtype="bool"))


def test_pixel_unshuffle_matches_paddle_and_inverts_pixel_shuffle():
    x = leaf(G["unshuffle_x"])
    y = F.pixel_unshuffle(x, 2)
    np.testing.assert_array_equal(y.numpy(), G["unshuffle_out"])
    check_grads("unshuffle_", y, [x])
    nhwc = F.pixel_unshuffle(paddle.to_tensor(G["unshuffle_x"].transpose(0, 2, 3, 1)), 2, "NHWC")
    np.testing.assert_array_equal(nhwc.numpy(), G["unshuffle_nhwc_out"])
    np.testing.assert_array_equal(F.pixel_shuffle(y, 2).numpy(), G["unshuffle_x"])


def test_channel_shuffle_matches_paddle():
    x = G["shuffle_x"]
    np.testing.assert_array_equal(F.channel_shuffle(paddle.to_tensor(x), 3).numpy(), G["shuffle_out"])
    nhwc = F.channel_shuffle(paddle.to_tensor(x.transpose(0, 2, 3, 1)), 2, "NHWC")
    np.testing.assert_array_equal(nhwc.numpy(), G["shuffle_nhwc_out"])


def test_temporal_shift_matches_paddle():
    x = leaf(G["tshift_x"])
    y = F.temporal_shift(x, 3, 0.2)
    np.testing.assert_array_equal(y.numpy(), G["tshift_out"])
    check_grads("tshift_", y, [x])
    nhwc = F.temporal_shift(paddle.to_tensor(G["tshift_x"].transpose(0, 2, 3, 1)), 2, 0.25, data_format="NHWC")
    np.testing.assert_array_equal(nhwc.numpy(), G["tshift_nhwc_out"])


def test_sequence_mask_matches_paddle():
    out = F.sequence_mask(paddle.to_tensor(G["seqmask_x"]))
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), G["seqmask_out"])
    out = F.sequence_mask(paddle.to_tensor([2.5, 1.0]), maxlen=4, dtype="float32")
    assert out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), G["seqmask_float_out"])
    assert F.sequence_mask(paddle.to_tensor([2, 1]), maxlen=paddle.to_tensor(3)).shape == [2, 3]
    assert F.sequence_mask(paddle.to_tensor([0, 0])).shape == [2, 0]


def test_gather_tree_matches_paddle():
    out = F.gather_tree(paddle.to_tensor(G["tree_ids"]), paddle.to_tensor(G["tree_parents"]))
    np.testing.assert_array_equal(out.numpy(), G["tree_out"])


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: F.pixel_unshuffle(paddle.rand([1, 1, 4, 6]), 3), ValueError, "must divide both the height"),
        (lambda: F.pixel_unshuffle(paddle.rand([1, 1, 4, 4]), 2.0), TypeError, "downscale_factor must be an int"),
        (lambda: F.pixel_unshuffle(paddle.rand([1, 1, 4, 4]), 0), ValueError, "downscale_factor must be positive"),
        (lambda: F.pixel_unshuffle(paddle.rand([1, 4, 4]), 2), ValueError, "must be a 4-D tensor"),
        (lambda: F.channel_shuffle(paddle.rand([1, 6, 1, 1]), 4), ValueError, "groups \\(4\\) must divide"),
        (lambda: F.channel_shuffle(paddle.rand([1, 6, 1, 1]), 2, "NCL"), ValueError, "data_format must be"),
        (lambda: F.temporal_shift(paddle.rand([4, 4, 1, 1]), 3), ValueError, "divisible by seg_num"),
        (lambda: F.temporal_shift(paddle.rand([4, 4, 1, 1]), 2, 0.6), ValueError, "shift_ratio must be in"),
        (lambda: F.sequence_mask(paddle.to_tensor([1, 2]), maxlen=0), ValueError, "maxlen must be negative"),
        (lambda: F.sequence_mask(paddle.to_tensor([True])), TypeError, "sequence_mask: x must be int32"),
        (lambda: F.gather_tree(paddle.ones([2, 2], "int64"), paddle.ones([2, 2], "int64")), ValueError, "3-D"),
        (
            lambda: F.gather_tree(paddle.ones([2, 1, 2], "int64"), paddle.full([2, 1, 2], 2, "int64")),
            ValueError,
            "every parent",
        ),  # fmt: skip
        (lambda: F.gather_tree(paddle.ones([2, 1, 2]), paddle.ones([2, 1, 2])), TypeError, "int32 or int64"),
    ],
)
def test_function_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_diag_embed_is_paddle_diag_embed():
    assert F.diag_embed is paddle.diag_embed


# ---- margin_cross_entropy and class_center_sample (paddle 2.6 has GPU kernels only) -------------------------------


def test_margin_cross_entropy_without_margins_is_scaled_softmax_cross_entropy():
    logits = paddle.to_tensor([[0.3, 0.8, -0.1], [0.6, -0.2, 0.4]], dtype="float64")
    label = paddle.to_tensor([1, 2])
    loss, softmax = F.margin_cross_entropy(logits, label, margin1=1.0, margin2=0.0, scale=2.0,
                                           return_softmax=True, reduction=None)  # fmt: skip
    expected = F.cross_entropy(logits * 2.0, label.unsqueeze(-1), reduction="none")
    assert loss.shape == [2, 1]
    np.testing.assert_allclose(loss.numpy(), expected.numpy(), rtol=1e-12)
    np.testing.assert_allclose(softmax.numpy(), F.softmax(logits * 2.0).numpy(), rtol=1e-12)


def test_margin_cross_entropy_arcface_margin_raises_the_loss():
    logits = paddle.to_tensor([[0.3, 0.8], [0.6, -0.2]])
    label = paddle.to_tensor([1, 0])
    plain = F.margin_cross_entropy(logits, label, margin2=0.0, scale=4.0)
    arc = F.margin_cross_entropy(logits, label, margin2=0.5, scale=4.0)
    assert plain.shape == [] and float(arc) > float(plain)


def test_margin_cross_entropy_errors():
    logits = paddle.rand([2, 3])
    with pytest.raises(ValueError, match="every label must be in \\[0, 3\\)"):
        F.margin_cross_entropy(logits, paddle.to_tensor([0, 3]))
    with pytest.raises(TypeError, match="label must be int32 or int64"):
        F.margin_cross_entropy(logits, paddle.to_tensor([0.0, 1.0]))
    with pytest.raises(ValueError, match="reduction must be"):
        F.margin_cross_entropy(logits, paddle.to_tensor([0, 1]), reduction="max")
    with pytest.raises(ValueError, match="one device"):
        F.margin_cross_entropy(logits, paddle.to_tensor([0, 1]), group=object())


def test_class_center_sample_keeps_positives_and_fills_with_others():
    paddle.seed(3)
    label = paddle.to_tensor([7, 2, 7, 9])
    remapped, centers = F.class_center_sample(label, 12, 6)
    assert remapped.tolist() == [1, 0, 1, 2] and remapped.dtype == paddle.int64
    c = centers.tolist()
    assert c[:3] == [2, 7, 9] and len(set(c)) == 6 and all(0 <= i < 12 for i in c)
    paddle.seed(3)
    assert F.class_center_sample(label, 12, 6)[1].tolist() == c  # paddle.seed repeats the draw
    remapped, centers = F.class_center_sample(label.astype("int32"), 12, 2)  # more positives than samples
    assert centers.tolist() == [2, 7, 9] and centers.dtype == paddle.int32


def test_class_center_sample_errors():
    label = paddle.to_tensor([1, 2])
    with pytest.raises(ValueError, match="num_samples \\(13\\) must be at most num_classes \\(12\\)"):
        F.class_center_sample(label, 12, 13)
    with pytest.raises(ValueError, match="label must be 1-D"):
        F.class_center_sample(label.reshape([1, 2]), 12, 4)
    with pytest.raises(ValueError, match="num_samples must be positive"):
        F.class_center_sample(label, 12, 0)


# ---- layers -------------------------------------------------------------------------------------------------------


def test_layers_call_their_functions_and_print_like_paddle():
    x = paddle.rand([2, 4, 4, 6])
    np.testing.assert_array_equal(paddle.nn.PixelUnshuffle(2)(x).numpy(), F.pixel_unshuffle(x, 2).numpy())
    np.testing.assert_array_equal(paddle.nn.ChannelShuffle(2)(x).numpy(), F.channel_shuffle(x, 2).numpy())
    assert paddle.nn.Unflatten(-1, (2, -1))(x).shape == [2, 4, 4, 2, 3]
    assert paddle.nn.Unflatten(1, paddle.to_tensor([2, 2]))(x).shape == [2, 2, 2, 4, 6]
    assert str(paddle.nn.PixelUnshuffle(2)) == "PixelUnshuffle(downscale_factor=2)"
    assert str(paddle.nn.PixelUnshuffle(2, "NHWC")) == "PixelUnshuffle(downscale_factor=2, data_format=NHWC)"
    assert str(paddle.nn.ChannelShuffle(3, "NHWC")) == "ChannelShuffle(groups=3, data_format=NHWC)"
    assert str(paddle.nn.Unflatten(1, [2, 3])) == "Unflatten(axis=1, shape=[2, 3])"


def test_layers_check_arguments_when_made():
    with pytest.raises(ValueError, match="PixelUnshuffle: downscale_factor must be positive"):
        paddle.nn.PixelUnshuffle(0)
    with pytest.raises(TypeError, match="ChannelShuffle: groups must be an int"):
        paddle.nn.ChannelShuffle(2.0)
    with pytest.raises(ValueError, match="ChannelShuffle: data_format"):
        paddle.nn.ChannelShuffle(2, "NCL")


# ---- paddle.nn.utils ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, 3, None])
def test_weight_norm_matches_paddle(dim):
    conv = paddle.nn.Conv2D(2, 3, 2, bias_attr=False)
    conv.weight.set_value(G["wn_weight"])
    weight_norm(conv, dim=dim)
    key = f"wn_{dim}_"
    np.testing.assert_allclose(conv.weight_g.numpy(), G[key + "g"], rtol=1e-6)
    np.testing.assert_allclose(conv.weight_v.numpy(), G["wn_weight"])
    y = conv(paddle.to_tensor(G["wn_x"]))
    np.testing.assert_allclose(y.numpy(), G[key + "out"], rtol=1e-5, atol=1e-6)
    check_grads(key, y, [conv.weight_g, conv.weight_v], rtol=1e-4, atol=1e-5)


def test_weight_norm_parameters_and_removal():
    linear = paddle.nn.Linear(3, 4)
    w = linear.weight.numpy().copy()
    assert weight_norm(linear) is linear
    assert [n for n, _ in linear.named_parameters()] == ["bias", "weight_v", "weight_g"]
    assert list(linear.state_dict()) == ["bias", "weight_v", "weight_g"]
    assert linear.weight_g.shape == [3]
    with pytest.raises(RuntimeError, match="cannot register two weight_norm hooks"):
        weight_norm(linear)
    remove_weight_norm(linear)
    assert [n for n, _ in linear.named_parameters()] == ["bias", "weight"]
    assert isinstance(linear.weight, Parameter)
    np.testing.assert_allclose(linear.weight.numpy(), w, rtol=1e-6)
    assert not linear._forward_pre_hooks
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found"):
        remove_weight_norm(linear)
    with pytest.raises(ValueError, match="dim must be None or an int in \\[-2, 2\\)"):
        weight_norm(paddle.nn.Linear(2, 2), dim=5)


def test_spectral_norm_matches_paddle():
    linear = paddle.nn.Linear(3, 4, bias_attr=False)
    linear.weight.set_value(G["sn_weight"])
    spectral_norm(linear, n_power_iterations=2)
    assert list(linear.state_dict()) == ["weight_orig", "weight_u", "weight_v"]
    linear.weight_u.set_value(G["sn_u0"])
    linear.weight_v.set_value(G["sn_v0"])
    x = paddle.to_tensor(G["sn_x"])
    y = linear(x)
    np.testing.assert_allclose(y.numpy(), G["sn_out1"], rtol=1e-5, atol=1e-6)
    check_grads("sn_", y, [linear.weight_orig], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(linear.weight_u.numpy(), G["sn_u1"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(linear.weight_v.numpy(), G["sn_v1"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(linear(x).numpy(), G["sn_out2"], rtol=1e-5, atol=1e-6)
    linear.eval()
    np.testing.assert_allclose(linear(x).numpy(), G["sn_out_eval"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(linear.weight_u.numpy(), G["sn_u_eval"], rtol=1e-5, atol=1e-6)


def test_spectral_norm_errors_and_default_dim():
    conv = spectral_norm(paddle.nn.Conv2D(2, 3, 2))
    assert conv.weight_u.shape == [3] and conv.weight_v.shape == [8]
    with pytest.raises(RuntimeError, match="cannot register two spectral_norm hooks"):
        spectral_norm(conv)
    with pytest.raises(ValueError, match="n_power_iterations must be positive"):
        spectral_norm(paddle.nn.Linear(2, 2), n_power_iterations=0)


def test_parameters_to_vector_and_back():
    linear = paddle.nn.Linear(2, 3)
    vec = parameters_to_vector(linear.parameters())
    assert vec.shape == [9] and not vec.stop_gradient
    np.testing.assert_array_equal(vec.numpy()[:6], linear.weight.numpy().ravel())
    vector_to_parameters(paddle.arange(9, dtype="float32"), linear.parameters())
    assert linear.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and linear.bias.tolist() == [6.0, 7.0, 8.0]
    assert not linear.weight.stop_gradient
    with pytest.raises(ValueError, match="vec must be 1-D with 9 elements"):
        vector_to_parameters(paddle.arange(8, dtype="float32"), linear.parameters())


@pytest.mark.parametrize("name, norm_type", [("2", 2.0), ("1", 1), ("0", 0), ("inf", float("inf"))])
def test_clip_grad_norm_matches_paddle(name, norm_type):
    a, b = leaf(np.zeros((2, 3))), leaf(np.zeros(4))
    ((a * paddle.to_tensor(G["clip_g1"])).sum() + (b * paddle.to_tensor(G["clip_g2"])).sum()).backward()
    total = clip_grad_norm_([a, b], 1.5, norm_type=norm_type)
    assert total.shape == []
    np.testing.assert_allclose(total.numpy(), G[f"clip_{name}_total"], rtol=1e-10)
    np.testing.assert_allclose(a.grad.numpy(), G[f"clip_{name}_g1"], rtol=1e-10)
    np.testing.assert_allclose(b.grad.numpy(), G[f"clip_{name}_g2"], rtol=1e-10)


def test_clip_grad_norm_edge_cases():
    x = leaf(np.array([1.0, 2.0]))
    assert float(clip_grad_norm_(x, 1.0)) == 0.0  # no gradient yet
    (x * paddle.to_tensor([3.0, 4.0])).sum().backward()
    assert float(clip_grad_norm_(x, 10.0)) == pytest.approx(5.0)  # under the limit: unchanged
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 4.0])
    with pytest.raises(ValueError, match="norm_type must be one of"):
        clip_grad_norm_(x, 1.0, norm_type=3)
    x.grad = paddle.to_tensor([float("nan"), 1.0], dtype="float64")
    with pytest.raises(RuntimeError, match="non-finite"):
        clip_grad_norm_(x, 1.0, error_if_nonfinite=True)


def test_clip_grad_value_():
    x, y = leaf(np.array([1.0, 2.0])), leaf(np.array([1.0]))
    ((x * paddle.to_tensor([3.0, -4.0])).sum() + y.sum() * 12).backward()
    assert clip_grad_value_([x, y], 3.5) is None
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, -3.5])
    np.testing.assert_array_equal(y.grad.numpy(), [3.5])
    with pytest.raises(ValueError, match="clip_value must be >= 0"):
        clip_grad_value_(x, -1)


def test_utils_namespace_matches_paddle():
    assert sorted(paddle.nn.utils.__all__) == sorted(
        [
            "weight_norm",
            "remove_weight_norm",
            "spectral_norm",
            "parameters_to_vector",
            "vector_to_parameters",
            "clip_grad_norm_",
            "clip_grad_value_",
        ]  # fmt: skip
    )


# ---- the 1.x initializer names ------------------------------------------------------------------------------------


def test_old_initializer_names():
    init = paddle.nn.initializer
    w = paddle.nn.Linear(4, 5).weight
    init.ConstantInitializer(2.0, force_cpu=True)(w)
    assert np.all(w.numpy() == 2.0)
    init.NumpyArrayInitializer(np.ones((4, 5)))(w)
    assert np.all(w.numpy() == 1.0)
    for make in (
        lambda: init.NormalInitializer(loc=1.0, scale=0.1, seed=7),
        lambda: init.TruncatedNormalInitializer(0.0, 1.0, seed=7),
        lambda: init.UniformInitializer(-0.1, 0.1, seed=7, diag_num=2, diag_step=1, diag_val=5.0),
        lambda: init.XavierInitializer(uniform=False, seed=7),
        lambda: init.MSRAInitializer(uniform=True, seed=7),
    ):
        make()(w)
        first = w.numpy().copy()
        make()(w)
        np.testing.assert_array_equal(w.numpy(), first)  # a nonzero seed repeats the draw
    init.UniformInitializer(-0.1, 0.1, seed=7, diag_num=2, diag_step=1, diag_val=5.0)(w)
    assert np.abs(w.numpy()).max() <= 0.1  # diag_* unused, as in paddle 2.6's dynamic mode
    init.NormalInitializer(loc=1.0, scale=0.01)(w)
    assert abs(w.numpy().mean() - 1.0) < 0.05
    assert "NormalInitializer" not in init.__all__  # paddle 2.6 exports them outside __all__
