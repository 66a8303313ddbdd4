"""What spawn hands its ranks (distributed/spawn_payload.py): the function by name, the arguments as JSON. No
processes here: the ranks' side (`load`) is called in this process."""

from __future__ import annotations

import functools
import json
import os
import sys

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.distributed import spawn_payload


def top_level(x):
    return x


class Config:
    pass


def _round_trip(tmp_path, func, args):
    path = tmp_path / "payload.json"
    path.write_text(spawn_payload.encode(func, args))
    json.loads(path.read_text())  # plain JSON, no pickle anywhere
    return spawn_payload.load(str(path))


def test_function_and_data_arguments_round_trip(tmp_path):
    args = (None, True, 3, 2.5, float("inf"), 1 + 2j, "s", b"\x00\xff", [1, (2, 3)], {"a": 1, 2: [None], (1, 2): "t"},
            np.arange(6, dtype="float32").reshape(2, 3), np.int64(7), paddle.to_tensor([1.0, 2.0], stop_gradient=False),
            top_level, Config, os.getpid)  # fmt: skip
    func, got = _round_trip(tmp_path, top_level, args)
    assert func is top_level and isinstance(got, tuple) and len(got) == len(args)
    assert got[:8] == (None, True, 3, 2.5, float("inf"), 1 + 2j, "s", b"\x00\xff")
    assert got[8] == [1, (2, 3)] and isinstance(got[8][1], tuple)
    assert got[9] == {"a": 1, 2: [None], (1, 2): "t"}
    assert got[10].dtype == np.float32 and got[10].tolist() == [[0, 1, 2], [3, 4, 5]] and got[10].flags.writeable
    assert type(got[11]) is np.int64 and got[11] == 7
    assert isinstance(got[12], paddle.Tensor) and got[12].tolist() == [1.0, 2.0] and not got[12].stop_gradient
    assert got[13] is top_level and got[14] is Config and got[15] is os.getpid


@pytest.mark.parametrize(
    "func, message",
    [
        (lambda: None, "is a lambda"),
        (functools.partial(top_level, 1), "must be a function or class defined at the top level"),
        ([].append, "must be a function or class defined at the top level"),
    ],
)
def test_functions_the_ranks_cannot_import_are_refused(func, message):
    with pytest.raises(TypeError, match=message):
        spawn_payload.encode(func, ())


def test_a_nested_function_and_an_object_argument_are_refused_naming_them():
    def inner():
        pass

    with pytest.raises(TypeError, match=r"inner is defined inside another function"):
        spawn_payload.encode(inner, ())
    with pytest.raises(TypeError, match=r"args\[1\]\['cfg'\] is a Config, which cannot be sent"):
        spawn_payload.encode(top_level, (1, {"cfg": Config()}))
    with pytest.raises(TypeError, match="dtype object"):
        spawn_payload.encode(top_level, (np.array([None]),))


def test_a_function_of_the_main_script_is_found_by_loading_it_as_mp_main(tmp_path, monkeypatch):
    script = tmp_path / "train.py"
    script.write_text("def work(n):\n    return n * 2\n\n\nif __name__ == '__main__':\n    raise SystemExit(1)\n")
    path = tmp_path / "payload.json"
    payload = {"func": {"module": "__main__", "qualname": "work"}, "main_file": str(script), "args": [21]}
    path.write_text(json.dumps(payload))
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    monkeypatch.delitem(sys.modules, "__mp_main__", raising=False)
    func, args = spawn_payload.load(str(path))  # the script's main block does not run
    assert func(*args) == 42 and sys.modules["__main__"].__name__ == "__mp_main__"
