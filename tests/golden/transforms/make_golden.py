"""Record what real Paddle 2.6 computes for some image transforms, as golden cases for
tests/vision/test_transforms.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/transforms/make_golden.py

It writes cases.json next to this file: for one small CHW float32 image (rebuilt by the test from the same
formula), Paddle's Tensor-path results of resize and rotate. The test needs no Paddle.
"""

import json
import os

import numpy as np
import paddle
import paddle.vision.transforms.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))


def image():
    return (np.arange(2 * 4 * 5).reshape(2, 4, 5) ** 1.5 % 17).astype("float32")


def main():
    t = paddle.to_tensor(image())
    cases = {}
    for size in [(5, 7), (2, 3)]:
        for interp in ["bilinear", "nearest"]:
            cases[f"resize_{size[0]}x{size[1]}_{interp}"] = F.resize(t, size, interp).numpy().tolist()
    cases["rotate30_bilinear"] = F.rotate(t, 30, interpolation="bilinear").numpy().tolist()
    cases["rotate-20_nearest_center"] = F.rotate(t, -20, center=(1.0, 1.5)).numpy().tolist()
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(cases, f)


if __name__ == "__main__":
    main()
