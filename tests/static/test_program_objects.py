"""Static Programs as objects, as paddle 2.6 (tests/golden/fidelity/program_cases.py, recorded into program.json):
Program.state_dict by mode, set_state_dict, paddle.save / paddle.load of a Program, static.load of a missing file."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "program.json")


def test_program_objects_as_paddle():
    spec = importlib.util.spec_from_file_location("program_cases", GOLDEN_ROOT / "fidelity" / "program_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.run_all(paddle) == GOLDEN


def test_state_dict_arguments_are_checked():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            paddle.static.nn.fc(paddle.static.data("x", [2, 3], "float32"), 2)
        paddle.static.Executor().run(startup)
        with pytest.raises(ValueError, match="mode"):
            main.state_dict("params")
        with pytest.raises(TypeError, match="state_dict must be a dict"):
            main.set_state_dict([1])
        weight = next(p.name for p in main.all_parameters() if len(p.shape) == 2)
        before = np.asarray(main.state_dict()[weight]).copy()
        with pytest.warns(UserWarning, match=r"Skip loading for .*expected a shape \[3, 2\].*\[2, 2\]"):
            main.set_state_dict({weight: np.zeros([2, 2], "float32")})  # skipped, as paddle 2.6 skips it
        assert (np.asarray(main.state_dict()[weight]) == before).all()
        main.set_state_dict({weight: np.ones([3, 2])})  # float64 values take the variable's float32
        assert main.state_dict()[weight].dtype == paddle.float32
        scope = paddle.static.Scope()
        assert main.state_dict(scope=scope) == {}  # nothing has a value in a fresh scope
    finally:
        paddle.disable_static()
