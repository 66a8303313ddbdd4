"""paddle.nn.BeamSearchDecoder and paddle.nn.dynamic_decode against real Paddle 2.6 (golden values from
tests/golden/nn_decode/make_golden.py: a tiny GRUCell with fixed weights), plus shapes and errors."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden.nn_decode import cases
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "nn_decode" / "decode.json")["cases"]


@pytest.mark.parametrize("case", cases.CASES, ids=[c["name"] for c in cases.CASES])
def test_beam_search_matches_paddle(case):
    got, want = cases.run(paddle, case), GOLDEN[case["name"]]
    np.testing.assert_array_equal(got["ids"], want["ids"])
    np.testing.assert_array_equal(got["finished"], want["finished"])
    np.testing.assert_array_equal(got["state_lengths"], want["state_lengths"])
    np.testing.assert_allclose(got["log_probs"], want["log_probs"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got["cell_states"], want["cell_states"], rtol=1e-5, atol=1e-5)
    if want["lengths"] is None:
        assert got["lengths"] is None
    else:
        np.testing.assert_array_equal(got["lengths"], want["lengths"])


def test_tile_beam_merge_with_batch():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    out = paddle.nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 3)
    np.testing.assert_array_equal(out.numpy(), [[1, 2]] * 3 + [[3, 4]] * 3)


def test_outputs_are_int64_ids_and_states_are_wrapped():
    # Seeded: with other random weights every beam may emit the end token early and decoding stops after 2 steps.
    paddle.seed(2024)
    cell = paddle.nn.GRUCell(3, 4)
    decoder = paddle.nn.BeamSearchDecoder(cell, 0, 1, 2, embedding_fn=paddle.nn.Embedding(5, 3),
                                          output_fn=paddle.nn.Linear(4, 5))  # fmt: skip
    ids, states, lengths = paddle.nn.dynamic_decode(decoder, paddle.zeros([3, 4]), max_step_num=2, return_length=True)
    assert ids.dtype == paddle.int64 and ids.shape == [3, 3, 2]
    assert isinstance(states, paddle.nn.BeamSearchDecoder.StateWrapper)
    assert lengths.dtype == paddle.int64 and lengths.shape == [3, 2]
    assert states.cell_states.shape == [3, 2, 4]


def test_errors():
    cell = paddle.nn.GRUCell(3, 4)
    with pytest.raises(TypeError, match="beam_size must be an int"):
        paddle.nn.BeamSearchDecoder(cell, 0, 1, 2.0)
    with pytest.raises(ValueError, match="beam_size must be positive"):
        paddle.nn.BeamSearchDecoder(cell, 0, 1, 0)
    with pytest.raises(TypeError, match="decoder must be"):
        paddle.nn.dynamic_decode(cell, paddle.zeros([1, 4]))
    decoder = paddle.nn.BeamSearchDecoder(cell, 0, 1, 2)
    with pytest.raises(TypeError, match="max_step_num must be an int"):
        paddle.nn.dynamic_decode(decoder, paddle.zeros([1, 4]), max_step_num=2.5)
