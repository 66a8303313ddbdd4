"""paddle.device answers as PaddlePaddle 2.6's CPU-only build does (values measured on paddle 2.6.2)."""

import pytest

import minipaddle as paddle


def test_set_and_get_device():
    assert paddle.device.set_device("cpu") == paddle.CPUPlace()
    assert paddle.device.set_device("CPU") == paddle.CPUPlace()
    assert paddle.device.get_device() == "cpu"
    assert paddle.set_device is paddle.device.set_device and paddle.get_device is paddle.device.get_device


@pytest.mark.parametrize(("device", "build"), [("gpu", "CUDA"), ("gpu:1", "CUDA"), ("xpu", "XPU"), ("xpu:0", "XPU")])
def test_set_device_accelerators_not_compiled(device, build):
    with pytest.raises(ValueError, match=f"not compiled with {build}"):
        paddle.device.set_device(device)
    assert paddle.device.get_device() == "cpu"


@pytest.mark.parametrize("device", ["npu", "foo", "cpu:0"])
def test_set_device_unknown_names(device):
    with pytest.raises(ValueError, match="must be a string like 'cpu'"):
        paddle.device.set_device(device)


def test_set_device_type_error():
    with pytest.raises(TypeError, match="set_device"):
        paddle.device.set_device(3)


def test_build_questions():
    d = paddle.device
    for fn in (d.is_compiled_with_cuda, d.is_compiled_with_rocm, d.is_compiled_with_xpu, d.is_compiled_with_ipu,
               d.is_compiled_with_cinn):  # fmt: skip
        assert fn() is False
    assert d.is_compiled_with_distribute() is True  # paddle.distributed runs on MPI
    assert d.is_compiled_with_custom_device("npu") is False
    assert d.get_cudnn_version() is None
    assert d.get_all_device_type() == [] and d.get_available_device() == []
    assert d.get_all_custom_device_type() == [] and d.get_available_custom_device() == []
    for name in ("is_compiled_with_cinn", "is_compiled_with_rocm", "get_cudnn_version", "is_compiled_with_xpu"):
        assert getattr(paddle, name) is getattr(d, name)


def test_accelerator_places_can_be_made_but_not_computed_on():
    for make in (paddle.XPUPlace, paddle.device.XPUPlace):
        assert str(make(0)) == "Place(xpu:0)"
    for place in (paddle.IPUPlace(), paddle.CUDAPinnedPlace(), paddle.CustomPlace("npu", 0), paddle.CUDAPlace(0)):
        with pytest.raises(RuntimeError, match="CPU only"):
            paddle.to_tensor([1.0], place=place)


def test_streams_and_events_need_an_accelerator():
    d = paddle.device
    for call in (d.Stream, d.Event, d.current_stream, d.synchronize, lambda: d.set_stream(None)):
        with pytest.raises(TypeError, match="only on a GPU or XPU"):
            call()
    with d.stream_guard(None) as entered:
        assert entered is None
    with pytest.raises(TypeError, match="stream_guard"):
        d.stream_guard("s")


def test_cuda_submodule():
    cuda = paddle.device.cuda
    assert cuda.device_count() == 0 and cuda.empty_cache() is None
    for fn in (cuda.max_memory_allocated, cuda.memory_reserved, cuda.get_device_name, cuda.get_device_capability):
        with pytest.raises(ValueError, match="not compiled with CUDA"):
            fn()
    for fn in (cuda.synchronize, cuda.current_stream, cuda.Stream, cuda.Event):
        with pytest.raises(RuntimeError, match="not compiled with CUDA"):
            fn()
    with pytest.raises(RuntimeError), cuda.stream_guard(None):
        pass
    assert paddle.device.xpu.device_count() == 0
    with pytest.raises(RuntimeError, match="XPU"):
        paddle.device.xpu.synchronize()
