"""Record what real Paddle 2.6's BeamSearchDecoder + dynamic_decode give on the cases of cases.py, as golden
values for tests/nn/test_decode.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/nn_decode/make_golden.py

It writes decode.json beside this file: per case the predicted ids, the final states' log_probs, finished,
lengths and cell states, and the returned lengths (when asked for).
"""

import json
import os

import paddle
from cases import CASES, run

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    out = {case["name"]: run(paddle, case) for case in CASES}
    with open(os.path.join(HERE, "decode.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": out}, f)


if __name__ == "__main__":
    main()
