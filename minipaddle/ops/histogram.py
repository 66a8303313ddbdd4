"""histogram: count the elements falling in equal-width bins."""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["histogram"]  # the raw op functions; ops/__init__.py gathers them


@register
class Histogram(OpDef):
    """int64 counts of x's elements in `bins` equal bins over [min, max]; values outside are not counted.

    min == max == 0 means the data's own range; a range of zero width is widened by 1 on each side (as Paddle).
    """

    name = "histogram"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, bins, min=0, max=0):  # noqa: A002 (Paddle's names)
        lo, hi = float(min), float(max)
        if lo == 0 and hi == 0 and x.size:
            lo, hi = float(np.min(x)), float(np.max(x))
        if lo == hi:
            lo, hi = lo - 1, hi + 1
        counts, _ = np.histogram(x.reshape(-1).astype(np.float64), bins=bins, range=(lo, hi))
        return counts.astype(np.int64)

    def infer_meta(self, x: Meta, bins, min=0, max=0) -> Meta:  # noqa: A002
        return Meta((bins,), dtypes.int64)


def histogram(x: Tensor, bins: int = 100, min=0, max=0) -> Tensor:  # noqa: A002
    return apply(Histogram, (x,), {"bins": bins, "min": min, "max": max})
