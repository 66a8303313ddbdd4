"""Record paddle 2.6.2's mapping table of quant_aware with a preprocess function in the legacy format (run with
/work/paddle-venv/bin/python from the repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_mapping_table_golden.py

quant_aware(train, {'onnx_format': False}, for_test=False) with a weight_preprocess_func or act_preprocess_func
(make_user_func_golden.py's PACT and network) writes `./mapping_table_for_saving_inference_model` in the working
directory: json.dumps of {the function's output: the variable it read}, one table per sub-graph, each written over
the last. convert reads it back (json.loads) into its test graph, whose sub-graphs (new IrGraph objects) never see
it, and then fails on the weight function: recorded as `convert_error`. Writes mapping_table.json (per hook: the
file's text and convert's error).
"""

import json
import os
import sys
import tempfile

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.quantization import convert, quant_aware

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_user_func_golden import ALPHA, network, pact, test_program  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = {"onnx_format": False}
TABLE = "mapping_table_for_saving_inference_model"


def flow(hook: str, kind: str) -> dict:
    place, exe = paddle.CPUPlace(), paddle.static.Executor(paddle.CPUPlace())
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup), paddle.utils.unique_name.guard():
        _, loss = network()
        test_p = main_p.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    kw = dict(scope=scope, optimizer_func=lambda: paddle.optimizer.Momentum(0.05, 0.9), executor=exe,
              **{hook: pact(ALPHA[kind])})  # fmt: skip
    with paddle.static.scope_guard(scope):
        quant_aware(main_p, place, CONFIG, for_test=False, return_program=True, **kw)
        with open(TABLE) as fh:
            text = fh.read()
        test = test_program(test_p, place, CONFIG, **kw)
        try:
            convert(test, place, CONFIG, scope=scope)
            error = None
        except Exception as e:  # noqa: BLE001 (recorded, whatever paddle raises)
            error = f"{type(e).__name__}: {e}"
    os.remove(TABLE)
    return {"table": text, "convert_error": error}


def main():
    paddle.enable_static()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)  # (the table is written in the working directory)
        try:
            out["weight_preprocess_func"] = flow("weight_preprocess_func", "weight")
            out["act_preprocess_func"] = flow("act_preprocess_func", "act")
        finally:
            os.chdir(here)
    with open(os.path.join(HERE, "mapping_table.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
    print(out)


if __name__ == "__main__":
    main()
