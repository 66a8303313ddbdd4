"""paddle.vision.ops' deform_conv2d, psroi_pool, box_coder, prior_box and yolo_box against real Paddle 2.6
(tests/golden/detection/cases.npz, made by tests/golden/detection/make_golden.py): values and every
gradient; then the layers, paddle.static.nn.deform_conv2d and the argument checks."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
import minipaddle.vision.transforms as T
from minipaddle.vision import ops as V

HERE = Path(__file__).resolve().parents[1] / "golden" / "detection"
GOLDEN = np.load(HERE / "cases.npz")
_spec = importlib.util.spec_from_file_location("detection_golden", HERE / "make_golden.py")
_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_gen)


@pytest.mark.parametrize("case", _gen.DEFORM_CASES, ids=[c[0] for c in _gen.DEFORM_CASES])
def test_deform_conv2d_and_its_gradients_match_paddle(case):
    name, kwargs = case[0], case[1]
    data = _gen.deform_inputs(case)
    t = {k: paddle.to_tensor(v, stop_gradient=False) for k, v in data.items() if k != "cot"}
    out = V.deform_conv2d(t["x"], t["offset"], t["weight"], bias=t.get("bias"), mask=t.get("mask"), **kwargs)
    (out * paddle.to_tensor(data["cot"])).sum().backward()
    np.testing.assert_allclose(out.numpy(), GOLDEN[f"deform/{name}/out"], atol=1e-12)
    for k, v in t.items():
        np.testing.assert_allclose(v.grad.numpy(), GOLDEN[f"deform/{name}/d{k}"], atol=1e-12, err_msg=k)


def test_deform_conv2d_with_zero_offsets_is_conv2d():
    x, w, b = paddle.rand([2, 4, 6, 7]), paddle.rand([6, 2, 3, 3]), paddle.rand([6])
    offset = paddle.zeros([2, 2 * 9, 3, 4])
    got = V.deform_conv2d(x, offset, w, b, stride=2, padding=1, groups=2)
    want = F.conv2d(x, w, b, stride=2, padding=1, groups=2)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    assert got.dtype == paddle.float32


def test_deform_conv2d_layer():
    paddle.seed(0)
    conv = V.DeformConv2D(2, 4, 3, padding=1)
    assert conv.weight.shape == [4, 2, 3, 3] and conv.bias.shape == [4]
    assert abs(float(conv.weight.std()) - (2 / 18) ** 0.5) < 0.1  # Paddle's Normal(0, sqrt(2 / fan_in))
    np.testing.assert_array_equal(conv.bias.numpy(), 0)
    x, offset, mask = paddle.rand([1, 2, 5, 5]), paddle.rand([1, 18, 5, 5]), paddle.rand([1, 9, 5, 5])
    want = V.deform_conv2d(x, offset, conv.weight, conv.bias, padding=1, mask=mask)
    np.testing.assert_array_equal(conv(x, offset, mask).numpy(), want.numpy())
    conv(x, offset).sum().backward()
    assert conv.weight.grad.shape == [4, 2, 3, 3]
    assert V.DeformConv2D(2, 4, 3, bias_attr=False).bias is None


def test_static_nn_deform_conv2d():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 3, 6, 6])
            offset = paddle.static.data("offset", [-1, 18, 6, 6])
            mask = paddle.static.data("mask", [-1, 9, 6, 6])
            out = paddle.static.nn.deform_conv2d(x, offset, mask, num_filters=2, filter_size=3, padding=1)
            v1 = paddle.static.nn.deform_conv2d(x, offset, None, 2, 3, padding=1, bias_attr=False)
        names = sorted(p.name for p in main.all_parameters())
        assert names == ["deformable_conv_0.b_0", "deformable_conv_0.w_0", "deformable_conv_1.w_0"]
        assert out.shape == [-1, 2, 6, 6]
        exe = paddle.static.Executor()
        exe.run(startup)
        feed = {"x": np.random.rand(2, 3, 6, 6).astype("float32"), "offset": np.zeros((2, 18, 6, 6), "float32"),
                "mask": np.ones((2, 9, 6, 6), "float32")}  # fmt: skip
        a, b = exe.run(main, feed=feed, fetch_list=[out, v1])
        assert a.shape == (2, 2, 6, 6) and b.shape == (2, 2, 6, 6)
    finally:
        paddle.disable_static()


def test_deform_conv2d_checks_its_arguments():
    x, w = paddle.rand([1, 2, 5, 5]), paddle.rand([3, 2, 3, 3])
    with pytest.raises(ValueError, match="deform_conv2d: offset must have shape \\[1, 18, 3, 3\\]"):
        V.deform_conv2d(x, paddle.rand([1, 18, 4, 4]), w)
    with pytest.raises(ValueError, match="deform_conv2d: mask must have shape"):
        V.deform_conv2d(x, paddle.rand([1, 18, 3, 3]), w, mask=paddle.rand([1, 18, 3, 3]))
    with pytest.raises(ValueError, match="deform_conv2d: x has 2 channels"):
        V.deform_conv2d(x, paddle.rand([1, 18, 3, 3]), paddle.rand([3, 1, 3, 3]))
    with pytest.raises(ValueError, match="deform_conv2d: deformable_groups"):
        V.deform_conv2d(x, paddle.rand([1, 54, 3, 3]), w, deformable_groups=3)
    with pytest.raises(TypeError, match="deform_conv2d: stride"):
        V.deform_conv2d(x, paddle.rand([1, 18, 3, 3]), w, stride="2")


@pytest.mark.parametrize("name, kwargs", _gen.PSROI_CASES, ids=[c[0] for c in _gen.PSROI_CASES])
def test_psroi_pool_matches_paddle(name, kwargs):
    x = paddle.to_tensor(GOLDEN["ps/x"], stop_gradient=False)
    boxes, boxes_num = paddle.to_tensor(GOLDEN["ps/boxes"]), paddle.to_tensor(GOLDEN["ps/boxes_num"])
    out = V.psroi_pool(x, boxes, boxes_num, **kwargs)
    (out * paddle.to_tensor(_gen.cotangent(out.shape))).sum().backward()
    np.testing.assert_allclose(out.numpy(), GOLDEN[f"ps/{name}/out"], atol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), GOLDEN[f"ps/{name}/dx"], atol=1e-12)
    layer = V.PSRoIPool(kwargs["output_size"], kwargs.get("spatial_scale", 1.0))
    np.testing.assert_allclose(layer(x, boxes, boxes_num).numpy(), out.numpy())


def test_psroi_pool_checks_channels():
    with pytest.raises(ValueError, match="psroi_pool: x's channels \\(7\\) must be divisible"):
        V.psroi_pool(paddle.rand([1, 7, 5, 5]), paddle.rand([1, 4]), paddle.to_tensor([1], "int32"), 2)


@pytest.mark.parametrize("name, kwargs", _gen.BOX_CODER_CASES, ids=[c[0] for c in _gen.BOX_CODER_CASES])
def test_box_coder_matches_paddle(name, kwargs):
    bx = _gen.box_inputs()
    kw = dict(kwargs)
    by_n = kw.get("axis", 0) == 1
    if kw["prior_box_var"] is True:
        kw["prior_box_var"] = paddle.to_tensor(bx["var_n"] if by_n else bx["var"])
    target = bx["deltas"] if kw.get("code_type") == "decode_center_size" else bx["targets"]
    out = V.box_coder(paddle.to_tensor(bx["priors_n"] if by_n else bx["priors"]), target_box=paddle.to_tensor(target),
                      **kw)  # fmt: skip
    assert out.dtype == paddle.float32 and out.stop_gradient
    np.testing.assert_allclose(out.numpy(), GOLDEN[f"box_coder/{name}"], rtol=1e-5, atol=1e-6)


def test_box_coder_checks_its_arguments():
    p, t = paddle.rand([3, 4]), paddle.rand([2, 4])
    with pytest.raises(TypeError, match="box_coder: prior_box_var must be a Tensor or a list"):
        V.box_coder(p, None, t)
    with pytest.raises(ValueError, match="box_coder: code_type"):
        V.box_coder(p, [1.0] * 4, t, code_type="corner")
    with pytest.raises(ValueError, match="box_coder: to decode with axis=0, target_box must be \\[N, M, 4\\]"):
        V.box_coder(p, [1.0] * 4, paddle.rand([2, 5, 4]), code_type="decode_center_size")


@pytest.mark.parametrize("name, kwargs", _gen.PRIOR_BOX_CASES, ids=[c[0] for c in _gen.PRIOR_BOX_CASES])
def test_prior_box_matches_paddle(name, kwargs):
    boxes, var = V.prior_box(paddle.zeros([1, 2, 3, 4]), paddle.zeros([1, 3, 24, 40]), **kwargs)
    assert boxes.dtype == paddle.float32 and boxes.stop_gradient
    np.testing.assert_allclose(boxes.numpy(), GOLDEN[f"prior_box/{name}/boxes"], atol=1e-6)
    np.testing.assert_array_equal(var.numpy(), GOLDEN[f"prior_box/{name}/var"])


def test_prior_box_keeps_the_input_dtype_and_checks_steps():
    boxes, var = V.prior_box(paddle.zeros([1, 2, 3, 4], "float64"), paddle.zeros([1, 3, 24, 40]), 4.0)
    assert boxes.dtype == var.dtype == paddle.float64 and boxes.shape == [3, 4, 1, 4]
    with pytest.raises(ValueError, match="prior_box: steps must be \\(step_w, step_h\\)"):
        V.prior_box(paddle.zeros([1, 2, 3, 4]), paddle.zeros([1, 3, 24, 40]), 4.0, steps=[1.0])


@pytest.mark.parametrize("case", _gen.YOLO_CASES, ids=[c[0] for c in _gen.YOLO_CASES])
def test_yolo_box_matches_paddle(case):
    x, img_size = _gen.yolo_inputs(case)
    boxes, scores = V.yolo_box(paddle.to_tensor(x), paddle.to_tensor(img_size), **case[1])
    np.testing.assert_allclose(boxes.numpy(), GOLDEN[f"yolo_box/{case[0]}/boxes"], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(scores.numpy(), GOLDEN[f"yolo_box/{case[0]}/scores"], rtol=1e-12, atol=1e-12)


def test_yolo_box_checks_channels():
    with pytest.raises(ValueError, match="yolo_box: x must be \\[N, 16, H, W\\] for 2 anchors and 3 classes"):
        V.yolo_box(paddle.rand([1, 15, 2, 2]), paddle.to_tensor([[8, 8]], "int32"), [1, 2, 3, 4], 3, 0.1, 4)


@pytest.mark.parametrize("name, kwargs", _gen.MATRIX_NMS_CASES, ids=[c[0] for c in _gen.MATRIX_NMS_CASES])
def test_matrix_nms_matches_paddle(name, kwargs):
    boxes, scores = (paddle.to_tensor(a) for a in _gen.matrix_nms_inputs())
    out, rois_num, index = V.matrix_nms(boxes, scores, return_index=True, **kwargs)
    np.testing.assert_allclose(out.numpy(), GOLDEN[f"matrix_nms/{name}/out"], atol=1e-12)
    np.testing.assert_array_equal(rois_num.numpy(), GOLDEN[f"matrix_nms/{name}/num"])
    np.testing.assert_array_equal(index.numpy(), GOLDEN[f"matrix_nms/{name}/index"])
    assert rois_num.dtype == index.dtype == paddle.int32 and out.dtype == paddle.float64


def test_matrix_nms_outputs_and_checks():
    boxes, scores = (paddle.to_tensor(a.astype("float32")) for a in _gen.matrix_nms_inputs())
    out, rois_num, index = V.matrix_nms(boxes, scores, 0.2, 0.1, -1, -1)
    assert index is None and rois_num.shape == [3] and out.dtype == paddle.float32
    out, rois_num, index = V.matrix_nms(boxes, scores, 1.0, 0.5, -1, -1, return_index=True, return_rois_num=False)
    assert out.shape == [0, 6] and index.shape == [0, 1] and rois_num is None
    with pytest.raises(ValueError, match="matrix_nms: scores must be \\[N, C, M\\] = \\[3, C, 15\\]"):
        V.matrix_nms(boxes, paddle.rand([3, 4, 14]), 0.1, 0.1, -1, -1)


@pytest.mark.parametrize("name, kwargs", _gen.PROPOSAL_CASES, ids=[c[0] for c in _gen.PROPOSAL_CASES])
def test_generate_proposals_matches_paddle(name, kwargs):
    args = [paddle.to_tensor(v) for v in _gen.proposal_inputs()]
    rois, probs, num = V.generate_proposals(*args, return_rois_num=True, **kwargs)
    np.testing.assert_allclose(rois.numpy(), GOLDEN[f"proposals/{name}/rois"], atol=1e-12)
    np.testing.assert_allclose(probs.numpy(), GOLDEN[f"proposals/{name}/probs"], atol=1e-12)
    np.testing.assert_array_equal(num.numpy(), GOLDEN[f"proposals/{name}/num"])
    assert num.dtype == paddle.int32 and rois.dtype == probs.dtype == paddle.float64


def test_generate_proposals_in_float32_and_with_nothing_left():
    args = [paddle.to_tensor(v) for v in _gen.proposal_inputs("float32")]
    rois, probs, num = V.generate_proposals(*args)
    assert num is None and rois.dtype == paddle.float32
    np.testing.assert_allclose(rois.numpy(), GOLDEN["proposals/default/rois"], rtol=1e-5, atol=1e-4)
    # no box is 100 pixels wide: each image gives one all-zero proposal, as in Paddle
    rois, probs, num = V.generate_proposals(*args, min_size=100.0, return_rois_num=True)
    np.testing.assert_array_equal(rois.numpy(), np.zeros((2, 4)))
    np.testing.assert_array_equal(num.numpy(), [1, 1])
    with pytest.raises(ValueError, match="generate_proposals: anchors must have shape \\[4, 5, 3, 4\\]"):
        V.generate_proposals(args[0], args[1], args[2], args[3][:, :, :2], args[4])


@pytest.mark.parametrize("name, kwargs", _gen.FPN_CASES, ids=[c[0] for c in _gen.FPN_CASES])
def test_distribute_fpn_proposals_matches_paddle(name, kwargs):
    rois, rois_num = _gen.fpn_inputs()
    multi, restore, nums = V.distribute_fpn_proposals(paddle.to_tensor(rois), rois_num=paddle.to_tensor(rois_num),
                                                      **kwargs)  # fmt: skip
    assert [m.shape[0] for m in multi] == GOLDEN[f"fpn/{name}/sizes"].tolist()
    together = paddle.concat(multi)
    np.testing.assert_array_equal(together.numpy(), GOLDEN[f"fpn/{name}/rois"])
    np.testing.assert_array_equal(restore.numpy(), GOLDEN[f"fpn/{name}/restore"])
    np.testing.assert_array_equal(np.stack([v.numpy() for v in nums]), GOLDEN[f"fpn/{name}/nums"])
    assert restore.dtype == nums[0].dtype == paddle.int32
    np.testing.assert_array_equal(paddle.gather(together, restore[:, 0]).numpy(), rois)  # restore_ind's promise


def test_distribute_fpn_proposals_needs_rois_num():
    with pytest.raises(ValueError, match="distribute_fpn_proposals: rois_num"):
        V.distribute_fpn_proposals(paddle.rand([3, 4]), 2, 5, 4, 224)


@pytest.mark.parametrize("case", _gen.YOLO_LOSS_CASES, ids=[c[0] for c in _gen.YOLO_LOSS_CASES])
def test_yolo_loss_and_its_gradient_match_paddle(case):
    name, kw = case[0], dict(case[1])
    x, gt_box, gt_label, gt_score = _gen.yolo_loss_inputs(case)
    if kw.pop("gt_score", False):
        kw["gt_score"] = paddle.to_tensor(gt_score)
    xt = paddle.to_tensor(x, stop_gradient=False)
    loss = V.yolo_loss(xt, paddle.to_tensor(gt_box), paddle.to_tensor(gt_label), **kw)
    (loss * paddle.to_tensor(np.array([0.7, -1.3]))).sum().backward()
    np.testing.assert_allclose(loss.numpy(), GOLDEN[f"yolo_loss/{name}/loss"], rtol=1e-12)
    np.testing.assert_allclose(xt.grad.numpy(), GOLDEN[f"yolo_loss/{name}/dx"], atol=1e-12)


def test_yolo_loss_checks_its_arguments():
    x, gt_box, gt_label, _ = (paddle.to_tensor(a) for a in _gen.yolo_loss_inputs(_gen.YOLO_LOSS_CASES[0]))
    with pytest.raises(ValueError, match="yolo_loss: x must be \\[N, 24, H, W\\]"):
        V.yolo_loss(x, gt_box, gt_label, [10, 13, 16, 30, 33, 23], [0, 1, 2], 3, 0.5, 8)
    with pytest.raises(ValueError, match="yolo_loss: anchor_mask"):
        V.yolo_loss(x, gt_box, gt_label, [10, 13, 16, 30], [0, 2], 3, 0.5, 8)
    with pytest.raises(ValueError, match="yolo_loss: gt_label must have shape \\[2, 4\\]"):
        V.yolo_loss(x, gt_box, gt_label[:, :2], [10, 13, 16, 30], [0, 1], 3, 0.5, 8)


# ---- transforms: perspective and RandomPerspective -------------------------------------------------------------------


def _perspective_sample_points():
    """Where each output pixel reads the input (pixel units), from the coefficients Paddle solves for too."""
    from minipaddle.vision.transforms import geometry

    a, b, c, d, e, f, g, h = geometry.perspective_coeffs(_gen.PERSPECTIVE_START, _gen.PERSPECTIVE_END)
    ys, xs = np.meshgrid(np.arange(9) + 0.5, np.arange(10) + 0.5, indexing="ij")
    den = g * xs + h * ys + 1
    return (a * xs + b * ys + c) / den - 0.5, (d * xs + e * ys + f) / den - 0.5


@pytest.mark.parametrize("name, kwargs", _gen.PERSPECTIVE_CASES, ids=[c[0] for c in _gen.PERSPECTIVE_CASES])
def test_perspective_matches_paddle(name, kwargs):
    img = paddle.to_tensor(_gen.perspective_image())
    out = T.functional.perspective(img, _gen.PERSPECTIVE_START, _gen.PERSPECTIVE_END, **kwargs)
    assert isinstance(out, paddle.Tensor) and out.shape == [2, 9, 10]
    want = GOLDEN[f"perspective/{name}"]
    sx, sy = _perspective_sample_points()
    if name == "bilinear":
        # inside the image both agree; at its border Paddle weighs the outside twice (its fill mask), as in rotate
        compare = (sx >= 0) & (sx <= 9) & (sy >= 0) & (sy <= 8)
    else:
        # points exactly half-way between pixels round by float noise (Paddle computes in float32)
        compare = (np.abs(sx % 1 - 0.5) > 1e-4) & (np.abs(sy % 1 - 0.5) > 1e-4)
    assert compare.sum() >= 30
    np.testing.assert_allclose(out.numpy()[:, compare], want[:, compare], atol=1e-4)


def test_perspective_on_numpy_images():
    img = (np.arange(6 * 7 * 3) % 251).astype(np.uint8).reshape(6, 7, 3)
    corners = [[0, 0], [6, 0], [6, 5], [0, 5]]
    np.testing.assert_array_equal(T.functional.perspective(img, corners, corners), img)
    shifted = T.functional.perspective(img, corners, [[1, 0], [7, 0], [7, 5], [1, 5]], fill=9)
    assert shifted.dtype == np.uint8
    np.testing.assert_array_equal(shifted[:, 1:], img[:, :-1])  # a translation by one pixel
    np.testing.assert_array_equal(shifted[:, 0], 9)
    with pytest.raises(ValueError, match="perspective: endpoints must be 4 \\[x, y\\] points"):
        T.functional.perspective(img, corners, corners[:3])
    with pytest.raises(ValueError, match="perspective: interpolation"):
        T.functional.perspective(img, corners, corners, interpolation="area")


def test_random_perspective():
    img = (np.arange(20 * 16) % 251).astype(np.uint8).reshape(20, 16)
    assert T.RandomPerspective(prob=0.0)(img) is img
    paddle.seed(3)
    first = T.RandomPerspective(prob=1.0, distortion_scale=0.6)(img)
    paddle.seed(3)
    again = T.RandomPerspective(prob=1.0, distortion_scale=0.6)(img)
    np.testing.assert_array_equal(first, again)
    assert first.shape == img.shape and (first != img).any()
    start, end = T.RandomPerspective().get_params(16, 20, 0.5)
    assert start == [[0, 0], [15, 0], [15, 19], [0, 19]]
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = end
    assert 0 <= x0 <= 4 and 0 <= y0 <= 5 and 11 <= x1 <= 15 and 14 <= y2 <= 19 and 0 <= x3 <= 4 and 14 <= y3 <= 19
    assert isinstance(T.RandomPerspective(prob=1.0)(paddle.rand([3, 8, 8])), paddle.Tensor)
    with pytest.raises(ValueError, match="RandomPerspective: distortion_scale"):
        T.RandomPerspective(distortion_scale=1.5)
