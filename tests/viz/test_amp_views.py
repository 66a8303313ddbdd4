"""viz/amp.py: the cast map (dynamic and static), the op-count chart, the loss-scale timeline, the gradient range."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import viz


def _loss():
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 2))
    with paddle.amp.auto_cast():
        loss = paddle.nn.functional.softmax(net(paddle.rand([2, 4]))).mean()
    return net, loss


def test_draw_amp_colours_ops_by_dtype_and_marks_amp_casts():
    _, loss = _loss()
    src = viz.draw_amp(loss).source
    assert 'label="matmul [W]\\nmatmul_v2\\nfloat16"' in src and 'fillcolor="#f4cccc"' in src
    assert 'label="softmax [B]\\nsoftmax\\nfloat32"' in src and 'label="relu [G]\\nrelu\\nfloat32"' in src
    assert src.count('shape="diamond"') >= 3  # the weights' casts down, the matmul results' casts up, + legend
    assert 'label="0"' in src and "cluster_legend" in src  # Layer scopes as boxes
    folded = viz.draw_amp(loss, depth=1).source
    assert 'shape="box3d"' in folded and "float16: 1" in folded
    with pytest.raises(ValueError, match="depth"):
        viz.draw_amp(loss, depth=0)
    with pytest.raises(TypeError, match="draw_amp"):
        viz.draw_amp(3)


def test_draw_amp_of_a_program_after_the_pass():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [2, 3], "float32")
            paddle.exp(paddle.static.nn.fc(x, 4))
        src = viz.draw_amp(paddle.static.passes.amp_cast(main)).source
    finally:
        paddle.disable_static()
    assert 'shape="diamond"' in src and "matmul [W]" in src and "exp [B]" in src


def test_charts():
    plt = pytest.importorskip("matplotlib.pyplot")
    fig = viz.amp_stats({"matmul_v2": [2, 0, 0, 0], "softmax": [0, 0, 2, 0]})
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["matmul_v2", "softmax"]
    scaler = paddle.amp.GradScaler(init_loss_scaling=4.0, incr_every_n_steps=1)
    net, _ = _loss()
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    for bad in (False, True, False):
        with paddle.amp.auto_cast():
            loss = net(paddle.full([2, 4], 1e30 if bad else 1.0)).mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.clear_grad()
    fig = viz.plot_loss_scale(scaler)
    assert "skipped (Inf/NaN): 1" in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    with paddle.amp.auto_cast():
        loss = paddle.square(net(paddle.rand([2, 4]))).mean()
    loss.backward()
    fig = viz.plot_grad_range(net, scale=1024.0)
    assert len(fig.axes[0].lines) == 2  # float16's smallest normal and largest value
    plt.close("all")
    with pytest.raises(ValueError, match="no gradients"):
        viz.plot_grad_range(paddle.nn.Linear(2, 2))
    assert np.isfinite(float(loss))
