"""Record what real Paddle 2.6's LBFGS does on the cases of problems.py, as golden values for
tests/optimizer/test_lbfgs.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/lbfgs/make_golden.py

It writes cases.json beside this file: for each case, after each `step(closure)`, the loss the step returned,
the parameters, and the state's func_evals and n_iter; at the end the state's alpha, H_diag, prev_loss, d and
the number of stored curvature pairs.
"""

import json
import os

import paddle
from problems import CASES, run

HERE = os.path.dirname(os.path.abspath(__file__))


def as_number(value):
    return None if value is None else float(value)


def main():
    out = []
    for case in CASES:
        opt, steps = run(paddle, case)
        state = opt.state_dict()["state"]
        final = {
            "alpha": as_number(state.get("alpha")),
            "H_diag": as_number(state.get("H_diag")),
            "prev_loss": as_number(state.get("prev_loss")),
            "d": state["d"].numpy().tolist() if "d" in state else None,
            "history": len(state.get("old_yk", [])),
        }
        out.append({"name": case["name"], "steps": steps, "final": final})
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": out}, f, indent=1)


if __name__ == "__main__":
    main()
