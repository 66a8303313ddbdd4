"""Record what real Paddle 2.6 computes for affine_grid and grid_sample, as golden cases for
tests/nn/test_grid_golden.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/grid/make_golden.py

It writes cases.json (each case: the function in paddle.nn.functional, its tensor arguments in order, its other
keyword arguments) and arrays.npz (per case: the float64 inputs, the output, the cotangent `cot`, and the gradient
of sum(out * cot) for every tensor input). The case "spatial_transformer" chains the two functions,
grid_sample(x, affine_grid(theta, x.shape)), with gradients for x and theta. The test needs no Paddle.
"""

import json
import os

import numpy as np
import paddle
import paddle.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)

# name -> (function, {tensor argument: (shape, low, high)}, {other keyword arguments})
CASES = {
    "affine_grid_2d": ("affine_grid", {"theta": ((2, 2, 3), -1, 1)}, {"out_shape": [2, 3, 4, 5]}),
    "affine_grid_2d_edges": (
        "affine_grid",
        {"theta": ((2, 2, 3), -1, 1)},
        {"out_shape": [2, 1, 3, 4], "align_corners": False},
    ),
    "affine_grid_3d": ("affine_grid", {"theta": ((2, 3, 4), -1, 1)}, {"out_shape": [2, 1, 2, 3, 4]}),
    "affine_grid_3d_edges": (
        "affine_grid",
        {"theta": ((1, 3, 4), -1, 1)},
        {"out_shape": [1, 2, 3, 2, 4], "align_corners": False},
    ),
}
for mode in ("bilinear", "nearest"):
    for padding in ("zeros", "border", "reflection"):
        for corners in (True, False):
            CASES[f"grid_sample_{mode}_{padding}_{'corners' if corners else 'edges'}"] = (
                "grid_sample",
                {"x": ((2, 3, 4, 5), -1, 1), "grid": ((2, 3, 6, 2), -1.4, 1.4)},
                {"mode": mode, "padding_mode": padding, "align_corners": corners},
            )
CASES.update(
    {
        "grid_sample_default": ("grid_sample", {"x": ((1, 2, 5, 3), -1, 1), "grid": ((1, 4, 4, 2), -1.2, 1.2)}, {}),
        "grid_sample_reflect_far": (  # points several image widths away: mirrored more than once
            "grid_sample",
            {"x": ((1, 2, 4, 3), -1, 1), "grid": ((1, 5, 5, 2), -4.5, 4.5)},
            {"padding_mode": "reflection", "align_corners": False},
        ),
        "grid_sample_reflect_far_corners": (
            "grid_sample",
            {"x": ((1, 2, 4, 3), -1, 1), "grid": ((1, 5, 5, 2), -4.5, 4.5)},
            {"padding_mode": "reflection"},
        ),
        "grid_sample_3d_bilinear": (
            "grid_sample",
            {"x": ((2, 2, 3, 4, 5), -1, 1), "grid": ((2, 2, 3, 4, 3), -1.3, 1.3)},
            {"align_corners": False},
        ),
        "grid_sample_3d_border": (
            "grid_sample",
            {"x": ((1, 2, 3, 4, 3), -1, 1), "grid": ((1, 3, 2, 2, 3), -1.3, 1.3)},
            {"padding_mode": "border"},
        ),
        "grid_sample_3d_reflection": (
            "grid_sample",
            {"x": ((1, 2, 3, 4, 3), -1, 1), "grid": ((1, 3, 2, 2, 3), -2.5, 2.5)},
            {"padding_mode": "reflection", "align_corners": False},
        ),
        # 3-D nearest with zeros stays inside the image: there Paddle tests the bounds before rounding (a point
        # within half a pixel outside reads 0), unlike its 2-D kernel and minipaddle, which round first
        "grid_sample_3d_nearest": (
            "grid_sample",
            {"x": ((1, 2, 3, 4, 3), -1, 1), "grid": ((1, 3, 2, 2, 3), -1, 1)},
            {"mode": "nearest"},
        ),
        "grid_sample_3d_nearest_reflection": (
            "grid_sample",
            {"x": ((1, 2, 3, 4, 3), -1, 1), "grid": ((1, 3, 2, 2, 3), -2.5, 2.5)},
            {"mode": "nearest", "padding_mode": "reflection", "align_corners": False},
        ),
    }
)


def record(name, fn, inputs, kwargs, run, arrays, cases):
    tensors = {a: paddle.to_tensor(v, stop_gradient=False) for a, v in inputs.items()}
    out = run(tensors)
    cot = rng.standard_normal(out.shape)
    grads = paddle.grad([(out * paddle.to_tensor(cot)).sum()], list(tensors.values()), allow_unused=True)
    for a, v in inputs.items():
        arrays[f"{name}.in.{a}"] = v
    arrays[f"{name}.out"] = out.numpy()
    arrays[f"{name}.cot"] = cot
    for a, g in zip(tensors, grads):
        if g is not None:
            arrays[f"{name}.grad.{a}"] = g.numpy()
    cases[name] = {"fn": fn, "tensors": list(inputs), "kwargs": kwargs}
    print(f"{name}: out {out.shape}")


def main():
    cases, arrays = {}, {}
    for name, (fn, tensor_args, kwargs) in CASES.items():
        inputs = {a: rng.uniform(lo, hi, shape) for a, (shape, lo, hi) in tensor_args.items()}
        record(name, fn, inputs, kwargs, lambda t, fn=fn, kw=kwargs: getattr(F, fn)(**t, **kw), arrays, cases)
    # a spatial transformer: rotate, scale and shift a batch of images, differentiable in both x and theta
    angle = rng.uniform(-0.6, 0.6, 2)
    theta = np.stack([[[np.cos(a) * 1.1, -np.sin(a), 0.1], [np.sin(a), np.cos(a) * 0.9, -0.2]] for a in angle])
    inputs = {"x": rng.uniform(-1, 1, (2, 3, 6, 5)), "theta": theta}
    kwargs = {"align_corners": False}
    run = lambda t: F.grid_sample(t["x"], F.affine_grid(t["theta"], t["x"].shape, **kwargs), **kwargs)  # noqa: E731
    record("spatial_transformer", "spatial_transformer", inputs, kwargs, run, arrays, cases)
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump({"paddle_version": paddle.__version__, "cases": cases}, f, indent=1)
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)


if __name__ == "__main__":
    main()
