"""The profiler example of docs/architecture.md ("Writing a profiler in 20 lines") runs as written."""

import contextlib
import io
import pathlib
import re

import minipaddle as paddle

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def test_the_twenty_line_profiler_runs_and_counts_ops():
    text = DOC.read_text()
    section = text[text.index("### Writing a profiler in 20 lines") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace = {"paddle": paddle}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), namespace)
    timer = namespace["timer"]
    assert timer.calls["matmul"] >= 2  # forward, and the weight's gradient in backward
    assert all(s >= 0 for s in timer.seconds.values())
    assert re.search(r"^matmul\s+\d+ calls\s+[\d.]+ us$", out.getvalue(), re.M)
    class_lines = code[code.index("class OpTimer") : code.index("with op_hook")].strip().splitlines()
    assert len(class_lines) <= 20
