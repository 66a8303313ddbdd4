"""Indexing in the translation table (static/paddle_ops.py): x[index] both ways, as paddle 2.6's Python API writes
it into a .pdmodel.

- A basic index (ints, slices, None, Ellipsis; minipaddle's `index_view`) is Paddle's `slice`, or `strided_slice`
  when a step is not 1, dropping the int-indexed axes (decrease_axis), then `unsqueeze2` for the None parts.
- An advanced index (integer or boolean arrays; minipaddle's `getitem`, whose arrays are constants of the Program)
  is Paddle's `gather_nd`: the basic parts first as a slice, the indexed axes moved to the front (`transpose2`),
  `gather_nd` with the indices stacked along a last axis (`assign_value`), and the gathered axes moved back where
  numpy puts them (in place when the advanced parts are next to each other, else first).

Paddle's strided_slice reads an `end` of -1 with a negative stride as "through index 0" and clips other ends that
fall before 0 to 0; numpy reads -1 as the last index. The writer and the reader translate between the two.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.static import tensor_api as paddle
from minipaddle.static.paddle_ops import DTYPE_NUMBERS, Steps, Temp, reads, slice_with_tensor_bounds, writes
from minipaddle.static.program import Variable

__all__ = ["view_index"]

_INT_MAX = 2**31 - 1  # what Paddle writes for an open end


def _expand_ellipsis(index: tuple, ndim: int) -> tuple:
    """index with its Ellipsis replaced by the full slices it stands for (a boolean array covers its ndim axes)."""
    at = next((i for i, p in enumerate(index) if p is Ellipsis), None)  # (`in` would compare arrays)
    if at is None:
        return index
    covered = sum(0 if p is None or p is Ellipsis else p.ndim if _is_mask(p) else 1 for p in index)
    return index[:at] + (slice(None),) * (ndim - covered) + index[at + 1 :]


def _is_mask(part) -> bool:
    return isinstance(part, np.ndarray) and part.dtype == np.bool_


def _negative_step_bounds(part: slice, dim: int, fn: str) -> tuple:
    """(start, end) of a slice with a negative step as Paddle's strided_slice reads them."""
    if dim >= 0:  # known size: numpy's own bounds, where an end of -1 is Paddle's "through index 0"
        start, stop, step = part.indices(dim)
        if not len(range(start, stop, step)):
            raise NotImplementedError(f"{fn}: an empty slice {part} of an axis of size {dim}")
        return start, stop
    return (_INT_MAX if part.start is None else int(part.start)), (-1 if part.stop is None else int(part.stop))


def view_index(index, shape, fn: str) -> tuple:
    """(axes, starts, ends, steps, decrease axes, new axes) of a basic index (ints, slices, None, Ellipsis) into
    `shape`, as Paddle's slice / strided_slice attributes; `new axes`: where the None parts are in the result."""
    index = index if isinstance(index, tuple) else (index,)
    index = _expand_ellipsis(index, len(shape))
    axes, starts, ends, steps, decrease, new_axes = [], [], [], [], [], []
    axis = out_axis = 0  # the next axis of x, and of the result
    for part in index:
        if part is None:
            new_axes.append(out_axis)
            out_axis += 1
            continue
        if isinstance(part, slice):
            out_axis += 1
            if part != slice(None):
                step = 1 if part.step is None else int(part.step)
                if step < 0 and part.stop == -1 and int(shape[axis]) < 0:
                    # Python's last index going backward: empty whatever the size, written as the empty 0:0
                    # (Paddle would read -1 as "through index 0")
                    part, step = slice(0, 0), 1
                if step > 0:
                    start = 0 if part.start is None else int(part.start)
                    end = _INT_MAX if part.stop is None else int(part.stop)
                else:
                    start, end = _negative_step_bounds(part, int(shape[axis]), fn)
                axes.append(axis)
                starts.append(start)
                ends.append(end)
                steps.append(step)
        elif isinstance(part, (int, np.integer)) and not isinstance(part, bool):
            axes.append(axis)
            starts.append(int(part))
            ends.append(_INT_MAX if int(part) == -1 else int(part) + 1)
            steps.append(1)
            decrease.append(axis)
        else:
            raise NotImplementedError(f"{fn} with an index part {part!r}")
        axis += 1
    return axes, starts, ends, steps, decrease, new_axes


def _slice_step(x: str, out: str, axes, starts, ends, steps, decrease) -> tuple:
    attrs = {"axes": axes, "starts": starts, "ends": ends, "decrease_axis": decrease, "infer_flags": [1] * len(axes)}
    if all(s == 1 for s in steps):
        return "slice", {"Input": [x]}, {"Out": [out]}, attrs
    return "strided_slice", {"Input": [x]}, {"Out": [out]}, {**attrs, "strides": steps}


@writes("index_view")
def _w_index_view(op, var_of):
    """x[ints, slices, None, ...] as Paddle's slice or strided_slice, then unsqueeze2 for the new axes."""
    x, out = op.inputs["x"][0], op.outputs["Out"][0]
    axes, starts, ends, steps, decrease, new_axes = view_index(op.attrs["index"], var_of(x).shape, "writing x[index]")
    if not new_axes:
        if not axes:  # x[...] or x[:]: the whole tensor
            return "assign", {"X": [x]}, {"Out": [out]}, {}
        return _slice_step(x, out, axes, starts, ends, steps, decrease)
    result = var_of(out)
    unsqueeze = ("unsqueeze2", {"X": [out + "@sliced"] if axes else [x]}, {"Out": [out], "XShape": [out + "@XShape"]},
                 {"axes": new_axes})  # fmt: skip
    if not axes:
        return Steps([unsqueeze], {})
    sliced = Temp([d for i, d in enumerate(result.shape) if i not in new_axes], result.dtype)
    return Steps([_slice_step(x, out + "@sliced", axes, starts, ends, steps, decrease), unsqueeze],
                 {out + "@sliced": sliced})  # fmt: skip


@reads("strided_slice")
def _strided_slice(op):
    """Paddle's strided_slice as numpy slices (see the module's note on its ends)."""
    x = op.x("Input")
    for slot in ("StartsTensor", "EndsTensor", "StridesTensor"):
        if op.xs(slot):
            raise NotImplementedError(f"strided_slice with a {slot} input (bounds known only at run time)")
    lists = ("StartsTensorList", "EndsTensorList", "StridesTensorList")
    if any(op.xs(slot) for slot in lists):  # bounds a Program computes: a runtime_slice
        spans = [list(op.attr(a)) for a in ("axes", "starts", "ends", "strides")]
        bounds = [op.xs(slot) for slot in lists]
        return {"Out": slice_with_tensor_bounds(x, *spans, *bounds, list(op.attr("decrease_axis", [])))}
    index = [slice(None)] * x.ndim
    for axis, start, end, stride in zip(op.attr("axes"), op.attr("starts"), op.attr("ends"), op.attr("strides")):
        dim = x.shape[axis]
        stop = None if end >= _INT_MAX else int(end)
        if stride < 0 and end == -1:
            stop = None  # through index 0
        elif stride < 0 and end < -1 and dim >= 0 and end + dim < 0:
            stop = 0  # Paddle clips an end before the axis to 0 (numpy: through index 0)
        index[axis] = slice(int(start), stop, int(stride))
    out = x[tuple(index)]
    decrease = list(op.attr("decrease_axis", []))
    return {"Out": paddle.squeeze(out, decrease) if decrease else out}


# ---- advanced indexing: gather_nd ----------------------------------------------------------------------------------


def _constant_step(name: str, values: np.ndarray) -> tuple:
    """An int64 constant as Paddle's assign_value."""
    attrs = {"shape": list(values.shape), "dtype": DTYPE_NUMBERS["int64"], "bool_values": [], "fp32_values": [],
             "fp64_values": [], "int32_values": [], "int64_values": [int(v) for v in values.reshape(-1)]}  # fmt: skip
    return "assign_value", {}, {"Out": [name]}, attrs


def _transpose_step(x: str, out: str, perm: list) -> tuple:
    return "transpose2", {"X": [x]}, {"Out": [out], "XShape": [out + "@XShape"]}, {"axis": perm}


def _sliced_size(part: slice, dim: int) -> int:
    return -1 if dim < 0 else len(range(*part.indices(dim)))


@writes("getitem")
def _w_getitem(op, var_of):
    """x[index] with integer or boolean arrays (and ints, slices, Ellipsis) as Paddle's gather_nd (see above)."""
    fn = "writing x[index] with arrays"
    x, out = op.inputs["x"][0], op.outputs["Out"][0]
    shape = list(var_of(x).shape)
    index = op.attrs["index"]
    index = _expand_ellipsis(index if isinstance(index, tuple) else (index,), len(shape))
    if any(p is None for p in index):  # (numpy's rules for where the new axis goes are not written here)
        raise NotImplementedError(f"{fn} and None (a new axis)")
    parts = []  # one per axis of x: a slice, or an integer array (advanced)
    for p in index:
        if _is_mask(p):  # a constant mask is the integer arrays of its True places
            parts.extend(np.nonzero(p))
        elif isinstance(p, slice):
            parts.append(p)
        else:
            parts.append(np.asarray(p, dtype=np.int64))
    parts += [slice(None)] * (len(shape) - len(parts))
    advanced = [i for i, p in enumerate(parts) if isinstance(p, np.ndarray)]
    arrays = []
    for i in advanced:
        a = parts[i]
        if (a < 0).any():
            if shape[i] < 0:
                raise NotImplementedError(f"{fn}: negative indices into axis {i}, whose size is known only at run time")
            a = np.where(a < 0, a + shape[i], a)
        arrays.append(a)
    batch = np.broadcast_shapes(*(a.shape for a in arrays))
    if 0 in batch:
        raise NotImplementedError(f"{fn}: an empty index")
    indices = np.stack([np.broadcast_to(a, batch) for a in arrays], axis=-1)
    dtype = var_of(x).dtype
    steps, temps = [], {}
    source = x
    basic = [p if isinstance(p, slice) else slice(None) for p in parts]
    axes, starts, ends, strides, _, _ = view_index(tuple(basic), shape, fn)
    if axes:
        shape = [d if isinstance(p, np.ndarray) else _sliced_size(p, d) for p, d in zip(parts, shape)]
        temps[out + "@sliced"] = Temp(shape, dtype)
        steps.append(_slice_step(x, out + "@sliced", axes, starts, ends, strides, []))
        source = out + "@sliced"
    rest = [i for i in range(len(shape)) if i not in advanced]
    perm = advanced + rest
    if perm != list(range(len(shape))):
        temps[out + "@moved"] = Temp([shape[i] for i in perm], dtype)
        steps.append(_transpose_step(source, out + "@moved", perm))
        source = out + "@moved"
    temps[out + "@index"] = Temp(indices.shape, "int64")
    steps.append(_constant_step(out + "@index", indices))
    nb, first = len(batch), advanced[0]
    in_place = advanced == list(range(first, first + len(advanced))) and first > 0  # numpy keeps them where they were
    gathered = out + "@gathered" if in_place else out
    if in_place:
        temps[gathered] = Temp(list(batch) + [shape[i] for i in rest], dtype)
    steps.append(("gather_nd", {"X": [source], "Index": [out + "@index"]}, {"Out": [gathered]}, {}))
    if in_place:
        back = [nb + i for i in range(first)] + list(range(nb)) + [nb + i for i in range(first, len(rest))]
        steps.append(_transpose_step(gathered, out, back))
    return Steps(steps, temps)


@reads("gather_nd")
def _gather_nd(op):
    return {"Out": paddle.gather_nd(op.x("X"), op.x("Index"))}


@reads("where_index")
def _where_index(op):
    """The places where Condition is true, [n, ndim] (n known at run time): paddle.nonzero."""
    return {"Out": paddle.nonzero(op.x("Condition"))}


@writes("set_value")
def _w_set_value(op, var_of):
    """x[index] = value as Paddle's set_value with the value as a tensor (ValueTensor); the None parts' places in
    the index are its none_axes (as paddle 2.6.2's replace_none counts them)."""
    x, value = op.inputs["x"][0], op.inputs["value"][0]
    fn = "writing x[index] = v"
    shape = var_of(x).shape
    index = op.attrs["index"]
    index = _expand_ellipsis(index if isinstance(index, tuple) else (index,), len(shape))
    if any(isinstance(part, np.ndarray) for part in index):
        return _w_index_put(op, var_of, index, fn + " with arrays")
    none_axes = [i for i, part in enumerate(index) if part is None]
    index = tuple(part for part in index if part is not None)
    axes, starts, ends, steps, decrease, _ = view_index(index, shape, fn)
    attrs = {"axes": axes, "starts": starts, "ends": ends, "steps": steps, "decrease_axes": decrease,
             "none_axes": none_axes, "shape": [int(d) for d in var_of(value).shape], "values": [],
             "dtype": DTYPE_NUMBERS[var_of(x).dtype.name]}  # fmt: skip
    return "set_value", {"Input": [x], "ValueTensor": [value]}, {"Out": op.outputs["Out"][:1]}, attrs


# ---- writes with arrays: index_put -------------------------------------------------------------------------------


def _advanced_parts(index: tuple, shape: list, fn: str) -> list:
    """One part per axis of x: a slice, or an int64 array. Masks become the arrays of their True places, and an int
    beside an array is one more array (numpy broadcasts it with them); negative places count from the end."""
    parts = []
    for p in index:
        if p is None:  # (numpy's rules for where the new axis goes are not written here)
            raise NotImplementedError(f"{fn} and None (a new axis)")
        if _is_mask(p):
            parts.extend(np.nonzero(p))
        elif isinstance(p, slice):
            parts.append(p)
        else:
            parts.append(np.asarray(p, dtype=np.int64))
    parts += [slice(None)] * (len(shape) - len(parts))
    for i, p in enumerate(parts):
        if isinstance(p, np.ndarray) and (p < 0).any():
            if shape[i] < 0:
                raise NotImplementedError(f"{fn}: negative places in axis {i}, whose size is known only at run time")
            parts[i] = np.where(p < 0, p + shape[i], p)
    return parts


def _w_index_put(op, var_of, index: tuple, fn: str):
    """x[index] = v with integer or boolean arrays (and ints, slices, Ellipsis) as paddle 2.6.2's to_static writes
    it: the part the slices select (slice / strided_slice), its indexed axes moved to the front (transpose2), the
    arrays as assign_value constants written by `index_put`, the axes moved back (transpose2), and the part put
    back into x (set_value with the slices' attributes). Where numpy keeps the indexed axes in place (next to each
    other, after a slice), v's axes are moved to index_put's order too (unsqueeze2 to the part's rank, transpose2).
    Steps with nothing to do (no slice, axes already in front) are left out."""
    x, value, out = op.inputs["x"][0], op.inputs["value"][0], op.outputs["Out"][0]
    shape, dtype = list(var_of(x).shape), var_of(x).dtype
    parts = _advanced_parts(index, shape, fn)
    advanced = [i for i, p in enumerate(parts) if isinstance(p, np.ndarray)]
    batch = np.broadcast_shapes(*(parts[i].shape for i in advanced))
    if 0 in batch:
        raise NotImplementedError(f"{fn}: an empty index")
    axes, starts, ends, strides, _, _ = view_index(tuple(p if isinstance(p, slice) else slice(None) for p in parts),
                                                   shape, fn)  # fmt: skip
    rest = [i for i in range(len(shape)) if i not in advanced]
    perm = advanced + rest
    moved_axes = perm != list(range(len(shape)))
    steps, temps = [], {}
    part = x
    if axes:
        shape = [d if isinstance(p, np.ndarray) else _sliced_size(p, d) for p, d in zip(parts, shape)]
        part = out + "@part"
        temps[part] = Temp(shape, dtype)
        steps.append(_slice_step(x, part, axes, starts, ends, strides, []))
    moved = part
    if moved_axes:
        moved = out + "@moved"
        temps[moved] = Temp([shape[i] for i in perm], dtype)
        steps.append(_transpose_step(part, moved, perm))
    indices = []
    for k, i in enumerate(advanced):
        indices.append(f"{out}@index{k}")
        temps[indices[-1]] = Temp(batch, "int64")
        steps.append(_constant_step(indices[-1], np.broadcast_to(parts[i], batch)))
    value, value_steps, value_temps = _value_in_front(value, var_of, advanced, len(batch), len(rest), out)
    steps += value_steps
    temps.update(value_temps)
    put = out if not (axes or moved_axes) else out + "@put"
    if put != out:
        temps[put] = Temp([shape[i] for i in perm], dtype)
    steps.append(("index_put", {"x": [moved], "indices": indices, "value": [value]}, {"out": [put]},
                  {"accumulate": False}))  # fmt: skip
    if moved_axes:
        back = out if not axes else out + "@back"
        if back != out:
            temps[back] = Temp(shape, dtype)
        steps.append(_transpose_step(put, back, [int(a) for a in np.argsort(perm)]))
        put = back
    if axes:
        attrs = {"axes": axes, "starts": starts, "ends": ends, "steps": strides, "decrease_axes": [], "none_axes": [],
                 "shape": [], "values": [], "dtype": DTYPE_NUMBERS[dtype.name]}  # fmt: skip
        steps.append(("set_value", {"Input": [x], "ValueTensor": [put]}, {"Out": [out]}, attrs))
    return Steps(steps, temps)


def _value_in_front(value: str, var_of, advanced: list, n_batch: int, n_rest: int, out: str) -> tuple:
    """(value, steps, temps): v with its axes in index_put's order (the indexed ones first, then the others). numpy
    puts the indexed axes first too, unless they are next to each other after `at` sliced axes: then v's axes are
    moved, once it has the part's rank; a v that covers only the axes after them broadcasts as it is."""
    at = advanced[0]
    in_place = advanced == list(range(at, at + len(advanced)))
    shape, dtype = [int(d) for d in var_of(value).shape], var_of(value).dtype
    if not in_place or at == 0 or len(shape) <= n_rest - at:
        return value, [], {}
    rank = n_batch + n_rest  # numpy's x[index]: the sliced axes before `at`, the indexed ones, the other sliced ones
    if len(shape) > rank:
        raise NotImplementedError(f"writing x[index] = v: v has {len(shape)} axes, more than the indexed part's {rank}")
    steps, temps = [], {}
    if len(shape) < rank:
        new_axes = list(range(rank - len(shape)))
        shape = [1] * len(new_axes) + shape
        ranked = out + "@value_rank"
        temps[ranked] = Temp(shape, dtype)
        steps.append(("unsqueeze2", {"X": [value]}, {"Out": [ranked], "XShape": [ranked + "@XShape"]},
                      {"axes": new_axes}))  # fmt: skip
        value = ranked
    perm = list(range(at, at + n_batch)) + list(range(at)) + list(range(at + n_batch, rank))
    temps[out + "@value"] = Temp([shape[i] for i in perm], dtype)
    steps.append(_transpose_step(value, out + "@value", perm))
    return out + "@value", steps, temps


@writes("index_put")
def _w_index_put_op(op, var_of):
    """paddle.index_put (minipaddle's op, as read from a Paddle file) as Paddle's index_put."""
    inputs = {"x": op.inputs["x"][:1], "indices": list(op.inputs["indices"]), "value": op.inputs["value"][:1]}
    return "index_put", inputs, {"out": op.outputs["Out"][:1]}, {"accumulate": bool(op.attrs["accumulate"])}


@reads("index_put")
def _index_put(op):
    return {"out": paddle.index_put(op.x("x"), op.xs("indices"), op.x("value"), bool(op.attr("accumulate", False)))}


@reads("set_value")
def _set_value(op):
    """x[index] = value. Bounds in a StartsTensorList / EndsTensorList / StepsTensorList (one per axis, given in
    place of the attribute) stay Variables where the Program computes them: the write is minipaddle's
    runtime_set_value (tensor/indexing.py's setitem), as `x[:n] = v` in converted code. The bounds are read as
    strided_slice's (slice_with_tensor_bounds): going backward a known end of -1 is "through index 0"; beside a
    Tensor step, 0 and 2**31-1 are the open start and end. none_axes are where the index had None (they only
    shape how the value broadcasts)."""
    x = op.x("Input")
    value = op.x("ValueTensor")
    if value is None:
        numbers = op.attr("values") or []
        data = np.asarray(numbers, dtype=dtypes.to_dtype(x.dtype).np).reshape(list(op.attr("shape", [])) or [-1])
        value = paddle.to_tensor(data.reshape([]) if data.size == 1 else data)
    axes = list(op.attr("axes"))
    bounds = []
    for slot in ("starts", "ends", "steps"):
        given = op.xs(slot.capitalize() + "TensorList")
        bounds.append(given if given else [int(b) for b in op.attr(slot)])
    index = [slice(None)] * x.ndim
    for axis, *span in zip(axes, *bounds):
        # a known bound in a TensorList (a fill_constant paddle wrote beside a Tensor one) is an int here
        start, end, step = (b if isinstance(b, Variable) else int(b) for b in span)
        decreased = axis in op.attr("decrease_axes", [])
        if decreased and isinstance(start, Variable):
            raise NotImplementedError("set_value at an index computed at run time (a decreased axis)")
        at_run_time = isinstance(step, Variable)
        if isinstance(start, int) and (start >= _INT_MAX or (at_run_time and start == 0)):
            start = None
        if isinstance(end, int) and (end >= _INT_MAX or (not at_run_time and step < 0 and end == -1)):
            end = None
        index[axis] = start if decreased else slice(start, end, step)
    for at in op.attr("none_axes") or []:  # paddle's none_axes: the None parts' places in the index
        index.insert(at, None)
    out = paddle.assign(x)
    out[tuple(index)] = value
    return {"Out": out}
