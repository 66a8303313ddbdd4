"""Conv, pooling, resize, pad and fold layers: construction, default initializers, names, reprs (as Paddle 2.6
prints them), argument checking, and equivalences between forms (NHWC vs NCHW, padding_mode vs F.pad)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from minipaddle import nn


def test_conv_weight_starts_kaiming_normal_and_bias_zero():
    paddle.seed(1)
    conv = nn.Conv2D(64, 32, 3)
    w = conv.weight.numpy()
    assert w.shape == (32, 64, 3, 3) and conv.bias.shape == [32]
    assert abs(w.std() / math.sqrt(2 / (3 * 3 * 64)) - 1) < 0.03
    assert abs(w.mean()) < 0.005
    assert not conv.bias.numpy().any()


def test_conv_transpose_weight_starts_xavier_uniform():
    paddle.seed(2)
    conv = nn.Conv2DTranspose(16, 8, 3, groups=2)
    w = conv.weight.numpy()
    assert w.shape == (16, 4, 3, 3)
    limit = math.sqrt(6 / (4 * 9 + 16 * 9))  # fan_in = shape[1] * k * k, fan_out = shape[0] * k * k
    assert np.abs(w).max() <= limit and np.abs(w).max() > 0.9 * limit


def test_parameter_names_shapes_and_no_bias():
    conv = nn.Conv1D(4, 6, 3, groups=2, bias_attr=False)
    assert conv.weight.shape == [6, 2, 3] and conv.bias is None
    assert conv.weight.name.startswith(conv.full_name() + ".w_")
    assert conv.full_name().startswith("conv1d_")
    assert [n for n, _ in nn.Conv3D(2, 3, 2).named_parameters()] == ["weight", "bias"]


@pytest.mark.parametrize(
    "layer,text",
    [
        (lambda: nn.Conv2D(1, 6, 5), "Conv2D(1, 6, kernel_size=[5, 5], data_format=NCHW)"),
        (lambda: nn.Conv2D(2, 4, 3, stride=2, padding=1, dilation=2, groups=2, padding_mode="reflect"),
         "Conv2D(2, 4, kernel_size=[3, 3], stride=[2, 2], padding=1, padding_mode=reflect, dilation=[2, 2], "
         "groups=2, data_format=NCHW)"),
        (lambda: nn.Conv2DTranspose(2, 3, 3, stride=2, output_padding=1),
         "Conv2DTranspose(2, 3, kernel_size=[3, 3], stride=[2, 2], output_padding=1, data_format=NCHW)"),
        (lambda: nn.MaxPool2D(3, 2, 1, ceil_mode=True), "MaxPool2D(kernel_size=3, stride=2, padding=1)"),
        (lambda: nn.AdaptiveMaxPool2D(2), "AdaptiveMaxPool2D(output_size=2, return_mask=False)"),
        (lambda: nn.Upsample(scale_factor=2),
         "Upsample(scale_factor=2, mode=nearest, align_corners=False, align_mode=0, data_format=NCHW)"),
        (lambda: nn.Pad1D(2, mode="reflect"), "Pad1D(padding=[2, 2], mode=reflect, value=0.0, data_format=NCL)"),
        (lambda: nn.ZeroPad2D(1), "ZeroPad2D(padding=[1, 1, 1, 1], data_format=NCHW)"),
        (lambda: nn.Fold([4, 4], 2), "Fold(kernel_size=2, dilation=1, padding=0, stride=1)"),
        (lambda: nn.PixelShuffle(3, "NHWC"), "PixelShuffle(upscale_factor=3, data_format=NHWC)"),
    ],
)  # fmt: skip
def test_repr_as_paddle_prints_it(layer, text):
    assert repr(layer()) == text


def test_nhwc_equals_nchw_with_the_same_weights():
    x = paddle.rand([2, 3, 7, 6])
    a = nn.Conv2D(3, 4, 3, stride=2, padding=1)
    b = nn.Conv2D(3, 4, 3, stride=2, padding=1, data_format="NHWC")
    b.set_state_dict(a.state_dict())
    y_nhwc = b(paddle.transpose(x, [0, 2, 3, 1]))
    np.testing.assert_allclose(paddle.transpose(y_nhwc, [0, 3, 1, 2]).numpy(), a(x).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_padding_mode_pads_first_then_convolves(mode):
    x = paddle.rand([1, 2, 5, 5])
    conv = nn.Conv2D(2, 3, 3, padding=1, padding_mode=mode)
    expected = F.conv2d(F.pad(x, [1, 1, 1, 1], mode=mode), conv.weight, conv.bias)
    np.testing.assert_allclose(conv(x).numpy(), expected.numpy(), rtol=1e-6)


def test_transposed_conv_undoes_the_shape_of_a_strided_conv():
    x = paddle.rand([1, 2, 9, 8])
    down = nn.Conv2D(2, 4, 3, stride=2, padding=1)
    up = nn.Conv2DTranspose(4, 2, 3, stride=2, padding=1)
    y = down(x)
    assert up(y).shape == [1, 2, 9, 7]
    assert up(y, output_size=[9, 8]).shape == x.shape


def test_transposed_conv_is_the_gradient_of_conv():
    x = paddle.rand([2, 3, 6, 5])
    x.stop_gradient = False
    w = paddle.rand([4, 3, 3, 3])
    v = paddle.rand([2, 4, 3, 3])
    y = F.conv2d(x, w, stride=2, padding=1)
    (gx,) = paddle.grad([(y * v).sum()], [x])
    np.testing.assert_allclose(F.conv2d_transpose(v, w, stride=2, padding=1, output_size=[6, 5]).numpy(), gx.numpy(),
                               rtol=1e-5, atol=1e-6)  # fmt: skip


def test_pool_and_resize_layers_run():
    x = paddle.rand([2, 3, 8, 8])
    assert nn.MaxPool2D(2)(x).shape == [2, 3, 4, 4]
    out, mask = nn.MaxPool2D(2, return_mask=True)(x)
    assert mask.dtype == paddle.int32 and mask.shape == [2, 3, 4, 4]
    assert nn.AvgPool2D(3, 2, 1)(x).shape == [2, 3, 4, 4]
    assert nn.AdaptiveAvgPool2D(1)(x).shape == [2, 3, 1, 1]
    assert nn.AdaptiveMaxPool1D(3)(paddle.rand([2, 3, 7])).shape == [2, 3, 3]
    assert nn.UpsamplingBilinear2D(scale_factor=2)(x).shape == [2, 3, 16, 16]
    assert nn.Pad2D([1, 0, 2, 0], mode="replicate")(x).shape == [2, 3, 10, 9]
    cols = nn.Unfold(2, strides=2)(x)
    assert cols.shape == [2, 12, 16]
    np.testing.assert_allclose(nn.Fold([8, 8], 2, strides=2)(cols).numpy(), x.numpy())  # no overlap: exact


def test_global_average_pool_is_the_mean():
    x = paddle.rand([2, 3, 5, 7])
    np.testing.assert_allclose(F.adaptive_avg_pool2d(x, 1).numpy()[..., 0, 0], x.numpy().mean(axis=(2, 3)),
                               rtol=1e-6)  # fmt: skip


@pytest.mark.parametrize(
    "call,error,words",
    [
        (lambda: nn.Conv2D(3, 4, 3, data_format="CHWN"), ValueError, "data_format"),
        (lambda: nn.Conv2D(3, 4, 3, groups=2), ValueError, "divisible by groups"),
        (lambda: nn.Conv2D(2, 4, 3, padding_mode="mirror"), ValueError, "padding_mode"),
        (lambda: nn.Conv2D(2, 4, 3, padding=[1, 1], padding_mode="reflect"), TypeError, "non-negative int"),
        (lambda: F.conv2d(paddle.rand([1, 3, 5, 5]), paddle.rand([4, 2, 3, 3])), ValueError, "x has 3 channels"),
        (lambda: F.conv2d(paddle.rand([1, 3, 5, 5]), np.ones((4, 3, 3, 3))), TypeError, "weight must be a Tensor"),
        (lambda: F.conv2d(paddle.rand([1, 3, 2, 2]), paddle.rand([4, 3, 3, 3])), ValueError, "smaller than"),
        (lambda: F.conv2d(paddle.rand([3, 5, 5]), paddle.rand([4, 3, 3, 3])), ValueError, "4-D"),
        (lambda: F.conv2d(paddle.rand([1, 3, 5, 5]), paddle.rand([4, 3, 3, 3]), padding="full"), ValueError, "same"),
        (lambda: F.conv2d(paddle.rand([1, 3, 5, 5]), paddle.rand([4, 3, 3, 3]), stride=0), ValueError, "stride"),
        (lambda: F.conv2d(paddle.rand([1, 3, 5, 5]), paddle.rand([4, 3, 3, 3]).astype("float64")), TypeError,
         "same dtype"),
        (lambda: F.conv2d_transpose(paddle.rand([1, 2, 3, 3]), paddle.rand([2, 2, 3, 3]), stride=2,
                                    output_size=[9, 9]), ValueError, "output_size"),
        (lambda: F.max_pool2d(paddle.rand([1, 4, 4, 2]), 2, return_mask=True, data_format="NHWC"), ValueError,
         "channels-first"),
        (lambda: F.max_pool2d(paddle.rand([1, 1, 4, 4]), 2, padding="same", ceil_mode=True), ValueError,
         "ceil_mode"),
        (lambda: F.interpolate(paddle.rand([1, 1, 4, 4]), size=[8, 8], scale_factor=2), ValueError, "only one"),
        (lambda: F.interpolate(paddle.rand([1, 1, 4, 4])), ValueError, "one of size"),
        (lambda: F.interpolate(paddle.rand([1, 1, 4, 4]), scale_factor=2, mode="linear"), ValueError, "3-D"),
        (lambda: F.interpolate(paddle.rand([1, 1, 4, 4]), scale_factor=2, align_corners=True), ValueError,
         "align_corners"),
        (lambda: F.pad(paddle.rand([1, 1, 4, 4]), [4, 0, 0, 0], mode="reflect"), ValueError, "smaller than"),
        (lambda: F.pad(paddle.rand([1, 1, 4, 4]), [1, 1], mode="constant"), ValueError, "4 values"),
        (lambda: F.fold(paddle.rand([1, 4, 5]), [4, 4], 2), ValueError, "windows"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()
