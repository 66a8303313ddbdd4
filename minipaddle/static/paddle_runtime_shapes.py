"""Run-time sizes in the translation table (static/paddle_ops.py), both ways, as paddle 2.6 writes them:

- minipaddle's `shape` is Paddle's `shape` (int32);
- `runtime_slice` (x[:n] with n a Tensor, ops/runtime_slice.py) is Paddle's `slice`, or `strided_slice` when a
  step is not 1, with the Tensor bounds as StartsTensorList / EndsTensorList / StridesTensorList entries (the
  attribute holds -1 there, infer_flags -1); `runtime_set_value` (x[:n] = v) is Paddle's `set_value` with those
  lists (StepsTensorList for the steps). Going backward, Paddle reads an end of -1 as "through index 0", so
  Python's x[i:-1:-1] (always empty) is written as the empty 0:0;
- `runtime_source` of arange (paddle.arange(n), ops/runtime_source.py) is Paddle's `range`, with the bounds known
  when the Program was built written as fill_constant ops;
- eye's Tensor sizes are VAR attributes naming their variables (paddle 2.6.2's form);
- `runtime_split` (paddle.split with a section a Tensor the Program computes, ops/runtime_split.py) is Paddle's
  `split` with every section in SectionsTensorList, the known ones int32 fill_constant ops (a -1 too), the
  `sections` attribute -1 at the computed ones;
- the sized ops of ops/runtime_shape.py (paddle.reshape / expand / tile / full with a Tensor in the shape) are
  Paddle's reshape2 / expand_v2 / tile / fill_constant: a shape that is one 1-D Tensor goes in the op's whole-shape
  slot, a list holding Tensors in its tensor-list slot, one int32 fill_constant per size known when the Program
  was built, as paddle 2.6.2's Python API writes them.

Reading them back (paddle_ops.py's slice and range readers), the bounds may be variables: the readers build
minipaddle's runtime ops through the public functions (x[start:end], paddle.arange).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.ops.runtime_slice import FROM_INPUT
from minipaddle.static.paddle_ops import DTYPE_NUMBERS, WRITERS, Steps, Temp, VarAttr, writes

__all__: list = []  # it fills the translation table

_INT_MAX = 2**31 - 1  # what Paddle writes for an open end


@writes("shape")
def _w_shape(op, var_of):
    return "shape", {"Input": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, {}


_OPEN = {"Starts": 0, "Ends": _INT_MAX, "Steps": 1}  # what Paddle writes for a bound left out


def _bound_lists(op, spans) -> tuple[dict, dict, list, dict]:
    """The spans' bounds as Paddle's XTensorList inputs: per slot (Starts, Ends, Steps) the Tensor bounds, or none
    when all are known. Paddle takes a list only whole, one entry per axis, so a known bound beside a Tensor one is
    an int32 fill_constant, as paddle 2.6.2 writes it. Returns (lists, attribute values with -1 at the Tensor
    bounds, fill_constant steps, their temps)."""
    bounds, out = iter(op.inputs["bounds"]), op.outputs["Out"][0]
    lists = {slot: [] for slot in _OPEN}
    values = {slot: [] for slot in _OPEN}
    for span in spans:
        start, stop, step = span
        backward = step is not None and step != FROM_INPUT and step < 0
        given = [next(bounds) if b == FROM_INPUT else None for b in span]
        if backward and stop == -1:
            # Python's last index, so the slice is empty whatever its start; Paddle would read -1 going backward
            # as "through index 0": written as the empty 0:0
            span, given = (0, 0, 1), [None] * 3
        # open bounds going backward: from the last index (2**31-1, clipped) through index 0 (-1 to Paddle); beside
        # a Tensor step, a positive step's, as paddle 2.6.2 writes them (runtime_slice refuses a negative one there)
        opened = {"Starts": _INT_MAX, "Ends": -1, "Steps": 1} if backward else _OPEN
        for slot, b, var in zip(_OPEN, span, given):
            lists[slot].append(var)
            values[slot].append(-1 if b == FROM_INPUT else opened[slot] if b is None else int(b))
    steps, temps = [], {}
    for slot, entries in lists.items():
        if all(e is None for e in entries):
            lists[slot] = []
            continue
        for i, e in enumerate(entries):
            if e is None:
                const = f"{out}@{slot.lower()}{i}"
                temps[const] = Temp([1], np.int32)
                steps.append(_w_constant(const, values[slot][i], np.dtype(np.int32)))
                entries[i] = const
    return lists, values, steps, temps


@writes("runtime_slice")
def _w_runtime_slice(op, var_of):
    """x[spans] along axes as Paddle's slice / strided_slice, each Tensor bound in its slot's TensorList."""
    lists, values, steps, temps = _bound_lists(op, op.attrs["spans"])
    flags = [-1 if FROM_INPUT in span else 1 for span in op.attrs["spans"]]
    attrs = {"axes": list(op.attrs["axes"]), "starts": values["Starts"], "ends": values["Ends"],
             "infer_flags": flags, "decrease_axis": []}  # fmt: skip
    inputs = {"Input": op.inputs["x"][:1], "StartsTensorList": lists["Starts"], "EndsTensorList": lists["Ends"]}
    out = {"Out": op.outputs["Out"][:1]}
    if all(s == 1 for s in values["Steps"]) and not lists["Steps"]:
        steps.append(("slice", inputs, out, attrs))
    else:  # a Tensor step is a StridesTensorList entry, its attribute -1 (paddle 2.6.2's form)
        inputs["StridesTensorList"] = lists["Steps"]
        steps.append(("strided_slice", inputs, out, {**attrs, "strides": values["Steps"]}))
    return Steps(steps, temps)


@writes("runtime_set_value")
def _w_runtime_set_value(op, var_of):
    """x[spans] = value (x[:n] = v) as Paddle's set_value, the value as ValueTensor and each slot given as a
    TensorList written with an empty attribute, as paddle 2.6.2 writes it (negative steps with its open bounds,
    2**31-1 and -1, as for strided_slice)."""
    lists, values, steps, temps = _bound_lists(op, op.attrs["spans"])
    x = op.inputs["x"][0]
    attrs = {"axes": list(op.attrs["axes"]), "decrease_axes": [], "none_axes": [], "shape": [], "values": [],
             "dtype": DTYPE_NUMBERS[var_of(x).dtype.name]}  # fmt: skip
    inputs = {"Input": [x], "ValueTensor": op.inputs["value"][:1]}
    for slot in _OPEN:
        attrs[slot.lower()] = [] if lists[slot] else values[slot]
        inputs[f"{slot}TensorList"] = lists[slot]
    steps.append(("set_value", inputs, {"Out": op.outputs["Out"][:1]}, attrs))
    return Steps(steps, temps)


@writes("runtime_split")
def _w_runtime_split(op, var_of):
    """paddle.split with computed sections as Paddle's split: every section in SectionsTensorList (a known one,
    -1 too, as an int32 fill_constant), the attribute holding -1 at the computed ones, num 0."""
    sizes, steps, temps, entries = iter(op.inputs["sizes"]), [], {}, []
    for i, s in enumerate(op.attrs["sections"]):
        if s is None:
            entries.append(next(sizes))
            continue
        const = f"{op.outputs['Out'][0]}@section{i}"
        temps[const] = Temp([1], np.int32)
        steps.append(_w_constant(const, int(s), np.dtype(np.int32)))
        entries.append(const)
    attrs = {"axis": int(op.attrs["axis"]), "num": 0, "sections": [-1 if s is None else int(s)
                                                                   for s in op.attrs["sections"]]}  # fmt: skip
    inputs = {"X": op.inputs["x"][:1], "SectionsTensorList": entries, "AxisTensor": []}
    steps.append(("split", inputs, {"Out": list(op.outputs["Out"])}, attrs))
    return Steps(steps, temps)


def _w_constant(name: str, value, dtype: np.dtype, shape=(1,), **more_attrs) -> tuple:
    """The fill_constant step making `name` (a bound or size known when the Program was built), as paddle 2.6.2
    writes it; `more_attrs` are the ones some of its callers add (a size's force_cpu)."""
    number = DTYPE_NUMBERS[dtypes.from_numpy(dtype).name]
    attrs = {"shape": list(shape), "dtype": number, "value": float(value), "str_value": str(value), **more_attrs}
    return "fill_constant", {}, {"Out": [name]}, attrs


@writes("runtime_source")
def _w_runtime_source(op, var_of):
    """paddle.arange with a Tensor bound as Paddle's range (Start, End and Step all tensors), linspace and eye
    as theirs."""
    attrs = op.attrs
    if attrs["source"] == "linspace":
        return _w_runtime_linspace(op, var_of)
    if attrs["source"] == "eye":
        return _w_runtime_eye(op, var_of)
    dtype = np.dtype(attrs["attrs"]["dtype"])
    given = dict(zip(attrs["scalars"], op.inputs["values"][attrs["n_sizes"] :]))
    out = op.outputs["Out"][0]
    steps, temps, inputs = [], {}, {}
    for slot, name in (("Start", "start"), ("End", "end"), ("Step", "step")):
        if name in given:
            var = given[name]
            if var_of(var).dtype.np != dtype:  # Paddle's range wants its three inputs in the output's dtype
                cast = f"{out}@{name}"
                temps[cast] = Temp(var_of(var).shape, dtype)
                steps.append(("cast", {"X": [var]}, {"Out": [cast]},
                              {"in_dtype": DTYPE_NUMBERS[var_of(var).dtype.name],
                               "out_dtype": DTYPE_NUMBERS[dtypes.from_numpy(dtype).name]}))  # fmt: skip
                var = cast
            inputs[slot] = [var]
        else:
            const = f"{out}@{name}"
            temps[const] = Temp([1], dtype)
            steps.append(_w_constant(const, attrs["attrs"][name], dtype))
            inputs[slot] = [const]
    steps.append(("range", inputs, {"Out": [out]}, {}))
    return Steps(steps, temps)


# minipaddle op -> (Paddle op, whole-shape slot, tensor-list slot, shape attribute, its value where a Tensor gives
# the size, its value when the whole shape is one Tensor, the shape of a known size's fill_constant), as paddle
# 2.6.2 writes each (its reshape2 / expand_v2 / tile / fill_constant with paddle.shape(x) sizes, read back)
_SIZED = {
    "reshape_with_shape": ("reshape2", "Shape", "ShapeTensor", "shape", -1, [], [1]),
    "expand_with_shape": ("expand_v2", "Shape", "expand_shapes_tensor", "shape", -2, [], [1]),
    "tile_with_repeats": ("tile", "RepeatTimes", "repeat_times_tensor", "repeat_times", -1, [-1], [1]),
    "full_with_shape": ("fill_constant", "ShapeTensor", "ShapeTensorList", "shape", -1, [], []),
    "random": ("", "ShapeTensor", "ShapeTensorList", "shape", -1, [], []),  # uniform_random, gaussian_random, randint
}


def _size_inputs(template, sizes, out: str, var_of, kind: str) -> tuple[dict, dict, list, dict]:
    """The size slot, the shape attribute, the fill_constant steps for known sizes and their temps, for the shape
    `template` (None where the next of the `sizes` variables gives it) of the op writing `out`."""
    _, whole_slot, list_slot, attr, tensor_mark, whole_attr, known_shape = _SIZED[kind]
    sizes = list(sizes)
    if len(sizes) == 1 and all(t is None for t in template) and list(var_of(sizes[0]).shape) == [len(template)]:
        return {whole_slot: sizes}, {attr: whole_attr}, [], {}  # the whole shape is one 1-D Tensor
    entries, steps, temps, it = [], [], {}, iter(sizes)
    for i, t in enumerate(template):
        if t is None:
            entries.append(next(it))
            continue
        const = f"{out}@size{i}"
        temps[const] = Temp(known_shape, np.int32)
        steps.append(_w_constant(const, t, np.dtype(np.int32), known_shape, force_cpu=True))
        entries.append(const)
    values = [tensor_mark if t is None else int(t) for t in template]
    return {list_slot: entries}, {attr: values}, steps, temps


def _fill_text(value, dtype: str) -> str:
    """fill_constant's str_value as paddle's Python writes it: an int for int dtypes, a float otherwise."""
    return str(int(value)) if dtype in ("int32", "int64") else str(float(value))


@writes(*_SIZED)
def _w_sized(op, var_of):
    """reshape / expand / tile / full with sizes read when the Program runs, as Paddle's op with size inputs."""
    paddle_type, out = _SIZED[op.type][0], op.outputs["Out"][0]
    size_slot, attrs, steps, temps = _size_inputs(op.attrs["template"], op.inputs["sizes"], out, var_of, op.type)
    if op.type == "full_with_shape":
        dtype = dtypes.to_dtype(op.attrs["dtype"]).name
        attrs.update(dtype=DTYPE_NUMBERS[dtype], value=float(op.attrs["value"]),
                     str_value=_fill_text(op.attrs["value"], dtype), force_cpu=False)  # fmt: skip
        steps.append((paddle_type, size_slot, {"Out": [out]}, attrs))
    else:
        outputs = {"Out": [out], "XShape": [out + "@XShape"]} if paddle_type == "reshape2" else {"Out": [out]}
        steps.append((paddle_type, {"X": op.inputs["x"][:1], **size_slot}, outputs, attrs))
    return Steps(steps, temps)


def _w_runtime_linspace(op, var_of):
    """paddle.linspace with a Tensor bound or count as Paddle's linspace: Start and Stop tensors of the output's
    dtype, Num an int32 tensor; the values known when the Program was built as fill_constant ops (as paddle
    2.6.2 writes them)."""
    attrs, out = op.attrs, op.outputs["Out"][0]
    dtype = np.dtype(attrs["attrs"]["dtype"])
    given = dict(zip(attrs["scalars"], op.inputs["values"][attrs["n_sizes"] :]))
    steps, temps, inputs = [], {}, {}
    for slot, name, slot_dtype in (("Start", "start", dtype), ("Stop", "stop", dtype), ("Num", "num", np.int32)):
        if name in given:
            inputs[slot] = [given[name]]
            continue
        const = f"{out}@{name}"
        temps[const] = Temp([1], slot_dtype)
        steps.append(_w_constant(const, attrs["attrs"][name], np.dtype(slot_dtype)))
        inputs[slot] = [const]
    steps.append(("linspace", inputs, {"Out": [out]}, {"dtype": DTYPE_NUMBERS[dtypes.from_numpy(dtype).name]}))
    return Steps(steps, temps)


# minipaddle's random source -> Paddle's op and its attributes from minipaddle's
_RANDOM = {
    "uniform": ("uniform_random", lambda a: {"min": float(a.get("min", -1.0)), "max": float(a.get("max", 1.0)),
                                             "seed": int(a.get("seed", 0))}),
    "gaussian": ("gaussian_random", lambda a: {"mean": float(a.get("mean", 0.0)), "std": float(a.get("std", 1.0)),
                                               "seed": int(a.get("seed", 0))}),
    "randint": ("randint", lambda a: {"low": int(a["low"]), "high": int(a["high"]), "seed": 0}),
}  # fmt: skip


def _random_step(source: str, attrs: dict, inputs: dict, shape_attr: dict, out: str) -> tuple:
    paddle_type, paddle_attrs = _RANDOM[source]
    dtype = dtypes.from_numpy(np.dtype(attrs["dtype"])).name
    return paddle_type, inputs, {"Out": [out]}, {**paddle_attrs(attrs), **shape_attr, "dtype": DTYPE_NUMBERS[dtype]}


@writes("runtime_random_source")
def _w_runtime_random_source(op, var_of):
    """paddle.rand / randn / uniform / normal / randint with Tensor sizes as Paddle's uniform_random /
    gaussian_random / randint with a ShapeTensorList (or ShapeTensor), as paddle 2.6.2 writes them."""
    attrs, out = op.attrs, op.outputs["Out"][0]
    sizes = op.inputs["values"][: attrs["n_sizes"]]
    size_slot, shape_attr, steps, temps = _size_inputs(attrs["attrs"]["shape"], sizes, out, var_of, "random")
    steps.append(_random_step(attrs["source"], attrs["attrs"], size_slot, shape_attr, out))
    return Steps(steps, temps)


def _w_random(source: str):
    def write(op, var_of):
        """A draw of a shape known when the Program was built: the shape in the attribute."""
        return _random_step(source, op.attrs, {}, {"shape": [int(d) for d in op.attrs["shape"]]}, op.outputs["Out"][0])

    return write


for _source in _RANDOM:
    WRITERS[_source] = _w_random(_source)


@writes("expand")
def _w_expand(op, var_of):
    return "expand_v2", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, {"shape": list(op.attrs["shape"])}


@writes("tile")
def _w_tile(op, var_of):
    return ("tile", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]},
            {"repeat_times": [int(r) for r in op.attrs["repeat_times"]]})  # fmt: skip


def _w_runtime_eye(op, var_of):
    """paddle.eye with a Tensor size as Paddle's eye: the size is a VAR attribute naming its variable, as paddle
    2.6.2 writes it (num_columns left out is num_rows)."""
    attrs = op.attrs
    given = dict(zip(attrs["scalars"], op.inputs["values"][attrs["n_sizes"] :]))
    sizes = {}
    for name in ("num_rows", "num_columns"):
        sizes[name] = VarAttr(given[name]) if name in given else attrs["attrs"].get(name)
    if sizes["num_columns"] is None:
        sizes["num_columns"] = sizes["num_rows"]
    dtype = DTYPE_NUMBERS[dtypes.from_numpy(np.dtype(attrs["attrs"]["dtype"])).name]
    return "eye", {}, {"Out": op.outputs["Out"][:1]}, {**sizes, "dtype": dtype}
