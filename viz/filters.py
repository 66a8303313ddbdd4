"""A convolution's filters as small pictures: what the first layer of a trained network looks for.

    viz.plot_filters(model.conv1)          each of its out_channels filters, in a grid (a FigureView)

A filter over 3 input channels is drawn as an RGB image (each filter stretched to the full range on its own, as
in the pictures of AlexNet's first layer); over 1 channel in grey; over more, their mean on a diverging scale
(blue below zero, red above), since no colour stands for channel 17.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from viz.figure_view import FigureView

__all__ = ["plot_filters"]


def _weights(conv) -> np.ndarray:
    if isinstance(conv, paddle.nn.Layer):
        weight = getattr(conv, "weight", None)
        if weight is None:
            raise TypeError(f"plot_filters: {type(conv).__name__} has no weight; give a Conv2D or its weight")
        conv = weight
    w = conv.numpy() if isinstance(conv, paddle.Tensor) else np.asarray(conv)
    if w.ndim != 4:
        raise ValueError(f"plot_filters: expected a conv weight [out_channels, in_channels, kh, kw], got shape "
                         f"{list(w.shape)}")  # fmt: skip
    return w.astype(np.float64)


def plot_filters(conv, columns: int = 8, title: str | None = None) -> FigureView:
    """The filters of `conv` (a Conv2D, its weight Tensor, or an array [out, in, kh, kw]) in a grid.

    Args:
        conv: the convolution or its weight.
        columns: filters per row.
        title: the figure's title (default: the weight's shape).
    """
    w = _weights(conv)
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise ValueError(f"plot_filters: columns must be a positive int, got {columns!r}")
    out_channels, in_channels = w.shape[:2]
    columns = min(columns, out_channels)
    rows = -(-out_channels // columns)
    heading = title or f"{out_channels} filters of {in_channels} x {w.shape[2]} x {w.shape[3]}"

    def picture(f: np.ndarray):
        if in_channels == 3:  # RGB, stretched to [0, 1] per filter
            rgb = f.transpose(1, 2, 0)
            low, high = rgb.min(), rgb.max()
            return {"X": (rgb - low) / (high - low) if high > low else np.zeros_like(rgb)}
        plane = f[0] if in_channels == 1 else f.mean(axis=0)
        bound = np.abs(plane).max() or 1.0
        cmap = "gray" if in_channels == 1 else "RdBu_r"
        return {"X": plane, "cmap": cmap, "vmin": -bound, "vmax": bound}

    def draw(fig):
        axes = np.atleast_1d(fig.subplots(rows, columns, squeeze=False)).reshape(-1)
        for i, ax in enumerate(axes):
            ax.set_xticks([])
            ax.set_yticks([])
            if i >= out_channels:
                ax.set_axis_off()
                continue
            ax.imshow(interpolation="nearest", **picture(w[i]))
            ax.set_title(str(i), fontsize=6, pad=1)
        fig.suptitle(heading, fontsize=9)

    return FigureView(draw, (1.1 * columns, 1.15 * rows + 0.4), "plot_filters")
