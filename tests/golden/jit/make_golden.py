"""Record paddle 2.6.2's converted code (StaticFunction.code, full_graph=True) of tests/golden/jit/functions.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/jit/make_golden.py

It writes code.json next to this file: {function name: the code Paddle prints}. tests/jit/test_code_golden.py
compares minipaddle's `.code` with it after the documented normalisation (see that test).
"""

import importlib.util
import json
import os
import warnings

import numpy.random  # noqa: F401 (before paddle, as the reference venv needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    warnings.filterwarnings("ignore")
    spec = importlib.util.spec_from_file_location("jit_functions", os.path.join(HERE, "functions.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    codes = {}
    for fn in module.functions(paddle):
        codes[fn.__name__] = paddle.jit.to_static(fn, full_graph=True).code
    with open(os.path.join(HERE, "code.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "code": codes}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(codes)} functions' code")


if __name__ == "__main__":
    main()
