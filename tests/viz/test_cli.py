"""`python -m viz`: draw a saved Program or show a saved state dict, as a user runs it from a shell."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
import viz
from viz.__main__ import main

from .models import building_program

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def saved_model(tmp_path):
    """An inference model saved by save_inference_model: tmp/model.pdmodel (+ .pdiparams)."""
    with building_program() as (main_program, startup):
        x = paddle.static.data("x", [-1, 4], "float32")
        w = paddle.create_parameter([4, 3], "float32", name="fc.w_0")
        y = paddle.nn.functional.relu(paddle.matmul(x, w))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(str(tmp_path / "model"), [x], [y], exe, program=main_program)
    return tmp_path / "model"


@pytest.fixture
def saved_state(tmp_path):
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
    paddle.save(net.state_dict(), str(tmp_path / "net.pdparams"))
    return tmp_path / "net.pdparams"


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot program is not installed")
def test_program_to_svg_in_a_subprocess(saved_model, tmp_path):
    out = tmp_path / "graph.svg"
    cmd = [sys.executable, "-m", "viz", "program", f"{saved_model}.pdmodel", "-o", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"wrote {out} (3 ops in 1 block)"  # matmul, relu, the fetch's scale(1) as assign
    svg = out.read_text()
    assert "<svg" in svg and "fc.w_0" in svg and "relu" in svg


def test_program_by_prefix_prints_dot(saved_model, capsys):
    assert main(["program", str(saved_model), "--no-vars"]) == 0
    source = capsys.readouterr().out
    assert source.startswith('digraph "program"') and "<B>matmul</B>" in source and "fc.w_0" in source
    assert "matmul_0.tmp_0</B>" not in source  # --no-vars: the intermediate is an edge


def test_program_options_reach_draw_program(saved_model, capsys):
    assert main(["program", f"{saved_model}.pdmodel", "--no-attrs", "--block", "0"]) == 0
    source = capsys.readouterr().out
    program = paddle.static.deserialize_program(paddle.static.load_from_file(f"{saved_model}.pdmodel"))
    assert source == viz.draw_program(program, show_attrs=False).source


def test_layer_prints_the_tree(saved_state, capsys):
    assert main(["layer", str(saved_state)]) == 0
    assert capsys.readouterr().out == (
        "net.pdparams: 4 tensors, 58 values, 232 B\n"
        "├─ 0  (2 tensors, 40 values, 160 B)\n"
        "│  ├─ weight  [4, 8] float32, 32 values\n"
        "│  └─ bias    [8] float32, 8 values\n"
        "└─ 2  (2 tensors, 18 values, 72 B)\n"
        "   ├─ weight  [8, 2] float32, 16 values\n"
        "   └─ bias    [2] float32, 2 values\n"
    )


def test_layer_to_files(saved_state, tmp_path, capsys):
    assert main(["layer", str(saved_state), "-o", str(tmp_path / "tree.txt")]) == 0
    assert (tmp_path / "tree.txt").read_text().startswith("net.pdparams: 4 tensors")
    assert main(["layer", str(saved_state), "-o", str(tmp_path / "tree.dot")]) == 0
    source = (tmp_path / "tree.dot").read_text()
    assert 'rankdir="LR"' in source and "<B>weight</B><BR/>[4, 8] float32, 32 values" in source
    assert capsys.readouterr().out.splitlines() == [f"wrote {tmp_path / 'tree.txt'}", f"wrote {tmp_path / 'tree.dot'}"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["program", "missing.pdmodel"], "python -m viz program: load_from_file: no file 'missing.pdmodel'"),
        (["layer", "missing.pdparams"], "python -m viz layer: paddle.load: the file 'missing.pdparams' does not exist"),
    ],
)
def test_errors_are_one_line_and_exit_1(argv, message, capsys):
    assert main(argv) == 1
    assert capsys.readouterr().err.strip() == message


def test_a_file_that_is_not_a_program(tmp_path, capsys):
    bad = tmp_path / "bad.pdmodel"
    bad.write_bytes(np.arange(4).tobytes())
    assert main(["program", str(bad)]) == 1
    assert "is not a minipaddle program" in capsys.readouterr().err


def test_an_unknown_output_suffix(saved_model, tmp_path, capsys):
    assert main(["program", str(saved_model), "-o", str(tmp_path / "g.jpeg")]) == 1
    assert "cannot tell the format" in capsys.readouterr().err
