"""`pdb.set_trace()` inside a converted function stops in the transformed code (as Paddle 2.6): the converted
function lives in a real temporary file, and the CallTransformer leaves pdb.set_trace alone."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import pdb
    import numpy as np
    import minipaddle as paddle

    @paddle.jit.to_static
    def f(x):
        if x.mean() > 0:
            pdb.set_trace()
            y = x * 2
        else:
            y = x - 1
        return y

    print("CODE-HAS-SET-TRACE", "pdb.set_trace()" in f.code and "_jst.Call(pdb" not in f.code)
    print("RESULT", f(paddle.to_tensor(np.ones(3, "float32"))).numpy().tolist())
    """
)


def test_pdb_set_trace_stops_in_the_transformed_code(tmp_path):
    script = tmp_path / "user_code.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(script)], input="where\nl\np type(x).__name__\nc\n", text=True,
                          capture_output=True, timeout=120, env=env, cwd=tmp_path)  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    stop = next(line for line in out.splitlines() if line.startswith("> "))
    # it stops in the branch closure of the transformed file, at the line after set_trace
    assert "true_fn_0()" in stop and "user_code.py" not in stop and stop.split("(")[0].endswith(".py")
    assert "-> y = x * 2" in out
    assert "def true_fn_0():" in out and "nonlocal y" in out  # `l` lists the transformed source
    assert "_jst.IfElse(" in out  # `where` shows the frame that called the branch
    assert "'Variable'" in out  # x is the Program's Variable there: the code is being traced
    assert "CODE-HAS-SET-TRACE True" in out
    assert "RESULT [2.0, 2.0, 2.0]" in out
