"""paddle.save / paddle.load: round trips, the format, and every way a file can be bad (docs/save_format.md)."""

from __future__ import annotations

import io
import json
import os
import pickle
import zipfile
from collections import OrderedDict

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.framework import io as save_io


@pytest.fixture(params=["paddle", "minipaddle"])
def fmt(request):
    """Both formats paddle.save writes: Paddle's pickle (the default) and minipaddle's zip."""
    return request.param


def roundtrip(obj, tmp_path, fmt="paddle", **load_configs):
    path = tmp_path / "obj.pdparams"
    paddle.save(obj, str(path), format=fmt)
    return paddle.load(str(path), **load_configs)


# ---- round trips ------------------------------------------------------------------------------------------


def test_nested_structures_come_back_with_their_types(tmp_path, fmt):
    t = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    t.name = "my_tensor"
    obj = {
        "tensor": t,
        "ints": paddle.to_tensor([1, 2, 3]),
        "half": paddle.to_tensor(np.array([0.5, 1.5], "float16")),
        "mask": paddle.to_tensor([True, False]),
        "complex": paddle.to_tensor(np.array([1 + 2j], "complex64")),
        "scalar_tensor": paddle.to_tensor(3.5),
        "array": np.arange(6, dtype="int32").reshape(2, 3),
        "np_scalar": np.float32(1.25),
        "list": [1, 2.5, "x", None, True, (paddle.ones([2]), 3)],
        "nested": {"tuple": (1, (2, 3)), "set": {1, 2}, "empty": {}},
        "ordered": OrderedDict([("b", 1), ("a", 2)]),
        "specials": [float("inf"), float("-inf"), 1e300, -0.0, 2**70, 1 + 2j],
        7: "int key",
        (1, "a"): "tuple key",
    }
    back = roundtrip(obj, tmp_path, fmt)
    assert isinstance(back["tensor"], paddle.Tensor) and back["tensor"].name == "my_tensor"
    assert back["tensor"].stop_gradient is True
    np.testing.assert_array_equal(back["tensor"].numpy(), t.numpy())
    for key in ("ints", "half", "mask", "complex", "scalar_tensor"):
        assert back[key].dtype == obj[key].dtype and back[key].shape == obj[key].shape
        np.testing.assert_array_equal(back[key].numpy(), obj[key].numpy())
    assert type(back["array"]) is np.ndarray and back["array"].dtype == np.int32
    assert type(back["np_scalar"]) is np.float32 and back["np_scalar"] == np.float32(1.25)
    assert back["list"][:5] == [1, 2.5, "x", None, True] and isinstance(back["list"][5], tuple)
    assert isinstance(back["list"][5][0], paddle.Tensor) and back["list"][5][1] == 3
    assert back["nested"] == {"tuple": (1, (2, 3)), "set": {1, 2}, "empty": {}}
    assert type(back["ordered"]) is OrderedDict and list(back["ordered"]) == ["b", "a"]
    assert back["specials"][:5] == [float("inf"), float("-inf"), 1e300, -0.0, 2**70]
    assert back["specials"][5] == 1 + 2j and np.signbit(back["specials"][3])
    assert back[7] == "int key" and back[(1, "a")] == "tuple key"
    assert list(back) == list(obj)  # key order kept
    nan = roundtrip({"v": float("nan")}, tmp_path, fmt)["v"]
    assert nan != nan


def test_a_single_tensor_and_return_numpy(tmp_path, fmt):
    t = paddle.to_tensor(np.array([[1.0, 2.0]], "float64"))
    back = roundtrip(t, tmp_path, fmt)
    assert isinstance(back, paddle.Tensor) and back.dtype == paddle.float64 and back.name == t.name
    as_numpy = roundtrip({"t": t, "n": 5}, tmp_path, fmt, return_numpy=True)
    assert type(as_numpy["t"]) is np.ndarray and as_numpy["n"] == 5
    assert roundtrip("hello", tmp_path, fmt) == "hello" and roundtrip(None, tmp_path, fmt) is None


def test_layer_state_dict_round_trip(tmp_path, fmt):
    model = paddle.nn.Linear(3, 2)
    other = paddle.nn.Linear(3, 2)
    state = roundtrip(model.state_dict(), tmp_path, fmt)
    assert list(state) == list(model.state_dict())
    assert state["weight"].name == model.weight.name
    other.set_state_dict(state)
    np.testing.assert_array_equal(other.weight.numpy(), model.weight.numpy())
    np.testing.assert_array_equal(other.bias.numpy(), model.bias.numpy())


def test_optimizer_state_dict_round_trip_with_scheduler(tmp_path, fmt):
    w = paddle.Parameter(np.ones((2, 2), "float32"), name="w_io")
    opt = paddle.optimizer.Adam(paddle.optimizer.lr.StepDecay(0.1, step_size=1), parameters=[w])
    (w * w).sum().backward()
    opt.step()
    state = roundtrip(opt.state_dict(), tmp_path, fmt)
    assert state["LR_Scheduler"] == {"last_epoch": 0, "last_lr": 0.1}
    assert sorted(state) == sorted(opt.state_dict())
    (moment,) = [k for k in opt.state_dict() if "moment1" in k]  # the accumulator's name counts up per process
    np.testing.assert_array_equal(state[moment].numpy(), opt.state_dict()[moment].numpy())


def test_file_objects_and_parent_directories(tmp_path):
    buffer = io.BytesIO()
    paddle.save({"a": paddle.ones([2])}, buffer)
    buffer.seek(0)
    assert paddle.load(buffer)["a"].shape == [2]
    deep = tmp_path / "x" / "y" / "model.pdparams"
    paddle.save({"a": 1}, str(deep))
    assert paddle.load(deep) == {"a": 1}  # os.PathLike works too


# ---- the format -------------------------------------------------------------------------------------------


def test_the_file_is_a_zip_of_npy_arrays_with_a_json_index(tmp_path):
    path = tmp_path / "m.pdparams"
    paddle.save({"w": paddle.ones([2, 3]), "n": np.zeros(4, "int8"), "k": 1}, str(path), format="minipaddle")
    with zipfile.ZipFile(path) as zf:
        assert zf.namelist() == ["minipaddle.json", "arrays/0.npy", "arrays/1.npy"]
        index = json.loads(zf.read("minipaddle.json"))
        a0 = np.load(io.BytesIO(zf.read("arrays/0.npy")), allow_pickle=False)
    assert index["format"] == "minipaddle-save" and index["version"] == 1
    assert index["root"]["type"] == "dict"
    assert index["root"]["items"][0] == [
        "w",
        {"type": "tensor", "array": "arrays/0.npy", "name": index["root"]["items"][0][1]["name"]},
    ]
    assert index["root"]["items"][2] == ["k", 1]
    np.testing.assert_array_equal(a0, np.ones((2, 3), "float32"))


def test_save_refuses_what_it_cannot_store_without_pickle(tmp_path):
    with pytest.raises(ValueError, match="save its state_dict"):
        paddle.save(paddle.nn.Linear(2, 2), str(tmp_path / "layer"))
    with pytest.raises(TypeError, match=r"obj\['a'\]\[1\] is a function"):
        paddle.save({"a": [1, lambda: 0]}, str(tmp_path / "f"))
    with pytest.raises(TypeError, match="numpy array of Python objects"):
        paddle.save({"a": np.array([{}, []], dtype=object)}, str(tmp_path / "o"))
    with pytest.raises(ValueError, match="protocol must be 2, 3 or 4"):
        paddle.save({"a": 1}, str(tmp_path / "p"), protocol=5)
    with pytest.raises(ValueError, match="not supported"):
        paddle.save({"a": 1}, str(tmp_path / "p"), use_binary_format=True)
    assert not any(tmp_path.iterdir())  # nothing was written


def test_a_crash_mid_save_leaves_the_previous_file_intact(tmp_path, monkeypatch, fmt):
    path = tmp_path / "model.pdparams"
    paddle.save({"w": paddle.ones([3])}, str(path), format=fmt)
    before = path.read_bytes()
    real_write = save_io.write_array_member
    real_dump = save_io.dump_paddle

    def write_then_crash(zf, name, array):
        real_write(zf, name, array)  # part of the new archive is on disk...
        raise KeyboardInterrupt("power cut")  # ...when the process dies

    def dump_then_crash(obj, f, protocol):
        real_dump(obj, f, protocol)
        raise KeyboardInterrupt("power cut")

    monkeypatch.setattr(save_io, "write_array_member", write_then_crash)
    monkeypatch.setattr(save_io, "dump_paddle", dump_then_crash)
    with pytest.raises(KeyboardInterrupt):
        paddle.save({"w": paddle.zeros([3]), "b": paddle.zeros([1000])}, str(path), format=fmt)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["model.pdparams"]  # the temporary file is gone
    np.testing.assert_array_equal(paddle.load(str(path))["w"].numpy(), np.ones(3, "float32"))


# ---- bad files ----------------------------------------------------------------------------------------------


class _RunsCode:
    """Unpickling this would run code: it creates a marker file."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').close()",))


class _BuildsAnObject:
    """A plain class: unpickling it imports this module and calls copyreg's object builder."""

    def __init__(self) -> None:
        self.x = 1


def hostile_pickles(marker: str) -> dict:
    """Pickles that would run code (or build arbitrary objects) when loaded, keyed by what they try."""
    runs = _RunsCode(marker)
    return {
        "exec in a state dict, protocol 4": pickle.dumps({"w": runs, "b": np.zeros(2)}, protocol=4),
        "exec at the top, protocol 2": pickle.dumps(runs, protocol=2),
        "exec at the top, protocol 3": pickle.dumps(runs, protocol=3),
        "exec at the top, protocol 5": pickle.dumps(runs, protocol=5),
        "exec inside an OrderedDict in a list": pickle.dumps([OrderedDict(a=(runs,))], protocol=2),
        "exec inside a numpy object array": pickle.dumps(np.array([runs, 1], dtype=object), protocol=4),
        "os.system": pickle.dumps(_Calls(os.system, ("true",)), protocol=4),
        "eval of other code": pickle.dumps(_Calls(eval, ("print(1)", {"data": 1})), protocol=2),
        "a plain class": pickle.dumps({"obj": _BuildsAnObject()}, protocol=2),
    }


class _Calls:
    def __init__(self, fn, args) -> None:
        self.fn, self.args = fn, args

    def __reduce__(self):
        return (self.fn, self.args)


def test_a_hostile_pickle_is_refused_by_name_and_never_run(tmp_path):
    marker = tmp_path / "pwned"
    evil = tmp_path / "model.pdparams"
    for what, data in hostile_pickles(str(marker)).items():
        evil.write_bytes(data)
        with pytest.raises(ValueError, match="refused") as info:
            paddle.load(str(evil))
        assert "refused" in str(info.value), what
    evil.write_bytes(pickle.dumps(_RunsCode(str(marker)), protocol=0))  # no protocol header: not a paddle file
    with pytest.raises(ValueError, match="not a paddle.save file"):
        paddle.load(str(evil))
    assert not marker.exists()
    evil.write_bytes(pickle.dumps({"w": _RunsCode(str(marker))}, protocol=4))
    with pytest.raises(ValueError, match=r"asks for builtins\.exec.*refused before anything was built"):
        paddle.load(str(evil))


def test_a_pickled_array_inside_our_archive_is_refused(tmp_path):
    marker = tmp_path / "pwned"
    evil = tmp_path / "model.pdparams"
    payload = io.BytesIO()
    np.lib.format.write_array(payload, np.array([_RunsCode(str(marker))], dtype=object), allow_pickle=True)
    index = {"format": "minipaddle-save", "version": 1, "root": {"type": "ndarray", "array": "arrays/0.npy"}}
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("minipaddle.json", json.dumps(index))
        zf.writestr("arrays/0.npy", payload.getvalue())
    with pytest.raises(ValueError, match="corrupted .*allow_pickle=False"):
        paddle.load(str(evil))
    assert not marker.exists()


def saved_file(tmp_path, fmt="minipaddle"):
    path = tmp_path / "model.pdparams"
    paddle.save({"w": paddle.to_tensor(np.arange(256, dtype="float32")), "step": 3}, str(path), format=fmt)
    return path


def test_a_truncated_file_is_refused(tmp_path, fmt):
    path = saved_file(tmp_path, fmt)
    data = path.read_bytes()
    for keep in (len(data) - 10, len(data) // 2, 30):
        path.write_bytes(data[:keep])
        with pytest.raises(ValueError, match="truncated or corrupted"):
            paddle.load(str(path))


def test_a_corrupted_byte_is_caught_by_the_checksum(tmp_path):
    path = saved_file(tmp_path)
    data = bytearray(path.read_bytes())
    offset = data.index(np.float32(200).tobytes())  # inside the array's data
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="truncated or corrupted .*CRC"):
        paddle.load(str(path))


def test_foreign_files_are_named(tmp_path):
    path = tmp_path / "f"
    cases = {
        b"": "is empty",
        b"hello world, not a model": "not a paddle.save file",
    }
    for content, message in cases.items():
        path.write_bytes(content)
        with pytest.raises(ValueError, match=message):
            paddle.load(str(path))
    np.save(tmp_path / "a.npy", np.zeros(3))
    with pytest.raises(ValueError, match="numpy .npy file"):
        paddle.load(str(tmp_path / "a.npy"))
    np.savez(tmp_path / "b.npz", a=np.zeros(3))
    with pytest.raises(ValueError, match="zip archive but not a minipaddle save file"):
        paddle.load(str(tmp_path / "b.npz"))


def test_index_format_and_version_are_checked(tmp_path):
    path = tmp_path / "f.zip"
    for index, message in (
        ({"format": "other", "version": 1, "root": None}, "not in the 'minipaddle-save' format"),
        ({"format": "minipaddle-save", "version": 99, "root": None}, "newer than this minipaddle reads"),
        ({"format": "minipaddle-save", "version": 1, "root": {"type": "gizmo"}}, "unknown type 'gizmo'"),
        (
            {"format": "minipaddle-save", "version": 1, "root": {"type": "tensor", "array": "arrays/9.npy"}},
            "truncated or corrupted",
        ),
    ):
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("minipaddle.json", json.dumps(index))
        with pytest.raises(ValueError, match=message):
            paddle.load(str(path))


def test_a_missing_file_says_so_and_hints_at_the_suffix(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        paddle.load(str(tmp_path / "nothing"))
    paddle.save({"a": 1}, str(tmp_path / "model.pdparams"))
    with pytest.raises(ValueError, match=r"did you mean .*model\.pdparams"):
        paddle.load(str(tmp_path / "model"))
    with pytest.raises(ValueError, match="not supported"):
        paddle.load(str(tmp_path / "model.pdparams"), unknown=True)
