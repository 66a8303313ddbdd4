"""paddle.sparse.nn.BatchNorm (sparse/nn/layer/norm.py) against paddle 2.6.2 (tests/golden/sparse/norm_cases.py,
recorded by make_norm_golden.py into norm.json): outputs, running statistics and gradients over training steps,
eval after training (paddle keeps batch statistics there), a fresh layer in eval mode and use_global_stats=True.

One place is compared in values and statistics only: in eval mode after training, paddle 2.6.2's backward takes
the updated running statistics as constants while its forward used the batch's, so its gradients are not those of
its forward; minipaddle's are (checked below against the batch-statistics formula)."""

from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "sparse" / "norm.json")


def _ours() -> dict:
    spec = importlib.util.spec_from_file_location("norm_cases", GOLDEN_ROOT / "sparse" / "norm_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run_all(paddle)


OURS = _ours()
STEPS = [k for k, v in GOLDEN.items() if isinstance(v, dict)]


@pytest.mark.parametrize("step", STEPS)
def test_batch_norm_equals_paddle(step):
    ours, theirs = OURS[step], GOLDEN[step]
    assert ours["indices_kept"] and theirs["indices_kept"]
    fields = ["values", "mean", "variance"]
    if step != "eval_after_train":
        fields += ["x_grad", "w_grad", "b_grad"]
    for f in fields:
        np.testing.assert_allclose(ours[f], theirs[f], rtol=1e-10, atol=1e-10, err_msg=f)


def test_state_dict_and_format_refusal_as_paddle():
    assert OURS["params"] == GOLDEN["params"] == ["_mean", "_variance", "bias", "weight"]
    assert OURS["bad_format"] == GOLDEN["bad_format"] == "ValueError"


def test_eval_after_training_gradients_are_the_forwards():
    # the forward normalizes with the batch's statistics, so the weight's gradient is sum(g * x_hat) with them
    paddle.set_default_dtype("float64")
    try:
        bn = paddle.sparse.nn.BatchNorm(2)
        x = paddle.sparse.sparse_coo_tensor([[0, 0, 1], [0, 1, 1], [0, 1, 2], [1, 2, 0]],
                                            [[1.0, 2.0], [3.0, -1.0], [0.5, 4.0]], [2, 3, 3, 3, 2])  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bn(x)
        bn.eval()
        x.stop_gradient = False
        out = bn(x)
        out.values().sum().backward()
        v = x.values().numpy()
        x_hat = (v - v.mean(0)) / np.sqrt(v.var(0) + 1e-5)
        np.testing.assert_allclose(out.values().numpy(), x_hat, atol=1e-12)  # weight 1, bias 0
        np.testing.assert_allclose(bn.weight.grad.numpy(), x_hat.sum(0), atol=1e-12)
        np.testing.assert_allclose(x.grad.values().numpy(), 0.0, atol=1e-9)  # sum over a normalized batch is flat
    finally:
        paddle.set_default_dtype("float32")


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="sparse.nn.BatchNorm: input must be a SparseCooTensor"):
        paddle.sparse.nn.BatchNorm(3)(paddle.ones([4, 3]))
    with pytest.raises(ValueError, match="data_format must be 'NDHWC' or 'NHWC'"):
        paddle.sparse.nn.BatchNorm(3, data_format="NCDHW")(paddle.ones([2, 3]).to_sparse_coo(1))
