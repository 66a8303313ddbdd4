"""Record what real Paddle 2.6 computes for conv, pooling, interpolate, pad, unfold and fold, as golden cases for
tests/nn/test_functional_golden.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/nn_conv/make_golden.py

It writes cases.json (each case: the function in paddle.nn.functional, its tensor arguments in order, its other
keyword arguments) and arrays.npz (per case: the inputs, the output and mask, the cotangent `cot`, and the
gradient of sum(out * cot) for every float input). The test needs no Paddle.
"""

import json
import os

import numpy as np
import paddle
import paddle.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2024)


def T(*shape):
    return ("tensor", shape)


# name -> (function, {tensor argument: shape}, {other keyword arguments})
CASES = {
    # ---- conv ----
    "conv2d_basic": ("conv2d", {"x": (2, 3, 7, 6), "weight": (4, 3, 3, 3), "bias": (4,)}, {}),
    "conv2d_stride_pad": ("conv2d", {"x": (2, 3, 8, 7), "weight": (4, 3, 3, 2)}, {"stride": 2, "padding": 1}),
    "conv2d_asym_pad": ("conv2d", {"x": (1, 2, 6, 6), "weight": (3, 2, 3, 3)}, {"padding": [1, 0, 2, 1]}),
    "conv2d_pair_pad": (
        "conv2d",
        {"x": (1, 2, 6, 6), "weight": (3, 2, 3, 3)},
        {"padding": [[0, 0], [0, 0], [0, 1], [2, 1]]},
    ),
    "conv2d_dilation": ("conv2d", {"x": (1, 2, 9, 8), "weight": (3, 2, 3, 3)}, {"dilation": [2, 1], "padding": [2, 1]}),
    "conv2d_groups": (
        "conv2d",
        {"x": (2, 4, 6, 6), "weight": (6, 2, 3, 3), "bias": (6,)},
        {"groups": 2, "stride": [1, 2]},
    ),
    "conv2d_depthwise": ("conv2d", {"x": (1, 3, 5, 5), "weight": (3, 1, 3, 3)}, {"groups": 3, "padding": 1}),
    "conv2d_same": ("conv2d", {"x": (1, 2, 6, 7), "weight": (3, 2, 3, 3)}, {"padding": "same", "stride": 2}),
    "conv2d_same_dilated": ("conv2d", {"x": (1, 2, 5, 5), "weight": (3, 2, 3, 3)}, {"padding": "SAME", "dilation": 2}),
    "conv2d_valid": ("conv2d", {"x": (1, 2, 6, 7), "weight": (3, 2, 2, 3)}, {"padding": "valid"}),
    "conv2d_nhwc": (
        "conv2d",
        {"x": (2, 5, 6, 3), "weight": (4, 3, 3, 3), "bias": (4,)},
        {"padding": 1, "data_format": "NHWC"},
    ),
    "conv1d_basic": ("conv1d", {"x": (2, 3, 9), "weight": (4, 3, 3), "bias": (4,)}, {"stride": 2, "padding": 1}),
    "conv1d_nlc_same": ("conv1d", {"x": (2, 8, 3), "weight": (2, 3, 4)}, {"padding": "same", "data_format": "NLC"}),
    "conv1d_groups_dil": ("conv1d", {"x": (1, 4, 10), "weight": (2, 2, 3)}, {"groups": 2, "dilation": 2}),
    "conv3d_basic": ("conv3d", {"x": (1, 2, 4, 5, 5), "weight": (3, 2, 2, 3, 3), "bias": (3,)}, {"padding": [0, 1, 1]}),
    "conv3d_ndhwc": (
        "conv3d",
        {"x": (1, 4, 4, 4, 2), "weight": (2, 2, 3, 3, 3)},
        {"stride": 2, "padding": 1, "data_format": "NDHWC"},
    ),
    # ---- transposed conv (weight [in, out/groups, *k]) ----
    "conv2d_transpose_basic": ("conv2d_transpose", {"x": (2, 3, 4, 5), "weight": (3, 2, 3, 3), "bias": (2,)}, {}),
    "conv2d_transpose_stride": (
        "conv2d_transpose",
        {"x": (1, 2, 3, 4), "weight": (2, 3, 3, 3)},
        {"stride": 2, "padding": 1},
    ),
    "conv2d_transpose_outpad": (
        "conv2d_transpose",
        {"x": (1, 2, 3, 3), "weight": (2, 2, 3, 3)},
        {"stride": 2, "output_padding": 1},
    ),
    "conv2d_transpose_outsize": (
        "conv2d_transpose",
        {"x": (1, 2, 3, 3), "weight": (2, 2, 3, 3)},
        {"stride": 2, "padding": 1, "output_size": [6, 6]},
    ),
    "conv2d_transpose_groups_dil": (
        "conv2d_transpose",
        {"x": (1, 4, 3, 4), "weight": (4, 1, 2, 3)},
        {"groups": 2, "dilation": 2, "stride": [2, 1]},
    ),
    "conv2d_transpose_same": (
        "conv2d_transpose",
        {"x": (1, 2, 3, 4), "weight": (2, 2, 3, 3)},
        {"stride": 2, "padding": "same"},
    ),
    "conv2d_transpose_nhwc": (
        "conv2d_transpose",
        {"x": (1, 3, 4, 2), "weight": (2, 3, 2, 2)},
        {"stride": 2, "data_format": "NHWC"},
    ),
    "conv1d_transpose_basic": (
        "conv1d_transpose",
        {"x": (2, 3, 5), "weight": (3, 2, 3), "bias": (2,)},
        {"stride": 2, "padding": 1, "output_padding": 1},
    ),
    "conv3d_transpose_basic": (
        "conv3d_transpose",
        {"x": (1, 2, 2, 3, 3), "weight": (2, 2, 2, 2, 2)},
        {"stride": [1, 2, 2]},
    ),
    # ---- max pooling ----
    "max_pool2d_basic": ("max_pool2d", {"x": (2, 3, 6, 6)}, {"kernel_size": 2}),
    "max_pool2d_overlap_pad": ("max_pool2d", {"x": (1, 2, 7, 6)}, {"kernel_size": 3, "stride": 2, "padding": 1}),
    "max_pool2d_mask": (
        "max_pool2d",
        {"x": (1, 2, 5, 5)},
        {"kernel_size": [2, 3], "stride": [2, 1], "return_mask": True},
    ),
    "max_pool2d_ceil": ("max_pool2d", {"x": (1, 2, 5, 5)}, {"kernel_size": 2, "ceil_mode": True, "return_mask": True}),
    "max_pool2d_same": ("max_pool2d", {"x": (1, 2, 6, 5)}, {"kernel_size": 3, "stride": 2, "padding": "SAME"}),
    "max_pool2d_nhwc": ("max_pool2d", {"x": (1, 5, 5, 3)}, {"kernel_size": 2, "stride": 1, "data_format": "NHWC"}),
    "max_pool1d_basic": (
        "max_pool1d",
        {"x": (2, 3, 9)},
        {"kernel_size": 3, "stride": 2, "padding": 1, "return_mask": True},
    ),
    "max_pool3d_basic": ("max_pool3d", {"x": (1, 2, 4, 5, 4)}, {"kernel_size": 2, "ceil_mode": True}),
    # ---- average pooling ----
    "avg_pool2d_basic": ("avg_pool2d", {"x": (2, 3, 6, 6)}, {"kernel_size": 2}),
    "avg_pool2d_pad_exclusive": ("avg_pool2d", {"x": (1, 2, 5, 5)}, {"kernel_size": 3, "stride": 2, "padding": 1}),
    "avg_pool2d_pad_inclusive": (
        "avg_pool2d",
        {"x": (1, 2, 5, 5)},
        {"kernel_size": 3, "stride": 2, "padding": 1, "exclusive": False},
    ),
    "avg_pool2d_ceil_inclusive": (
        "avg_pool2d",
        {"x": (1, 2, 5, 5)},
        {"kernel_size": 2, "ceil_mode": True, "exclusive": False},
    ),
    "avg_pool2d_asym": (
        "avg_pool2d",
        {"x": (1, 2, 5, 6)},
        {"kernel_size": 2, "padding": [0, 1, 1, 0], "exclusive": False},
    ),
    "avg_pool2d_divisor": ("avg_pool2d", {"x": (1, 2, 5, 5)}, {"kernel_size": 2, "divisor_override": 3}),
    "avg_pool2d_same_nhwc": (
        "avg_pool2d",
        {"x": (1, 6, 5, 2)},
        {"kernel_size": 3, "stride": 2, "padding": "same", "data_format": "NHWC"},
    ),
    "avg_pool1d_basic": (
        "avg_pool1d",
        {"x": (2, 3, 8)},
        {"kernel_size": 3, "stride": 2, "padding": 1, "exclusive": False},
    ),
    "avg_pool3d_basic": ("avg_pool3d", {"x": (1, 2, 4, 4, 5)}, {"kernel_size": 2, "stride": 2, "ceil_mode": True}),
    # ---- adaptive pooling ----
    "adaptive_avg_pool2d_odd": ("adaptive_avg_pool2d", {"x": (2, 3, 5, 7)}, {"output_size": [3, 4]}),
    "adaptive_avg_pool2d_global": ("adaptive_avg_pool2d", {"x": (2, 3, 4, 4)}, {"output_size": 1}),
    "adaptive_avg_pool2d_none": ("adaptive_avg_pool2d", {"x": (1, 2, 5, 6)}, {"output_size": [None, 4]}),
    "adaptive_avg_pool2d_nhwc": ("adaptive_avg_pool2d", {"x": (1, 5, 6, 3)}, {"output_size": 2, "data_format": "NHWC"}),
    "adaptive_avg_pool1d": ("adaptive_avg_pool1d", {"x": (2, 3, 10)}, {"output_size": 4}),
    "adaptive_avg_pool3d": ("adaptive_avg_pool3d", {"x": (1, 2, 3, 5, 4)}, {"output_size": [2, 3, 2]}),
    "adaptive_max_pool2d": ("adaptive_max_pool2d", {"x": (1, 2, 5, 7)}, {"output_size": [2, 3], "return_mask": True}),
    "adaptive_max_pool1d": ("adaptive_max_pool1d", {"x": (2, 3, 10)}, {"output_size": 3, "return_mask": True}),
    "adaptive_max_pool3d": ("adaptive_max_pool3d", {"x": (1, 2, 4, 5, 3)}, {"output_size": 2, "return_mask": True}),
    # ---- interpolate ----
    "interp_nearest_up": ("interpolate", {"x": (1, 2, 3, 4)}, {"scale_factor": 2, "mode": "nearest"}),
    "interp_nearest_size": ("interpolate", {"x": (1, 2, 5, 4)}, {"size": [3, 7], "mode": "nearest"}),
    "interp_nearest_scale_frac": ("interpolate", {"x": (1, 2, 5, 4)}, {"scale_factor": [1.7, 0.6]}),
    "interp_bilinear": ("interpolate", {"x": (1, 2, 4, 5)}, {"size": [7, 3], "mode": "bilinear"}),
    "interp_bilinear_corners": (
        "interpolate",
        {"x": (1, 2, 4, 5)},
        {"size": [7, 8], "mode": "bilinear", "align_corners": True},
    ),
    "interp_bilinear_mode1": (
        "interpolate",
        {"x": (1, 2, 4, 5)},
        {"scale_factor": 1.5, "mode": "bilinear", "align_mode": 1},
    ),
    "interp_bilinear_nhwc": (
        "interpolate",
        {"x": (1, 4, 3, 2)},
        {"scale_factor": 2, "mode": "bilinear", "data_format": "NHWC"},
    ),
    "interp_linear": ("interpolate", {"x": (2, 3, 5)}, {"size": [8], "mode": "linear", "data_format": "NCW"}),
    "interp_trilinear": (
        "interpolate",
        {"x": (1, 2, 2, 3, 4)},
        {"scale_factor": 2, "mode": "trilinear", "data_format": "NCDHW"},
    ),
    "interp_nearest_3d": ("interpolate", {"x": (1, 2, 2, 3, 3)}, {"size": [3, 5, 4], "data_format": "NCDHW"}),
    "interp_bicubic": ("interpolate", {"x": (1, 2, 4, 5)}, {"size": [7, 9], "mode": "bicubic"}),
    "interp_bicubic_corners": (
        "interpolate",
        {"x": (1, 2, 4, 5)},
        {"size": [6, 3], "mode": "bicubic", "align_corners": True},
    ),
    "interp_area": ("interpolate", {"x": (1, 2, 6, 5)}, {"size": [4, 3], "mode": "area"}),
    "upsample_bilinear": ("upsample", {"x": (1, 2, 3, 3)}, {"scale_factor": 2, "mode": "bilinear"}),
    # ---- pad ----
    "pad_constant_4d": ("pad", {"x": (1, 2, 3, 4)}, {"pad": [1, 0, 2, 1], "value": 0.5}),
    "pad_constant_all_axes": ("pad", {"x": (2, 3, 4)}, {"pad": [1, 0, 0, 2, 1, 1]}),
    "pad_reflect": ("pad", {"x": (1, 2, 4, 5)}, {"pad": [2, 1, 3, 1], "mode": "reflect"}),
    "pad_replicate": ("pad", {"x": (1, 2, 3, 4)}, {"pad": [2, 3, 0, 2], "mode": "replicate"}),
    "pad_circular": ("pad", {"x": (1, 2, 3, 4)}, {"pad": [1, 5, 2, 0], "mode": "circular"}),
    "pad_reflect_1d": ("pad", {"x": (2, 2, 6)}, {"pad": [2, 3], "mode": "reflect", "data_format": "NCL"}),
    "pad_replicate_nhwc": (
        "pad",
        {"x": (1, 3, 4, 2)},
        {"pad": [1, 2, 2, 1], "mode": "replicate", "data_format": "NHWC"},
    ),
    "pad_circular_5d": (
        "pad",
        {"x": (1, 1, 2, 3, 4)},
        {"pad": [1, 1, 0, 2, 1, 0], "mode": "circular", "data_format": "NCDHW"},
    ),
    "zeropad2d": ("zeropad2d", {"x": (1, 2, 3, 3)}, {"padding": [1, 0, 2, 1]}),
    # ---- unfold / fold ----
    "unfold_basic": ("unfold", {"x": (2, 3, 5, 5)}, {"kernel_sizes": 2}),
    "unfold_stride_pad": (
        "unfold",
        {"x": (1, 2, 5, 6)},
        {"kernel_sizes": [2, 3], "strides": [2, 1], "paddings": [1, 0, 0, 2]},
    ),
    "unfold_dilation": ("unfold", {"x": (1, 2, 6, 6)}, {"kernel_sizes": 2, "dilations": 2, "paddings": 1}),
    "fold_basic": ("fold", {"x": (2, 12, 16)}, {"output_sizes": [5, 5], "kernel_sizes": 2}),
    "fold_stride_pad": (
        "fold",
        {"x": (1, 8, 12)},
        {"output_sizes": [5, 6], "kernel_sizes": 2, "strides": 2, "paddings": [1, 1]},
    ),
    # ---- pixel shuffle ----
    "pixel_shuffle": ("pixel_shuffle", {"x": (2, 8, 2, 3)}, {"upscale_factor": 2}),
    "pixel_shuffle_nhwc": ("pixel_shuffle", {"x": (1, 2, 3, 9)}, {"upscale_factor": 3, "data_format": "NHWC"}),
}


def main():
    cases, arrays = {}, {}
    for name, (fn, tensor_args, kwargs) in CASES.items():
        inputs = {a: rng.standard_normal(shape) for a, shape in tensor_args.items()}
        tensors = {a: paddle.to_tensor(v, stop_gradient=False) for a, v in inputs.items()}
        result = getattr(F, fn)(**tensors, **kwargs)
        out, mask = result if isinstance(result, tuple) else (result, None)
        cot = rng.standard_normal(out.shape)
        grads = paddle.grad([(out * paddle.to_tensor(cot)).sum()], list(tensors.values()), allow_unused=True)
        for a, v in inputs.items():
            arrays[f"{name}.in.{a}"] = v
        arrays[f"{name}.out"] = out.numpy()
        arrays[f"{name}.cot"] = cot
        if mask is not None:
            arrays[f"{name}.mask"] = mask.numpy()
        for a, g in zip(tensors, grads):
            if g is not None:
                arrays[f"{name}.grad.{a}"] = g.numpy()
        cases[name] = {"fn": fn, "tensors": list(tensor_args), "kwargs": kwargs}
        print(f"{name}: out {out.shape}")
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump({"paddle_version": paddle.__version__, "cases": cases}, f, indent=1)
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)


if __name__ == "__main__":
    main()
