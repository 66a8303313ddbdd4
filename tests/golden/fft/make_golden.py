"""Record what real Paddle 2.6 computes for paddle.fft, as golden cases for tests/test_fft.py (which needs no
Paddle).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fft/make_golden.py

It writes cases.json (each case: the paddle.fft function, its keyword arguments, the input dtype, the output
dtype) and arrays.npz (per case: the input `x`, the output `out` and, for float64/complex128 inputs, a weight `w`
and the gradient `grad` of the real loss sum(real(out * w)) with respect to x).
"""

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(26)


def real(*shape):
    return rng.standard_normal(shape)


def cplx(*shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


# name -> (function, input, keyword arguments)
CASES = {}
for norm in ("backward", "forward", "ortho"):
    CASES[f"fft_real_{norm}"] = ("fft", real(5), {"norm": norm})
    CASES[f"fft_complex_{norm}"] = ("fft", cplx(2, 4), {"norm": norm})
    CASES[f"ifft_complex_{norm}"] = ("ifft", cplx(4, 3), {"norm": norm, "axis": 0})
    CASES[f"rfft_{norm}"] = ("rfft", real(3, 6), {"norm": norm})
    CASES[f"irfft_{norm}"] = ("irfft", cplx(2, 4), {"norm": norm})
    CASES[f"hfft_{norm}"] = ("hfft", cplx(3, 4), {"norm": norm, "n": 7})
    CASES[f"ihfft_{norm}"] = ("ihfft", real(2, 5), {"norm": norm})
    CASES[f"fftn_complex_{norm}"] = ("fftn", cplx(2, 3, 4), {"norm": norm})
    CASES[f"rfftn_{norm}"] = ("rfftn", real(2, 3, 4), {"norm": norm, "axes": [2, 0]})
    CASES[f"irfftn_{norm}"] = ("irfftn", cplx(3, 2, 4), {"norm": norm})
    CASES[f"hfftn_{norm}"] = ("hfftn", cplx(3, 4), {"norm": norm, "s": [2, 5]})
    CASES[f"ihfftn_{norm}"] = ("ihfftn", real(3, 4, 2), {"norm": norm, "axes": (1, 0)})
CASES["fft_n_pad"] = ("fft", real(3, 4), {"n": 6, "axis": 0})
CASES["fft_n_crop"] = ("fft", cplx(5), {"n": 3})
CASES["ifft_real"] = ("ifft", real(2, 3), {})
CASES["rfft_n_odd"] = ("rfft", real(6), {"n": 5})
CASES["irfft_n_odd"] = ("irfft", cplx(4), {"n": 5})
CASES["irfft_n_crop"] = ("irfft", cplx(2, 6), {"n": 4, "axis": 1})
CASES["irfft_real_input"] = ("irfft", real(4), {})
CASES["hfft_default"] = ("hfft", cplx(5), {})
CASES["ihfft_n_pad"] = ("ihfft", real(3), {"n": 6})
CASES["fft2_real"] = ("fft2", real(2, 3, 4), {})
CASES["fft2_s_axes"] = ("fft2", cplx(3, 4, 2), {"s": [3, 5], "axes": [2, 0]})
CASES["ifft2_real"] = ("ifft2", real(4, 3), {"norm": "ortho"})
CASES["rfft2"] = ("rfft2", real(2, 4, 6), {"s": [3, 5]})
CASES["irfft2"] = ("irfft2", cplx(3, 4), {"axes": (1, 0)})
CASES["hfft2"] = ("hfft2", cplx(2, 3, 3), {"axes": (0, 2)})
CASES["ihfft2"] = ("ihfft2", real(4, 5), {})
CASES["fftn_s"] = ("fftn", real(3, 4), {"s": [5]})
CASES["fftn_axes"] = ("fftn", cplx(2, 3, 4), {"axes": [2, 0], "s": [3, 5]})
CASES["ifftn_real_axes"] = ("ifftn", real(3, 2, 2), {"axes": [0, 2]})
CASES["rfftn_s"] = ("rfftn", real(3, 5), {"s": [4, 4]})
CASES["irfftn_s_axes"] = ("irfftn", cplx(3, 4, 3), {"s": [3, 5], "axes": [2, 0]})
CASES["fft_float32"] = ("fft", real(6).astype(np.float32), {})
CASES["rfft_float32"] = ("rfft", real(2, 5).astype(np.float32), {"norm": "ortho"})
CASES["irfft_complex64"] = ("irfft", cplx(5).astype(np.complex64), {})
CASES["fftn_complex64"] = ("fftn", cplx(2, 3).astype(np.complex64), {})
CASES["fft_int64"] = ("fft", np.array([3, 1, 4, 1, 5]), {})
CASES["rfft_int32"] = ("rfft", np.array([[3, 1, 4], [1, 5, 9]], np.int32), {})
CASES["ihfft_int64"] = ("ihfft", np.array([2, 7, 1, 8]), {})
CASES["fftshift"] = ("fftshift", cplx(3, 4), {})
CASES["fftshift_axes"] = ("fftshift", real(5, 4), {"axes": [1]})
CASES["ifftshift"] = ("ifftshift", real(5, 3), {})
CASES["ifftshift_int_axis"] = ("ifftshift", real(5, 3), {"axes": 0})


def main():
    meta, arrays = {}, {}
    for name, (fn, x, kwargs) in CASES.items():
        differentiable = x.dtype in (np.float64, np.complex128)
        t = paddle.to_tensor(x, stop_gradient=not differentiable)
        out = getattr(paddle.fft, fn)(t, **kwargs)
        arrays[f"{name}/x"], arrays[f"{name}/out"] = x, out.numpy()
        if differentiable:
            w = cplx(*out.shape) if out.dtype in (paddle.complex64, paddle.complex128) else real(*out.shape)
            loss = paddle.real(out * paddle.to_tensor(w)) if np.iscomplexobj(w) else out * paddle.to_tensor(w)
            loss.sum().backward()
            arrays[f"{name}/w"], arrays[f"{name}/grad"] = w, t.grad.numpy()
        meta[name] = {"fn": fn, "kwargs": kwargs, "dtype": str(x.dtype), "out_dtype": str(out.numpy().dtype)}
    freqs = {
        "fftfreq_5_0.5": paddle.fft.fftfreq(5, 0.5),
        "fftfreq_8": paddle.fft.fftfreq(8),
        "fftfreq_7_-0.1": paddle.fft.fftfreq(7, -0.1),
        "rfftfreq_5_0.5": paddle.fft.rfftfreq(5, 0.5),
        "rfftfreq_8_0.3": paddle.fft.rfftfreq(8, 0.3),
    }
    for name, out in freqs.items():
        arrays[f"{name}/out"] = out.numpy()
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": meta, "freqs": sorted(freqs)}, f, indent=1)
        f.write("\n")
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)
    print(f"{len(meta)} cases, {len(freqs)} frequency tables")


if __name__ == "__main__":
    main()
