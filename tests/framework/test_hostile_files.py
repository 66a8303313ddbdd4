"""No file load runs code (DESIGN.md, wall 4): a pickle whose `__reduce__` would create a marker file, at every
path that reads a file Paddle pickles (paddle.load, Model.load, load_inference_model's .pdiparams.info, static
mode's checkpoints and save_vars files, pretrained weights: tests/utils/test_download.py), is refused and the
marker never appears."""

from __future__ import annotations

import io
import pickle
import shutil

import numpy as np
import pytest

import minipaddle as paddle
from tests.framework.test_io import hostile_pickles
from tests.golden_files import GOLDEN_ROOT

MODELS = GOLDEN_ROOT / "paddle_models" / "models"


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "pwned"
    yield path
    assert not path.exists(), "a file load ran code"


def test_paddle_load_from_a_file_object(marker):
    for what, data in hostile_pickles(str(marker)).items():
        with pytest.raises(ValueError, match="refused"):
            paddle.load(io.BytesIO(data))
        assert not marker.exists(), what


def test_model_load(marker, tmp_path):
    model = paddle.Model(paddle.nn.Linear(2, 2))
    for data in hostile_pickles(str(marker)).values():
        (tmp_path / "ckpt.pdparams").write_bytes(data)
        with pytest.raises(ValueError, match="refused"):
            model.load(str(tmp_path / "ckpt"))


def test_load_inference_model_reads_pdiparams_info_through_the_restricted_reader(marker, tmp_path):
    for suffix in (".pdmodel", ".pdiparams"):
        shutil.copy(MODELS / f"lenet{suffix}", tmp_path / f"lenet{suffix}")
    exe = paddle.static.Executor()
    for data in hostile_pickles(str(marker)).values():
        (tmp_path / "lenet.pdiparams.info").write_bytes(data)
        with pytest.raises(ValueError, match="pdiparams.info is refused"):
            paddle.static.load_inference_model(str(tmp_path / "lenet"), exe)
    shutil.copy(MODELS / "lenet.pdiparams.info", tmp_path / "lenet.pdiparams.info")  # the real one loads
    program, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "lenet"), exe)
    assert feeds == ["x0"]


def test_static_checkpoints_and_parameter_files(marker, tmp_path):
    plain = pickle.dumps({"w": np.zeros(2)}, protocol=4)  # what Paddle's static.save writes: read as parameters
    (tmp_path / "m.pdparams").write_bytes(plain)
    (tmp_path / "m.pdopt").write_bytes(plain)
    np.testing.assert_array_equal(paddle.static.load_program_state(str(tmp_path / "m"))["w"], np.zeros(2))
    for data in hostile_pickles(str(marker)).values():
        for suffix in (".pdparams", ".pdopt"):  # each file of a static checkpoint goes through the restricted reader
            (tmp_path / "m.pdparams").write_bytes(plain)
            (tmp_path / "m.pdopt").write_bytes(plain)
            (tmp_path / f"m{suffix}").write_bytes(data)
            with pytest.raises(ValueError, match=r"is refused|not a readable checkpoint"):
                paddle.static.load_program_state(str(tmp_path / "m"))
    for data in [*hostile_pickles(str(marker)).values(), plain]:  # a .pdiparams is never a pickle
        (tmp_path / "i.pdmodel").write_bytes((MODELS / "lenet.pdmodel").read_bytes())
        (tmp_path / "i.pdiparams").write_bytes(data)
        with pytest.raises(ValueError):
            paddle.static.load_inference_model(str(tmp_path / "i"), paddle.static.Executor())


def test_save_vars_files_are_never_unpickled(marker, tmp_path):
    """Paddle's save_vars directory and combined file (static.load's fallbacks) are tensor streams: a pickle put
    there is not a variable file, and nothing in it runs."""
    (tmp_path / "vars").mkdir()
    for data in hostile_pickles(str(marker)).values():
        (tmp_path / "vars" / "w").write_bytes(data)
        (tmp_path / "combined").write_bytes(data)
        with pytest.raises(RuntimeError, match="failed to load"):
            paddle.static.load_program_state(str(tmp_path / "vars"), var_list=["w"])
        with pytest.raises(RuntimeError, match="failed to load"):
            paddle.static.load_program_state(str(tmp_path / "combined"), var_list=["w"])
