"""paddle.text.viterbi_decode and ViterbiDecoder: values recorded from paddle 2.6
(tests/golden/text/make_golden.py), the Layer, and the argument errors."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

CASES = read_json(GOLDEN_ROOT / "text" / "viterbi.json")["cases"]


def inputs(case):
    potentials = paddle.to_tensor(np.array(case["potentials"], dtype=case["dtype"]))
    transition = paddle.to_tensor(np.array(case["transition"], dtype=case["dtype"]))
    return potentials, transition, paddle.to_tensor(case["lengths"], dtype="int64")


@pytest.mark.parametrize("i", range(len(CASES)))
def test_matches_paddle(i):
    case = CASES[i]
    scores, paths = paddle.text.viterbi_decode(*inputs(case), case["include_bos_eos_tag"])
    assert scores.dtype == paddle.to_tensor(np.zeros(1, case["dtype"])).dtype
    assert paths.dtype == paddle.int64
    assert scores.stop_gradient and paths.stop_gradient
    np.testing.assert_allclose(scores.numpy(), case["scores"], rtol=1e-6)
    np.testing.assert_array_equal(paths.numpy(), np.array(case["paths"]).reshape(paths.shape))


def test_decoder_layer_matches_the_function():
    case = CASES[0]
    potentials, transition, lengths = inputs(case)
    decoder = paddle.text.ViterbiDecoder(transition, include_bos_eos_tag=case["include_bos_eos_tag"])
    assert decoder.parameters() == []
    scores, paths = decoder(potentials, lengths)
    np.testing.assert_allclose(scores.numpy(), case["scores"], rtol=1e-6)
    np.testing.assert_array_equal(paths.numpy(), case["paths"])


def test_no_gradient_flows():
    potentials = paddle.to_tensor(np.random.default_rng(0).standard_normal((2, 3, 3)), stop_gradient=False)
    scores, _ = paddle.text.viterbi_decode(potentials, paddle.zeros([3, 3], "float64"), paddle.to_tensor([3, 2]))
    assert scores.stop_gradient


def test_errors():
    pot, trans, lengths = paddle.rand([2, 4, 3]), paddle.rand([3, 3]), paddle.to_tensor([4, 2])
    decode = paddle.text.viterbi_decode
    with pytest.raises(TypeError, match="lengths must be int64"):
        decode(pot, trans, lengths.astype("int32"))
    with pytest.raises(TypeError, match="potentials must be float32 or float64"):
        decode(pot.astype("int64"), trans, lengths)
    with pytest.raises(TypeError, match="transition_params must have"):
        decode(pot, trans.astype("float64"), lengths)
    with pytest.raises(ValueError, match="3-D"):
        decode(pot[0], trans, lengths)
    with pytest.raises(ValueError, match=r"shape \[3, 3\]"):
        decode(pot, paddle.rand([2, 2]), lengths)
    with pytest.raises(ValueError, match=r"lengths must have shape \[2\]"):
        decode(pot, trans, paddle.to_tensor([4, 2, 1]))
    with pytest.raises(ValueError, match=r"lengths must be in \[0, 4\]"):
        decode(pot, trans, paddle.to_tensor([5, 2]))
    with pytest.raises(ValueError, match="at least 2 tags"):
        decode(paddle.rand([2, 4, 1]), paddle.rand([1, 1]), lengths)
    with pytest.raises(TypeError, match="include_bos_eos_tag must be a bool"):
        decode(pot, trans, lengths, 1)
    with pytest.raises(TypeError, match="transitions must be a Tensor"):
        paddle.text.ViterbiDecoder(np.zeros((3, 3)))
