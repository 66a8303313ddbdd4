"""The export table: minipaddle op type -> how it becomes ONNX nodes, and the lowest opset that can say it.

Each entry is `Export(convert, opset=9, needs=None)`: `convert(g, op, ins, outs)` adds nodes to the OnnxGraph
`g` (ins/outs: the op's input and output names in slot order); `opset` is the lowest ONNX opset the entry can
use, and `needs(op)` may ask more for some attributes (max_pool with ceil_mode needs 10). export() picks the
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

from minipaddle.onnx.graph import OnnxGraph

__all__ = ["EXPORTS", "Export", "MAX_OPSET", "MIN_OPSET", "not_exportable", "opset_needed"]

MIN_OPSET, MAX_OPSET = 9, 17


@dataclass
class Export:
    convert: object
    opset: int = 9
    needs: object = None  # op -> the opset these attributes need (None: `opset`)


EXPORTS: dict[str, Export] = {}


def _entry(*names, opset: int = 9, needs=None):
    def register(fn):
        for n in names:
            EXPORTS[n] = Export(fn, opset, needs)
        return fn

    return register


def opset_needed(op) -> int:
    e = EXPORTS[op.type]
    return max(e.opset, e.needs(op) if e.needs else 0)


def not_exportable() -> list:
    """The registered ops the export table has no entry for."""
    from minipaddle.core.op import OPS

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
    g.one(_UNARY[op.type], [ins[0]], outs[0])


def _binary(g: OnnxGraph, op, ins, outs):
    if op.type == "divide" and g.dtype(ins[0]).kind in "iu":
        g.refuse("integer divide rounds differently in ONNX (Div truncates)")
    g.one(_BINARY[op.type], ins[:2], outs[0])


for _n in _UNARY:
    EXPORTS[_n] = Export(_unary)
for _n in _BINARY:
    EXPORTS[_n] = Export(_binary)
EXPORTS["round"] = Export(_unary, 11)
_UNARY["round"] = "Round"


@_entry("not_equal")
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
    one = g.const(1.0, g.dtype(ins[0]))
    if op.type == "log1p":
        g.one("Log", [g.one("Add", [ins[0], one])], outs[0])
    elif op.type == "expm1":
        g.one("Sub", [g.one("Exp", [ins[0]]), one], outs[0])
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


@_entry("isnan")
def _isnan(g, op, ins, outs):
    g.one("IsNaN", [ins[0]], outs[0])


@_entry("isinf", opset=10)
def _isinf(g, op, ins, outs):
    g.one("IsInf", [ins[0]], outs[0])


@_entry("isfinite", opset=10)
def _isfinite(g, op, ins, outs):
    g.one("Not", [g.one("Or", [g.one("IsNaN", [ins[0]]), g.one("IsInf", [ins[0]])])], outs[0])


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


def _ceil_needs(op):
    return 10 if op.attrs.get("ceil_mode") else 9


def _unused(g, name):
    return not any(name in o.input_names() for o in g.block.ops)


@_entry("max_pool", needs=_ceil_needs)
def _max_pool(g, op, ins, outs):
    if len(outs) > 1 and not _unused(g, outs[1]):
        g.refuse("its indices output is read (ONNX MaxPool's Indices count differently)")
    g.one("MaxPool", [ins[0]], outs[0], **_pool_attrs(op))


@_entry("avg_pool", needs=_ceil_needs)
def _avg_pool(g, op, ins, outs):
    if op.attrs.get("divisor_override") is not None:
        g.refuse("divisor_override has no ONNX form")
    attrs = _pool_attrs(op)
    attrs["count_include_pad"] = 0 if op.attrs.get("exclusive", True) else 1
    g.one("AveragePool", [ins[0]], outs[0], **attrs)


def _adaptive(kind):
    def convert(g, op, ins, outs):
        size, spatial = list(op.attrs["output_size"]), g.shape(ins[0])[2:]
        if all(s == 1 for s in size):
            g.one("Global" + kind, [ins[0]], outs[0])
            return
        if any(d < 0 or d % s for d, s in zip(spatial, size)):
            g.refuse(f"output_size {size} does not divide the input's spatial size {spatial}")
        k = [d // s for d, s in zip(spatial, size)]
        g.one(kind, [ins[0]], outs[0], kernel_shape=k, strides=k)

    return convert


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
    x = ins[0]
    if g.rank(x) == 0:
        g.one("Identity", [x], outs[0])
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
