"""paddle.vision.transforms classes: shapes, randomness from paddle.seed, keys."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.vision import transforms as T


def rgb(h=16, w=20, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3)).astype(np.uint8)


def test_compose_totensor_normalize_pipeline():
    pipeline = T.Compose([T.Resize((8, 10)), T.ToTensor(), T.Normalize(mean=[0.5] * 3, std=[0.5] * 3)])
    out = pipeline(rgb())
    assert isinstance(out, paddle.Tensor) and out.shape == [3, 8, 10]
    assert -1.0 <= out.numpy().min() and out.numpy().max() <= 1.0


def test_random_transforms_repeat_with_paddle_seed():
    pipeline = T.Compose(
        [T.RandomResizedCrop(8), T.RandomHorizontalFlip(), T.RandomRotation(30), T.ColorJitter(0.4, 0.4, 0.4, 0.1)]
    )
    paddle.seed(4)
    first = pipeline(rgb())
    paddle.seed(4)
    again = pipeline(rgb())
    assert first.shape == (8, 8, 3)
    np.testing.assert_array_equal(first, again)


def test_flips_with_probability_zero_and_one():
    img = rgb()
    np.testing.assert_array_equal(T.RandomHorizontalFlip(1.0)(img), img[:, ::-1])
    np.testing.assert_array_equal(T.RandomHorizontalFlip(0.0)(img), img)
    np.testing.assert_array_equal(T.RandomVerticalFlip(1.0)(img), img[::-1])
    with pytest.raises(ValueError):
        T.RandomVerticalFlip(1.5)


def test_crops_and_pads():
    img = rgb()
    assert T.CenterCrop(10)(img).shape == (10, 10, 3)
    assert T.RandomCrop((12, 12))(img).shape == (12, 12, 3)
    assert T.RandomCrop(24, padding=4)(img).shape == (24, 24, 3)
    assert T.RandomCrop(30, pad_if_needed=True)(img).shape == (30, 30, 3)
    with pytest.raises(ValueError, match="smaller"):
        T.RandomCrop(30)(img)
    assert T.Pad(2)(img).shape == (20, 24, 3)
    assert T.Pad([1, 2], padding_mode="reflect")(img).shape == (20, 22, 3)
    with pytest.raises(ValueError):
        T.Pad((1, 2, 3))


def test_resized_crop_falls_back_to_a_centre_crop():
    out = T.RandomResizedCrop(6, scale=(2.0, 3.0))(rgb())  # no random area fits: central crop
    assert out.shape == (6, 6, 3)


def test_transpose_and_grayscale():
    assert T.Transpose()(rgb()).shape == (3, 16, 20)
    assert T.Transpose()(np.zeros((4, 5))).shape == (1, 4, 5)
    assert T.Transpose((1, 2, 0))(paddle.zeros([3, 4, 5])).shape == [4, 5, 3]
    assert T.Grayscale()(rgb()).shape == (16, 20, 1)
    assert T.Grayscale(3)(rgb()).shape == (16, 20, 3)


def test_colour_transforms_stay_in_range_and_check_values():
    img = rgb()
    for t in [T.BrightnessTransform(0.5), T.ContrastTransform(0.5), T.SaturationTransform(0.5), T.HueTransform(0.2)]:
        out = t(img)
        assert out.shape == img.shape and out.dtype == np.uint8
    assert T.BrightnessTransform(0)(img) is img  # nothing to do
    with pytest.raises(ValueError):
        T.HueTransform(0.7)
    with pytest.raises(ValueError):
        T.BrightnessTransform(-1)


def test_rotation_affine_and_erasing():
    img = rgb()
    assert T.RandomRotation((90, 90), expand=True)(img).shape == (20, 16, 3)
    assert T.RandomAffine(15, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=10)(img).shape == img.shape
    erased = T.RandomErasing(prob=1.0, value=0)(img.astype(np.float32))
    assert (erased == 0).all(axis=2).sum() > (img == 0).all(axis=2).sum()
    t = T.RandomErasing(prob=1.0, value="random")(paddle.ones([3, 16, 20]))
    assert t.shape == [3, 16, 20] and not np.all(t.numpy() == 1)


def test_tensor_images_go_through_the_same_transforms():
    t = T.ToTensor()(rgb())
    assert T.Resize((8, 8))(t).shape == [3, 8, 8]
    assert T.RandomRotation(10)(t).shape == [3, 16, 20]
    assert T.Pad(1)(t).shape == [3, 18, 22]


class WithLabel(T.BaseTransform):
    def _apply_image(self, image):
        return image * 2

    def _apply_label(self, label):
        return label + 1


def test_base_transform_keys():
    t = WithLabel(keys=("image", "label"))
    image, label, extra = t((np.ones(2), 1, "kept"))
    assert image.tolist() == [2, 2] and label == 2 and extra == "kept"
    assert WithLabel()(np.ones(2)).tolist() == [2, 2]
    with pytest.raises(ValueError, match="_apply_mask"):
        WithLabel(keys=("image", "mask"))


def test_pil_backend_without_pillow_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    with pytest.raises(RuntimeError, match="Pillow"):
        paddle.vision.set_image_backend("pil")
    assert paddle.vision.get_image_backend() == "cv2"


def test_pil_images_pass_through_when_pillow_is_there():
    Image = pytest.importorskip("PIL.Image")
    img = Image.fromarray(rgb())
    out = T.Compose([T.Resize((8, 10)), T.RandomHorizontalFlip(1.0)])(img)
    assert isinstance(out, Image.Image) and out.size == (10, 8)
    np.testing.assert_array_equal(np.asarray(out), T.RandomHorizontalFlip(1.0)(T.Resize((8, 10))(rgb())))
    assert T.ToTensor()(img).shape == [3, 16, 20]
