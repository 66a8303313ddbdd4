"""Places as paddle 2.6's classes (tests/golden/fidelity/places.json, from make_places_golden.py): isinstance,
printing, Tensor.place, static.cpu_places; accelerator places can be made and fail only where they would compute."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "places.json")
NAMES = ["CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "CustomPlace", "IPUPlace"]


def test_places_are_classes():
    assert {n: isinstance(getattr(paddle, n), type) for n in NAMES} == GOLDEN["classes"]
    assert isinstance(paddle.CPUPlace(), paddle.CPUPlace) is GOLDEN["CPUPlace_is_CPUPlace"]
    assert isinstance(paddle.CUDAPlace(0), paddle.CUDAPlace) and not isinstance(paddle.CUDAPlace(0), paddle.CPUPlace)


def test_cpu_place_and_tensor_place_as_paddle():
    t = paddle.ones([2])
    assert repr(paddle.CPUPlace()) == GOLDEN["cpu_repr"] and str(paddle.CPUPlace()) == GOLDEN["cpu_str"]
    assert repr(t.place) == GOLDEN["tensor_place_repr"]
    assert isinstance(t.place, paddle.CPUPlace) is GOLDEN["tensor_place_is_CPUPlace"]  # False in paddle 2.6 too
    assert t.place.is_cpu_place() is GOLDEN["is_cpu_place"] and t.place.is_gpu_place() is GOLDEN["is_gpu_place"]
    assert t.place._equals(paddle.CPUPlace()) is GOLDEN["equals"]
    assert (
        sorted(n for n in dir(t.place) if not n.startswith("__") and n not in ("kind", "device_id"))
        == GOLDEN["place_methods"]
    )
    assert type(paddle.device.set_device("cpu")).__name__ == GOLDEN["set_device_type"]


def test_accelerator_places_print_as_paddle():
    # paddle's phi/common/place.cc: Place(<type>:<id>), and Place(gpu_pinned) for the pinned host memory
    assert [str(p) for p in (paddle.CUDAPlace(1), paddle.CUDAPinnedPlace(), paddle.XPUPlace(0),
                             paddle.CustomPlace("npu", 2), paddle.IPUPlace())] == [
        "Place(gpu:1)", "Place(gpu_pinned)", "Place(xpu:0)", "Place(npu:2)", "Place(ipu:0)",
    ]  # fmt: skip
    gpu = paddle.CUDAPlace(1)
    assert gpu.is_gpu_place() and gpu.gpu_device_id() == 1 and not gpu.is_cpu_place()
    assert paddle.CustomPlace("npu", 2).custom_device_type() == "npu" and paddle.CustomPlace("npu").is_custom_place()
    assert paddle.CUDAPlace(0) == paddle.CUDAPlace(0) != paddle.CUDAPlace(1)
    assert len({paddle.CPUPlace(), paddle.CPUPlace(), paddle.ones([1]).place}) == 1


def test_place_arguments_are_checked():
    with pytest.raises(TypeError, match="CUDAPlace: the device id"):
        paddle.CUDAPlace("0")
    with pytest.raises(TypeError, match="device_type"):
        paddle.CustomPlace(3)
    with pytest.raises(ValueError, match="built-in"):
        paddle.CustomPlace("gpu", 0)


def test_cpu_places(monkeypatch):
    assert [repr(p) for p in paddle.static.cpu_places(2)] == GOLDEN["cpu_places_2"]
    monkeypatch.delenv("CPU_NUM", raising=False)
    assert len(paddle.static.cpu_places()) == GOLDEN["cpu_places_default"]
    monkeypatch.setenv("CPU_NUM", "3")
    assert len(paddle.static.cpu_places()) == GOLDEN["cpu_places_with_CPU_NUM_3"]
    assert all(isinstance(p, paddle.CPUPlace) for p in paddle.static.cpu_places())


def test_gpu_places_for_an_executor_or_dataloader_fail_only_when_computing():
    place = paddle.CUDAPlace(0)
    loader = paddle.io.DataLoader(paddle.io.TensorDataset([paddle.ones([4, 2])]), batch_size=2, places=place)
    assert [b[0].shape for b in loader] == [[2, 2], [2, 2]]  # data loading needs no device
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2], "float32")
            y = x * 2
        exe = paddle.static.Executor(place)  # made: fine
        with pytest.raises(RuntimeError, match=r"Executor.run: .*CPU only.*Place\(gpu:0\)"):
            exe.run(main, feed={"x": np.ones(2, "float32")}, fetch_list=[y])
        (out,) = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": np.ones(2, "float32")}, fetch_list=[y])
        np.testing.assert_allclose(out, [2.0, 2.0])
    finally:
        paddle.disable_static()
