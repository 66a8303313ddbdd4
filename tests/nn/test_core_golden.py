"""Activations, losses, norms, linear/embedding and the layers around them against numbers recorded from real
Paddle 2.6 (tests/golden/nn/make_golden.py). No Paddle is needed here: the inputs, outputs, cotangents and
gradients are stored. Float64 cases must agree to rounding; the few float32 cases (Paddle has no float64 kernel
for them) to float32 precision.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from tests.golden_files import GOLDEN_ROOT, read_arrays, read_json

GOLDEN = GOLDEN_ROOT / "nn"
CASES = read_json(GOLDEN / "cases.json")["cases"]


@pytest.fixture(scope="module")
def arrays():
    return read_arrays(GOLDEN / "arrays.npz")


def _tensor(a: np.ndarray, grad: bool = True) -> paddle.Tensor:
    t = paddle.to_tensor(a)
    if grad and a.dtype.kind == "f":
        t.stop_gradient = False
    return t


def _close(actual, expected, what: str) -> None:
    tol = dict(rtol=1e-5, atol=1e-6) if expected.dtype == np.float32 else dict(rtol=1e-7, atol=1e-9)
    assert list(np.shape(actual)) == list(expected.shape), f"{what}: shape {np.shape(actual)} vs {expected.shape}"
    np.testing.assert_allclose(actual, expected, err_msg=what, **tol)


FUNCTION_CASES = sorted(n for n, c in CASES.items() if c["kind"] == "function")
LAYER_CASES = sorted(n for n, c in CASES.items() if c["kind"] == "layer")


@pytest.mark.parametrize("name", FUNCTION_CASES)
def test_function_matches_paddle(name, arrays):
    case = CASES[name]
    tensors = {}
    args = []
    for i, a in enumerate(case["args"]):
        if "tensor" in a:
            tensors[f"arg{i}"] = _tensor(arrays[f"{name}.arg{i}"])
            args.append(tensors[f"arg{i}"])
        elif "constant" in a:
            args.append(_tensor(arrays[f"{name}.arg{i}"], grad=False))
        else:
            args.append(a["value"])
    kwargs = dict(case["kwargs"])
    for k in case["tensor_kwargs"]:
        tensors[f"kw.{k}"] = kwargs[k] = _tensor(arrays[f"{name}.kw.{k}"])
    result = getattr(F, case["fn"])(*args, **kwargs)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    assert len(outs) == case["outputs"]
    loss = None
    for j, out in enumerate(outs):
        expected = arrays[f"{name}.out{j}"]
        _close(out.numpy(), expected, f"{name} output {j}")
        assert out.dtype.name == expected.dtype.name, f"{name}: dtype {out.dtype.name} vs {expected.dtype}"
        if f"{name}.cot{j}" in arrays:
            term = (out * paddle.to_tensor(arrays[f"{name}.cot{j}"]).astype(out.dtype)).sum()
            loss = term if loss is None else loss + term
    wanted = [k for k in tensors if f"{name}.grad.{k}" in arrays]
    if wanted:
        grads = paddle.grad([loss], [tensors[k] for k in wanted], allow_unused=True)
        for k, g in zip(wanted, grads):
            assert g is not None, f"{name}: no gradient for {k}"
            _close(g.numpy(), arrays[f"{name}.grad.{k}"], f"{name} gradient of {k}")


@pytest.mark.parametrize("name", LAYER_CASES)
def test_layer_matches_paddle(name, arrays):
    case = CASES[name]
    layer = getattr(paddle.nn, case["layer"])(**case["init"])
    layer.to(dtype="float64")
    missing, unexpected = layer.set_state_dict({k: arrays[f"{name}.state.{k}"] for k in case["state"]})
    assert missing == [] and unexpected == []
    layer.train() if case["mode"] == "train" else layer.eval()
    for c in range(case["calls"]):
        xs = [_tensor(arrays[f"{name}.in{i}"]) for i in range(case["inputs"])]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # BatchNorm's "we now always track global mean and variance"
            out = layer(*xs)
        _close(out.numpy(), arrays[f"{name}.call{c}.out"], f"{name} call {c} output")
        params = [(k, p) for k, p in layer.named_parameters() if not p.stop_gradient]
        wrt = [x for x in xs if not x.stop_gradient] + [p for _, p in params]
        keys = [f"in{i}" for i, x in enumerate(xs) if not x.stop_gradient] + [k for k, _ in params]
        grads = paddle.grad([(out * paddle.to_tensor(arrays[f"{name}.call{c}.cot"])).sum()], wrt, allow_unused=True)
        for k, g in zip(keys, grads):
            key = f"{name}.call{c}.grad.{k}"
            if key in arrays:
                _close(g.numpy(), arrays[key], f"{name} call {c} gradient of {k}")
            else:
                assert g is None or not np.any(g.numpy()), f"{name}: Paddle has no gradient for {k}"
    for key, value in layer.state_dict().items():
        _close(value.numpy(), arrays[f"{name}.after.{key}"], f"{name} {key} after the calls")
