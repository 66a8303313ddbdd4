"""act_pool_swap_pass: an activation before a max pool runs inside the pool instead (after the max), with the same
outputs bit for bit; left alone where the swap would change a value (a read mask, a window of padding alone, an
activation someone else reads)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import inference
from minipaddle.inference.passes.pool_act import _every_window_in_x
from tests.inference.models import lenet, save_static

F = paddle.nn.functional


def _conv_relu(x):
    paddle.seed(1)
    return F.relu(paddle.nn.Conv2D(2, 3, 3, padding=1)(x))


def _read_twice(x):  # the relu's result is read by the pool and by the sum
    y = _conv_relu(x)
    return F.max_pool2d(y, 2, 2).sum() + y.sum()


def _ceil_mode(x):
    return F.max_pool2d(_conv_relu(x), 2, 2, ceil_mode=True)


def _mask_read(x):
    out, mask = F.max_pool2d(_conv_relu(x), 2, 2, return_mask=True)
    return out + mask.astype("float32")


def _sigmoid_pool(x):
    paddle.seed(1)
    return F.max_pool2d(F.sigmoid(paddle.nn.Conv2D(2, 3, 3, padding=1)(x)), 3, 2, padding=1)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    d = tmp_path_factory.mktemp("swap")
    save_static(str(d / "lenet"), lenet, [None, 1, 28, 28])
    for name, build in [("twice", _read_twice), ("ceil", _ceil_mode), ("mask", _mask_read), ("sig", _sigmoid_pool)]:
        save_static(str(d / name), build, [None, 2, 7, 7])
    return d


def _predictor(models, name, *deleted):
    c = inference.Config(str(models / f"{name}.pdmodel"), str(models / f"{name}.pdiparams"))
    c.disable_glog_info()
    c.enable_memory_optim()
    for p in deleted:
        c.delete_pass(p)
    return inference.create_predictor(c)


def _run(p, x):
    h = p.get_input_handle(p.get_input_names()[0])
    h.reshape(list(x.shape))
    h.copy_from_cpu(x)
    p.run()
    return p.get_output_handle(p.get_output_names()[0]).copy_to_cpu()


def _ops(p):
    return p.optimized_program().global_block().ops


def _moved(p) -> str:
    return [s for s in p.pass_log() if s.name == "act_pool_swap_pass"][0].notes[0]


@pytest.mark.parametrize("batch", [1, 5])
def test_lenets_relus_move_into_its_pools_with_equal_outputs(models, batch):
    x = np.random.default_rng(0).standard_normal((batch, 1, 28, 28)).astype("float32")
    swapped, kept = _predictor(models, "lenet"), _predictor(models, "lenet", "act_pool_swap_pass")
    pools = [op for op in _ops(swapped) if op.type == "max_pool_infer"]
    convs = [op for op in _ops(swapped) if op.type == "conv2d_fusion"]
    assert [op.attrs["activation"] for op in pools] == ["relu", "relu"]
    assert [op.attrs["activation"] for op in convs] == [None, None]
    assert [op.attrs["activation"] for op in _ops(kept) if op.type == "conv2d_fusion"] == ["relu", "relu"]
    assert _moved(swapped) == "2 activation(s) moved after their max pool"
    np.testing.assert_array_equal(_run(swapped, x), _run(kept, x))  # max and relu commute exactly


def test_an_activation_op_of_its_own_is_removed(models):
    x = np.random.default_rng(1).standard_normal((3, 1, 28, 28)).astype("float32")
    unfused = _predictor(models, "lenet", "conv_elementwise_add_act_fuse_pass")
    plain = _predictor(models, "lenet", "conv_elementwise_add_act_fuse_pass", "act_pool_swap_pass")
    types = [op.type for op in _ops(unfused)]
    assert types.count("relu") == [op.type for op in _ops(plain)].count("relu") - 2
    np.testing.assert_array_equal(_run(unfused, x), _run(plain, x))


def test_sigmoid_with_padding_moves_too(models):
    x = np.random.default_rng(2).standard_normal((2, 2, 7, 7)).astype("float32")
    swapped, kept = _predictor(models, "sig"), _predictor(models, "sig", "act_pool_swap_pass")
    assert [op.attrs.get("activation") for op in _ops(swapped) if op.type == "max_pool_infer"] == ["sigmoid"]
    np.testing.assert_allclose(_run(swapped, x), _run(kept, x), rtol=1e-6, atol=0)


@pytest.mark.parametrize("name", ["twice", "ceil", "mask"])
def test_left_alone_where_the_swap_would_change_a_value(models, name):
    x = np.random.default_rng(3).standard_normal((2, 2, 7, 7)).astype("float32")
    p = _predictor(models, name)
    assert _moved(p) == "0 activation(s) moved after their max pool"
    np.testing.assert_array_equal(_run(p, x), _run(_predictor(models, name, "act_pool_swap_pass"), x))


def test_windows_of_padding_alone_are_recognised():
    attrs = {"kernel_size": (2, 2), "paddings": ((1, 1), (0, 1)), "ceil_mode": False}
    assert _every_window_in_x(attrs)
    assert not _every_window_in_x({**attrs, "paddings": ((2, 0), (0, 0))})  # the first window is padding alone
    assert not _every_window_in_x({**attrs, "ceil_mode": True})


def test_max_pool_infer_refuses_an_unknown_activation():
    with pytest.raises(ValueError, match="max_pool_infer: activation must be None or one of"):
        paddle.ops.max_pool_infer(paddle.ones([1, 1, 4, 4]), (2, 2), (2, 2), ((0, 0), (0, 0)), activation="gelu")
