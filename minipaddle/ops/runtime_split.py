"""split with sections a Program computes: `paddle.split(x, [2, n, -1], axis)` where n is a Tensor (e.g.
`paddle.shape(x)[1] - 3`) in static mode or converted code. Paddle 2.6 writes it as `split` with every section in
SectionsTensorList (the known ones as int32 fill_constants); here it is one op whose Tensor sections are inputs,
read when it runs:

    runtime_split(x, *sizes, axis, sections)    x cut along `axis`
    split_like(g, *likes, axis)                 g cut along `axis` into parts as long as the likes there (concat's
                                                gradient when more than one of its inputs' sizes is unknown)

`sections` holds one entry per part: an int when it was known as the Program was built, None where the next of
the size inputs (a Tensor holding one int) gives it. As in paddle's kernel, one section may be -1 (given or
computed): the part left over. The sizes never get gradients; x's gradient concatenates the parts' (as split's).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.manipulation import concat, cut

__all__ = ["runtime_split", "split_like"]


def section_sizes(sections, sizes, dim: int, op: str) -> list:
    """The sizes of the parts of an axis of size `dim`: the known `sections` with the size inputs' values where
    they are None, a -1 given the rest; ValueError naming `op` when they do not cut the axis."""
    values, out = iter(sizes), []
    for s in sections:
        if s is None:
            v = np.asarray(next(values)).reshape(-1)
            if v.size != 1 or v.dtype.kind not in "iu":
                raise ValueError(f"{op}: a section given as a Tensor must be one int, got {v.size} values of {v.dtype}")
            s = int(v[0])
        out.append(s)
    if out.count(-1) > 1 or any(s < -1 for s in out):
        raise ValueError(f"{op}: the sections are {out} when the Program runs; one may be -1, the others sizes >= 0")
    if -1 in out:
        out[out.index(-1)] = dim - (sum(out) + 1)
    if sum(out) != dim or min(out) < 0:
        raise ValueError(f"{op}: the sections are {out} when the Program runs, which do not add up to the axis's "
                         f"size {dim}")  # fmt: skip
    return out


class _CutAtRunTime(OpDef):
    """Input 0 cut along `axis` into parts whose sizes the other inputs give when it runs. The gradient
    concatenates the parts' gradients (as split's); the size inputs get none."""

    saves_inputs = False

    def grad(self, node, *gs):
        return (concat(gs, node.attrs["axis"]),) + (None,) * (len(node.inputs) - 1)


@register
class RuntimeSplit(_CutAtRunTime):
    """x cut along `axis` into parts of the sizes `sections` gives, None ones from the inputs when it runs."""

    name = "runtime_split"

    def kernel(self, x, *sizes, axis, sections):
        return cut(x, section_sizes(sections, sizes, x.shape[axis], self.name), axis)

    def infer_meta(self, x: Meta, *sizes: Meta, axis, sections) -> tuple:
        def part(s) -> Meta:  # a known size stays known; a computed one, or the rest, is -1
            shape = list(x.shape)
            shape[axis] = s if s is not None and s >= 0 else -1
            return Meta(tuple(shape), x.dtype)

        return tuple(part(s) for s in sections)


def runtime_split(x: Tensor, sizes, axis: int, sections) -> tuple:
    return apply(RuntimeSplit, (x, *sizes), {"axis": axis, "sections": tuple(sections)})


@register
class SplitLike(_CutAtRunTime):
    """g cut along `axis` into parts as long there as each of `likes` (read for their shapes only, when it runs)."""

    name = "split_like"

    def kernel(self, g, *likes, axis):
        return cut(g, [like.shape[axis] for like in likes], axis)

    def infer_meta(self, g: Meta, *likes: Meta, axis) -> tuple:
        return tuple(Meta(tuple(like.shape[axis] if i == axis else d for i, d in enumerate(g.shape)), g.dtype)
                     for like in likes)  # fmt: skip


def split_like(g: Tensor, likes, axis: int) -> tuple:
    return apply(SplitLike, (g, *likes), {"axis": axis})
