"""Record what real Paddle 2.6's paddle.vision.ops computes (roi_align, roi_pool and their input gradients, nms),
as golden values for tests/vision/test_vision_ops.py.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/vision_ops/make_golden.py

Writes cases.npz next to this file: the inputs (x, boxes, boxes_num, cotangents, nms boxes/scores/categories)
and, per case, Paddle's output and the gradient of sum(out * cot) with respect to x.
"""

import os
import sys

import numpy as np

# (case name, function, keyword arguments)
ROI_CASES = [
    ("align_2", "roi_align", {"output_size": 2}),
    ("align_3x2_half", "roi_align", {"output_size": (3, 2), "spatial_scale": 0.5}),
    ("align_ratio2", "roi_align", {"output_size": 2, "sampling_ratio": 2}),
    ("align_unaligned", "roi_align", {"output_size": 3, "aligned": False}),
    ("pool_2", "roi_pool", {"output_size": 2}),
    ("pool_3x2_half", "roi_pool", {"output_size": (3, 2), "spatial_scale": 0.5}),
    ("pool_4", "roi_pool", {"output_size": 4}),
]
NMS_CASES = [
    ("nms_plain", {"iou_threshold": 0.3}),
    ("nms_by_score", {"iou_threshold": 0.5, "scores": True}),
    (
        "nms_categories_top_k",
        {"iou_threshold": 0.5, "scores": True, "category_idxs": True, "categories": [0, 1, 2], "top_k": 7},
    ),  # fmt: skip
    ("nms_some_categories", {"iou_threshold": 0.2, "scores": True, "category_idxs": True, "categories": [0, 2]}),
]


def inputs():
    rng = np.random.RandomState(0)
    x = rng.rand(2, 3, 9, 11)
    # boxes inside, crossing the border, and far outside the 11x9 map; the first two belong to image 0
    boxes = np.array([[0.3, 0.7, 5.2, 6.9], [2.0, 1.0, 9.5, 8.0], [-1.0, -2.0, 3.0, 2.5], [1.0, 1.0, 20.0, 15.0]])
    nb = rng.rand(30, 2) * 10
    nms_boxes = np.concatenate([nb, nb + rng.rand(30, 2) * 5], 1).astype("float32")
    return {
        "x": x,
        "boxes": boxes,
        "boxes_num": np.array([2, 2], "int32"),
        "nms_boxes": nms_boxes,
        "nms_scores": rng.rand(30).astype("float32"),
        "nms_categories": rng.randint(0, 3, 30).astype("int64"),
    }


def cotangent(shape):
    return np.random.RandomState(1).uniform(-1, 1, shape)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    if here in sys.path:
        sys.path.remove(here)
    import paddle
    from paddle.vision import ops as V

    data = inputs()
    out = dict(data)
    for name, fn, kwargs in ROI_CASES:
        x = paddle.to_tensor(data["x"], stop_gradient=False)
        y = getattr(V, fn)(x, paddle.to_tensor(data["boxes"]), paddle.to_tensor(data["boxes_num"]), **kwargs)
        (y * paddle.to_tensor(cotangent(y.shape))).sum().backward()
        out[name + "/out"], out[name + "/dx"] = y.numpy(), x.grad.numpy()
    for name, kwargs in NMS_CASES:
        kw = dict(kwargs)
        if kw.pop("scores", False):
            kw["scores"] = paddle.to_tensor(data["nms_scores"])
        if kw.pop("category_idxs", False):
            kw["category_idxs"] = paddle.to_tensor(data["nms_categories"])
        out[name] = V.nms(paddle.to_tensor(data["nms_boxes"]), **kw).numpy()
    np.savez_compressed(os.path.join(here, "cases.npz"), **out)


if __name__ == "__main__":
    main()
