"""paddle.vision.ops against real Paddle 2.6 (tests/golden/vision_ops/cases.npz, made by
tests/golden/vision_ops/make_golden.py): roi_align, roi_pool (values and input gradients), nms (kept indices), and
the argument checks. Paddle's roi_align gradient disagrees with its own forward for boxes narrower than a bin's
sample spacing; minipaddle's is the true gradient there (tested by the op table's gradcheck), so the golden boxes
avoid that case."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.vision import ops as V

HERE = Path(__file__).resolve().parents[1] / "golden" / "vision_ops"
GOLDEN = np.load(HERE / "cases.npz")
_spec = importlib.util.spec_from_file_location("vision_ops_golden", HERE / "make_golden.py")
_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_gen)


@pytest.mark.parametrize("name, fn, kwargs", _gen.ROI_CASES, ids=[c[0] for c in _gen.ROI_CASES])
def test_roi_ops_match_paddle(name, fn, kwargs):
    x = paddle.to_tensor(GOLDEN["x"], stop_gradient=False)
    out = getattr(V, fn)(x, paddle.to_tensor(GOLDEN["boxes"]), paddle.to_tensor(GOLDEN["boxes_num"]), **kwargs)
    (out * paddle.to_tensor(_gen.cotangent(out.shape))).sum().backward()
    np.testing.assert_allclose(out.numpy(), GOLDEN[name + "/out"], atol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), GOLDEN[name + "/dx"], atol=1e-12)


@pytest.mark.parametrize("name, kwargs", _gen.NMS_CASES, ids=[c[0] for c in _gen.NMS_CASES])
def test_nms_matches_paddle(name, kwargs):
    kw = dict(kwargs)
    if kw.pop("scores", False):
        kw["scores"] = paddle.to_tensor(GOLDEN["nms_scores"])
    if kw.pop("category_idxs", False):
        kw["category_idxs"] = paddle.to_tensor(GOLDEN["nms_categories"])
    kept = V.nms(paddle.to_tensor(GOLDEN["nms_boxes"]), **kw)
    assert kept.dtype == paddle.int64
    np.testing.assert_array_equal(kept.numpy(), GOLDEN[name])


def test_layers_call_the_functions():
    x = paddle.to_tensor(GOLDEN["x"])
    args = (paddle.to_tensor(GOLDEN["boxes"]), paddle.to_tensor(GOLDEN["boxes_num"]))
    np.testing.assert_allclose(V.RoIAlign((3, 2), 0.5)(x, *args).numpy(), GOLDEN["align_3x2_half/out"])
    np.testing.assert_allclose(V.RoIPool(4)(x, *args).numpy(), GOLDEN["pool_4/out"])
    assert "output_size=4" in repr(V.RoIPool(4))


def test_conv_norm_activation_is_the_models_block():
    block = V.ConvNormActivation(3, 8, kernel_size=3, stride=2)
    assert [type(m).__name__ for m in block.children()] == ["Conv2D", "BatchNorm2D", "ReLU"]
    assert list(block.state_dict()) == ["0.weight", "1.weight", "1.bias", "1._mean", "1._variance"]
    assert block(paddle.rand([1, 3, 8, 8])).shape == [1, 8, 4, 4]
    assert "0.bias" in V.ConvNormActivation(3, 8, norm_layer=None).state_dict()


def test_empty_bins_and_boxes_outside_pool_to_zero():
    x = paddle.rand([1, 1, 4, 4]) + 1.0
    out = V.roi_pool(x, paddle.to_tensor([[10.0, 10.0, 12.0, 12.0]]), paddle.to_tensor([1], "int32"), 2)
    np.testing.assert_array_equal(out.numpy(), np.zeros((1, 1, 2, 2)))


def test_bad_arguments():
    x, boxes, num = paddle.rand([1, 1, 4, 4]), paddle.to_tensor([[0.0, 0.0, 2.0, 2.0]]), paddle.to_tensor([1], "int32")
    with pytest.raises(ValueError, match="roi_align: boxes_num .* must be given"):
        V.roi_align(x, boxes, None, 2)
    with pytest.raises(ValueError, match="roi_pool: output_size must be"):
        V.roi_pool(x, boxes, num, 0)
    with pytest.raises(ValueError, match="roi_align: boxes must be"):
        V.roi_align(x, paddle.rand([2, 3]), num, 2)
    with pytest.raises(ValueError, match="boxes_num must add up"):
        V.roi_align(x, boxes, paddle.to_tensor([2], "int32"), 2)
    with pytest.raises(TypeError, match="roi_pool: x must be a float tensor"):
        V.roi_pool(paddle.ones([1, 1, 4, 4], "int32"), boxes, num, 2)
    with pytest.raises(ValueError, match="nms: with category_idxs, categories"):
        V.nms(boxes, 0.5, paddle.to_tensor([1.0]), paddle.to_tensor([0]))
