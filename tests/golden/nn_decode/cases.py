"""The beam-search cases, written once for both sides: make_golden.py runs them on real Paddle 2.6 and
tests/nn/test_decode.py on minipaddle (each passes its own `paddle` module).

A tiny GRUCell, Embedding and Linear with fixed seeded weights decode from a fixed initial state.
"""

import numpy as np

VOCAB, EMBED, HIDDEN, BATCH = 6, 3, 4, 2

CASES = [
    {"name": "beam3", "beam_size": 3, "end_token": 1, "kwargs": {"max_step_num": 5}},
    {"name": "beam2_time_major_lengths", "beam_size": 2, "end_token": 2,
     "kwargs": {"max_step_num": 4, "output_time_major": True, "return_length": True}},
    {"name": "beam4_until_finished", "beam_size": 4, "end_token": 0,
     "kwargs": {"max_step_num": 30, "return_length": True, "impute_finished": True}},
    {"name": "beam1_greedy", "beam_size": 1, "end_token": 3, "kwargs": {"max_step_num": 3}},
]  # fmt: skip


def weights():
    rng = np.random.default_rng(7)
    shapes = {"embedding": (VOCAB, EMBED), "weight_ih": (3 * HIDDEN, EMBED), "weight_hh": (3 * HIDDEN, HIDDEN),
              "bias_ih": (3 * HIDDEN,), "bias_hh": (3 * HIDDEN,), "out_w": (HIDDEN, VOCAB), "out_b": (VOCAB,),
              "h0": (BATCH, HIDDEN)}  # fmt: skip
    return {k: (rng.standard_normal(s) * 1.5).astype("float32") for k, s in shapes.items()}


def run(paddle, case):
    """(outputs as nested lists, final log_probs, final lengths state, returned lengths or None)."""
    w = weights()
    cell = paddle.nn.GRUCell(EMBED, HIDDEN)
    embedding = paddle.nn.Embedding(VOCAB, EMBED)
    linear = paddle.nn.Linear(HIDDEN, VOCAB)
    for param, key in ((cell.weight_ih, "weight_ih"), (cell.weight_hh, "weight_hh"), (cell.bias_ih, "bias_ih"),
                       (cell.bias_hh, "bias_hh"), (embedding.weight, "embedding"), (linear.weight, "out_w"),
                       (linear.bias, "out_b")):  # fmt: skip
        param.set_value(w[key])
    decoder = paddle.nn.BeamSearchDecoder(
        cell, start_token=0, end_token=case["end_token"], beam_size=case["beam_size"],
        embedding_fn=embedding, output_fn=linear,
    )  # fmt: skip
    result = paddle.nn.dynamic_decode(decoder, inits=paddle.to_tensor(w["h0"]), **case["kwargs"])
    ids, states = result[0], result[1]
    lengths = result[2].numpy().tolist() if len(result) == 3 else None
    return {
        "ids": ids.numpy().tolist(),
        "log_probs": states.log_probs.numpy().tolist(),
        "finished": states.finished.numpy().tolist(),
        "state_lengths": states.lengths.numpy().tolist(),
        "cell_states": states.cell_states.numpy().tolist(),
        "lengths": lengths,
    }
