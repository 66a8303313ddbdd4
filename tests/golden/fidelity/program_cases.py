"""Static Programs as objects, run with either library (`paddle` passed in): Program.state_dict's keys by mode after
an Adam step, set_state_dict, paddle.save / paddle.load of a Program, static.load of a missing file.
make_program_golden.py records run_all(paddle 2.6) into program.json."""

import os
import tempfile
import warnings

import numpy as np


def run_all(paddle):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():  # names from fc_0
            x = paddle.static.data("x", [2, 3], "float32")
            y = paddle.static.nn.fc(x, 2)
            loss = y.mean()
            paddle.optimizer.Adam(0.1).minimize(loss)
        exe = paddle.static.Executor()
        exe.run(startup)
        exe.run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[loss])
        out = {mode: sorted(main.state_dict(mode)) for mode in ("all", "param", "opt")}
        out["value_type"] = type(main.state_dict()["fc_0.w_0"]).__name__
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            main.set_state_dict({"fc_0.w_0": np.full([3, 2], 0.25, "float32"), "nope": np.zeros(1, "float32")})
        out["set_warnings"] = [str(w.message) for w in caught if "nope" in str(w.message)]
        out["after_set"] = np.asarray(main.state_dict()["fc_0.w_0"]).tolist()
        # a value of the wrong shape, or not an array, is skipped with a warning; the others are still set
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            main.set_state_dict({"fc_0.w_0": np.ones([7], "float32"), "fc_0.b_0": np.full([2], 5.0, "float32")})
            main.set_state_dict({"fc_0.b_0_moment1_0": [6.0, 6.0]})
        out["skipped"] = [str(w.message).split(". ")[0] for w in caught]
        out["after_skips"] = {k: np.asarray(main.state_dict()[k]).tolist() for k in ("fc_0.b_0", "fc_0.b_0_moment1_0")}
        out["w_kept"] = np.asarray(main.state_dict()["fc_0.w_0"]).tolist()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "main.pdmodel")
            paddle.save(main, path)
            loaded = paddle.load(path)
            out["loaded_type"] = type(loaded).__name__
            out["loaded_op_count"] = len(loaded.global_block().ops) == len(main.global_block().ops)
            out["loaded_vars"] = sorted(v.name for v in loaded.list_vars() if v.persistable) == sorted(
                v.name for v in main.list_vars() if v.persistable)  # fmt: skip
            try:
                paddle.static.load(main, os.path.join(tmp, "missing"), exe)
                out["load_missing"] = "loaded"
            except Exception as err:  # noqa: BLE001
                out["load_missing"] = "names the path" if os.path.join(tmp, "missing") in str(err) else str(err)
        return out
    finally:
        paddle.disable_static()
