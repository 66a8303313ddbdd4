"""Record what real Paddle 2.6 computes for the special and elementwise math of minipaddle/tensor/special_math.py,
as golden cases for tests/tensor/test_special_math.py (which needs no Paddle).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/special_math/make_golden.py

It writes cases.json (each case: the paddle function, its keyword arguments, the input dtypes, the output dtype)
and arrays.npz (per case: the inputs `in0`, `in1`, ..., the output `out` and, where Paddle has one, the gradient
`grad0`, `grad1`, ... of sum(out) for each float64 input; a missing gradient is not stored).
"""

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
nan, inf = np.nan, np.inf

EDGES = [0.0, -1.0, -2.5, 1e-8, -1e-300, 0.3, 1.5, -0.7, 5.0, 50.0, 200.0, -800.0, inf, -inf, nan, 1.0, 2.0]
GRID = list(np.linspace(-6.3, 12.1, 24))
SMOOTH = [0.3, 1.5, -0.7, 5.0, 11.2, -3.4, 0.05]  # where gradients are finite
UNIT = [-1.0, 1.0, 1.5, -2.5, 0.0, 0.999999, -0.5, 0.25, 1e-10, -0.9, nan]

# name -> (paddle function, [input arrays], {keyword arguments}, differentiate the float64 inputs?)
CASES = {}
for fn in ("lgamma", "digamma", "erfinv", "i0", "i0e", "i1", "i1e"):
    CASES[f"{fn}_edges"] = (fn, [np.array(UNIT if fn == "erfinv" else EDGES)], {}, False)
    CASES[f"{fn}_grid"] = (fn, [np.array(GRID)], {}, False)
    CASES[f"{fn}_grad"] = (fn, [np.array([0.3, 0.9, -0.6, 0.45]) if fn == "erfinv" else np.array(SMOOTH)], {}, True)
    CASES[f"{fn}_float32"] = (
        fn,
        [np.array([0.3, 0.9, -0.6, 0.45] if fn == "erfinv" else SMOOTH, np.float32)],
        {},
        False,
    )
for n in (1, 2, 3, 6):
    CASES[f"polygamma_{n}_edges"] = ("polygamma", [np.array(EDGES)], {"n": n}, False)
    CASES[f"polygamma_{n}_grad"] = ("polygamma", [np.array(SMOOTH)], {"n": n}, True)
CASES["polygamma_0"] = ("polygamma", [np.array(SMOOTH)], {"n": 0}, True)
CASES["multigammaln_3"] = ("multigammaln", [np.array([[2.5, 3.0], [1.2, 7.5]])], {"p": 3}, True)
CASES["multigammaln_float_p"] = ("multigammaln", [np.array([2.5, 3.0], np.float32)], {"p": 2.0}, False)
CASES["logit"] = ("logit", [np.array([0.1, 0.5, 0.95, 0.01, 1.2, -0.1, 0.0, 1.0, nan])], {}, False)
CASES["logit_grad"] = ("logit", [np.array([0.1, 0.5, 0.95, 0.01, 1.2, -0.1])], {}, True)
CASES["logit_eps"] = ("logit", [np.array([0.1, 0.5, 0.95, 0.01, 1.2, -0.1, 0.0, 1.0])], {"eps": 0.05}, True)
CASES["logit_eps_big"] = ("logit", [np.array([0.1, 0.5, 0.95])], {"eps": 0.7}, False)
CASES["logit_float32"] = ("logit", [np.array([0.1, 0.5, 0.97], np.float32)], {"eps": 0.05}, False)
CASES["atan2"] = ("atan2", [np.array([1.0, 0.0, -1.0, -2.0]), np.array([2.0, 0.0, 0.5, -3.0])], {}, True)
CASES["atan2_int32"] = ("atan2", [np.array([1, 2, -3], np.int32), np.array([3, -1, -4], np.int32)], {}, False)
CASES["hypot"] = ("hypot", [np.array([[1.0], [0.0], [-3.0]]), np.array([3.0, 4.0])], {}, True)
CASES["logaddexp"] = ("logaddexp", [np.array([1.0, 2.0, -800.0, 700.0]), np.array([3.0, 2.0, -801.0, 710.0])], {}, True)
CASES["logaddexp_int64"] = ("logaddexp", [np.array([1, 2]), np.array([3, -1])], {}, False)
CASES["fmax"] = ("fmax", [np.array([1.0, 2.0, nan, 3.0, nan]), np.array([2.0, 2.0, 1.0, nan, nan])], {}, True)
CASES["fmin"] = ("fmin", [np.array([1.0, 2.0, nan, 3.0, nan]), np.array([2.0, 2.0, 1.0, nan, nan])], {}, True)
CASES["fmax_int32"] = ("fmax", [np.array([1, 5], np.int32), np.array([3, 2], np.int32)], {}, False)
CASES["heaviside"] = (
    "heaviside",
    [np.array([-1.0, 0.0, 2.0, nan, -0.0]), np.array([5.0, 6.0, 7.0, 8.0, 9.0])],
    {},
    True,
)
CASES["nextafter"] = ("nextafter", [np.array([1.0, 2.0, 0.0, -1.0]), np.array([3.0, 0.0, -1.0, -1.0])], {}, False)
CASES["nextafter_float32"] = (
    "nextafter",
    [np.array([1.0, 0.0], np.float32), np.array([2.0, 1.0], np.float32)],
    {},
    False,
)
CASES["gcd"] = ("gcd", [np.array([12, -4, 0, 0, 7, 270]), np.array([18, 6, 0, -3, 0, -192])], {}, False)
CASES["gcd_float"] = (
    "gcd",
    [np.array([1.5, -4.0, 0.0, 0.0, 7.5], np.float32), np.array([1.0, 6.0, 0.0, -3.0, 2.5], np.float32)],
    {},
    False,
)
CASES["lcm"] = ("lcm", [np.array([12, -4, 0, 0, 7, 270]), np.array([18, 6, 0, -3, 0, -192])], {}, False)
CASES["lcm_broadcast"] = ("lcm", [np.array([[4], [6]], np.int32), np.array([6, 10, 0], np.int32)], {}, False)
CASES["ldexp"] = ("ldexp", [np.array([1.0, 2.0, -3.0]), np.array([3.0, 0.5, -2.0])], {}, True)
CASES["ldexp_int"] = ("ldexp", [np.array([1, 3], np.int32), np.array([2, 1], np.int64)], {}, False)
CASES["ldexp_mixed"] = ("ldexp", [np.array([1.0, 3.0], np.float32), np.array([2, 1], np.int64)], {}, False)
CASES["frexp"] = ("frexp", [np.array([3.0, -5.0, 0.0, 0.5, 1.0, inf, 1e-310, 8.0, -0.1])], {}, False)
CASES["frexp_grad"] = ("frexp", [np.array([3.0, -5.0, 0.0, 0.3])], {}, True)
CASES["frexp_float32"] = ("frexp", [np.array([3.0, -5.0, 0.0, 1e-3], np.float32)], {}, False)
CASES["lerp"] = ("lerp", [np.array([1.0, 2.0]), np.array([3.0, 5.0]), np.array([0.5, 0.25])], {}, True)
CASES["lerp_broadcast"] = (
    "lerp",
    [np.array([[1.0], [2.0]], np.float32), np.array([3.0, 5.0], np.float32), np.array([[[0.5]]], np.float32)],
    {},
    False,
)
CASES["nan_to_num"] = ("nan_to_num", [np.array([nan, inf, -inf, 1.0])], {}, True)
CASES["nan_to_num_float32"] = ("nan_to_num", [np.array([nan, inf, -inf, 1.0], np.float32)], {}, False)
CASES["nan_to_num_values"] = (
    "nan_to_num",
    [np.array([nan, inf, -inf, 1.0])],
    {"nan": 1.5, "posinf": 10, "neginf": -10},
    False,
)
CASES["frac"] = ("frac", [np.array([1.5, -2.25, 3.0, -0.5])], {}, True)
CASES["frac_int32"] = ("frac", [np.array([1, -2], np.int32)], {}, False)
CASES["sgn"] = ("sgn", [np.array([1.5, -2.25, 0.0])], {}, False)
CASES["sgn_complex"] = ("sgn", [np.array([3 + 4j, 0j, -1j, 1 - 1j], np.complex64)], {}, False)
CASES["deg2rad_int64"] = ("deg2rad", [np.array([180, -90])], {}, False)
CASES["deg2rad"] = ("deg2rad", [np.array([180.0, 1.0])], {}, True)
CASES["rad2deg_int32"] = ("rad2deg", [np.array([3, -1], np.int32)], {}, False)
CASES["rad2deg"] = ("rad2deg", [np.array([np.pi, 1.0])], {}, True)


def record(name, fn_name, inputs, kwargs, with_grad):
    tensors = [paddle.to_tensor(a, stop_gradient=not (with_grad and a.dtype == np.float64)) for a in inputs]
    out = getattr(paddle, fn_name)(*tensors, **kwargs)
    outs = list(out) if isinstance(out, tuple) else [out]
    arrays = {f"{name}/in{i}": a for i, a in enumerate(inputs)}
    arrays.update({f"{name}/out{k}": o.numpy() for k, o in enumerate(outs)})
    if with_grad:
        leaves = [t for t in tensors if not t.stop_gradient]
        grads = paddle.grad([outs[0].sum()], leaves, allow_unused=True)
        arrays.update({f"{name}/grad{i}": g.numpy() for i, g in enumerate(grads) if g is not None})
    case = {
        "fn": fn_name,
        "kwargs": kwargs,
        "n_inputs": len(inputs),
        "n_outputs": len(outs),
        "out_dtypes": [str(o.dtype).replace("paddle.", "") for o in outs],
        "grad": with_grad,
    }
    return case, arrays


def main():
    cases, arrays = {}, {}
    for name, (fn_name, inputs, kwargs, with_grad) in CASES.items():
        cases[name], a = record(name, fn_name, inputs, kwargs, with_grad)
        arrays.update(a)
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)
    print(f"recorded {len(cases)} cases")


if __name__ == "__main__":
    main()
