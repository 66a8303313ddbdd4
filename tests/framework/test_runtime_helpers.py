"""paddle.async_save / clear_async_save_task_queue, check_shape, IrGuard, disable_signal_handler."""

import numpy as np
import pytest

import minipaddle as paddle


def test_async_save_writes_a_snapshot(tmp_path):
    layer = paddle.nn.Linear(3, 2)
    before = layer.weight.numpy().copy()
    path = tmp_path / "sub" / "layer.pdparams"
    paddle.async_save(layer.state_dict(), str(path))
    with paddle.no_grad():
        layer.weight.set_value(np.zeros((3, 2), "float32"))  # after the call: not in the file
    paddle.clear_async_save_task_queue()
    np.testing.assert_array_equal(paddle.load(str(path))["weight"].numpy(), before)


def test_async_save_tensor_and_sync(tmp_path):
    x = paddle.to_tensor([1.0, 2.0])
    paddle.async_save(x, str(tmp_path / "a.pd"))
    paddle.async_save(x * 2, str(tmp_path / "b.pd"), sync_other_task=True)
    paddle.clear_async_save_task_queue()
    np.testing.assert_array_equal(paddle.load(str(tmp_path / "b.pd")).numpy(), [2.0, 4.0])
    paddle.clear_async_save_task_queue()  # nothing pending: returns at once


def test_async_save_errors(tmp_path):
    with pytest.raises(TypeError, match="dict .* or a Tensor"):
        paddle.async_save([1, 2], str(tmp_path / "x"))
    with pytest.raises(ValueError, match="protocol"):
        paddle.async_save({}, str(tmp_path / "x"), protocol=7)
    with pytest.warns(UserWarning, match="ignored"):
        paddle.async_save({"a": paddle.ones([1])}, str(tmp_path / "w"), use_binary_format=False)
    paddle.clear_async_save_task_queue()
    (tmp_path / "blocker").write_text("a file, not a directory")
    paddle.async_save({"a": paddle.ones([1])}, str(tmp_path / "blocker" / "x.pd"))
    with pytest.raises(RuntimeError, match="background save failed"):
        paddle.clear_async_save_task_queue()
    paddle.enable_static()
    try:
        with pytest.raises(ValueError, match="static mode"):
            paddle.async_save({}, str(tmp_path / "s"))
    finally:
        paddle.disable_static()


def test_check_shape_static_only():
    assert paddle.check_shape([2.5], "op") is None  # dynamic mode checks nothing, as in Paddle
    with paddle.IrGuard():
        assert not paddle.in_dynamic_mode()
        paddle.check_shape([2, 3], "myop")
        paddle.check_shape((2, -1), "myop")
        i = paddle.static.data("i", [2], "int64")
        f = paddle.static.data("f", [2], "float32")
        paddle.check_shape(i, "myop")
        paddle.check_shape([i, 3], "myop")
        with pytest.raises(TypeError, match="'shape' in myop"):
            paddle.check_shape(3, "myop")
        with pytest.raises(TypeError, match="'element of shape' in myop .* float"):
            paddle.check_shape([2.0, 3], "myop")
        with pytest.raises(TypeError, match="data type of 'shape' in myop"):
            paddle.check_shape(f, "myop")
        with pytest.raises(TypeError, match="data type of 'element of shape'"):
            paddle.check_shape([f, 3], "myop")
    assert paddle.in_dynamic_mode()


def test_irguard_keeps_static_mode_when_already_static():
    paddle.enable_static()
    try:
        with paddle.IrGuard():
            assert not paddle.in_dynamic_mode()
        assert not paddle.in_dynamic_mode()
    finally:
        paddle.disable_static()


def test_disable_signal_handler():
    assert paddle.disable_signal_handler() is None
