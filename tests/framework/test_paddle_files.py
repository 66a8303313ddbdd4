"""paddle.save / paddle.load in Paddle 2.6's own format: files real Paddle wrote (tests/golden/paddle_models/
checkpoints, recorded by its make_golden.py), files minipaddle writes for real Paddle, and the restricted reader."""

from __future__ import annotations

import io
import os
import pickle
import subprocess
import sys
from collections import OrderedDict

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.framework import paddle_pickle
from minipaddle.static.pickle_reader import RefusedPickle, restricted_loads
from tests.golden_files import GOLDEN_ROOT, read_arrays

CHECKPOINTS = GOLDEN_ROOT / "paddle_models" / "checkpoints"
PADDLE_PYTHON = "/work/paddle-venv/bin/python"


@pytest.fixture(scope="module")
def expected():
    return read_arrays(CHECKPOINTS / "expected.npz")


@pytest.mark.parametrize("name", ["linear_bn.pdparams", "linear_bn_p2.pdparams"])
def test_a_state_dict_paddle_wrote_loads_with_names_and_values(name, expected):
    state = paddle.load(str(CHECKPOINTS / name))
    assert list(state) == ["0.weight", "0.bias", "1.weight", "1.bias", "1._mean", "1._variance"]
    for key, value in state.items():
        assert isinstance(value, paddle.Tensor) and value.stop_gradient
        np.testing.assert_array_equal(value.numpy(), expected[f"{name}/{key}"])
        assert value.name == str(expected[f"{name}/{key}@name"])
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    net.set_state_dict(state)  # Paddle's names and shapes are minipaddle's
    np.testing.assert_array_equal(net[1]._variance.numpy(), expected[f"{name}/1._variance"])
    kept = paddle.load(str(CHECKPOINTS / name), keep_name_table=True)
    assert kept["StructuredToParameterName@@"]["0.weight"] == str(expected[f"{name}/0.weight@name"])
    as_numpy = paddle.load(str(CHECKPOINTS / name), return_numpy=True)
    assert type(as_numpy["0.bias"]) is np.ndarray


def test_an_optimizer_state_paddle_wrote_loads_into_adam(expected):
    state = paddle.load(str(CHECKPOINTS / "adam.pdopt"))
    assert state["LR_Scheduler"] == {"last_epoch": 0, "last_lr": 0.1}
    for key, value in state.items():
        if key != "LR_Scheduler":
            np.testing.assert_array_equal(value.numpy(), expected[f"adam.pdopt/{key}"])
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    adam = paddle.optimizer.Adam(paddle.optimizer.lr.StepDecay(0.1, step_size=1), parameters=net.parameters())
    adam.set_state_dict(state)
    assert adam.get_lr() == pytest.approx(0.1)


def test_nested_objects_single_tensors_and_lodtensors_paddle_wrote(expected):
    nested = paddle.load(str(CHECKPOINTS / "nested.pdparams"))
    assert nested["epoch"] == 3 and type(nested["model"]) is OrderedDict
    assert isinstance(nested["weight"], paddle.Tensor) and nested["weight"].name == "linear_0.w_0"
    np.testing.assert_array_equal(nested["model"]["0.weight"].numpy(), expected["linear_bn.pdparams/0.weight"])
    weight = paddle.load(str(CHECKPOINTS / "weight.pdtensor"))
    np.testing.assert_array_equal(weight.numpy(), expected["weight.pdtensor/"])
    lod = paddle.load(str(CHECKPOINTS / "lodtensor.pdtensor"))  # eval('data', {...}) in the file: nothing evaluated
    np.testing.assert_array_equal(lod.numpy(), expected["lodtensor.pdtensor/"])


def test_what_minipaddle_writes_is_the_object_paddle_writes():
    net = paddle.nn.Linear(2, 3)
    plain = paddle_pickle.paddle_object(net.state_dict(), 4, None)
    assert plain["StructuredToParameterName@@"] == {"weight": net.weight.name, "bias": net.bias.name}
    assert type(plain["weight"]) is np.ndarray
    mixed = paddle_pickle.paddle_object({"w": net.weight, "epoch": 1}, 4, None)
    assert mixed["w"][0] == net.weight.name and type(mixed["w"]) is tuple  # a Tensor outside a state dict
    buffer = io.BytesIO()
    paddle.save(net.state_dict(), buffer, protocol=2)
    assert buffer.getvalue()[:2] == b"\x80\x02"


def test_big_arrays_are_split_with_protocol_2_and_joined_on_load(monkeypatch, tmp_path):
    # Paddle cuts arrays over 2**30 - 1 bytes; with a smaller limit the same code path runs on a small array.
    real = paddle_pickle.split_big_arrays

    def split_small(saved, protocol):
        return real(saved, protocol, slice_bytes=40)

    monkeypatch.setattr(paddle_pickle, "split_big_arrays", split_small)
    w = paddle.to_tensor(np.arange(30, dtype="float32").reshape(5, 6))
    path = tmp_path / "big.pdparams"
    paddle.save({"w": w}, str(path), protocol=2)
    raw = restricted_loads(path.read_bytes())
    assert raw["UnpackBigParamInfor@@"]["w"] == {"OriginShape": (5, 6), "slices": ["w@@.0", "w@@.1", "w@@.2"]}
    assert raw["w@@.0"].shape == (10,)
    np.testing.assert_array_equal(paddle.load(str(path))["w"].numpy(), w.numpy())
    paddle.save({"w": w}, str(path), protocol=4)  # protocol 4 holds big objects: nothing is split
    assert "UnpackBigParamInfor@@" not in restricted_loads(path.read_bytes())


def test_the_reader_admits_arrays_scalars_and_containers_of_every_protocol():
    obj = {
        "f32": np.arange(6, dtype="float32").reshape(2, 3),
        "fortran": np.asfortranarray(np.ones((2, 3))),
        "f16": np.zeros(3, "float16"),
        "bool": np.array([True, False]),
        "scalar": np.int64(5),
        "containers": OrderedDict(a=[1, (2.5, "x", b"raw")], s={1, 2}, c=1 + 2j, n=None),
    }
    for protocol in (2, 3, 4, 5):
        back = restricted_loads(pickle.dumps(obj, protocol=protocol))
        for key in ("f32", "fortran", "f16", "bool"):
            assert back[key].dtype == obj[key].dtype
            np.testing.assert_array_equal(back[key], obj[key])
        assert type(back["scalar"]) is np.int64 and back["scalar"] == 5
        assert back["containers"] == obj["containers"] and type(back["containers"]) is OrderedDict


def test_the_reader_refuses_by_name_before_building():
    for data, name in (
        (pickle.dumps(os.getcwd, protocol=2), "posix.getcwd"),
        (pickle.dumps(OrderedDict(a=sys.exit), protocol=4), "sys.exit"),
        (pickle.dumps(np.array(["a", 1], dtype=object), protocol=4), "refused"),
    ):
        with pytest.raises(RefusedPickle, match=name.replace(".", r"\.")):
            restricted_loads(data)
    # a numpy array of Python objects built only from allowed pieces (strings) is still refused
    with pytest.raises(RefusedPickle, match="Python objects"):
        restricted_loads(pickle.dumps(np.array(["a", "b"], dtype=object), protocol=2))


def run_paddle(code: str, cwd) -> str:
    result = subprocess.run([PADDLE_PYTHON, "-c", "import numpy.random, paddle\n" + code], cwd=cwd,
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_real_paddle_loads_what_minipaddle_saves(tmp_path):
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    paddle.save(net.state_dict(), str(tmp_path / "m.pdparams"))
    paddle.save(net.state_dict(), str(tmp_path / "m2.pdparams"), protocol=2)
    paddle.save({"w": [net[0].weight, 3], "t": (1, "x")}, str(tmp_path / "nested.pdparams"))
    np.savez(tmp_path / "expected.npz", **{k: v.numpy() for k, v in net.state_dict().items()})
    out = run_paddle(
        "import numpy as np\n"
        "want = np.load('expected.npz')\n"
        "for f in ('m.pdparams', 'm2.pdparams'):\n"
        "    sd = paddle.load(f)\n"
        "    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))\n"
        "    net.set_state_dict(sd)\n"
        "    assert all(np.array_equal(v.numpy(), want[k]) for k, v in net.state_dict().items())\n"
        "    print(f, sd['0.weight'].name)\n"
        "n = paddle.load('nested.pdparams')\n"
        "print(type(n['w'][0]).__name__, n['w'][1], n['t'])\n",
        tmp_path,
    )
    assert out.splitlines() == [f"m.pdparams {net[0].weight.name}", f"m2.pdparams {net[0].weight.name}",
                                "Tensor 3 (1, 'x')"]  # fmt: skip
