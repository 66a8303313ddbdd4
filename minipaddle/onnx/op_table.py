"""The export table: minipaddle op type -> how it becomes ONNX nodes, and the lowest opset that can say it.

Each entry is `Export(convert, opset=9, needs=None)`: `convert(g, op, ins, outs)` adds nodes to the OnnxGraph
`g` (ins/outs: the op's input and output names in slot order); `opset` is the lowest ONNX opset the entry can
use, and `needs(op, block)` may ask more for some attributes or dtypes (max_pool with ceil_mode needs 10, Equal
on floats 11). export() picks the
lowest opset >= the one asked for that every op of the model can use, as paddle2onnx's auto_upgrade_opset.
Where ONNX changed an operator's signature (Clip, Split, Squeeze, ReduceSum take inputs instead of attributes
in later opsets), the forms live in graph.py and each entry calls them.

An op missing here is not exportable (`not_exportable()` lists them); exporting a model that uses one raises a
NotExportableError naming the op and the opset.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from minipaddle.core.op import OPS
from minipaddle.onnx.graph import OnnxGraph

__all__ = ["EXPORTS", "Export", "MAX_OPSET", "MIN_OPSET", "not_exportable", "opset_needed"]

MIN_OPSET, MAX_OPSET = 9, 17


@dataclass
class Export:
    convert: object
    opset: int = 9
    needs: object = None  # (op, block) -> the opset these attributes or dtypes need (None: `opset`)


EXPORTS: dict[str, Export] = {}


def _entry(*names, opset: int = 9, needs=None):
    def register(fn):
        for n in names:
            EXPORTS[n] = Export(fn, opset, needs)
        return fn

    return register


def opset_needed(op, block) -> int:
    e = EXPORTS[op.type]
    return max(e.opset, e.needs(op, block) if e.needs else 0)


def not_exportable() -> list:
    """The registered ops the export table has no entry for."""

    return sorted(set(OPS) - set(EXPORTS))


# ---- elementwise --------------------------------------------------------------------------------------------

_UNARY = {"relu": "Relu", "sigmoid": "Sigmoid", "tanh": "Tanh", "exp": "Exp", "log": "Log", "sqrt": "Sqrt",
          "abs": "Abs", "neg": "Neg", "reciprocal": "Reciprocal", "floor": "Floor", "ceil": "Ceil", "sin": "Sin",
          "cos": "Cos", "tan": "Tan", "asin": "Asin", "acos": "Acos", "atan": "Atan", "sinh": "Sinh",
          "cosh": "Cosh", "asinh": "Asinh", "acosh": "Acosh", "atanh": "Atanh", "erf": "Erf", "sign": "Sign",
          "assign": "Identity", "logical_not": "Not"}  # fmt: skip
_BINARY = {"add": "Add", "subtract": "Sub", "multiply": "Mul", "divide": "Div", "elementwise_pow": "Pow",
           "maximum": "Max", "minimum": "Min", "equal": "Equal", "less_than": "Less", "greater_than": "Greater",
           "logical_and": "And", "logical_or": "Or", "logical_xor": "Xor"}  # fmt: skip


def _unary(g: OnnxGraph, op, ins, outs):
    g.one(_UNARY[op.type], [_as_bool(g, ins[0]) if op.type == "logical_not" else ins[0]], outs[0])


_LOGICAL = {"logical_and", "logical_or", "logical_xor", "logical_not"}


def _binary(g: OnnxGraph, op, ins, outs):
    if op.type == "divide" and g.dtype(ins[0]).kind in "iu":
        g.refuse("integer divide rounds differently in ONNX (Div truncates)")
    if op.type in _LOGICAL:  # ONNX's And/Or/Xor take bools; paddle's take any dtype, nonzero meaning True
        ins = [_as_bool(g, x) for x in ins[:2]]
    g.one(_BINARY[op.type], ins[:2], outs[0])


def _as_bool(g, x):
    return x if g.dtype(x) == np.bool_ else g.one("Cast", [x], to=g.helper.np_dtype_to_tensor_dtype(np.dtype(bool)))


def _float_equal_needs(op, block):
    """Equal takes floats from opset 11 (bools and ints before)."""
    return 11 if block.var(op.input_names()[0]).dtype.np.kind == "f" else 9


for _n in _UNARY:
    EXPORTS[_n] = Export(_unary)
for _n in _BINARY:
    EXPORTS[_n] = Export(_binary)
EXPORTS["equal"] = Export(_binary, needs=_float_equal_needs)
EXPORTS["round"] = Export(_unary, 11)
_UNARY["round"] = "Round"


@_entry("not_equal", needs=_float_equal_needs)
def _not_equal(g, op, ins, outs):
    g.one("Not", [g.one("Equal", ins[:2])], outs[0])


@_entry("less_equal", "greater_equal")
def _compare_or_equal(g, op, ins, outs):
    if g.opset >= 12:
        g.one("LessOrEqual" if op.type == "less_equal" else "GreaterOrEqual", ins[:2], outs[0])
    else:  # a <= b is not (a > b)
        g.one("Not", [g.one("Greater" if op.type == "less_equal" else "Less", ins[:2])], outs[0])


@_entry("rsqrt")
def _rsqrt(g, op, ins, outs):
    g.one("Reciprocal", [g.one("Sqrt", [ins[0]])], outs[0])


@_entry("square")
def _square(g, op, ins, outs):
    g.one("Mul", [ins[0], ins[0]], outs[0])


@_entry("log1p", "expm1", "log2", "log10")
def _log_family(g, op, ins, outs):
    if op.type == "log1p":
        g.one("Log", [g.one("Add", [ins[0], g.const(1.0, g.dtype(ins[0]))])], outs[0])
    elif op.type == "expm1":
        g.one("Sub", [g.one("Exp", [ins[0]]), g.const(1.0, g.dtype(ins[0]))], outs[0])
    else:
        base = g.const(math.log(2.0 if op.type == "log2" else 10.0), g.dtype(ins[0]))
        g.one("Div", [g.one("Log", [ins[0]]), base], outs[0])


@_entry("remainder")
def _remainder(g, op, ins, outs):
    x, y = ins[:2]
    if g.dtype(x).kind in "iu":
        g.refuse("integer remainder needs Mod (opset 10) with Python's sign rule; not in the table")
    g.one("Sub", [x, g.one("Mul", [g.one("Floor", [g.one("Div", [x, y])]), y])], outs[0])  # x - floor(x/y)*y


@_entry("scale")
def _scale(g, op, ins, outs):
    dt = g.dtype(ins[0])
    s, b = op.attrs.get("scale", 1.0), op.attrs.get("bias", 0.0)
    out = g.one("Mul", [ins[0], g.const(s, dt)], None if b else outs[0])
    if b:
        g.one("Add", [out, g.const(b, dt)], outs[0])


@_entry("pow")
def _pow(g, op, ins, outs):
    g.one("Pow", [ins[0], g.const(op.attrs["factor"], g.dtype(ins[0]))], outs[0])


@_entry("clip")
def _clip(g, op, ins, outs):
    g.clip(ins[0], op.attrs.get("min"), op.attrs.get("max"), outs[0])


@_entry("leaky_relu")
def _leaky_relu(g, op, ins, outs):
    g.one("LeakyRelu", [ins[0]], outs[0], alpha=float(op.attrs["alpha"]))


@_entry("elu")
def _elu(g, op, ins, outs):
    g.one("Elu", [ins[0]], outs[0], alpha=float(op.attrs["alpha"]))


@_entry("hardsigmoid")
def _hardsigmoid(g, op, ins, outs):
    g.one("HardSigmoid", [ins[0]], outs[0], alpha=float(op.attrs["slope"]), beta=float(op.attrs["offset"]))


@_entry("hardswish")
def _hardswish(g, op, ins, outs):
    if g.opset >= 14:
        g.one("HardSwish", [ins[0]], outs[0])
    else:  # x * hardsigmoid(x) with alpha 1/6, beta 1/2: HardSwish's own definition
        g.one("Mul", [ins[0], g.one("HardSigmoid", [ins[0]], alpha=1.0 / 6, beta=0.5)], outs[0])


@_entry("softplus")
def _softplus(g, op, ins, outs):
    dt = g.dtype(ins[0])
    beta, threshold = op.attrs["beta"], op.attrs["threshold"]
    bx = g.one("Mul", [ins[0], g.const(beta, dt)])
    smooth = g.one("Div", [g.one("Softplus", [bx]), g.const(beta, dt)])
    g.one("Where", [g.one("Greater", [bx, g.const(threshold, dt)]), ins[0], smooth], outs[0])


def _softmax_like(kind):
    def convert(g, op, ins, outs):
        axis, rank = op.attrs.get("axis", -1), g.rank(ins[0])
        axis = axis + rank if axis < 0 else axis
        if g.opset >= 13 or axis == rank - 1:  # before 13, Softmax flattens to 2-D at `axis`: same on the last
            g.one(kind, [ins[0]], outs[0], axis=axis if g.opset >= 13 else axis)
            return
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        t = g.one("Transpose", [ins[0]], perm=perm)
        g.one("Transpose", [g.one(kind, [t], axis=rank - 1)], outs[0], perm=perm)

    return convert


EXPORTS["softmax"] = Export(_softmax_like("Softmax"))
EXPORTS["log_softmax"] = Export(_softmax_like("LogSoftmax"))


@_entry("cast")
def _cast(g, op, ins, outs):
    from onnx import helper

    g.one("Cast", [ins[0]], outs[0], to=helper.np_dtype_to_tensor_dtype(np.dtype(op.attrs["dtype"])))


@_entry("where")
def _where(g, op, ins, outs):
    g.one("Where", ins[:3], outs[0])


def _as_float(g, x):
    """IsNaN and IsInf take floats only; an integer is never NaN or infinite, and stays so as a float."""
    return (
        x if g.dtype(x).kind == "f" else g.one("Cast", [x], to=g.helper.np_dtype_to_tensor_dtype(np.dtype(np.float32)))
    )


@_entry("isnan")
def _isnan(g, op, ins, outs):
    g.one("IsNaN", [_as_float(g, ins[0])], outs[0])


@_entry("isinf", opset=10)
def _isinf(g, op, ins, outs):
    g.one("IsInf", [_as_float(g, ins[0])], outs[0])


@_entry("isfinite", opset=10)
def _isfinite(g, op, ins, outs):
    x = _as_float(g, ins[0])
    g.one("Not", [g.one("Or", [g.one("IsNaN", [x]), g.one("IsInf", [x])])], outs[0])


@_entry("assign_value")
def _assign_value(g, op, ins, outs):
    from onnx import numpy_helper

    value = np.asarray(op.attrs["values"], dtype=np.dtype(op.attrs["dtype"])).reshape(op.attrs["shape"])
    g.one("Constant", [], outs[0], value=numpy_helper.from_array(value))


@_entry("full_like")
def _full_like(g, op, ins, outs):
    from onnx import numpy_helper

    dt = np.dtype(op.attrs["dtype"]) if op.attrs.get("dtype") is not None else g.dtype(ins[0])
    g.one("ConstantOfShape", [g.one("Shape", [ins[0]])], outs[0],
          value=numpy_helper.from_array(np.asarray([op.attrs["value"]], dtype=dt)))  # fmt: skip


# ---- linear algebra and neural-network ops --------------------------------------------------------------------


def _swap_last(g, x):
    r = g.rank(x)
    if r < 2:
        g.refuse("a transposed operand must have 2 or more dimensions")
    return g.one("Transpose", [x], perm=[*range(r - 2), r - 1, r - 2])


@_entry("matmul")
def _matmul(g, op, ins, outs):
    x, y = ins[:2]
    x = _swap_last(g, x) if op.attrs.get("transpose_x") else x
    y = _swap_last(g, y) if op.attrs.get("transpose_y") else y
    g.one("MatMul", [x, y], outs[0])


def _activation(g, kind, x, out):
    if kind is None:
        return g.one("Identity", [x], out)
    return g.one(_UNARY[kind], [x], out)


@_entry("fc")
def _fc(g, op, ins, outs):
    x, w, b = ins[:3]
    act = op.attrs.get("activation")
    y = g.one("MatMul", [x, w], None if (b or act) else outs[0])
    if b:
        y = g.one("Add", [y, b], None if act else outs[0])
    if act:
        _activation(g, act, y, outs[0])


@_entry("fusion_repeated_fc_relu")
def _repeated_fc_relu(g, op, ins, outs):
    y = ins[0]
    pairs = list(zip(ins[1::2], ins[2::2]))
    for k, (w, b) in enumerate(pairs):
        y = g.one("Relu", [g.one("Add", [g.one("MatMul", [y, w]), b])], outs[0] if k == len(pairs) - 1 else None)


def _conv_attrs(op, w_shape):
    a = op.attrs
    pads = [p[0] for p in a["paddings"]] + [p[1] for p in a["paddings"]]
    return {"kernel_shape": list(w_shape[2:]), "strides": list(a["strides"]), "pads": pads,
            "dilations": list(a["dilations"]), "group": int(a["groups"])}  # fmt: skip


@_entry("conv2d", "conv3d")
def _conv(g, op, ins, outs):
    g.one("Conv", ins[:2], outs[0], **_conv_attrs(op, g.shape(ins[1])))


@_entry("conv2d_fusion")
def _conv2d_fusion(g, op, ins, outs):
    x, w, b = ins[:3]
    act = op.attrs.get("activation")
    bias = g.value(b) if b else None
    if bias is not None and bias.size == g.shape(w)[0]:  # a weight: ONNX Conv takes it as its 1-D bias
        y = g.one("Conv", [x, w, g.const(bias.reshape(-1), bias.dtype, "bias")], None if act else outs[0],
                  **_conv_attrs(op, g.shape(w)))  # fmt: skip
    else:
        y = g.one("Conv", [x, w], None if (b or act) else outs[0], **_conv_attrs(op, g.shape(w)))
        if b:
            y = g.one("Add", [y, b], None if act else outs[0])
    if act:
        _activation(g, act, y, outs[0])


def _pool_attrs(op):
    a = op.attrs
    pads = [p[0] for p in a["paddings"]] + [p[1] for p in a["paddings"]]
    attrs = {"kernel_shape": list(a["kernel_size"]), "strides": list(a["strides"]), "pads": pads}
    if a.get("ceil_mode"):
        attrs["ceil_mode"] = 1
    return attrs


def _ceil_needs(op, block):
    return 10 if op.attrs.get("ceil_mode") else 9


def _unused(g, name):
    return not any(name in o.input_names() for o in g.block.ops)


@_entry("max_pool", "max_pool_infer", needs=_ceil_needs)
def _max_pool(g, op, ins, outs):
    if len(outs) > 1 and (not _unused(g, outs[1]) or outs[1] in g.fetches):
        g.refuse("its indices output is read (ONNX MaxPool's Indices count differently)")
    act = op.attrs.get("activation")  # max_pool_infer's, moved there by act_pool_swap_pass
    y = g.one("MaxPool", [ins[0]], None if act else outs[0], **_pool_attrs(op))
    if act:
        _activation(g, act, y, outs[0])


@_entry("avg_pool", needs=_ceil_needs)
def _avg_pool(g, op, ins, outs):
    if op.attrs.get("divisor_override") is not None:
        g.refuse("divisor_override has no ONNX form")
    if not op.attrs.get("exclusive", True) and any(b != a for b, a in op.attrs["paddings"]):
        g.refuse("counting padding (exclusive=False) with uneven paddings divides differently in ONNX")
    attrs = _pool_attrs(op)
    attrs["count_include_pad"] = 0 if op.attrs.get("exclusive", True) else 1
    g.one("AveragePool", [ins[0]], outs[0], **attrs)


def _adaptive(kind):
    def convert(g, op, ins, outs):
        size, spatial = list(op.attrs["output_size"]), g.shape(ins[0])[2:]
        if all(s == 1 for s in size):
            g.one("Global" + kind, [ins[0]], outs[0])
            return
        if any(d < 0 for d in spatial):
            g.refuse(f"output_size {size} with a symbolic spatial size {spatial} (the bins need the sizes)")
        if all(d % s == 0 for d, s in zip(spatial, size)):  # equal bins: one pooling window
            k = [d // s for d, s in zip(spatial, size)]
            g.one(kind, [ins[0]], outs[0], kernel_shape=k, strides=k)
            return
        _adaptive_by_axis(g, kind, ins[0], spatial, size, outs[0])

    return convert


def _adaptive_by_axis(g, kind, x, spatial, size, out):
    """Unequal (or overlapping) bins, as paddle's: bin i of an axis covers [floor(i*d/s), ceil((i+1)*d/s)). A bin
    is a box, so pooling goes one axis at a time: a mean is a constant averaging matrix (MatMul), a max a
    ReduceMax over each bin's Gather, concatenated."""
    rank = 2 + len(spatial)
    y = x
    for k, (d, s) in enumerate(zip(spatial, size)):
        axis = 2 + k
        i = np.arange(s)
        starts, ends = (i * d) // s, -((-(i + 1) * d) // s)
        last = k == len(spatial) - 1
        if kind == "AveragePool" and axis >= rank - 2:  # MatMul contracts the last axis (or, transposed, the 2nd last)
            avg = np.zeros((d, s), g.dtype(x))
            for j, (a, b) in enumerate(zip(starts, ends)):
                avg[a:b, j] = 1.0 / (b - a)
            if axis == rank - 1:
                y = g.one("MatMul", [y, g.const(avg, hint="bins")], out if last else None)
            else:
                y = g.one("MatMul", [g.const(np.ascontiguousarray(avg.T), hint="bins"), y], out if last else None)
            continue
        reduce = "ReduceMean" if kind == "AveragePool" else "ReduceMax"
        parts = [g.reduce(reduce, g.one("Gather", [y, g.ints(range(a, b))], axis=axis), [axis], True)
                 for a, b in zip(starts, ends)]  # fmt: skip
        y = g.one("Concat", parts, out if last else None, axis=axis)


EXPORTS["adaptive_avg_pool"] = Export(_adaptive("AveragePool"))
EXPORTS["adaptive_max_pool"] = Export(_adaptive("MaxPool"))


@_entry("standardize")
def _standardize(g, op, ins, outs):
    x, axes = ins[0], list(op.attrs["axes"])
    dt = g.dtype(x)
    mean = g.reduce("ReduceMean", x, axes, True, outs[1] if len(outs) > 1 else None)
    centered = g.one("Sub", [x, mean])
    var = g.reduce("ReduceMean", g.one("Mul", [centered, centered]), axes, True, outs[2] if len(outs) > 2 else None)
    std = g.one("Sqrt", [g.one("Add", [var, g.const(op.attrs["epsilon"], dt)])])
    g.one("Div", [centered, std], outs[0])


@_entry("embedding")
def _embedding(g, op, ins, outs):
    ids, weight = ins[:2]
    pad = op.attrs.get("padding_idx")
    rows = g.one("Gather", [weight, ids], None if pad is None else None, axis=0)
    if pad is None:
        g.one("Identity", [rows], outs[0])
        return
    keep = g.one("Cast", [g.one("Not", [g.one("Equal", [ids, g.const(pad, g.dtype(ids))])])],
                 to=g.helper.np_dtype_to_tensor_dtype(g.dtype(weight)))  # fmt: skip
    g.one("Mul", [rows, g.unsqueeze(keep, [g.rank(ids)])], outs[0])


# ---- shapes ---------------------------------------------------------------------------------------------------


@_entry("reshape")
def _reshape(g, op, ins, outs):
    g.one("Reshape", [ins[0], g.ints(op.attrs["shape"])], outs[0])


@_entry("transpose")
def _transpose(g, op, ins, outs):
    g.one("Transpose", [ins[0]], outs[0], perm=list(op.attrs["perm"]))


@_entry("concat")
def _concat(g, op, ins, outs):
    g.one("Concat", ins, outs[0], axis=int(op.attrs["axis"]))


@_entry("split")
def _split(g, op, ins, outs):
    g.split(ins[0], op.attrs["sections"], int(op.attrs["axis"]), outs)


@_entry("stack")
def _stack(g, op, ins, outs):
    axis = op.attrs["axis"]
    axis = axis + g.rank(ins[0]) + 1 if axis < 0 else axis
    g.one("Concat", [g.unsqueeze(x, [axis]) for x in ins], outs[0], axis=axis)


@_entry("unstack")
def _unstack(g, op, ins, outs):
    axis = op.attrs["axis"]
    axis = axis + g.rank(ins[0]) if axis < 0 else axis
    parts = g.split(ins[0], [1] * len(outs), axis, [g.fresh("part") for _ in outs])
    for p, o in zip(parts, outs):
        g.squeeze(p, [axis], o)


@_entry("expand", opset=9)
def _expand(g, op, ins, outs):
    shape = [1 if d == -1 else d for d in op.attrs["shape"]]  # -1 keeps x's size: Expand broadcasts a 1
    g.one("Expand", [ins[0], g.ints(shape)], outs[0])


@_entry("tile")
def _tile(g, op, ins, outs):
    reps = list(op.attrs["repeat_times"])
    x = ins[0]
    if len(reps) > g.rank(x):  # numpy's tile prepends 1s to x's shape
        x = g.one("Reshape", [x, g.ints([1] * (len(reps) - g.rank(x)) + g.shape(x))])
    reps = [1] * (g.rank(ins[0]) - len(reps)) + reps
    g.one("Tile", [x, g.ints(reps)], outs[0])


@_entry("cumsum", opset=11)
def _cumsum(g, op, ins, outs):
    axis = g.const(np.int64(op.attrs["axis"]))
    g.one("CumSum", [ins[0], axis], outs[0], reverse=int(bool(op.attrs.get("reverse"))))


# ---- reductions -------------------------------------------------------------------------------------------------

_REDUCE = {"sum": "ReduceSum", "mean": "ReduceMean", "max": "ReduceMax", "min": "ReduceMin", "prod": "ReduceProd",
           "amax": "ReduceMax", "amin": "ReduceMin", "logsumexp": "ReduceLogSumExp"}  # fmt: skip


def _axes(axis, rank):
    if axis is None:
        return None
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    return [int(a) + rank if a < 0 else int(a) for a in axes] or None


@_entry(*_REDUCE)
def _reduce(g, op, ins, outs):
    x, axis = ins[0], op.attrs.get("axis")
    if g.rank(x) == 0 or (axis is not None and not isinstance(axis, (int, np.integer)) and len(axis) == 0):
        g.one("Identity", [x], outs[0])  # a 0-d input, or no axes: numpy reduces nothing
        return
    if op.type in ("mean", "prod") and g.dtype(x).kind in "iub" or op.type == "sum" and g.dtype(x).kind in "b":
        g.refuse(f"{op.type} of {g.dtype(x)} values")
    if op.type == "sum" and (op.attrs.get("dtype") is not None or g.dtype(x) != g.dtype(outs[0])):
        x = g.one("Cast", [x], to=g.helper.np_dtype_to_tensor_dtype(g.dtype(outs[0])))
    g.reduce(_REDUCE[op.type], x, _axes(op.attrs.get("axis"), g.rank(ins[0])), bool(op.attrs.get("keepdim")),
             outs[0])  # fmt: skip


@_entry("argmax", "argmin")
def _arg(g, op, ins, outs):
    x, axis, keep = ins[0], op.attrs.get("axis"), bool(op.attrs.get("keepdim"))
    kind = "ArgMax" if op.type == "argmax" else "ArgMin"
    if axis is None:
        flat = g.one("Reshape", [x, g.ints([-1])])
        y = g.one(kind, [flat], axis=0, keepdims=0)
        y = g.one("Reshape", [y, g.ints([1] * g.rank(x) if keep else [])])
    else:
        y = g.one(kind, [x], axis=int(axis), keepdims=int(keep))
    g.one("Cast", [y], outs[0], to=g.helper.np_dtype_to_tensor_dtype(g.dtype(outs[0])))


# ---- quantization: paddle's quantize_linear / dequantize_linear as ONNX QuantizeLinear / DequantizeLinear -----


def _onnx_scale(g, op, ins):
    """ONNX's step size from paddle's scale (the abs max the levels span): scale / bnt, as a constant."""
    a = op.attrs
    if a.get("bit_length", 8) != 8:
        g.refuse("only 8-bit quantization has an ONNX form (int8)")
    if a.get("round_type", 0) != 0:
        g.refuse("round_type 1 (ties away from zero) differs from ONNX's ties to even")
    scale = g.value(ins[1])
    if scale is None:
        g.refuse("its scale is computed at run time; ONNX needs it as a constant")
    step = (np.asarray(scale, np.float32) / 127.0).reshape(-1)
    per_tensor = a.get("quant_axis", 0) < 0 or step.size == 1
    attrs = {} if per_tensor else {"axis": int(a["quant_axis"])}
    step = step.reshape(()) if per_tensor else step
    zero = np.zeros(step.shape, np.int8)
    return g.const(step, np.float32, "scale"), g.const(zero, np.int8, "zero_point"), attrs


def _are_int8(levels) -> bool:
    a = np.asarray(levels)
    return a.size > 0 and bool(np.all(a == np.round(a))) and float(a.min()) >= -128 and float(a.max()) <= 127


def _observer(g, op, ins, outs) -> bool:
    """A pair with only_observer (PTQ onnx_format's pairs on the outputs) passes values through: its scale is a
    note for an int8 engine, and Paddle's predictor computes in float there. An Identity keeps that computation
    (QuantizeLinear would round the values onto the grid)."""
    if not op.attrs.get("only_observer"):
        return False
    if len(outs) > 1:  # (an observer in training also updates its statistics: no inference form)
        g.refuse("an observer in training (only_observer with its statistics) has no ONNX form")
    g.one("Identity", [ins[0]], outs[0])
    return True


@_entry("quantize_linear", opset=13)
def _quantize_linear(g, op, ins, outs):
    if _observer(g, op, ins, outs):
        return
    scale, zero, attrs = _onnx_scale(g, op, ins)
    levels = g.one("QuantizeLinear", [ins[0], scale, zero], **attrs)
    g.int8_of[outs[0]] = levels  # a dequantize_linear reading these levels takes the int8 tensor itself
    g.one("Cast", [levels], outs[0], to=g.helper.np_dtype_to_tensor_dtype(g.dtype(outs[0])))


@_entry("dequantize_linear", opset=13)
def _dequantize_linear(g, op, ins, outs):
    if _observer(g, op, ins, outs):
        return
    scale, zero, attrs = _onnx_scale(g, op, ins)
    x = g.int8_of.get(ins[0])
    levels = g.value(ins[0])
    if x is None and levels is not None and _are_int8(levels):  # a weight stored as levels: an int8 initializer
        x = g.const(np.asarray(levels).astype(np.int8), np.int8, "int8_weight")
    if x is None:  # paddle's levels are floats; ONNX's are int8
        x = g.one("Cast", [ins[0]], to=g.helper.np_dtype_to_tensor_dtype(np.dtype(np.int8)))
    y = g.one("DequantizeLinear", [x, scale, zero], None if g.dtype(outs[0]) == np.float32 else None, **attrs)
    g.one("Cast", [y], outs[0], to=g.helper.np_dtype_to_tensor_dtype(g.dtype(outs[0])))
