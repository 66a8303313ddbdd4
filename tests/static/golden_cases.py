"""What the static tests of paddle 2.6's extra names share: golden cases written once in a cases.py that runs on
either library (its make_golden.py records paddle's results; the tests run it on minipaddle), and building a
Program in fresh names."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, load_cases, read_arrays


def check_against_paddle(folder: str, group: str) -> None:
    """Run `group` of tests/golden/<folder>/cases.py in static mode and compare every array with paddle's."""
    cases = load_cases(folder)
    golden = read_arrays(GOLDEN_ROOT / folder / "arrays.npz")
    paddle.enable_static()
    try:
        got = getattr(cases, group)(paddle)
    finally:
        paddle.disable_static()
    assert got, group
    for key, value in got.items():
        want = golden[key]
        assert value.shape == want.shape, key
        assert value.dtype == want.dtype, key
        np.testing.assert_allclose(value, want, rtol=1e-5, atol=1e-6, err_msg=key)


def build(fn):
    """(main, startup, fn()) with fn run inside a fresh Program pair and fresh unique names."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        out = fn()
    return main, startup, out
