"""Record paddle 2.6.2's outputs of tests/golden/jit/runtime_shapes.py, converted by to_static (full_graph=True)
with InputSpec([None, 5]) and run at each of its BATCHES.

    cd /tmp && /work/paddle-venv/bin/python /work/wt/jit/tests/golden/jit/make_runtime_shapes.py

Writes runtime_shapes.json: per function and batch, each output's shape and dtype, its values (not for random
outputs), and for SLICING functions the gradient of sum(outputs) with respect to x.
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
    spec = importlib.util.spec_from_file_location("runtime_shapes", os.path.join(HERE, "runtime_shapes.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record(fn, x, grad: bool, values: bool) -> dict:
    spec = [paddle.static.InputSpec([None, 5], "float32")]
    converted = paddle.jit.to_static(fn, input_spec=spec, full_graph=True)
    t = paddle.to_tensor(x, stop_gradient=not grad)
    outs = converted(t)
    outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    rec = {"shapes": [list(o.shape) for o in outs], "dtypes": [str(o.dtype).replace("paddle.", "") for o in outs]}
    if values:
        rec["values"] = [o.numpy().tolist() for o in outs]
    if grad:
        paddle.add_n([o.sum() for o in outs]).backward()
        rec["grad"] = t.grad.numpy().tolist()
    return rec


def main() -> None:
    warnings.filterwarnings("ignore")
    module = _load()
    slicing, creation = module.functions(paddle)
    out = {"paddle": paddle.__version__, "functions": {}}
    for fn in slicing + creation:
        per_batch = {}
        for batch in module.BATCHES:
            x = np.arange(batch * 5, dtype="float32").reshape(batch, 5)
            per_batch[str(batch)] = _record(fn, x, fn in slicing, fn.__name__ != "creation_random")
        out["functions"][fn.__name__] = per_batch
    with open(os.path.join(HERE, "runtime_shapes.json"), "w") as f:
        json.dump(out, f, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out['functions'])} functions")


if __name__ == "__main__":
    main()
