"""Save, with paddle 2.6.2, static O2 float16 training files into o2_files/ (read by tests/static/test_o2_files.py):
paddle.static.amp.decorate(level='O2') with dynamic loss scaling, minimized, the startup Program run, amp_init (the
parameters stored float16, their float32 master weights in the .pdopt), then paddle.static.save. Cases:

    mlp_sgd, mlp_adam   x [None, 8] -> fc(16) -> relu -> fc(4) -> softmax_with_cross_entropy -> mean: each
                        parameter float16
    norm_adam           x -> fc(16) -> layer_norm -> relu -> fc(4) -> ...: the layer_norm's scale and bias stay
                        float32 under O2 (paddle keeps float16 layer_norm parameters float32), so the gradients form
                        two dtype groups: check_finite_and_unscale per group, concat + reduce_any of their flags

and o2_files/ops.json: for each case the Program's op types and its loss scaling and update ops with their slots
and attributes, as make_static_decorate_ops.py records them. The lists are made as on a GPU (paddle's CPU build has
no float16 kernels and would keep every op float32), as make_static_decorate_ops.py does; paddle cannot run these
Programs on a CPU, so they are built and saved, not trained.

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/amp/make_o2_files.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from make_static_decorate_ops import _as_on_a_gpu, _op

SCALING = dict(init_loss_scaling=2.0**20, incr_every_n_steps=2, decr_every_n_nan_or_inf=1)  # overflows at first
OPTIMIZERS = {"sgd": lambda: paddle.optimizer.SGD(0.05), "adam": lambda: paddle.optimizer.Adam(0.01)}
CASES = {"mlp_sgd": ("sgd", False), "mlp_adam": ("adam", False), "norm_adam": ("adam", True)}


def save_case(case: str, out: Path) -> dict:
    kind, norm = CASES[case]
    paddle.seed(0)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        h = paddle.static.nn.fc(x, 16)
        if norm:
            h = paddle.static.nn.layer_norm(h)
        h = paddle.nn.functional.relu(h)
        loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(paddle.static.nn.fc(h, 4), y))
        opt = paddle.static.amp.decorate(OPTIMIZERS[kind](), level="O2", **SCALING)
        opt.minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    opt.amp_init(paddle.CPUPlace())
    ops = main.global_block().ops
    for o in ops:  # the Python stack each op was built at: most of the file, and nothing it runs
        o._set_attr("op_callstack", [])
    paddle.static.save(main, str(out / case))
    return {
        "loss": loss.name,
        "types": [o.type for o in ops],
        "loss_and_optimize": [_op(o) for o in ops if o.attr("op_role") & 0x102],
        "dtypes": {v.name: str(v.dtype).replace("paddle.", "") for v in main.list_vars() if v.persistable},
    }


if __name__ == "__main__":
    _as_on_a_gpu()
    paddle.enable_static()
    out = Path(__file__).resolve().parent / "o2_files"
    out.mkdir(exist_ok=True)
    record = {case: save_case(case, out) for case in CASES}
    (out / "ops.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
