"""Record how real Paddle 2.6 prints tensors, as golden cases for tests/tensor/test_printing.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/printing/make_golden.py

It writes cases.json next to this file. Each case stores the array itself (nested list, with `shape` so empty
arrays like [0, 3] rebuild exactly; complex numbers as [real, imag] pairs; bfloat16 as its float32 values), the
dtype, stop_gradient, the print options in force, and the string Paddle printed. The test needs no Paddle.
"""

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OPTIONS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
rng = np.random.default_rng(2024)


def rand(shape, dtype="float32", scale=1.0, signed=True):
    """Seeded random values with a mix of signs, so the cases never change between runs."""
    values = rng.random(shape) * scale
    if signed:
        values = values - scale / 2
    return values.astype(dtype)


# (name, array, dtype name, stop_gradient, non-default print options, kind)
CASES = [
    # ---- 0-d tensors ----
    ("scalar_float32_whole", np.array(3.0, "float32"), "float32", True, {}),
    ("scalar_float32_negative_fraction", np.array(-3.5, "float32"), "float32", True, {}),
    ("scalar_float64_nan", np.array(np.nan), "float64", True, {}),
    ("scalar_float16", np.array(0.1, "float16"), "float16", True, {}),
    ("scalar_int64", np.array(7, "int64"), "int64", True, {}),
    ("scalar_int32_negative", np.array(-12, "int32"), "int32", True, {}),
    ("scalar_bool", np.array(True), "bool", True, {}),
    ("scalar_complex64", np.array(0.1 + 0.2j, "complex64"), "complex64", True, {}),
    ("scalar_requires_grad", np.array(2.25, "float32"), "float32", False, {}),
    # ---- 1-D and N-D floats ----
    ("float32_1d", np.array([1.5, 2.0, 3.0], "float32"), "float32", True, {}),
    ("float32_2d_doc_example", np.array([[1.5, 2.0], [3.0, -4.25]], "float32"), "float32", True, {}),
    ("float32_2d_point_one", np.array([[0.1, 0.2], [0.3, 0.4]], "float32"), "float32", False, {}),
    ("float32_3d_signed", (np.arange(24).reshape(2, 3, 4) / 7 - 1.5).astype("float32"), "float32", True, {}),
    ("float32_4d", rand([2, 2, 2, 3]), "float32", True, {}),
    ("float64_thirds", np.array([1 / 3, 2 / 3, -1.0]), "float64", True, {}),
    ("float16_values", np.array([0.1, -2.0, 65504.0, 0.5], "float16"), "float16", True, {}),
    ("float32_whole_numbers_only", np.array([[1.0, 2.0], [30.0, 400.0]], "float32"), "float32", True, {}),
    # ---- ints, bool ----
    ("int8_extremes", np.array([-128, 0, 127], "int8"), "int8", True, {}),
    ("int16_2d", np.array([[1, -20], [300, 4000]], "int16"), "int16", True, {}),
    ("int32_2d_signed", np.array([[-1, 20], [300, 4]], "int32"), "int32", True, {}),
    ("int64_large", np.array([2**40, -(2**62), 5], "int64"), "int64", True, {}),
    ("uint8_image_like", np.arange(24).reshape(2, 3, 4).astype("uint8") * 10, "uint8", True, {}),
    ("bool_1d", np.array([True, False]), "bool", True, {}),
    ("bool_2d", np.array([[True, True], [False, True]]), "bool", True, {}),
    # ---- complex ----
    ("complex64_1d", np.array([1 + 2j, complex(-0.0, -0.5)], "complex64"), "complex64", True, {}),
    ("complex128_2d", np.array([[0.1 + 0.2j, -1 + 0j], [3j, 2.5 - 1j]]), "complex128", True, {}),
    ("complex64_nan_inf", np.array([complex(np.nan, 1), complex(1, np.inf)], "complex64"), "complex64", True, {}),
    # ---- special values: no automatic switch to scientific notation ----
    ("float32_nan_inf", np.array([np.nan, np.inf, -np.inf, 1.5, -2.0], "float32"), "float32", True, {}),
    ("float32_huge_and_tiny", np.array([1e20, 1e-10, -1e-10, 1.0], "float32"), "float32", True, {}),
    ("float64_wide_range", np.array([1e-5, 1e5, 123456789.123, -0.25]), "float64", True, {}),
    ("float64_negative_zero", np.array([-0.0, 1.0]), "float64", True, {}),
    # ---- alignment of negative numbers ----
    ("align_negative_same_width", np.array([-1.0, 10.0], "float32"), "float32", True, {}),
    ("align_negative_wider_positive", np.array([-1.5, 100.25, 2.0], "float32"), "float32", True, {}),
    ("align_all_negative", np.array([-1.0, -22.5], "float32"), "float32", True, {}),
    # ---- widths come from the edge items only, even when nothing is summarized ----
    ("width_from_edges_int", np.array([1, 1, 1, 1000, 1, 1, 1], "int64"), "int64", True, {}),
    ("width_from_edges_hidden_negative", np.array([1.0, 2, 3, -4.5, 5, 6, 7], "float32"), "float32", True, {}),
    # ---- empty tensors ----
    ("empty_0", np.zeros([0], "float32"), "float32", True, {}),
    ("empty_2x0", np.zeros([2, 0], "float32"), "float32", True, {}),
    ("empty_0x3", np.zeros([0, 3], "int64"), "int64", True, {}),
    ("empty_2x0x3", np.zeros([2, 0, 3], "float32"), "float32", True, {}),
    # ---- long rows wrap at linewidth ----
    ("wrap_1d_40", np.arange(40, dtype="float32"), "float32", True, {}),
    ("wrap_1d_random_float64", rand([20], "float64"), "float64", True, {}),
    ("wrap_2d_long_rows", rand([2, 15]), "float32", True, {}),
    ("wrap_linewidth_40", np.arange(30, dtype="int64"), "int64", True, {"linewidth": 40}),
    ("wrap_linewidth_120", rand([2, 15]), "float32", True, {"linewidth": 120}),
    ("wrap_linewidth_1", np.array([1.5, -2.0, 3.0], "float32"), "float32", True, {"linewidth": 1}),
    # ---- summarization with "..." ----
    ("summary_1d_2000", np.arange(2000, dtype="float32") / 3, "float32", True, {}),
    ("summary_2d_int64", np.arange(2000).reshape(2, 1000), "int64", True, {}),
    ("summary_3d", rand([10, 10, 20]), "float32", True, {}),
    ("summary_complex", (np.arange(1200) + 1j * np.arange(1200)).astype("complex64"), "complex64", True, {}),
    ("summary_bool", np.arange(1001) % 3 == 0, "bool", True, {}),
    ("exactly_threshold_not_summarized", np.arange(1000, dtype="int32").reshape(10, 100), "int32", True, {}),
    # ---- set_printoptions ----
    ("precision_4", rand([3, 4]), "float32", True, {"precision": 4}),
    ("precision_2_whole", np.array([1.0, 2.345, -6.789], "float32"), "float32", True, {"precision": 2}),
    ("precision_0", np.array([1.25, 2.75], "float64"), "float64", True, {"precision": 0}),
    ("sci_mode", rand([2, 3], scale=1000), "float32", True, {"sci_mode": True}),
    (
        "sci_mode_precision_3",
        np.array([1e-12, -3.5, 12345.678, 0]),
        "float64",
        True,
        {"sci_mode": True, "precision": 3},
    ),
    ("sci_mode_nan_inf", np.array([np.nan, np.inf, -1.0], "float32"), "float32", True, {"sci_mode": True}),
    ("sci_mode_int_unaffected", np.array([1, -2, 3], "int64"), "int64", True, {"sci_mode": True}),
    ("threshold_10_edgeitems_2", np.arange(20, dtype="float32"), "float32", True, {"threshold": 10, "edgeitems": 2}),
    ("threshold_5_edgeitems_1_2d", np.arange(16).reshape(4, 4), "int64", True, {"threshold": 5, "edgeitems": 1}),
    ("edgeitems_5_threshold_100", np.arange(200) - 100, "int64", True, {"edgeitems": 5, "threshold": 100}),
    ("threshold_0_scalar_not_summarized", np.array(1.5, "float32"), "float32", True, {"threshold": 0}),
    ("doc_example", rand([10, 20], signed=False), "float32", True, {"precision": 4, "threshold": 100, "edgeitems": 3}),
    # ---- bfloat16 is printed through float32 ----
    ("bfloat16_1d", np.array([1.0, 0.1, -3.140625], "float32"), "bfloat16", True, {}),
]

# Parameters: printed through str(parameter).
PARAMETER_CASES = [
    ("parameter_linear_weight", rand([3, 2]), "float32", False, {}),
    ("parameter_bias", np.zeros([4], "float32"), "float32", False, {}),
]


def paddle_str(array, dtype, stop_gradient, kind):
    if kind == "parameter":
        init = paddle.nn.initializer.Assign(array)
        param = paddle.create_parameter(list(array.shape), dtype, default_initializer=init)
        return str(param)
    if dtype == "bfloat16":
        tensor = paddle.to_tensor(array).astype("bfloat16")
    else:
        tensor = paddle.to_tensor(array, dtype=dtype)
    tensor.stop_gradient = stop_gradient
    return str(tensor)


def to_json_data(array, dtype):
    """Nested lists of Python numbers; complex becomes [real, imag]; bfloat16 keeps its rounded float32 values."""
    if dtype == "bfloat16":
        array = paddle.to_tensor(array).astype("bfloat16").astype("float32").numpy()
    if np.iscomplexobj(array):
        array = np.stack([array.real, array.imag], axis=-1)
    return array.tolist()


def main():
    cases = []
    all_cases = [c + ("tensor",) for c in CASES] + [c + ("parameter",) for c in PARAMETER_CASES]
    for name, array, dtype, stop_gradient, options, kind in all_cases:
        paddle.set_printoptions(**options)
        try:
            expected = paddle_str(array, dtype, stop_gradient, kind)
        finally:
            paddle.set_printoptions(**DEFAULT_OPTIONS)
        cases.append(
            {
                "name": name,
                "kind": kind,
                "data": to_json_data(array, dtype),
                "shape": list(array.shape),
                "dtype": dtype,
                "stop_gradient": stop_gradient,
                "options": options,
                "expected": expected,
            }
        )
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    path = os.path.join(HERE, "cases.json")
    with open(path, "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
