"""Pooling in the translation table (static/paddle_ops.py), for 1, 2 and 3 spatial axes, as paddle 2.6's Python
API writes it into a .pdmodel:

- 2-D: `pool2d` (max, avg, adaptive avg), `max_pool2d_with_index` when the indices (minipaddle's second output, the
  flat index of each maximum) are read, and for adaptive max pooling (paddle 2.6's pool2d computes adaptive max
  wrongly: measured 2.4 off);
- 3-D: `pool3d` and `max_pool3d_with_index`, the same way;
- 1-D: the 2-D op between `unsqueeze2` (axis 2) and a `squeeze2` of each output read (its Mask then is the index
  along the one axis, as minipaddle's);
- avg pooling with divisor_override: non-exclusive `pool2d` times kernel size / divisor (`scale`), which is the
  window sum over the divisor when every window has the whole kernel (not with ceil_mode or a larger padding
  after than before: those are refused).

- max pooling with ceil_mode whose indices are read (1-D, 2-D): paddle 2.6's max_pool2d_with_index has no
  ceil_mode (its Python API drops it, so paddle's own files compute another output size), so the input is widened
  with -FLT_MAX and the Mask recomputed (see _ceil_mode_with_index).
"""

from __future__ import annotations

import numpy as np

import minipaddle.nn.functional as F
from minipaddle.ops.windows import out_size
from minipaddle.static.paddle_ops import INDEX_WRITERS, Steps, Temp, _pairs, reads, writes

__all__: list = []


def _lift(op_type: str, x: str, outputs: dict, attrs: dict, var_of, read_slots=("Out",)) -> Steps:
    """A 1-D pool as Paddle writes it: unsqueeze2 x at axis 2, the 2-D op `op_type`, squeeze2 of each output slot
    in `read_slots`. outputs: {slot: minipaddle name}."""
    up = next(iter(outputs.values())) + "@2d_in"
    xv = var_of(x)
    temps = {up: Temp([*xv.shape[:2], 1, *xv.shape[2:]], xv.dtype)}
    lifted = {}
    for slot, name in outputs.items():
        v = var_of(name)
        lifted[slot] = name + "@2d"
        temps[name + "@2d"] = Temp([*v.shape[:2], 1, *v.shape[2:]], v.dtype)
    steps = [("unsqueeze2", {"X": [x]}, {"Out": [up], "XShape": [up + "@XShape"]}, {"axes": [2]}),
             (op_type, {"X": [up]}, {s: [n] for s, n in lifted.items()}, attrs)]  # fmt: skip
    for slot in read_slots:
        name = outputs[slot]
        steps.append(("squeeze2", {"X": [lifted[slot]]}, {"Out": [name], "XShape": [name + "@XShape"]}, {"axes": [2]}))
    return Steps(steps, temps)


def _as_2d(nd: int, values: list, fill) -> list:
    """A 1-D pool's per-axis values for the 2-D op it is written as: `fill` for the added axis, then its own."""
    return [fill, *values] if nd == 1 else list(values)


def _pool_op(base: str, nd: int) -> str:
    if nd not in (1, 2, 3):
        raise NotImplementedError(f"pooling over {nd} axes (Paddle's pool ops take 1, 2 or 3)")
    return base.replace("2d", "3d") if nd == 3 else base


def _window_attrs(op, nd: int) -> dict:
    kernel = _as_2d(nd, [int(k) for k in op.attrs["kernel_size"]], 1)
    strides = _as_2d(nd, [int(s) for s in op.attrs["strides"]], 1)
    paddings = _pairs(_as_2d(nd, [tuple(p) for p in op.attrs["paddings"]], (0, 0)))
    return {"ksize": kernel, "strides": strides, "paddings": paddings}


def _w_pool(kind: str):
    def write(op, var_of):
        x, out = op.inputs["x"][0], op.outputs["Out"][0]
        nd = len(op.attrs["kernel_size"])
        divisor = op.attrs.get("divisor_override")
        attrs = {"pooling_type": kind, **_window_attrs(op, nd), "ceil_mode": bool(op.attrs.get("ceil_mode", False)),
                 "global_pooling": False, "adaptive": False, "exclusive": bool(op.attrs.get("exclusive", True)),
                 "data_format": "NCDHW" if nd == 3 else "NCHW", "padding_algorithm": "EXPLICIT"}  # fmt: skip
        pool_type = _pool_op("pool2d", nd)
        pooled = out
        temps = {}
        if divisor:
            if op.attrs.get("ceil_mode") or any(after > before for before, after in op.attrs["paddings"]):
                raise NotImplementedError("avg pooling with divisor_override and ceil_mode or more padding after "
                                          "than before (Paddle writes it as a mean times the kernel size, exact "
                                          "only when every window holds the whole kernel)")  # fmt: skip
            attrs["exclusive"] = False  # the mean over the whole kernel: times its size, the window sum
            pooled = out + "@mean"
            temps[pooled] = Temp(var_of(out).shape, var_of(out).dtype)
        if nd == 1:
            steps = _lift(pool_type, x, {"Out": pooled}, attrs, lambda n: temps.get(n) or var_of(n))
            temps.update(steps.temps)
        else:
            steps = Steps([(pool_type, {"X": [x]}, {"Out": [pooled]}, attrs)], {})
        if divisor:
            scale = float(np.prod(op.attrs["kernel_size"])) / float(divisor)
            steps.append(("scale", {"X": [pooled]}, {"Out": [out]}, {"scale": scale, "bias": 0.0,
                                                                      "bias_after_scale": True}))  # fmt: skip
        return Steps(steps, temps) if len(steps) > 1 else steps[0]

    return write


writes("max_pool")(_w_pool("max"))
writes("avg_pool")(_w_pool("avg"))


def _with_index(op, var_of, nd: int, attrs: dict):
    """max_pool*_with_index for a minipaddle op whose outputs are (out, mask)."""
    x = op.inputs["x"][0]
    out, mask = op.outputs["Out"]
    op_type = _pool_op("max_pool2d_with_index", nd)
    if nd == 1:
        return _lift(op_type, x, {"Out": out, "Mask": mask}, attrs, var_of, read_slots=("Out", "Mask"))
    return op_type, {"X": [x]}, {"Out": [out], "Mask": [mask]}, attrs


def _w_max_pool_with_index(op, var_of):
    """max pooling whose indices some op reads, as Paddle's max_pool2d/3d_with_index."""
    nd = len(op.attrs["kernel_size"])
    if op.attrs.get("ceil_mode"):
        return _ceil_mode_with_index(op, var_of, nd)
    attrs = {**_window_attrs(op, nd), "global_pooling": False, "adaptive": False}
    if len(attrs["paddings"]) != len(attrs["ksize"]):
        raise NotImplementedError(f"max pooling with its indices and paddings {op.attrs['paddings']} (one per axis)")
    return _with_index(op, var_of, nd, attrs)


INDEX_WRITERS["max_pool"] = _w_max_pool_with_index


def _w_adaptive_pool(kind: str):
    """adaptive pooling as Paddle's pool2d/pool3d (avg) or max_pool2d/3d_with_index (max) with adaptive=True and
    the output size as ksize."""

    def write(op, var_of):
        size = op.attrs["output_size"]
        size = [int(s) for s in (size if isinstance(size, (list, tuple)) else (size,))]
        if any(s <= 0 for s in size):
            raise NotImplementedError(f"adaptive pooling to {size} (Paddle's pool ops take known sizes)")
        nd = len(size)
        ksize = _as_2d(nd, size, 1)
        zeros = [0] * len(ksize)
        if kind == "max":
            attrs = {"ksize": ksize, "strides": [1] * len(ksize), "paddings": zeros, "global_pooling": False,
                     "adaptive": True}  # fmt: skip
            return _with_index(op, var_of, nd, attrs)
        attrs = {"pooling_type": kind, "ksize": ksize, "strides": [1] * len(ksize), "paddings": zeros,
                 "ceil_mode": False, "global_pooling": False, "adaptive": True, "exclusive": True,
                 "data_format": "NCDHW" if nd == 3 else "NCHW", "padding_algorithm": "EXPLICIT"}  # fmt: skip
        x, out = op.inputs["x"][0], op.outputs["Out"][0]
        if nd == 1:
            return _lift("pool2d", x, {"Out": out}, attrs, var_of)
        return _pool_op("pool2d", nd), {"X": [x]}, {"Out": [out]}, attrs

    return write


writes("adaptive_avg_pool")(_w_adaptive_pool("avg"))
writes("adaptive_max_pool")(_w_adaptive_pool("max"))


# ---- reading the 3-D ops (pool2d and max_pool2d_with_index are read in static/paddle_ops.py) -----------------------


def _padding_3d(op) -> list:
    p = [int(v) for v in op.attr("paddings", [0, 0, 0])]
    if op.attr("padding_algorithm", "EXPLICIT") in ("SAME", "VALID"):
        return op.attr("padding_algorithm")
    return p if len(p) == 3 else [[0, 0], [0, 0]] + [[p[2 * i], p[2 * i + 1]] for i in range(3)]


@reads("pool3d")
def _pool3d(op):
    x = op.x("X")
    if op.attr("data_format", "NCDHW") != "NCDHW":
        raise NotImplementedError(f"pool3d with data_format {op.attr('data_format')!r}")
    kind = op.attr("pooling_type", "max")
    ksize = [int(k) for k in op.attr("ksize")]
    if op.attr("global_pooling", False):
        ksize = [1, 1, 1]
    if op.attr("adaptive", False) or op.attr("global_pooling", False):
        pool = F.adaptive_avg_pool3d if kind == "avg" else F.adaptive_max_pool3d
        return {"Out": pool(x, ksize)}
    strides, padding = [int(s) for s in op.attr("strides", ksize)], _padding_3d(op)
    ceil = bool(op.attr("ceil_mode", False))
    if kind == "max":
        return {"Out": F.max_pool3d(x, ksize, strides, padding, ceil_mode=ceil)}
    exclusive = bool(op.attr("exclusive", True))
    return {"Out": F.avg_pool3d(x, ksize, strides, padding, ceil_mode=ceil, exclusive=exclusive)}


@reads("max_pool3d_with_index")
def _max_pool3d_with_index(op):
    x = op.x("X")
    ksize = [int(k) for k in op.attr("ksize")]
    if op.attr("global_pooling", False):
        out, mask = F.adaptive_max_pool3d(x, 1, return_mask=True)
    elif op.attr("adaptive", False):
        out, mask = F.adaptive_max_pool3d(x, ksize, return_mask=True)
    else:
        out, mask = F.max_pool3d(x, ksize, [int(s) for s in op.attr("strides")],
                                    [int(p) for p in op.attr("paddings", [0, 0, 0])], return_mask=True)  # fmt: skip
    return {"Out": out, "Mask": mask}


# ---- max pooling with ceil_mode and its indices ------------------------------------------------------------------

_LOWEST = float(np.finfo(np.float32).min)  # where Paddle's max scan starts (-FLT_MAX): never wins, mask stays -1


def _ceil_mode_with_index(op, var_of, nd: int):
    """ceil_mode's last partial windows, for max_pool2d_with_index (which has no ceil_mode): the input is extended
    after its end with -FLT_MAX rows and columns (fill_any_like of a slice, concat) so that the floor-mode windows
    are ceil_mode's, then the Mask, a flat index h * W' + w in the wider input, is made h * W + w again:
    mask - (max(mask, 0) // W') * (W' - W), which keeps -1 (a window with nothing above -FLT_MAX) at -1."""
    if nd == 3:
        raise NotImplementedError("3-D max pooling with ceil_mode and its indices")
    x = op.inputs["x"][0]
    out, mask = op.outputs["Out"]
    xv = var_of(x)
    sizes = list(xv.shape[2:])
    pads = [tuple(int(v) for v in p) for p in op.attrs["paddings"]]
    if any(d < 0 for d in sizes) or any(b != a for b, a in pads):
        raise NotImplementedError("max pooling with ceil_mode and its indices, with a spatial size known only at "
                                  "run time or uneven paddings")  # fmt: skip
    kernel, strides = [int(k) for k in op.attrs["kernel_size"]], [int(s) for s in op.attrs["strides"]]
    extra = []
    for d, k, st, (b, a) in zip(sizes, kernel, strides, pads):
        windows = out_size(d, k, st, 1, (b, a), True)
        extra.append(max(0, (windows - 1) * st + k - (d + b + a)))
    steps, temps = [], {}
    name = out + "@ceil"
    source = x
    if nd == 1:  # as a 2-D pool over [N, C, 1, L]
        temps[name + "_in"] = Temp([*xv.shape[:2], 1, *sizes], xv.dtype)
        steps.append(("unsqueeze2", {"X": [x]}, {"Out": [name + "_in"], "XShape": [name + "_in@XShape"]},
                      {"axes": [2]}))  # fmt: skip
        source, sizes, kernel, strides, pads, extra = name + "_in", [1, *sizes], [1, *kernel], [1, *strides], \
            [(0, 0), *pads], [0, *extra]  # fmt: skip
    shape = [*xv.shape[:2], *sizes]
    for axis, e in zip((2, 3), extra):  # widen along H, then W
        if not e:
            continue
        part, fill, wide = f"{name}_part{axis}", f"{name}_fill{axis}", f"{name}_wide{axis}"
        part_shape = list(shape)
        part_shape[axis] = e
        temps[part] = Temp(part_shape, xv.dtype)
        temps[fill] = Temp(part_shape, xv.dtype)
        if e > shape[axis]:
            raise NotImplementedError(f"max pooling with ceil_mode and its indices, {e} windows past an axis of size "
                                      f"{shape[axis]}")  # fmt: skip
        cut = {"axes": [axis], "starts": [0], "ends": [e], "decrease_axis": [], "infer_flags": [1]}
        steps.append(("slice", {"Input": [source]}, {"Out": [part]}, cut))
        steps.append(("fill_any_like", {"X": [part]}, {"Out": [fill]}, {"value": _LOWEST, "dtype": -1}))
        shape[axis] += e
        temps[wide] = Temp(shape, xv.dtype)
        steps.append(("concat", {"X": [source, fill]}, {"Out": [wide]}, {"axis": axis}))
        source = wide
    attrs = {"ksize": kernel, "strides": strides, "paddings": [b for b, _ in pads], "global_pooling": False,
             "adaptive": False}  # fmt: skip
    out_shape = list(var_of(out).shape)
    out_shape = [*out_shape[:2], 1, *out_shape[2:]] if nd == 1 else out_shape
    pooled = name + "_out" if nd == 1 else out  # the 2-D op's outputs (a 1-D pool squeezes them after)
    fixed = name + "_fixed" if nd == 1 else mask  # the mask in the input's own coordinates
    raw = name + "_raw" if extra[1] else fixed  # the mask in the widened input's
    for n in {pooled, fixed, raw} - {out, mask}:
        temps[n] = Temp(out_shape, xv.dtype if n == pooled else "int32")
    steps.append(("max_pool2d_with_index", {"X": [source]}, {"Out": [pooled], "Mask": [raw]}, attrs))
    if extra[1]:
        wide_w, e_w = shape[3], extra[1]
        parts = {n: f"{name}_{n}" for n in ("zero", "width", "extra", "row0", "row", "shift")}
        for n in parts.values():
            temps[n] = Temp(out_shape, "int32")
        steps += [("fill_any_like", {"X": [raw]}, {"Out": [parts["zero"]]}, {"value": 0.0, "dtype": -1}),
                  ("fill_any_like", {"X": [raw]}, {"Out": [parts["width"]]}, {"value": float(wide_w), "dtype": -1}),
                  ("fill_any_like", {"X": [raw]}, {"Out": [parts["extra"]]}, {"value": float(e_w), "dtype": -1}),
                  ("elementwise_max", {"X": [raw], "Y": [parts["zero"]]}, {"Out": [parts["row0"]]}, {"axis": -1}),
                  ("elementwise_floordiv", {"X": [parts["row0"]], "Y": [parts["width"]]}, {"Out": [parts["row"]]},
                   {"axis": -1}),
                  ("elementwise_mul", {"X": [parts["row"]], "Y": [parts["extra"]]}, {"Out": [parts["shift"]]},
                   {"axis": -1}),
                  ("elementwise_sub", {"X": [raw], "Y": [parts["shift"]]}, {"Out": [fixed]}, {"axis": -1})]  # fmt: skip
    if nd == 1:
        for src, dst in ((pooled, out), (fixed, mask)):
            steps.append(("squeeze2", {"X": [src]}, {"Out": [dst], "XShape": [dst + "@XShape"]}, {"axes": [2]}))
    return Steps(steps, temps)
