"""Run the snippets recorded from real Paddle (tests/golden/hapi/make_golden.py) under minipaddle, and put both
outputs in a comparable form: times (`12ms/step`, `ETA: 3s`) masked, module paths of classes cut to the class
name, and verbose=1 progress bars (drawn by tqdm here, by hand in Paddle) dropped."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import tempfile
import warnings
from pathlib import Path

import minipaddle as paddle
from minipaddle.core.state import name_guard

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "hapi"
CASES_FILE = json.loads((GOLDEN / "cases.json").read_text())
PREAMBLE = CASES_FILE["preamble"]
CASES = CASES_FILE["cases"]
MODELS = json.loads((GOLDEN / "models.json").read_text())


def run_snippet(source: str) -> dict:
    """What make_golden.run_snippet records, with minipaddle as `paddle`."""
    tmpdir = tempfile.mkdtemp(prefix="hapi_test_")
    scope = {"paddle": paddle, "tmpdir": tmpdir, "os": os, "fresh_names": name_guard}
    out = io.StringIO()
    try:
        with name_guard(), warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
            warnings.simplefilter("always")
            exec(PREAMBLE, scope)  # noqa: S102 (recorded test code)
            exec(source, scope)  # noqa: S102
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    result = scope.get("result", None)
    if isinstance(result, dict):
        result = {k: (int(v) if hasattr(v, "dtype") else v) for k, v in result.items()}
    elif hasattr(result, "dtype"):
        result = result.item()
    return {
        "stdout": out.getvalue().replace(tmpdir, "<TMP>"),
        "warnings": [str(w.message).replace(tmpdir, "<TMP>") for w in caught if issubclass(w.category, UserWarning)],
        "result": repr(result),
    }


_TIME = re.compile(r" - \d+(s|ms|us)/step")
_ETA = re.compile(r" - ETA: [\d:]+s?")
_CLASS = re.compile(r"<class '[\w.]*\.(\w+)'>")


def comparable(text: str) -> str:
    """Mask times, shorten class paths, drop the redrawn bar of verbose=1 (lines holding '\\r' or a '[==..]')."""
    lines = []
    for line in text.split("\n"):
        if "\r" in line or "\b" in line or re.match(r"step +\d+/\d+ \[", line):
            continue
        lines.append(_CLASS.sub(r"<class '\1'>", _ETA.sub("", _TIME.sub(" - <T>/step", line))))
    return "\n".join(lines)


_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]\d+)?")


def same_text(got: str, expected: str, tol: float = 2e-4) -> bool:
    """Equal after `comparable`, except that printed decimals may differ by `tol` (float32 sums in another order
    can move the 4th decimal)."""
    got, expected = comparable(got), comparable(expected)
    if _NUMBER.sub("#", got) != _NUMBER.sub("#", expected):
        return False
    pairs = zip(_NUMBER.findall(got), _NUMBER.findall(expected))
    return all(abs(float(a) - float(b)) <= tol * max(1.0, abs(float(b))) for a, b in pairs)
