"""The same script under `launch` (and `fleetrun`), a plain `mpiexec`, and `spawn`: Model.fit data-parallel,
checkpoints from rank 0 only, per-rank logs, a failing rank named and a non-zero status."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import minipaddle.distributed as dist
from minipaddle.distributed.launcher import mpiexec
from tests.distributed import fit_script
from tests.distributed.test_collectives import run

SCRIPT = str(Path(fit_script.__file__))
ROOT = str(Path(__file__).resolve().parents[2])
TIMEOUT = 120


def _env() -> dict:
    env = dict(os.environ, PYTHONPATH=ROOT)
    for var in list(env):
        if var.startswith(("PADDLE_", "PMI_")):
            del env[var]
    return env


def launch(tmp_path, *args):
    cmd = [sys.executable, "-m", "minipaddle.distributed.launch", "--nproc_per_node", "2", "--log_dir",
           str(tmp_path / "log"), SCRIPT, str(tmp_path / "ckpt"), *args]  # fmt: skip
    return subprocess.run(cmd, cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=TIMEOUT)


def test_launch_trains_data_parallel_with_logs_per_rank_and_checkpoints_from_rank_0(tmp_path):
    done = launch(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    logs = [(tmp_path / "log" / f"workerlog.{r}").read_text() for r in (0, 1)]
    for r, log in enumerate(logs):
        assert f"rank {r} of 2: same weights on every rank: True" in log, log
    assert "rank 0 of 2" in done.stdout  # rank 0's log is echoed
    names = sorted(n for n in os.listdir(tmp_path / "ckpt") if not n.endswith(".pdset"))  # each with its manifest
    assert names == ["0.pdparams", "1.pdparams", "final.pdparams"]


def test_launch_names_the_failing_rank_and_exits_nonzero(tmp_path):
    done = launch(tmp_path, "fail")
    assert done.returncode == 1
    assert "launch: rank 1 raised RuntimeError: rank 1 cannot go on" in done.stderr, done.stderr
    assert "workerlog.1" in done.stderr


def test_the_same_script_under_a_plain_mpiexec(tmp_path):
    cmd = [mpiexec(), "-n", "2", sys.executable, SCRIPT, str(tmp_path / "ckpt")]
    done = subprocess.run(cmd, cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    for r in (0, 1):
        assert f"rank {r} of 2: same weights on every rank: True" in done.stdout
    assert (tmp_path / "ckpt" / "final.pdparams").exists()


@pytest.mark.slow
def test_the_same_script_under_spawn(tmp_path):
    run(fit_script.main, str(tmp_path / "ckpt"))
    assert (tmp_path / "ckpt" / "final.pdparams").exists()


def test_spawn_refuses_a_function_it_cannot_send():
    with pytest.raises(TypeError, match="is a lambda, so the ranks cannot import it"):
        dist.spawn(lambda: None, nprocs=2)


def test_the_console_scripts_are_fleetrun_and_minipaddle_launch_not_paddle(capsys, monkeypatch):
    text = (Path(ROOT) / "pyproject.toml").read_text()  # (tomllib is Python 3.11's; 3.10 is supported)
    table = text.split("[project.scripts]\n", 1)[1].split("\n[", 1)[0]
    scripts = dict(re.findall(r'^([\w-]+) = "([^"]+)"', table, re.M))
    assert scripts["fleetrun"] == scripts["minipaddle-launch"] == "minipaddle.distributed.launch:console_main"
    assert "paddle" not in scripts  # it would shadow a real paddle's command
    module, _, name = scripts["minipaddle-launch"].partition(":")
    entry = getattr(importlib.import_module(module), name)
    monkeypatch.setattr(sys, "argv", ["minipaddle-launch", "--help"])
    with pytest.raises(SystemExit) as done:
        entry()
    assert done.value.code == 0
    assert "--nproc_per_node" in capsys.readouterr().out
