"""Record what paddle 2.6.2 gives for tests/golden/jit/tensor_bounds.py's functions at each of its VALUES: in
dynamic mode, and converted by to_static (full_graph=True) with x of InputSpec [4, 3] and [None, 3].

    cd /tmp && /work/paddle-venv/bin/python /work/wt/jit4/tests/golden/jit/make_tensor_bounds.py

Writes tensor_bounds.json: per function, mode ("dynamic", "static_4", "static_None") and value, the output's
values, or the name of the exception paddle raised.
"""

import importlib.util
import json
import os
import warnings

import numpy as np
import numpy.random  # noqa: F401 (before paddle, as the reference venv needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    spec = importlib.util.spec_from_file_location("tensor_bounds", os.path.join(HERE, "tensor_bounds.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _outcome(fn, x, t):
    try:
        out = fn(x, t).numpy()
    except Exception as e:  # paddle's error, by type (ValueError for its kernels' checks)
        return type(e).__name__
    return {"shape": list(out.shape), "values": out.tolist()}


def main() -> None:
    warnings.filterwarnings("ignore")
    module = _load()
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))
    out = {"paddle": paddle.__version__, "functions": {}}
    for fn in module.FUNCTIONS:
        modes = {"dynamic": fn}
        for rows in (4, None):
            spec = [paddle.static.InputSpec([rows, 3], "float32"), paddle.static.InputSpec([1], "int64")]
            modes[f"static_{rows}"] = paddle.jit.to_static(fn, input_spec=spec, full_graph=True)
        out["functions"][fn.__name__] = {
            mode: {str(v): _outcome(run, x, paddle.to_tensor([v], dtype="int64")) for v in module.VALUES}
            for mode, run in modes.items()
        }
    with open(os.path.join(HERE, "tensor_bounds.json"), "w") as f:
        json.dump(out, f, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out['functions'])} functions")


if __name__ == "__main__":
    main()
