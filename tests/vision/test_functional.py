"""paddle.vision.transforms.functional on numpy (HWC / HW) and Tensor (CHW) images."""

from __future__ import annotations

import colorsys
import json
import os

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.vision.transforms.functional as F
from minipaddle.vision.transforms import color

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden", "transforms", "cases.json")))
CHW = (np.arange(2 * 4 * 5).reshape(2, 4, 5) ** 1.5 % 17).astype("float32")  # the image the golden cases used


def rgb(h=6, w=8, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3)).astype(np.uint8)


def test_to_tensor_scales_uint8_and_makes_chw():
    t = F.to_tensor(np.full((4, 5), 255, np.uint8))
    assert t.shape == [1, 4, 5] and t.dtype == paddle.float32 and t.numpy().max() == 1.0
    t = F.to_tensor(rgb(), data_format="HWC")
    assert t.shape == [6, 8, 3]
    f = F.to_tensor(np.full((2, 3, 3), 7.0, np.float64))
    assert f.dtype == paddle.float64 and f.numpy().max() == 7.0  # other dtypes are kept as they are
    assert F.to_tensor(f) is f
    with pytest.raises(TypeError, match="numpy image"):
        F.to_tensor([1, 2, 3])


@pytest.mark.parametrize("size", [(5, 7), (2, 3)])
@pytest.mark.parametrize("interp", ["bilinear", "nearest"])
def test_resize_matches_paddle(size, interp):
    out = F.resize(paddle.to_tensor(CHW), size, interp)
    np.testing.assert_allclose(out.numpy(), GOLDEN[f"resize_{size[0]}x{size[1]}_{interp}"], atol=1e-5)
    hwc = F.resize(CHW.transpose(1, 2, 0), size, interp)  # numpy HWC gives the same numbers
    np.testing.assert_allclose(hwc.transpose(2, 0, 1), out.numpy(), atol=1e-6)


def test_resize_by_shorter_side_and_uint8():
    img = rgb(32, 64)
    out = F.resize(img, 16)
    assert out.shape == (16, 32, 3) and out.dtype == np.uint8
    assert F.resize(img, 32) is img  # already the right size
    assert F.resize(np.zeros((10, 4), np.uint8), 2).shape == (5, 2)
    with pytest.raises(ValueError, match="interpolation"):
        F.resize(img, 8, "bicubic")


def test_rotate_matches_paddle_inside_the_image():
    got = F.rotate(paddle.to_tensor(CHW), -20, center=(1.0, 1.5)).numpy()
    np.testing.assert_allclose(got, GOLDEN["rotate-20_nearest_center"])
    got = F.rotate(paddle.to_tensor(CHW), 30, interpolation="bilinear").numpy()
    want = np.array(GOLDEN["rotate30_bilinear"])
    # Inside, bilinear agrees; at the border Paddle weighs the outside twice (its mask), minipaddle once.
    np.testing.assert_allclose(got[:, 1:3, 1:4], want[:, 1:3, 1:4], atol=1e-4)


def test_quarter_turns_are_exact():
    img = rgb(3, 5)
    np.testing.assert_array_equal(F.rotate(img, 90, expand=True), np.rot90(img))
    np.testing.assert_array_equal(F.rotate(img, -90, expand=True), np.rot90(img, -1))
    np.testing.assert_array_equal(F.rotate(img, 180), img[::-1, ::-1])
    gray = img[..., 0]
    assert F.rotate(gray, 90, expand=True).shape == (5, 3)


def test_rotate_fills_the_uncovered_corners():
    out = F.rotate(np.full((9, 9), 100, np.uint8), 45, fill=7)
    assert out[0, 0] == 7 and out[4, 4] == 100


def test_affine_shift_and_identity():
    img = rgb(5, 6)
    np.testing.assert_array_equal(F.affine(img, 0, (0, 0), 1.0, 0), img)
    shifted = F.affine(img, 0, (2, 1), 1.0, 0)
    np.testing.assert_array_equal(shifted[1:, 2:], img[:-1, :-2])
    assert not shifted[0].any() and not shifted[:, :2].any()
    with pytest.raises(ValueError, match="scale"):
        F.affine(img, 0, (0, 0), 0.0, 0)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_pad_modes_match_numpy(mode):
    img = rgb(4, 5)
    out = F.pad(img, (1, 2, 3, 4), padding_mode=mode)  # left, top, right, bottom
    want = np.pad(img, ((2, 4), (1, 3), (0, 0)), mode=mode)
    np.testing.assert_array_equal(out, want)


def test_pad_fill_per_channel_and_tensor():
    out = F.pad(rgb(2, 2), 1, fill=(1, 2, 3))
    assert out.shape == (4, 4, 3) and out[0, 0].tolist() == [1, 2, 3]
    t = F.pad(paddle.to_tensor(CHW), [1, 2])
    assert t.shape == [2, 8, 7]
    with pytest.raises(ValueError, match="padding"):
        F.pad(rgb(), (1, 2, 3))


def test_crops_and_flips_on_numpy_and_tensor():
    img = rgb(6, 8)
    np.testing.assert_array_equal(F.crop(img, 1, 2, 3, 4), img[1:4, 2:6])
    np.testing.assert_array_equal(F.center_crop(img, (2, 4)), img[2:4, 2:6])
    np.testing.assert_array_equal(F.hflip(img), img[:, ::-1])
    np.testing.assert_array_equal(F.vflip(img), img[::-1])
    t = paddle.to_tensor(CHW)
    np.testing.assert_array_equal(F.crop(t, 1, 1, 2, 3).numpy(), CHW[:, 1:3, 1:4])
    np.testing.assert_array_equal(F.hflip(t).numpy(), CHW[:, :, ::-1])
    np.testing.assert_array_equal(F.vflip(t).numpy(), CHW[:, ::-1])


def test_grayscale_uses_luma():
    img = rgb()
    gray = F.to_grayscale(img)
    want = np.rint(img.astype(float) @ [0.299, 0.587, 0.114])
    assert gray.shape == (6, 8, 1) and gray.dtype == np.uint8
    np.testing.assert_array_equal(gray[..., 0], want)
    assert F.to_grayscale(img, 3).shape == (6, 8, 3)
    assert F.to_grayscale(paddle.to_tensor(rgb().transpose(2, 0, 1).astype("float32") / 255)).shape == [1, 6, 8]
    with pytest.raises(ValueError, match="1 or 3"):
        F.to_grayscale(img, 2)


def test_brightness_contrast_saturation():
    img = rgb()
    assert not F.adjust_brightness(img, 0).any()
    np.testing.assert_array_equal(F.adjust_brightness(img, 1), img)
    np.testing.assert_array_equal(F.adjust_brightness(img, 2), np.clip(img.astype(int) * 2, 0, 255))
    flat = F.adjust_contrast(img, 0)
    assert np.ptp(flat) == 0 and abs(int(flat[0, 0, 0]) - (img.astype(float) @ color.LUMA).mean()) <= 0.5
    gray = F.adjust_saturation(img, 0)
    assert np.all(gray[..., 0] == gray[..., 1]) and np.all(gray[..., 1] == gray[..., 2])
    floats = img.astype(np.float32) / 255
    assert F.adjust_brightness(floats, 3).max() <= 1.0  # float images live in [0, 1]
    with pytest.raises(ValueError, match="non-negative"):
        F.adjust_brightness(img, -1)


def test_hue_matches_colorsys_and_turns_back():
    img = rgb(4, 4, seed=3)
    turned = F.adjust_hue(img.astype(np.float64) / 255, 0.25)
    for i, j in [(0, 0), (1, 2), (3, 3)]:
        h, s, v = colorsys.rgb_to_hsv(*(img[i, j] / 255))
        np.testing.assert_allclose(turned[i, j], colorsys.hsv_to_rgb((h + 0.25) % 1, s, v), atol=1e-9)
    back = F.adjust_hue(F.adjust_hue(img, 0.3), -0.3)
    assert np.abs(back.astype(int) - img).max() <= 2
    np.testing.assert_array_equal(F.adjust_hue(img, 0.0), img)
    with pytest.raises(ValueError, match="hue_factor"):
        F.adjust_hue(img, 0.7)


def test_normalize_numpy_and_tensor():
    img = np.full((2, 2, 3), 255.0, np.float32)
    out = F.normalize(img, [127.5] * 3, [127.5] * 3, data_format="HWC")
    assert out.dtype == np.float32 and np.all(out == 1.0)
    mnist_like = np.zeros((28, 28), np.float32)
    assert F.normalize(mnist_like, [127.5], [127.5]).shape == (1, 28, 28)  # as Paddle: CHW broadcasting
    t = paddle.to_tensor(np.ones((3, 2, 2), np.float32), stop_gradient=False)
    n = F.normalize(t, [0.5, 0.5, 0.5], [0.5, 0.25, 0.5])
    np.testing.assert_allclose(n.numpy()[:, 0, 0], [1.0, 2.0, 1.0])
    n.sum().backward()  # Tensor normalize runs through minipaddle ops
    np.testing.assert_allclose(t.grad.numpy()[:, 0, 0], [2.0, 4.0, 2.0])


def test_erase_on_numpy_and_tensor():
    img = rgb()
    out = F.erase(img, 1, 2, 2, 3, 0)
    assert not out[1:3, 2:5].any() and img[1:3, 2:5].any()  # a copy unless inplace
    t = F.erase(paddle.to_tensor(CHW), 0, 0, 2, 2, 0.0)
    assert not t.numpy()[:, :2, :2].any()
