"""Slicing with bounds a Program computes: `x[:n]`, `x[i:j]` where n, i, j are Tensors (e.g. `paddle.shape(x)[0]`)
in static mode or converted code. Paddle 2.6 writes these as `slice` / `strided_slice` with StartsTensorList /
EndsTensorList inputs; here they are one op whose bounds are inputs, read when it runs:

    runtime_slice(x, *bounds, axes, spans)              x sliced along `axes` (all axes kept)
    runtime_slice_grad(g, x, *bounds, axes, spans)      zeros of x's shape with g written at the slice
    runtime_set_value(x, value, *bounds, axes, spans)   x with value written at the slice (`x[:n] = v`)

`spans` holds one (start, stop, step) per axis; each is an int, None (open, as in Python's slice) or the string
"tensor": the next of the bound inputs (a Tensor holding one int), in order. Going forward the bounds mean what
Python's slice bounds mean (negative counts from the end, out of range clamps), as `x[:n]` does with an int n.
Going backward, a bound given as a Tensor is read as paddle 2.6.2's strided_slice and set_value kernels read it
(`tensor_bound_slice`), since that is what a saved Program means to paddle: a stop of -1 is "through index 0", a
start before the axis is index 0, and what paddle refuses raises a ValueError. A Tensor step that is negative when
the op runs needs its start and stop given (not -1), as paddle 2.6 has it.

The bounds never get gradients. runtime_slice_grad reads x for its shape only (known when the op runs, so one
Program serves every batch size); its own gradient slices again, so double backward works.
"""

from __future__ import annotations

import builtins

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.manipulation import input_shape

__all__ = ["FROM_INPUT", "runtime_slice", "runtime_slice_grad", "runtime_set_value", "tensor_bound_slice"]

FROM_INPUT = "tensor"  # a bound that is the next of the op's bound inputs


def tensor_bound_slice(start, stop, step, dim: int, given: tuple, writing: bool, op: str) -> builtins.slice:
    """The slice paddle 2.6.2 takes along an axis of size `dim` when some of start, stop, step came from Tensors
    (`given`: which did), as its strided_slice (`writing` False) and set_value kernels read them when they run.
    Going forward that is Python's slice. Going backward (step < 0), for a bound given as a Tensor:
    - a stop of -1 is "through index 0" (Python: the last index, so the slice is empty);
    - a start before the axis is index 0 (Python: empty);
    - a stop past the last index, and a start before the stop, are refused (paddle's kernels raise);
    - a stop before the axis, -dim - 1 or less: paddle's slice stops before index 0 and its set_value goes through
      it (Python too); a write refuses it, so x[a:b] = v always writes the part x[a:b] reads."""
    if step is None or step > 0 or not any(given) or (not given[1] and stop == -1):
        return builtins.slice(start, stop, step)  # (a known stop of -1 keeps Python's reading, saved as 0:0)
    if given[0] and start is not None and start < -dim:
        start = 0
    if given[1] and stop is not None:
        if stop == -1:
            stop = None
        elif stop >= dim:
            raise ValueError(
                f"{op}: going backward (step {step}), a stop given as a Tensor is {stop} when the "
                f"Program runs, past the last index of an axis of size {dim} (paddle 2.6.2 refuses it)"
            )
        elif stop < -dim:
            if writing:
                raise ValueError(
                    f"{op}: going backward (step {step}), a stop given as a Tensor is {stop} when the "
                    f"Program runs, before an axis of size {dim}: paddle 2.6.2 reads that as 'before "
                    "index 0' in a slice and 'through index 0' in a write; give None to go through it"
                )
            stop = 0
    first = dim - 1 if start is None else min(start + dim if start < 0 else start, dim - 1)
    last = -1 if stop is None else stop + dim if stop < 0 else stop
    if first < last:
        raise ValueError(f"{op}: going backward (step {step}), the start {start} comes before the stop {stop} on an "
                         f"axis of size {dim} when the Program runs (paddle 2.6.2 refuses it)")  # fmt: skip
    return builtins.slice(start, stop, step)


def numpy_index(shape, axes, spans, bounds, op: str, writing: bool = False) -> tuple:
    """The numpy index the op applies to x of `shape`: slices on `axes` (bounds filled from the inputs and read as
    tensor_bound_slice says), `:` elsewhere."""
    values = iter(bounds)
    index = [builtins.slice(None)] * len(shape)
    for axis, span in zip(axes, spans):
        parts = []
        for b in span:
            if b == FROM_INPUT:
                v = np.asarray(next(values)).reshape(-1)
                if v.size != 1 or v.dtype.kind not in "iu":
                    raise ValueError(f"{op}: a slice bound must be one int, got {v.size} values of {v.dtype}")
                b = int(v[0])
            parts.append(b)
        if parts[2] == 0:
            raise ValueError(f"{op}: the slice step must not be 0")
        if span[2] == FROM_INPUT and parts[2] < 0 and (parts[0] is None or parts[1] in (None, -1)):
            # Paddle 2.6 writes an open bound beside a Tensor step as a positive step's (0, the end) and reads an
            # end of -1 going backward as "through index 0": saved, this slice would mean something else
            raise ValueError(
                f"{op}: a step given as a Tensor is {parts[2]} when the Program runs; a negative Tensor step needs "
                "its start and stop given, and a stop other than -1 (paddle 2.6 refuses it too)"
            )
        given = tuple(b == FROM_INPUT for b in span)
        index[axis] = (
            tensor_bound_slice(*parts, int(shape[axis]), given, writing, op) if any(given) else builtins.slice(*parts)
        )
    return tuple(index)


def _sliced_meta(x: Meta, axes, spans) -> Meta:
    shape = list(x.shape)
    for axis, span in zip(axes, spans):
        known = FROM_INPUT not in span and shape[axis] >= 0
        shape[axis] = len(range(*builtins.slice(*span).indices(shape[axis]))) if known else -1
    return Meta(tuple(shape), x.dtype)


@register
class RuntimeSlice(OpDef):
    """x[spans] along `axes`, the bounds marked "tensor" from the inputs. A copy, not a view: an in-place write
    to a view is replayed on its base by the view op's kernel alone (core/dispatch.py), without the bounds."""

    name = "runtime_slice"
    saves_inputs = False

    def kernel(self, x, *bounds, axes, spans):
        return np.array(x[numpy_index(x.shape, axes, spans, bounds, self.name)], copy=True)

    def grad(self, node, g):
        x, bounds = node.inputs[0], node.inputs[1:]
        return (runtime_slice_grad(g, x, bounds, node.attrs["axes"], node.attrs["spans"]),) + (None,) * len(bounds)

    def infer_meta(self, x: Meta, *bounds: Meta, axes, spans) -> Meta:
        return _sliced_meta(x, axes, spans)


def runtime_slice(x: Tensor, bounds, axes, spans) -> Tensor:
    return apply(RuntimeSlice, (x, *bounds), {"axes": tuple(axes), "spans": tuple(tuple(s) for s in spans)})


@register
class RuntimeSliceGrad(OpDef):
    """Zeros of x's shape with g at x[spans] (x is read for its shape only): runtime_slice's gradient."""

    name = "runtime_slice_grad"
    saves_inputs = False

    def kernel(self, g, x, *bounds, axes, spans):
        out = np.zeros(x.shape, dtype=g.dtype)
        out[numpy_index(x.shape, axes, spans, bounds, self.name)] = g
        return out

    def grad(self, node, gg):
        bounds = node.inputs[2:]
        again = runtime_slice(gg, bounds, node.attrs["axes"], node.attrs["spans"])
        return (again, None) + (None,) * len(bounds)

    def infer_meta(self, g: Meta, x: Meta, *bounds: Meta, axes, spans) -> Meta:
        return Meta(x.shape, g.dtype)


def runtime_slice_grad(g: Tensor, x: Tensor, bounds, axes, spans) -> Tensor:
    return apply(RuntimeSliceGrad, (g, x, *bounds), {"axes": tuple(axes), "spans": tuple(tuple(s) for s in spans)})


@register
class RuntimeSetValue(OpDef):
    """x with x[spans] along `axes` replaced by value (broadcast): `x[:n] = v` with n a Tensor the Program computes.

    As set_value: the overwritten elements of x get no gradient; value gets the gradient of where it was written."""

    name = "runtime_set_value"
    saves_inputs = False

    def kernel(self, x, value, *bounds, axes, spans):
        out = x.copy()
        out[numpy_index(x.shape, axes, spans, bounds, self.name, writing=True)] = value
        return out

    def grad(self, node, g):
        value, bounds = node.inputs[1], node.inputs[2:]
        axes, spans = node.attrs["axes"], node.attrs["spans"]
        gx = gv = None
        if node.needs_grad(0):
            gx = runtime_set_value(g, ops.full_like(value, 0, None), bounds, axes, spans)
        if node.needs_grad(1):
            part = runtime_slice(g, bounds, axes, spans)
            gv = part if -1 in input_shape(node, 1) else ops.unbroadcast(part, input_shape(node, 1))
        return (gx, gv) + (None,) * len(bounds)

    def infer_meta(self, x: Meta, value: Meta, *bounds: Meta, axes, spans) -> Meta:
        return x


def runtime_set_value(x: Tensor, value: Tensor, bounds, axes, spans) -> Tensor:
    attrs = {"axes": tuple(axes), "spans": tuple(tuple(s) for s in spans)}
    return apply(RuntimeSetValue, (x, value, *bounds), attrs)
