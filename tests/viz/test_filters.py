"""viz.plot_filters: a convolution's filters as a grid of small pictures."""

import numpy as np
import pytest

import minipaddle as paddle
import viz


def _images(view):
    fig = view.figure()
    return [im for ax in fig.axes for im in ax.get_images()]


def test_rgb_filters_are_each_stretched_to_the_full_range():
    paddle.seed(0)
    conv = paddle.nn.Conv2D(3, 10, 5)
    view = viz.plot_filters(conv, columns=4)
    images = _images(view)
    assert len(images) == 10  # one per output channel; the grid's two spare cells stay empty
    first = images[0].get_array()
    assert first.shape == (5, 5, 3) and first.min() == 0.0 and first.max() == 1.0
    w = conv.weight.numpy()[0].transpose(1, 2, 0)
    np.testing.assert_allclose(first, (w - w.min()) / (w.max() - w.min()), rtol=1e-6)
    assert "<svg" in view.svg() and "10 filters of 3 x 5 x 5" in view.svg()


def test_other_channel_counts_are_drawn_as_one_plane():
    grey = _images(viz.plot_filters(np.ones((2, 1, 3, 3))))
    assert grey[0].get_cmap().name == "gray"
    mean = _images(viz.plot_filters(paddle.arange(2 * 4 * 9, dtype="float32").reshape([2, 4, 3, 3])))
    assert mean[0].get_cmap().name == "RdBu_r"
    np.testing.assert_allclose(mean[1].get_array(), np.arange(36, 72).reshape(4, 3, 3).mean(axis=0))


def test_it_names_what_it_cannot_draw():
    with pytest.raises(ValueError, match=r"plot_filters: expected a conv weight .* got shape \[3, 4\]"):
        viz.plot_filters(np.zeros((3, 4)))
    with pytest.raises(TypeError, match="ReLU has no weight"):
        viz.plot_filters(paddle.nn.ReLU())
    with pytest.raises(ValueError, match="columns must be a positive int"):
        viz.plot_filters(np.zeros((2, 1, 3, 3)), columns=0)
