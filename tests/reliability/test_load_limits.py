"""Loads have limits (issue 18): a crafted file's declared sizes and nesting are checked before anything is
allocated or recursed into, and refused with a ValueError that names the file and the limit.

One crafted file per load path: paddle.load of minipaddle's zip (a zip bomb member, a .npy header claiming 7 TiB, a
50,000-deep index) and of a Paddle pickle (an array started at 7 TiB, 50,000-deep lists), static.load (a .npy
header in the .pdparams archive), load_inference_model's .pdiparams stream and jit.load (a tensor declared larger
than the file, and a 50,000-deep .pdiparams.info)."""

from __future__ import annotations

import io
import json
import os
import struct
import zipfile

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.framework.io import FORMAT, INDEX
from minipaddle.static.files import MAX_INFLATION, MAX_NESTING
from minipaddle.static.paddle_proto import TensorDesc

DEEP = 50_000
TIB7 = 7 * 2**40


def _npy_header(shape, dtype="<f4") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": shape})
    return buf.getvalue()  # (the magic string included)


def _archive(path, members: dict, index=None, compress=zipfile.ZIP_STORED) -> None:
    """A minipaddle save file whose root is one tensor in arrays/0.npy (or the given index)."""
    index = index or json.dumps({"format": FORMAT, "version": 1, "root": {"type": "ndarray", "array": "arrays/0.npy"}})
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(INDEX, index)
        for name, data in members.items():
            zf.writestr(name, data, compress_type=compress)


def test_a_zip_bomb_member_is_refused_before_inflating(tmp_path):
    path = str(tmp_path / "bomb.pdparams")
    payload = _npy_header((64 * 2**20,), "|u1") + bytes(64 * 2**20)  # 64 MiB of zeros deflate to ~64 KiB
    _archive(path, {"arrays/0.npy": payload}, compress=zipfile.ZIP_DEFLATED)
    assert os.path.getsize(path) < 2**20
    with pytest.raises(ValueError, match=rf"bomb\.pdparams.*arrays/0\.npy.*more than {MAX_INFLATION} times"):
        paddle.load(path)


def test_a_compressed_member_within_the_limit_still_loads(tmp_path):
    path = str(tmp_path / "small.pdparams")
    a = np.random.default_rng(0).standard_normal(1000).astype("float32")
    buf = io.BytesIO()
    np.save(buf, a)
    _archive(path, {"arrays/0.npy": buf.getvalue()}, compress=zipfile.ZIP_DEFLATED)
    np.testing.assert_array_equal(paddle.load(path), a)


def test_a_npy_header_claiming_7_tib_is_refused_before_allocating(tmp_path):
    path = str(tmp_path / "huge.pdparams")
    _archive(path, {"arrays/0.npy": _npy_header((TIB7 // 4,)) + bytes(16)})
    with pytest.raises(ValueError, match=r"huge\.pdparams.*declares shape \[1924145348608\].*16 bytes follow"):
        paddle.load(path)


def test_a_50000_deep_index_is_refused(tmp_path):
    path = str(tmp_path / "deep.pdparams")
    root = '{"type": "list", "items": [' * DEEP + "1" + "]}" * DEEP
    _archive(path, {}, index=f'{{"format": "{FORMAT}", "version": 1, "root": {root}}}')
    with pytest.raises(ValueError, match=rf"deep\.pdparams.*nests {2 * DEEP + 1} levels.*{MAX_NESTING} containers"):
        paddle.load(path)


def _deep_list_pickle(depth: int) -> bytes:
    """Protocol 2: `depth` empty lists pushed, then each appended into the one below it (no recursion to build)."""
    return b"\x80\x02" + b"]" * depth + b"a" * (depth - 1) + b"."


def test_a_50000_deep_pickle_is_refused(tmp_path):
    path = str(tmp_path / "deep.pdopt")
    open(path, "wb").write(_deep_list_pickle(DEEP))
    with pytest.raises(ValueError, match=rf"deep\.pdopt.*more than {MAX_NESTING} deep"):
        paddle.load(path)


def test_a_pickle_starting_an_array_at_7_tib_is_refused(tmp_path):
    path = str(tmp_path / "huge.pdopt")
    # numpy.core.multiarray._reconstruct(numpy.ndarray, (7 TiB / 4,), 'f'), where numpy's own pickles pass (0,)
    count = b"\x8a\x08" + (TIB7 // 4).to_bytes(8, "little")  # LONG1, 8 bytes
    data = b"\x80\x02cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\n" + count + b"\x85U\x01f\x87R."
    open(path, "wb").write(data)
    with pytest.raises(ValueError, match=r"huge\.pdopt.*shape \[1924145348608\].*refused before allocating"):
        paddle.load(path)


class _StaticMode:
    def __enter__(self):
        paddle.enable_static()
        return self

    def __exit__(self, *exc):
        paddle.disable_static()


def _static_model(prefix):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3], "float32")
        y = paddle.static.nn.fc(x, 2)
    exe = paddle.static.Executor()
    exe.run(startup)
    return main, exe, x, y


def test_static_load_refuses_a_npy_header_beyond_its_member(tmp_path):
    prefix = str(tmp_path / "m")
    with _StaticMode():
        main, exe, _, _ = _static_model(prefix)
        paddle.static.save(main, prefix, format="minipaddle")  # minipaddle's .npz archives, still read by static.load
        os.remove(prefix + ".pdset")  # the set's manifest would catch the change first; the reader must too
        with zipfile.ZipFile(prefix + ".pdparams") as zf:
            names = zf.namelist()
        with zipfile.ZipFile(prefix + ".pdparams", "w") as zf:
            for name in names:
                zf.writestr(name, _npy_header((TIB7 // 4,)) + bytes(12))
        with pytest.raises(ValueError, match=r"m\.pdparams.*declares shape \[1924145348608\].*refused before"):
            paddle.static.load(main, prefix, exe)


def _pdiparams_claiming(shape) -> bytes:
    desc = TensorDesc(data_type=5, dims=list(shape)).SerializeToString()  # 5: FP32
    return struct.pack("<IQI", 0, 0, 0) + struct.pack("<i", len(desc)) + desc + bytes(24)


def test_load_inference_model_refuses_a_tensor_larger_than_the_file(tmp_path):
    prefix = str(tmp_path / "inf")
    with _StaticMode():
        main, exe, x, y = _static_model(prefix)
        paddle.static.save_inference_model(prefix, [x], [y], exe, format="paddle")
        os.remove(prefix + ".pdset")
        open(prefix + ".pdiparams", "wb").write(_pdiparams_claiming([2**20, 2**20, 2**20]))
        with pytest.raises(ValueError, match=r"inf\.pdiparams.*declares shape \[1048576, 1048576, 1048576\].*more "
                                             r"than the 24 bytes left in the file"):  # fmt: skip
            paddle.static.load_inference_model(prefix, exe)


def test_jit_load_refuses_a_tensor_larger_than_the_file_and_a_deep_info(tmp_path):
    prefix = str(tmp_path / "jit" / "net")
    net = paddle.nn.Linear(3, 2)
    paddle.jit.save(net, prefix, input_spec=[paddle.static.InputSpec([None, 3], "float32")])
    os.remove(prefix + ".pdset")
    params = open(prefix + ".pdiparams", "rb").read()
    open(prefix + ".pdiparams", "wb").write(_pdiparams_claiming([TIB7 // 4]))
    with pytest.raises(ValueError, match=r"net\.pdiparams.*declares shape \[1924145348608\].*bytes left"):
        paddle.jit.load(prefix)
    open(prefix + ".pdiparams", "wb").write(params)
    open(prefix + ".pdiparams.info", "w").write('{"a": ' + "[" * DEEP + "]" * DEEP + "}")
    with pytest.raises(ValueError, match=r"net\.pdiparams\.info.*recursion"):
        paddle.jit.load(prefix)
