"""paddle.distribution against golden cases recorded from real Paddle 2.6 (tests/golden/distribution): the
values, dtypes and shapes of log_prob, prob, entropy, mean, variance, kl_divergence, cdf and the transforms,
and the gradients of each with respect to the float64 parameters. Each case is one lambda source evaluated
here with minipaddle exactly as the generator evaluated it with Paddle."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_arrays, read_json

HERE = GOLDEN_ROOT / "distribution"
CASES = read_json(HERE / "cases.json")
ARRAYS = read_arrays(HERE / "arrays.npz")
SIMPLEX = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])  # the generator's value of the same name


def _inputs(name):
    count = sum(1 for key in ARRAYS if key.startswith(f"{name}/in"))
    return [ARRAYS[f"{name}/in{i}"] for i in range(count)]


def _run(name):
    """(output, gradients by input index) of the case, evaluated with minipaddle."""
    namespace = {"D": paddle.distribution, "T": paddle.to_tensor, "np": np, "SIMPLEX": SIMPLEX}
    fn = eval(CASES[name]["source"], namespace)  # noqa: S307 (our own recorded case table)
    tensors = [paddle.to_tensor(a, stop_gradient=a.dtype != np.float64) for a in _inputs(name)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(*tensors)
    grads = {}
    leaves = [(i, t) for i, t in enumerate(tensors) if not t.stop_gradient]
    if leaves and not out.stop_gradient:
        got = paddle.grad([out.sum()], [t for _, t in leaves], allow_unused=True)
        grads = {i: g for (i, _), g in zip(leaves, got)}
    return out, grads


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_dtypes_and_shapes_match_paddle(name):
    out, _ = _run(name)
    expected = ARRAYS[f"{name}/out"]
    assert out.dtype.name == CASES[name]["dtype"]
    assert list(out.shape) == CASES[name]["shape"]
    # float64: Paddle rounds Python-number operands (log(2 pi) and the like) to float32 attributes, we do not,
    # so the two agree to about 1e-8 there
    rtol = 1e-5 if expected.dtype == np.float32 else 1e-7
    np.testing.assert_allclose(out.numpy(), expected, rtol=rtol, atol=rtol)


# Paddle 2.6's binary_cross_entropy_with_logits gives its label no gradient, so Paddle's Bernoulli entropy
# has gradient 0 in probs; ours is the true derivative log((1 - p) / p) (tests/distribution/test_distributions.py)
PADDLE_GRADIENT_WRONG = {"bernoulli_entropy"}
GRAD_CASES = sorted({key.split("/")[0] for key in ARRAYS if "/grad" in key} - PADDLE_GRADIENT_WRONG)


@pytest.mark.parametrize("name", GRAD_CASES)
def test_gradients_match_paddle(name):
    _, grads = _run(name)
    for key in (k for k in ARRAYS if k.startswith(f"{name}/grad")):
        index = int(key.rsplit("grad", 1)[1])
        assert grads.get(index) is not None, f"{name}: no gradient for input {index}"
        np.testing.assert_allclose(grads[index].numpy(), ARRAYS[key], rtol=1e-7, atol=1e-9)
