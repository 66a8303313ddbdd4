"""summary and flops leave the network as they found it (mode, hooks, attributes); the table layouts and
numbers are checked against Paddle in test_golden.py."""

from __future__ import annotations

import pytest

import minipaddle as paddle
from minipaddle.core.state import name_guard


def _hooks(net) -> int:
    return sum(len(m._forward_post_hooks) for m in net.sublayers(include_self=True))


@pytest.mark.parametrize("training", [True, False])
def test_summary_restores_mode_and_removes_its_hooks(training, capsys):
    net = paddle.vision.models.LeNet()
    net.train() if training else net.eval()
    info = paddle.summary(net, (1, 1, 28, 28))
    assert info == {"total_params": 61610, "trainable_params": 61610}
    assert net.training is training and _hooks(net) == 0
    assert "Total params: 61,610" in capsys.readouterr().out


def test_summary_counts_batchnorm_statistics_as_not_trainable(capsys):
    net = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3), paddle.nn.BatchNorm2D(4))
    assert paddle.summary(net, (1, 3, 8, 8)) == {"total_params": 128, "trainable_params": 120}
    assert "Non-trainable params: 8" in capsys.readouterr().out


def test_summary_needs_a_size_or_an_input():
    with pytest.raises(ValueError, match="input_size and input cannot be None"):
        paddle.summary(paddle.nn.Linear(2, 2))
    with pytest.raises(ValueError, match="greater than zero"):
        paddle.summary(paddle.nn.Linear(2, 2), (0, 2))


def test_flops_restores_mode_and_leaves_no_counters(capsys):
    net = paddle.vision.models.LeNet()
    assert paddle.flops(net, [2, 1, 28, 28]) == 2 * 347560
    assert net.training and _hooks(net) == 0
    assert not any(hasattr(m, "total_ops") or hasattr(m, "total_params") for m in net.sublayers())
    assert capsys.readouterr().out.splitlines()[-1] == "Total Flops: 695120     Total Params: 61610"


def test_flops_batch_norm_in_train_mode_counts_as_eval():
    """flops puts the network in eval mode, so BatchNorm counts 2 per element whatever the mode was."""
    net = paddle.nn.Sequential(paddle.nn.BatchNorm2D(2))
    net.train()
    assert paddle.flops(paddle.nn.Sequential(net), [1, 2, 3, 3]) == 36


def test_flops_of_a_static_program_counts_ops_per_sample(capsys):
    """Paddle 2.6 counts this Program as conv2d 24336, elementwise_add 2704, pool2d 3380 (and misses the
    Linear's matmul_v2); minipaddle counts the same, and the matmul too (676 * 10)."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), name_guard():
            x = paddle.static.data("x", [None, 1, 28, 28], "float32")
            net = paddle.nn.Sequential(paddle.nn.Conv2D(1, 4, 3), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
                                       paddle.nn.Flatten(), paddle.nn.Linear(676, 10))  # fmt: skip
            net(x)
        assert paddle.flops(main, None, print_detail=True) == 24336 + 2704 + 3380 + 6760 + 10
    finally:
        paddle.disable_static()
    table = capsys.readouterr().out.splitlines()
    assert table[1] == "| OP Type  |  Param name  | Flops |"
    assert table[3] == "|  conv2d  | conv2d_0.w_0 | 24336 |" and table[6] == "|  matmul  | linear_0.w_0 |  6760 |"
