"""Record what real Paddle 2.6 computes for max_unpool1d/2d/3d, as golden cases for tests/nn/test_unpool.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/nn_unpool/make_golden.py

It writes cases.json and arrays.npz. Three kinds of case:
- "pooled": x goes through max_pool*d(..., return_mask=True), then max_unpool*d. Stored: x, the pooled values and
  mask, the unpooled output, a cotangent `cot`, and the gradients of sum(unpooled * cot) with respect to x and to
  the pooled values.
- "given": max_unpool*d on values and indices written out here (repeated indices: which write wins).
- "error": a call Paddle refuses; stored: the exception's class name.
The test needs no Paddle.
"""

import json
import os

import numpy as np
import paddle
import paddle.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)

# name -> (x shape, max_pool keyword arguments, max_unpool keyword arguments); the nd follows from the shape
POOLED = {
    "unpool2d_k2": ((2, 3, 6, 6), {"kernel_size": 2}, {"kernel_size": 2}),
    "unpool2d_output_size": ((1, 2, 6, 6), {"kernel_size": 2}, {"kernel_size": 2, "output_size": [7, 7]}),
    "unpool2d_output_size_nchw": ((1, 2, 5, 6), {"kernel_size": 2}, {"kernel_size": 2, "output_size": [1, 2, 5, 6]}),
    "unpool2d_overlap_pad": (
        (1, 2, 7, 6),
        {"kernel_size": 3, "stride": 2, "padding": 1},
        {"kernel_size": 3, "stride": 2, "padding": 1, "output_size": [7, 6]},
    ),
    "unpool2d_rect": (
        (1, 2, 6, 7),
        {"kernel_size": [2, 3], "stride": [2, 1]},
        {"kernel_size": [2, 3], "stride": [2, 1]},
    ),
    "unpool1d_k2": ((2, 3, 16), {"kernel_size": 2}, {"kernel_size": 2}),
    "unpool1d_overlap_pad": (
        (2, 2, 9),
        {"kernel_size": 3, "stride": 2, "padding": 1},
        {"kernel_size": 3, "stride": 2, "padding": 1},
    ),
    "unpool1d_output_size": ((1, 2, 8), {"kernel_size": 2}, {"kernel_size": 2, "output_size": [1, 9]}),
    "unpool1d_uneven_padding": ((1, 2, 8), {"kernel_size": 2}, {"kernel_size": 2, "padding": [0, 1]}),
    "unpool1d_same": ((1, 2, 8), {"kernel_size": 2}, {"kernel_size": 2, "padding": "same"}),
    "unpool3d_k2": ((1, 2, 4, 4, 6), {"kernel_size": 2}, {"kernel_size": 2}),
    "unpool3d_output_size": ((1, 1, 4, 5, 4), {"kernel_size": 2}, {"kernel_size": 2, "output_size": [5, 5, 5]}),
}

# name -> (function, values, int32 indices, keyword arguments)
GIVEN = {
    "unpool2d_repeated_index": (
        "max_unpool2d",
        [[[[1.0, 2.0], [3.0, 4.0]]]],
        [[[[5, 5], [0, 5]]]],
        {"kernel_size": 2},
    ),
    "unpool1d_scattered": ("max_unpool1d", [[[0.5, -1.5, 2.5]]], [[[6, 0, 3]]], {"kernel_size": 2, "stride": 3}),
}

# name -> (function, x shape, indices: (dtype, shape, fill value or None for a real mask), keyword arguments)
ERRORS = {
    "output_size_too_big": ("max_unpool2d", (1, 2, 6, 6), None, {"kernel_size": 2, "output_size": [8, 8]}),
    "output_size_too_small": ("max_unpool2d", (1, 2, 6, 6), None, {"kernel_size": 2, "output_size": [4, 6]}),
    "output_size_length": ("max_unpool2d", (1, 2, 6, 6), None, {"kernel_size": 2, "output_size": [7, 7, 7]}),
    "output_size_int": ("max_unpool2d", (1, 2, 6, 6), None, {"kernel_size": 2, "output_size": 7}),
    "output_size_1d_length": ("max_unpool1d", (1, 2, 8), None, {"kernel_size": 2, "output_size": [5, 9]}),
    "index_past_output": ("max_unpool2d", (1, 2, 6, 6), None, {"kernel_size": 2, "output_size": [5, 5]}),
    "index_filled_36": ("max_unpool2d", (1, 2, 6, 6), ("int32", None, 36), {"kernel_size": 2}),
    "indices_int64": ("max_unpool2d", (1, 2, 6, 6), ("int64", None, None), {"kernel_size": 2}),
    "indices_shape": ("max_unpool2d", (1, 2, 6, 6), ("int32", (1, 1, 3, 3), 0), {"kernel_size": 2}),
    "x_ndim": ("max_unpool3d", (1, 2, 6, 6), None, {"kernel_size": 2}),
    "nhwc": ("max_unpool2d", (1, 2, 6, 6), None, {"kernel_size": 2, "data_format": "NHWC"}),
    "nlc": ("max_unpool1d", (1, 2, 8), None, {"kernel_size": 2, "data_format": "NLC"}),
    "kernel_length": ("max_unpool2d", (1, 2, 6, 6), None, {"kernel_size": [2, 2, 2]}),
    "padding_same_2d": ("max_unpool2d", (1, 2, 6, 6), None, {"kernel_size": 2, "padding": "same"}),
}


def _pool(nd):
    return getattr(F, f"max_pool{nd}d"), getattr(F, f"max_unpool{nd}d")


def record_pooled(cases, arrays):
    for name, (shape, pool_kw, unpool_kw) in POOLED.items():
        pool, unpool = _pool(len(shape) - 2)
        x_np = rng.permutation(int(np.prod(shape))).reshape(shape) / 10.0 - 1.0  # distinct values: no ties
        x = paddle.to_tensor(x_np, stop_gradient=False)
        pooled, mask = pool(x, return_mask=True, **pool_kw)
        out = unpool(pooled, mask, **unpool_kw)
        cot = rng.standard_normal(out.shape)
        grad_x, grad_pooled = paddle.grad([(out * paddle.to_tensor(cot)).sum()], [x, pooled])
        arrays.update({
            f"{name}.x": x_np, f"{name}.pooled": pooled.numpy(), f"{name}.mask": mask.numpy(),
            f"{name}.out": out.numpy(), f"{name}.cot": cot,
            f"{name}.grad_x": grad_x.numpy(), f"{name}.grad_pooled": grad_pooled.numpy(),
        })  # fmt: skip
        cases[name] = {"kind": "pooled", "nd": len(shape) - 2, "pool_kwargs": pool_kw, "kwargs": unpool_kw}
        print(f"{name}: {list(pooled.shape)} -> {out.shape}")


def record_given(cases, arrays):
    for name, (fn, values, indices, kwargs) in GIVEN.items():
        x = paddle.to_tensor(np.array(values, dtype="float64"), stop_gradient=False)
        out = getattr(F, fn)(x, paddle.to_tensor(np.array(indices, dtype="int32")), **kwargs)
        cot = rng.standard_normal(out.shape)
        (grad,) = paddle.grad([(out * paddle.to_tensor(cot)).sum()], [x])
        arrays.update({f"{name}.out": out.numpy(), f"{name}.cot": cot, f"{name}.grad_x": grad.numpy()})
        cases[name] = {"kind": "given", "fn": fn, "x": values, "indices": indices, "kwargs": kwargs}
        print(f"{name}: {out.numpy().ravel()}")


def record_errors(cases):
    for name, (fn, shape, index_spec, kwargs) in ERRORS.items():
        nd = len(shape) - 2
        x = paddle.to_tensor(rng.standard_normal(shape))
        pooled, mask = _pool(nd)[0](x, 2, return_mask=True)
        if index_spec is not None:
            dtype, ishape, fill = index_spec
            mask = mask.astype(dtype) if fill is None else paddle.full(ishape or mask.shape, fill, dtype)
        try:
            getattr(F, fn)(pooled, mask, **kwargs)
            raise AssertionError(f"{name}: paddle accepted it")
        except (ValueError, TypeError, AssertionError, RuntimeError) as e:
            error = type(e).__name__
        cases[name] = {"kind": "error", "fn": fn, "x_shape": list(shape), "indices": index_spec, "kwargs": kwargs,
                       "error": error}  # fmt: skip
        print(f"{name}: {error}")


def main():
    cases, arrays = {}, {}
    record_pooled(cases, arrays)
    record_given(cases, arrays)
    record_errors(cases)
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump({"paddle_version": paddle.__version__, "cases": cases}, f, indent=1)
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)


if __name__ == "__main__":
    main()
