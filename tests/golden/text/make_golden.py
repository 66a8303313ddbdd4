"""Record what real Paddle 2.6's paddle.text.viterbi_decode gives, as golden values for
tests/text/test_viterbi_decode.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/text/make_golden.py

It writes viterbi.json beside this file: for each case its inputs (potentials, transition, lengths,
include_bos_eos_tag, dtype) and Paddle's scores and paths.
"""

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)

SHAPES = [  # (batch, seq_len, num_tags, lengths)
    (3, 5, 4, [5, 3, 1]),
    (4, 6, 5, [2, 6, 6, 4]),
    (2, 3, 3, [3, 0]),
    (1, 1, 3, [1]),
    (3, 7, 6, [4, 2, 3]),
]


def main():
    cases = []
    for batch, seq_len, num_tags, lengths in SHAPES:
        for include in (True, False):
            for dtype in ("float32", "float64"):
                potentials = rng.standard_normal((batch, seq_len, num_tags)).astype(dtype)
                transition = rng.standard_normal((num_tags, num_tags)).astype(dtype)
                scores, paths = paddle.text.viterbi_decode(
                    paddle.to_tensor(potentials), paddle.to_tensor(transition),
                    paddle.to_tensor(lengths, dtype="int64"), include,
                )  # fmt: skip
                cases.append({
                    "dtype": dtype, "include_bos_eos_tag": include, "lengths": lengths,
                    "potentials": potentials.tolist(), "transition": transition.tolist(),
                    "scores": scores.numpy().tolist(), "paths": paths.numpy().tolist(),
                })  # fmt: skip
    with open(os.path.join(HERE, "viterbi.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": cases}, f)


if __name__ == "__main__":
    main()
