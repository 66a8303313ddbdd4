"""Record what real Paddle 2.6's paddle.vision.ops computes for the ops of
minipaddle/ops/{detection,deformable_conv,yolo_loss}.py
(deform_conv2d with its five gradients, psroi_pool with its input gradient, box_coder, prior_box, yolo_box,
matrix_nms, generate_proposals, distribute_fpn_proposals, yolo_loss with its gradient) and
of paddle.vision.transforms.functional.perspective, as
golden values for tests/vision/test_detection.py.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/detection/make_golden.py

Writes cases.npz next to this file: the inputs and, per case, Paddle's outputs and gradients of sum(out * cot).
"""

import os
import sys

import numpy as np

# (case name, keyword arguments, x shape, weight shape, with mask, with bias)
DEFORM_CASES = [
    ("v1", {}, (2, 2, 6, 7), (3, 2, 3, 3), False, False),
    ("v2_pad_stride", {"stride": 2, "padding": 1}, (1, 4, 7, 6), (4, 4, 3, 2), True, True),
    (
        "v2_groups_dilation",
        {"dilation": (2, 1), "groups": 2, "deformable_groups": 2, "padding": (1, 0)},
        (2, 4, 6, 6),
        (6, 2, 2, 3),
        True,
        True,
    ),  # fmt: skip
]

PSROI_CASES = [
    ("ps_2", {"output_size": 2}),
    ("ps_3x2_half", {"output_size": (3, 2), "spatial_scale": 0.5}),
]


def psroi_inputs():
    rng = np.random.RandomState(3)
    # boxes inside, with half-integer corners (rounded away from zero), crossing the border, and tiny
    boxes = np.array([[0.3, 0.7, 5.5, 6.9], [2.5, 1.0, 9.5, 8.0], [-1.0, -2.0, 3.0, 2.5], [4.2, 4.2, 4.4, 4.3]])
    return {"x": rng.rand(2, 12, 9, 11), "boxes": boxes, "boxes_num": np.array([2, 2], "int32")}


# box_coder: (case name, keyword arguments); "var" True means the [M, 4] variance tensor
BOX_CODER_CASES = [
    ("encode_list", {"prior_box_var": [0.1, 0.1, 0.2, 0.2]}),
    ("encode_tensor_pixels", {"prior_box_var": True, "box_normalized": False}),
    ("decode_axis0", {"prior_box_var": [0.1, 0.2, 0.3, 0.4], "code_type": "decode_center_size"}),
    (
        "decode_axis1_tensor",
        {"prior_box_var": True, "code_type": "decode_center_size", "axis": 1, "box_normalized": False},
    ),  # fmt: skip
]
PRIOR_BOX_CASES = [
    ("plain", {"min_sizes": [4.0]}),
    (
        "ratios_flip_max",
        {
            "min_sizes": [2.0, 5.0],
            "max_sizes": [4.0, 9.0],
            "aspect_ratios": [2.0, 3.0, 1.0],
            "flip": True,
            "clip": True,
        },
    ),  # fmt: skip
    (
        "order_steps",
        {
            "min_sizes": [3.0],
            "max_sizes": [6.0],
            "aspect_ratios": [0.5],
            "flip": True,
            "min_max_aspect_ratios_order": True,
            "steps": [5.0, 3.0],
            "offset": 0.25,
            "variance": [0.1, 0.2, 0.3, 0.4],
        },
    ),  # fmt: skip
]
YOLO_CASES = [
    ("plain", {"anchors": [10, 13, 16, 30], "class_num": 3, "conf_thresh": 0.4, "downsample_ratio": 8}),
    (
        "noclip_scale",
        {
            "anchors": [10, 13, 16, 30, 33, 23],
            "class_num": 2,
            "conf_thresh": 0.3,
            "downsample_ratio": 16,
            "clip_bbox": False,
            "scale_x_y": 1.2,
        },
    ),  # fmt: skip
    (
        "iou_aware",
        {
            "anchors": [10, 13, 16, 30],
            "class_num": 2,
            "conf_thresh": 0.25,
            "downsample_ratio": 8,
            "iou_aware": True,
            "iou_aware_factor": 0.4,
        },
    ),  # fmt: skip
]


def box_inputs():
    rng = np.random.RandomState(5)
    corners = rng.uniform(0, 0.5, (5, 2))
    priors = np.concatenate([corners, corners + rng.uniform(0.1, 0.5, (5, 2))], 1)
    corners = rng.uniform(0, 0.5, (3, 2))
    targets = np.concatenate([corners, corners + rng.uniform(0.1, 0.5, (3, 2))], 1)
    data = {"priors": priors, "targets": targets, "var": rng.uniform(0.1, 0.3, (5, 4)),
            "deltas": rng.uniform(-1, 1, (3, 5, 4)), "priors_n": priors[:3],
            "var_n": rng.uniform(0.1, 0.3, (3, 4))}  # fmt: skip
    # float32: Paddle 2.6's float64 decoding reads a list of variances (float32 numbers) as float64 ones
    return {k: v.astype("float32") for k, v in data.items()}


def yolo_inputs(case):
    kw = case[1]
    a = len(kw["anchors"]) // 2
    c = a * (5 + kw["class_num"]) + (a if kw.get("iou_aware") else 0)
    rng = np.random.RandomState(c)
    return rng.uniform(-2, 2, (2, c, 3, 4)), np.array([[40, 50], [33, 21]], "int32")


# transforms.functional.perspective on a CHW Tensor (Paddle's grid_sample path)
PERSPECTIVE_START = [[0, 0], [9, 0], [9, 8], [0, 8]]
PERSPECTIVE_END = [[1, 2], [7, 1], [9, 6], [2, 7]]
PERSPECTIVE_CASES = [("nearest", {}), ("bilinear", {"interpolation": "bilinear"}), ("fill", {"fill": [3, 5]})]


def perspective_image():
    return (np.arange(2 * 9 * 10).reshape(2, 9, 10) ** 1.5 % 17).astype("float32")


MATRIX_NMS_CASES = [
    ("linear", {"score_threshold": 0.2, "post_threshold": 0.1, "nms_top_k": -1, "keep_top_k": -1}),
    (
        "gaussian_topk",
        {
            "score_threshold": 0.1,
            "post_threshold": 0.3,
            "nms_top_k": 8,
            "keep_top_k": 10,
            "use_gaussian": True,
            "gaussian_sigma": 3.0,
            "background_label": -1,
        },
    ),  # fmt: skip
    (
        "pixels",
        {
            "score_threshold": 0.3,
            "post_threshold": 0.2,
            "nms_top_k": 12,
            "keep_top_k": 7,
            "normalized": False,
            "background_label": 2,
        },
    ),  # fmt: skip
]


def matrix_nms_inputs():
    rng = np.random.RandomState(11)
    corner = rng.uniform(0, 6, (3, 15, 2))
    boxes = np.concatenate([corner, corner + rng.uniform(1, 4, (3, 15, 2))], -1)
    return boxes, rng.uniform(0, 1, (3, 4, 15))


# generate_proposals: nms_thresh <= 0 with pre_nms_top_n below the anchor count is left out: Paddle then returns
# the proposals in the order std::nth_element leaves (minipaddle: by decreasing score)
PROPOSAL_CASES = [
    ("default", {}),
    ("top_n", {"pre_nms_top_n": 20, "post_nms_top_n": 6, "nms_thresh": 0.3, "min_size": 3.0}),
    ("pixel_offset_eta", {"pixel_offset": True, "nms_thresh": 0.6, "eta": 0.9, "min_size": 5.0}),
    ("no_nms", {"nms_thresh": 0.0}),
]


def proposal_inputs(dtype="float64"):
    """scores [2, 3, 4, 5], deltas, img_size, and anchors of 3 shapes on an 8-pixel grid with their variances."""
    rng = np.random.RandomState(0)
    n, a, h, w = 2, 3, 4, 5
    scores = rng.rand(n, a, h, w)
    deltas = rng.uniform(-0.5, 0.5, (n, 4 * a, h, w))
    cy, cx = np.meshgrid(np.arange(h) * 8 + 4, np.arange(w) * 8 + 4, indexing="ij")
    half = np.array([[4, 4], [8, 4], [4, 8]])
    anchors = np.stack([cx[..., None] - half[:, 0], cy[..., None] - half[:, 1], cx[..., None] + half[:, 0],
                        cy[..., None] + half[:, 1]], axis=-1)  # fmt: skip
    variances = np.broadcast_to(np.array([0.1, 0.1, 0.2, 0.2]), (h, w, a, 4))
    img_size = np.array([[32, 40], [30, 35]])
    return [v.astype(dtype) for v in (scores, deltas, img_size, anchors, variances)]


FPN_CASES = [
    ("levels_2_5", {"min_level": 2, "max_level": 5, "refer_level": 4, "refer_scale": 224}),
    ("pixel_offset", {"min_level": 1, "max_level": 4, "refer_level": 3, "refer_scale": 100, "pixel_offset": True}),
]


def fpn_inputs():
    rng = np.random.RandomState(4)
    corner = rng.uniform(0, 100, (12, 2))
    rois = np.concatenate([corner, corner + rng.uniform(5, 400, (12, 2))], 1)
    rois[:3] = [[0, 0, 224, 224], [0, 0, 112, 112], [10, 10, 5, 30]]  # a level's edge, its half, an empty box
    return rois, np.array([5, 3, 4], "int32")


YOLO_LOSS_CASES = [
    (
        "smooth",
        {
            "anchors": [10, 13, 16, 30, 33, 23],
            "anchor_mask": [0, 1],
            "class_num": 3,
            "ignore_thresh": 0.5,
            "downsample_ratio": 8,
        },
    ),  # fmt: skip
    (
        "scored_plain",
        {
            "anchors": [10, 13, 16, 30, 33, 23],
            "anchor_mask": [1, 2],
            "class_num": 3,
            "ignore_thresh": 0.3,
            "downsample_ratio": 8,
            "use_label_smooth": False,
            "scale_x_y": 1.2,
            "gt_score": True,
        },
    ),  # fmt: skip
]


def yolo_loss_inputs(case):
    """x for 2 masked anchors and 3 classes on a 4x4 grid (a 32-pixel image); per image 4 ground truths in
    distinct cells, the last of image 0 empty (width 0: ignored)."""
    rng = np.random.RandomState(len(case[0]))
    x = rng.uniform(-1, 1, (2, 2 * 8, 4, 4))
    gt_box = np.array(
        [
            [[0.1, 0.2, 0.3, 0.4], [0.6, 0.3, 0.9, 0.7], [0.4, 0.8, 0.35, 0.5], [0.0, 0.0, 0.0, 0.0]],
            [[0.9, 0.9, 0.2, 0.2], [0.3, 0.6, 0.5, 0.3], [0.7, 0.1, 0.4, 0.9], [0.55, 0.55, 0.6, 0.7]],
        ]
    )
    gt_label = np.array([[0, 2, 1, 0], [1, 1, 2, 0]], "int32")
    return x, gt_box, gt_label, rng.uniform(0.3, 1, (2, 4))


def out_hw(x_shape, w_shape, kw):
    def pair(v):
        return (v, v) if isinstance(v, int) else tuple(v)

    s, p, d = pair(kw.get("stride", 1)), pair(kw.get("padding", 0)), pair(kw.get("dilation", 1))
    return tuple((x_shape[2 + i] + 2 * p[i] - d[i] * (w_shape[2 + i] - 1) - 1) // s[i] + 1 for i in range(2))


def deform_inputs(case):
    name, kw, xs, ws, with_mask, with_bias = case
    rng = np.random.RandomState(len(name) * 7 + xs[1])
    ho, wo = out_hw(xs, ws, kw)
    taps = kw.get("deformable_groups", 1) * ws[2] * ws[3]
    data = {
        "x": rng.uniform(-1, 1, xs),
        # offsets up to 2.5 pixels: samples cross pixel borders and the image's edge
        "offset": rng.uniform(-2.5, 2.5, (xs[0], 2 * taps, ho, wo)),
        "weight": rng.uniform(-1, 1, ws),
        "cot": rng.uniform(-1, 1, (xs[0], ws[0], ho, wo)),
    }
    if with_mask:
        data["mask"] = rng.uniform(0, 1, (xs[0], taps, ho, wo))
    if with_bias:
        data["bias"] = rng.uniform(-1, 1, ws[0])
    return data


def cotangent(shape):
    return np.random.RandomState(1).uniform(-1, 1, shape)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    if here in sys.path:
        sys.path.remove(here)
    import paddle
    from paddle.vision import ops as V

    out = {}
    for case in DEFORM_CASES:
        name, kw = case[0], case[1]
        data = deform_inputs(case)
        t = {k: paddle.to_tensor(v, stop_gradient=False) for k, v in data.items() if k != "cot"}
        y = V.deform_conv2d(t["x"], t["offset"], t["weight"], bias=t.get("bias"), mask=t.get("mask"), **kw)
        (y * paddle.to_tensor(data["cot"])).sum().backward()
        out[f"deform/{name}/out"] = y.numpy()
        for k, v in t.items():
            out[f"deform/{name}/d{k}"] = v.grad.numpy()
    ps = psroi_inputs()
    out.update({f"ps/{k}": v for k, v in ps.items()})
    for name, kw in PSROI_CASES:
        x = paddle.to_tensor(ps["x"], stop_gradient=False)
        y = V.psroi_pool(x, paddle.to_tensor(ps["boxes"]), paddle.to_tensor(ps["boxes_num"]), **kw)
        (y * paddle.to_tensor(cotangent(y.shape))).sum().backward()
        out[f"ps/{name}/out"], out[f"ps/{name}/dx"] = y.numpy(), x.grad.numpy()
    bx = box_inputs()
    for name, kw in BOX_CODER_CASES:
        kw = dict(kw)
        decode = kw.get("code_type") == "decode_center_size"
        by_n = kw.get("axis", 0) == 1
        prior = bx["priors_n"] if by_n else bx["priors"]
        if kw["prior_box_var"] is True:
            kw["prior_box_var"] = paddle.to_tensor(bx["var_n"] if by_n else bx["var"])
        target = bx["deltas"] if decode else bx["targets"]
        out[f"box_coder/{name}"] = V.box_coder(paddle.to_tensor(prior), target_box=paddle.to_tensor(target),
                                               **kw).numpy()  # fmt: skip
    feat, img = paddle.zeros([1, 2, 3, 4]), paddle.zeros([1, 3, 24, 40])
    for name, kw in PRIOR_BOX_CASES:
        boxes, var = V.prior_box(feat, img, **kw)
        out[f"prior_box/{name}/boxes"], out[f"prior_box/{name}/var"] = boxes.numpy(), var.numpy()
    for case in YOLO_CASES:
        x, img_size = yolo_inputs(case)
        boxes, scores = V.yolo_box(paddle.to_tensor(x), paddle.to_tensor(img_size), **case[1])
        out[f"yolo_box/{case[0]}/boxes"], out[f"yolo_box/{case[0]}/scores"] = boxes.numpy(), scores.numpy()
    boxes, scores = matrix_nms_inputs()
    for name, kw in MATRIX_NMS_CASES:
        res, num, index = V.matrix_nms(paddle.to_tensor(boxes), paddle.to_tensor(scores), return_index=True, **kw)
        out[f"matrix_nms/{name}/out"], out[f"matrix_nms/{name}/num"] = res.numpy(), num.numpy()
        out[f"matrix_nms/{name}/index"] = index.numpy()
    for name, kw in PROPOSAL_CASES:
        args = [paddle.to_tensor(v) for v in proposal_inputs()]
        rois, probs, num = V.generate_proposals(*args, return_rois_num=True, **kw)
        out[f"proposals/{name}/rois"], out[f"proposals/{name}/probs"] = rois.numpy(), probs.numpy()
        out[f"proposals/{name}/num"] = num.numpy()
    rois, rois_num = fpn_inputs()
    for name, kw in FPN_CASES:
        multi, restore, nums = V.distribute_fpn_proposals(paddle.to_tensor(rois), rois_num=paddle.to_tensor(rois_num),
                                                          **kw)  # fmt: skip
        out[f"fpn/{name}/rois"] = np.concatenate([m.numpy() for m in multi])
        out[f"fpn/{name}/sizes"] = np.array([m.shape[0] for m in multi])
        out[f"fpn/{name}/restore"] = restore.numpy()
        out[f"fpn/{name}/nums"] = np.stack([v.numpy() for v in nums])
    for case in YOLO_LOSS_CASES:
        name, kw = case[0], dict(case[1])
        x, gt_box, gt_label, gt_score = yolo_loss_inputs(case)
        if kw.pop("gt_score", False):
            kw["gt_score"] = paddle.to_tensor(gt_score)
        xt = paddle.to_tensor(x, stop_gradient=False)
        loss = V.yolo_loss(xt, paddle.to_tensor(gt_box), paddle.to_tensor(gt_label), **kw)
        (loss * paddle.to_tensor(np.array([0.7, -1.3]))).sum().backward()
        out[f"yolo_loss/{name}/loss"], out[f"yolo_loss/{name}/dx"] = loss.numpy(), xt.grad.numpy()
    import paddle.vision.transforms.functional as TF

    for name, kw in PERSPECTIVE_CASES:
        img = paddle.to_tensor(perspective_image())
        out[f"perspective/{name}"] = TF.perspective(img, PERSPECTIVE_START, PERSPECTIVE_END, **kw).numpy()
    np.savez_compressed(os.path.join(here, "cases.npz"), **out)


if __name__ == "__main__":
    main()
