"""Creation ops whose sizes or bounds a Program computes: `paddle.arange(n)`, `paddle.eye(n)`, `paddle.linspace(0, 1,
n)`, `paddle.rand([n, 2])`, ... with n = paddle.shape(x)[0] in static mode or converted code (Paddle 2.6 gives its
range / eye / linspace / uniform_random / gaussian_random ops the Tensor as an input).

Rather than a second copy of each kernel, one op runs an existing source op (arange, eye, linspace, uniform,
gaussian, randint) with some attributes filled from its inputs when it runs:

    runtime_source(*values, source, attrs, sized, n_sizes, scalars, out_shape)
        the first n_sizes inputs fill the None entries of attrs[sized] (a shape template, as in
        ops/runtime_shape.py); the rest fill the attributes named in `scalars`, one value each, in order.

`runtime_random_source` is the same op for the random sources (marked random, so no pass folds it into a
constant). `out_shape` is the shape the Program knows (-1 where it depends on the inputs). None has a gradient.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import OPS, Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.runtime_shape import fill_template

__all__ = ["runtime_source"]

RANDOM_SOURCES = ("uniform", "gaussian", "randint")


def _scalar(v, op: str, name: str):
    arr = np.asarray(v).reshape(-1)
    if arr.size != 1:
        raise ValueError(f"{op}: {name} given as a Tensor must hold one value, got {arr.size}")
    return arr[0].item()


class _RuntimeSource(OpDef):
    differentiable = False
    saves_inputs = False

    def kernel(self, *values, source, attrs, sized, n_sizes, scalars, out_shape):
        filled = dict(attrs)
        if sized is not None:
            filled[sized] = fill_template(tuple(attrs[sized]), values[:n_sizes], self.name)
            if any(d < 0 for d in filled[sized]):
                raise ValueError(f"{self.name}: {source}'s {sized} must not be negative, got {list(filled[sized])}")
        for name, v in zip(scalars, values[n_sizes:]):
            filled[name] = _scalar(v, self.name, name)
        return OPS[source].kernel(**filled)

    def infer_meta(self, *values: Meta, source, attrs, sized, n_sizes, scalars, out_shape) -> Meta:
        return Meta(tuple(out_shape), dtypes.from_numpy(np.dtype(attrs["dtype"])))


@register
class RuntimeSource(_RuntimeSource):
    """arange / eye / linspace with sizes or bounds read from the inputs when the op runs."""

    name = "runtime_source"


@register
class RuntimeRandomSource(_RuntimeSource):
    """uniform / gaussian / randint with a shape read from the inputs when the op runs."""

    name = "runtime_random_source"
    random = True


def runtime_source(source: str, attrs: dict, out_shape, sizes=(), sized=None, scalars=()) -> Tensor:
    """Run op `source` with `attrs`, attrs[sized]'s None entries filled from the Tensors `sizes` and the
    attributes named by `scalars` ({name: Tensor}) from theirs, when the op runs."""
    op = RuntimeRandomSource if source in RANDOM_SOURCES else RuntimeSource
    names = tuple(scalars)
    if sized is not None:
        attrs = {**attrs, sized: tuple(attrs[sized])}
    meta = {"source": source, "attrs": attrs, "sized": sized, "n_sizes": len(sizes), "scalars": names,
            "out_shape": tuple(out_shape)}  # fmt: skip
    return apply(op, (*sizes, *(scalars[n] for n in names)), meta)
