"""The one translation table between Paddle 2.6's ops (in a .pdmodel) and minipaddle's.

Reading: each Paddle op type has a function that receives the op (its input slots as Variables, its attributes)
and builds the same computation with minipaddle's public functions in static mode, so the ops appended are
minipaddle's own (conv2d, add, matmul, ...), checked by their infer_meta and run by the Executor like any
Program. It returns the Variables for Paddle's output slots; static/pdmodel.py names them as Paddle did.

    READERS["elementwise_add"](op)   Paddle: X, Y, axis          -> paddle.add(x, y aligned at axis)
    READERS["conv2d"](op)            Paddle: Input, Filter, ...  -> F.conv2d(x, w, stride, padding, ...)

Writing (static/pdmodel.py, for save_inference_model): WRITERS maps a minipaddle op type to a function that
gives Paddle's op type, input/output slots and attributes for one minipaddle OpDesc, or a `Steps` of several
Paddle ops with the variables between them (a 1-D pool is unsqueeze2, pool2d, squeeze2, as Paddle writes it).
Indexing lives in static/paddle_indexing.py, pooling beyond pool2d in static/paddle_pooling.py; both register
into these tables.

An op outside the table is a NotImplementedError naming the op and the model (pdmodel.py adds the model).
"""

from __future__ import annotations

import copy
import inspect

import numpy as np

import minipaddle.nn.functional as F
from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.op import OPS
from minipaddle.static import tensor_api as paddle
from minipaddle.static.builder import input_slots
from minipaddle.static.program import Variable

__all__ = ["READERS", "WRITERS", "PADDLE_DTYPES", "Shape", "Steps", "Temp", "VarAttr", "dtype_of",
           "slice_with_tensor_bounds"]  # fmt: skip

# Paddle's VarType.Type numbers for tensor dtypes
PADDLE_DTYPES = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32", 6: "float64",
                 20: "uint8", 21: "int8", 22: "bfloat16", 23: "complex64", 24: "complex128"}  # fmt: skip
DTYPE_NUMBERS = {name: number for number, name in PADDLE_DTYPES.items()}


def dtype_of(number: int) -> str:
    if number not in PADDLE_DTYPES:
        raise NotImplementedError(f"Paddle's data type number {number} is not a tensor dtype minipaddle has")
    return PADDLE_DTYPES[number]


class Shape:
    """The value of Paddle's `shape` op (and slices of it) kept symbolic: the shape of `var`, dimensions
    `dims`. A slice of it stays symbolic (Paddle's shape -> slice reads as one object); an op that takes it as a
    tensor (`op.x`) gets `value()`: minipaddle's own run-time shape op, sliced."""

    def __init__(self, var: Variable, dims: list, scalar: bool = False) -> None:
        self.var, self.dims, self.scalar = var, dims, scalar  # scalar: one size as a 0-d tensor (decrease_axis)

    def value(self):
        """The sizes as an int32 Variable computed when the Program runs (paddle.shape, then the dims kept)."""
        whole = paddle.shape(self.var)
        if self.scalar:
            return whole[self.dims[0]]
        if self.dims == list(range(self.var.ndim)):
            return whole
        return paddle.concat([whole[d : d + 1] for d in self.dims])


READERS: dict = {}


def reads(*types):
    def register(fn):
        for t in types:
            READERS[t] = fn
        return fn

    return register


# ---- activations and unary math -------------------------------------------------------------------------------

_UNARY = {
    "relu": "nn.functional.relu", "relu6": "nn.functional.relu6", "sigmoid": "nn.functional.sigmoid",
    "tanh": "tanh", "exp": "exp", "sqrt": "sqrt", "rsqrt": "rsqrt", "abs": "abs", "log": "log", "floor": "floor",
    "ceil": "ceil", "square": "square", "sin": "sin", "cos": "cos", "reciprocal": "reciprocal",
    "softsign": "nn.functional.softsign", "silu": "nn.functional.silu", "swish": "nn.functional.swish",
    "mish": "nn.functional.mish", "tanh_shrink": "nn.functional.tanhshrink", "logical_not": "logical_not",
    "erf": "erf", "round": "round", "sign": "sign", "softplus": "nn.functional.softplus",
}  # fmt: skip


def _function(path: str):
    obj = paddle
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _unary(path):
    return lambda op: {"Out": _function(path)(op.x("X"))}


for _type, _path in _UNARY.items():
    READERS[_type] = _unary(_path)


@reads("gelu")
def _gelu(op):
    return {"Out": F.gelu(op.x("X"), approximate=bool(op.attr("approximate", False)))}


@reads("hard_swish")
def _hard_swish(op):
    x = op.x("X")
    threshold, scale, offset = op.attr("threshold", 6.0), op.attr("scale", 6.0), op.attr("offset", 3.0)
    if (threshold, scale, offset) == (6.0, 6.0, 3.0):
        return {"Out": F.hardswish(x)}
    return {"Out": x * paddle.clip(x + offset, 0.0, threshold) / scale}


@reads("hard_sigmoid")
def _hard_sigmoid(op):
    return {"Out": F.hardsigmoid(op.x("X"), slope=op.attr("slope", 0.2), offset=op.attr("offset", 0.5))}


@reads("leaky_relu")
def _leaky_relu(op):
    return {"Out": F.leaky_relu(op.x("X"), op.attr("alpha", 0.02))}


@reads("elu")
def _elu(op):
    return {"Out": F.elu(op.x("X"), op.attr("alpha", 1.0))}


@reads("clip")
def _clip(op):
    if op.xs("Min") or op.xs("Max"):
        raise NotImplementedError("clip with Min/Max tensors")
    return {"Out": paddle.clip(op.x("X"), op.attr("min"), op.attr("max"))}


@reads("softmax")
def _softmax(op):
    return {"Out": F.softmax(op.x("X"), axis=op.attr("axis", -1))}


@reads("log_softmax")
def _log_softmax(op):
    return {"Out": F.log_softmax(op.x("X"), axis=op.attr("axis", -1))}


@reads("scale")
def _scale(op):
    if op.xs("ScaleTensor"):
        raise NotImplementedError("scale with a ScaleTensor input")
    x = op.x("X")
    scale, bias, after = op.attr("scale", 1.0), op.attr("bias", 0.0), op.attr("bias_after_scale", True)
    if scale == 1.0 and bias == 0.0:
        return {"Out": paddle.assign(x)}
    return {"Out": paddle.scale(x, scale, bias, after)}


@reads("cast")
def _cast(op):
    return {"Out": paddle.cast(op.x("X"), dtype_of(op.attr("out_dtype")))}


@reads("assign")
def _assign(op):
    return {"Out": paddle.assign(op.x("X"))}


@reads("dropout")
def _dropout(op):
    p = op.attr("dropout_prob", 0.5)
    mode = op.attr("dropout_implementation", "downgrade_in_infer")
    x = op.x("X")
    if not op.attr("is_test", False):  # a training Program's: minipaddle's train/eval switch, its own mask stream
        if op.inputs.get("Seed"):  # (the seed and fix_seed attributes only pick Paddle's stream)
            raise NotImplementedError("dropout with a Seed tensor (minipaddle draws masks from paddle.seed's)")
        mode = "upscale_in_train" if mode == "upscale_in_train" else "downscale_in_infer"
        return {"Out": F.dropout(x, p, training=True, mode=mode)}
    if mode == "upscale_in_train":
        return {"Out": paddle.assign(x)}
    return {"Out": paddle.scale(x, 1.0 - p)}


# ---- elementwise and comparisons -----------------------------------------------------------------------------

_BINARY = {
    "elementwise_add": "add", "elementwise_sub": "subtract", "elementwise_mul": "multiply",
    "elementwise_div": "divide", "elementwise_pow": "pow", "elementwise_max": "maximum",
    "elementwise_min": "minimum", "elementwise_mod": "remainder", "elementwise_floordiv": "floor_divide",
    "greater_than": "greater_than", "greater_equal": "greater_equal", "less_than": "less_than",
    "less_equal": "less_equal", "equal": "equal", "not_equal": "not_equal", "logical_and": "logical_and",
    "logical_or": "logical_or", "logical_xor": "logical_xor",
}  # fmt: skip


def _aligned(x, y, axis: int):
    """Paddle's elementwise `axis`: y's dimensions line up with x's from `axis` on (-1: numpy broadcasting)."""
    if axis == -1 or axis is None or y.ndim == x.ndim:
        return y
    axis = axis if axis >= 0 else x.ndim - y.ndim
    return paddle.reshape(y, [1] * axis + list(y.shape) + [1] * (x.ndim - axis - y.ndim))


def _binary(path):
    def read(op):
        x, y = op.x("X"), op.x("Y")
        return {"Out": _function(path)(x, _aligned(x, y, op.attr("axis", -1)))}

    return read


for _type, _path in _BINARY.items():
    READERS[_type] = _binary(_path)


@reads("sum")
def _sum(op):
    xs = op.xs("X")
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return {"Out": out if len(xs) > 1 else paddle.assign(out)}


# ---- linear algebra, convolution, pooling, normalization -----------------------------------------------------


@reads("matmul_v2")
def _matmul_v2(op):
    return {"Out": paddle.matmul(op.x("X"), op.x("Y"), op.attr("trans_x", False), op.attr("trans_y", False))}


@reads("matmul")
def _matmul(op):
    out = paddle.matmul(op.x("X"), op.x("Y"), op.attr("transpose_X", False), op.attr("transpose_Y", False))
    alpha = op.attr("alpha", 1.0)
    return {"Out": out if alpha == 1.0 else paddle.scale(out, alpha)}


@reads("mul")
def _mul(op):
    x, y = op.x("X"), op.x("Y")
    xd, yd = op.attr("x_num_col_dims", 1), op.attr("y_num_col_dims", 1)
    x2 = paddle.flatten(x, xd, -1) if x.ndim > xd + 1 else x
    x2 = paddle.flatten(x2, 0, xd - 1) if xd > 1 else x2
    y2 = paddle.reshape(y, [int(np.prod(y.shape[:yd])), -1])
    out = paddle.matmul(x2, y2)
    if xd > 1:
        out = paddle.reshape(out, list(x.shape[:xd]) + [y2.shape[1]])
    return {"Out": out}


def _conv_padding(op, ndim: int = 2):
    algorithm = op.attr("padding_algorithm", "EXPLICIT")
    if algorithm in ("SAME", "VALID"):
        return algorithm
    p = list(op.attr("paddings", [0] * ndim))
    if len(p) == ndim:
        return p
    return [[0, 0], [0, 0]] + [[p[2 * i], p[2 * i + 1]] for i in range(ndim)]  # Paddle: [top, bottom, left, right]


@reads("conv2d", "depthwise_conv2d")
def _conv2d(op):
    fmt = op.attr("data_format", "NCHW")
    fmt = "NCHW" if fmt == "AnyLayout" else fmt
    padding = _conv_padding(op)
    if isinstance(padding, list) and isinstance(padding[0], list) and fmt == "NHWC":
        padding = [padding[0], padding[2], padding[3], padding[1]]
    out = F.conv2d(op.x("Input"), op.x("Filter"), None, op.attr("strides", [1, 1]), padding,
                      op.attr("dilations", [1, 1]), op.attr("groups", 1), fmt)  # fmt: skip
    if op.xs("Bias"):
        out = out + paddle.reshape(op.x("Bias"), [1, -1, 1, 1] if fmt == "NCHW" else [1, 1, 1, -1])
    return {"Output": out}


@reads("conv2d_transpose", "depthwise_conv2d_transpose")
def _conv2d_transpose(op):
    fmt = op.attr("data_format", "NCHW")
    output_size = op.attr("output_size", []) or None
    out = F.conv2d_transpose(op.x("Input"), op.x("Filter"), None, op.attr("strides", [1, 1]), _conv_padding(op),
                                op.attr("output_padding", []) or 0, op.attr("dilations", [1, 1]),
                                op.attr("groups", 1), output_size, "NCHW" if fmt == "AnyLayout" else fmt)  # fmt: skip
    return {"Output": out}


@reads("pool2d")
def _pool2d(op):
    x = op.x("X")
    fmt = op.attr("data_format", "NCHW")
    kind = op.attr("pooling_type", "max")
    if op.attr("global_pooling", False) or (op.attr("adaptive", False) and list(op.attr("ksize")) == [1, 1]):
        axes = [2, 3] if fmt == "NCHW" else [1, 2]
        reduce = paddle.mean if kind == "avg" else paddle.max
        return {"Out": reduce(x, axis=axes, keepdim=True)}
    ksize = list(op.attr("ksize"))
    if op.attr("adaptive", False):
        if kind == "avg":
            return {"Out": F.adaptive_avg_pool2d(x, ksize, data_format=fmt)}
        return {"Out": F.adaptive_max_pool2d(x, ksize)}
    padding = _conv_padding(op)
    strides = list(op.attr("strides", ksize))
    ceil = bool(op.attr("ceil_mode", False))
    if kind == "max":
        return {"Out": F.max_pool2d(x, ksize, strides, padding, ceil_mode=ceil, data_format=fmt)}
    exclusive = bool(op.attr("exclusive", True))
    return {"Out": F.avg_pool2d(x, ksize, strides, padding, ceil_mode=ceil, exclusive=exclusive, data_format=fmt)}


@reads("batch_norm")
def _batch_norm(op):
    # a training Program's batch_norm (is_test False) normalizes with the batch's statistics and updates the
    # moving ones in place (MeanOut and VarianceOut are Mean and Variance): minipaddle's train/eval switch
    training = not (op.attr("is_test", False) or op.attr("use_global_stats", False))
    if training and op.attr("trainable_statistics", False):
        raise NotImplementedError("batch_norm with trainable_statistics")
    x = op.x("X")
    fmt = op.attr("data_layout", "NCHW")
    channels_last = {3: "NLC", 4: "NHWC", 5: "NDHWC"}.get(x.ndim, "NC")
    fmt = {"NCHW": {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}.get(x.ndim, "NC"), "NHWC": channels_last}.get(fmt, fmt)
    y = F.batch_norm(x, op.x("Mean"), op.x("Variance"), op.x("Scale"), op.x("Bias"), training=training,
                     momentum=op.attr("momentum", 0.9), epsilon=op.attr("epsilon", 1e-5), data_format=fmt)  # fmt: skip
    return {"Y": y}


@reads("layer_norm")
def _layer_norm(op):
    x = op.x("X")
    begin = op.attr("begin_norm_axis", 1)
    shape = list(x.shape[begin:])
    weight, bias = op.x("Scale"), op.x("Bias")
    if weight is not None and weight.ndim != len(shape):  # Paddle keeps Scale/Bias flat
        weight = paddle.reshape(weight, shape)
    if bias is not None and bias.ndim != len(shape):
        bias = paddle.reshape(bias, shape)
    return {"Y": F.layer_norm(x, shape, weight, bias, op.attr("epsilon", 1e-5))}


@reads("instance_norm")
def _instance_norm(op):
    return {"Y": F.instance_norm(op.x("X"), weight=op.x("Scale"), bias=op.x("Bias"), eps=op.attr("epsilon", 1e-5))}


@reads("lookup_table_v2")
def _lookup_table_v2(op):
    padding_idx = op.attr("padding_idx", -1)
    out = F.embedding(op.x("Ids"), op.x("W"), padding_idx=None if padding_idx == -1 else padding_idx,
                      sparse=bool(op.attr("is_sparse", False)))  # fmt: skip
    return {"Out": out}


@reads("lookup_table")
def _lookup_table(op):
    ids = op.x("Ids")
    if ids.ndim > 1 and ids.shape[-1] == 1:
        ids = paddle.squeeze(ids, -1)
    padding_idx = op.attr("padding_idx", -1)
    return {"Out": F.embedding(ids, op.x("W"), padding_idx=None if padding_idx == -1 else padding_idx)}


# ---- shapes and data movement ----------------------------------------------------------------------------------


def _sizes(op, whole_slot: str, list_slot: str, attr: str) -> list:
    """An op's shape as Paddle reads it: the whole-shape tensor first, then the tensor list, then the attribute.
    Tensors the Program computes stay Variables, so minipaddle's public function builds its sized op (reshape
    ...with_shape, ops/runtime_shape.py); constants (fill_constant) are plain Tensors it reads as ints."""
    if op.xs(whole_slot):
        return op.x(whole_slot)
    return op.xs(list_slot) or list(op.attr(attr))


@reads("reshape2", "reshape")
def _reshape(op):
    return {"Out": paddle.reshape(op.x("X"), _sizes(op, "Shape", "ShapeTensor", "shape"))}


@reads("flatten_contiguous_range")
def _flatten_contiguous_range(op):
    return {"Out": paddle.flatten(op.x("X"), op.attr("start_axis", 1), op.attr("stop_axis", -1))}


@reads("flatten2", "flatten")
def _flatten2(op):
    x, axis = op.x("X"), op.attr("axis", 1)
    lead = int(np.prod(x.shape[:axis])) if -1 not in x.shape[:axis] else -1
    return {"Out": paddle.reshape(x, [lead, int(np.prod(x.shape[axis:]))] if lead != -1 else [-1, int(np.prod(
        x.shape[axis:]))])}  # fmt: skip


@reads("transpose2", "transpose")
def _transpose(op):
    return {"Out": paddle.transpose(op.x("X"), list(op.attr("axis")))}


@reads("squeeze2", "squeeze")
def _squeeze(op):
    axes = list(op.attr("axes", []))
    return {"Out": paddle.squeeze(op.x("X"), axes if axes else None)}


@reads("unsqueeze2", "unsqueeze")
def _unsqueeze(op):
    if op.xs("AxesTensor") or op.xs("AxesTensorList"):
        raise NotImplementedError("unsqueeze2 with axes given as tensors")
    return {"Out": paddle.unsqueeze(op.x("X"), list(op.attr("axes")))}


def _known_int(v, what: str) -> int:
    """The int a one-element tensor input holds: a constant (paddle writes paddle.full's and a Python int's as
    fill_constant, which reads as a plain Tensor); one the Program computes is refused, naming `what`."""
    if isinstance(v, Variable):
        raise NotImplementedError(f"{what} {v.name!r} known only when the Program runs (minipaddle sizes the "
                                  "outputs when the Program is built)")  # fmt: skip
    return int(np.asarray(v.numpy()).reshape(-1)[0])


def _axis(op) -> int:
    """The op's axis: its AxisTensor's value when it has one, else its attribute."""
    (axis,) = [_known_int(v, "an AxisTensor") for v in op.xs("AxisTensor")] or [op.attr("axis", 0)]
    return axis


@reads("concat")
def _concat(op):
    return {"Out": paddle.concat(op.xs("X"), axis=_axis(op))}


@reads("stack")
def _stack(op):
    return {"Y": paddle.stack(op.xs("X"), axis=op.attr("axis", 0))}


@reads("split")
def _split(op):
    # SectionsTensorList holds every section (paddle writes a known one as an int32 fill_constant); one the Program
    # computes stays a Variable, so paddle.split cuts when the Program runs (ops/runtime_split.py)
    sections = [v if isinstance(v, Variable) else _known_int(v, "a section") for v in op.xs("SectionsTensorList")]
    sections, num = sections or list(op.attr("sections", [])), op.attr("num", 0)
    outs = paddle.split(op.x("X"), sections if sections else num, axis=_axis(op))
    return {"Out": list(outs)}


@reads("slice")
def _slice(op):
    for slot in ("StartsTensor", "EndsTensor"):
        if op.xs(slot):
            raise NotImplementedError(f"slice with a {slot} input (bounds known only at run time)")
    axes, starts, ends = list(op.attr("axes")), list(op.attr("starts")), list(op.attr("ends"))
    decrease = list(op.attr("decrease_axis", []))
    if op.xs("StartsTensorList") or op.xs("EndsTensorList"):  # bounds a Program computes: a runtime_slice
        bounds = op.xs("StartsTensorList"), op.xs("EndsTensorList"), []
        return {"Out": slice_with_tensor_bounds(op.x("Input"), axes, starts, ends, [1] * len(axes), *bounds, decrease)}
    x = op.raw("Input")
    if isinstance(x, Shape):  # a slice of a run-time shape stays symbolic
        dims = list(range(len(x.dims)))
        for s, e in zip(starts, ends):  # a shape is 1-D: every slice is along axis 0
            dims = dims[slice(s, e)]
        return {"Out": Shape(x.var, [x.dims[d] for d in dims], scalar=bool(decrease))}
    out = paddle.slice(x, axes, starts, ends)
    if decrease:
        out = paddle.squeeze(out, decrease) if len(decrease) < out.ndim else paddle.reshape(out, [])
    return {"Out": out}


def slice_with_tensor_bounds(x, axes, starts, ends, strides, start_vars, end_vars, stride_vars, decrease):
    """Paddle's slice / strided_slice whose StartsTensorList / EndsTensorList / StridesTensorList hold variables:
    x[start:end:stride] with those bounds (minipaddle's runtime_slice), the int-indexed axes (decrease_axis)
    dropped after. With a negative stride, a known end of -1 is Paddle's "through index 0" (Python's open end) and
    a start of 2**31-1 the last index; beside a Tensor stride, a start of 0 and an end of 2**31-1 are what paddle
    writes for open ones (runtime_slice refuses a negative step there, as paddle does). A Tensor bound is read when
    it runs as paddle's kernel reads it (ops/runtime_slice.tensor_bound_slice: going backward, -1 is "through index
    0")."""
    index = [slice(None)] * x.ndim
    start_vars, end_vars, stride_vars = list(start_vars), list(end_vars), list(stride_vars)
    for i, (axis, start, end, stride) in enumerate(zip(axes, starts, ends, strides)):
        s = start_vars[i] if start_vars else start
        e = end_vars[i] if end_vars else end
        st = stride_vars[i] if stride_vars else stride
        at_run_time = isinstance(st, Variable)
        st = st if at_run_time else int(st)
        if not isinstance(s, Variable):  # known (an attribute or a fill_constant): Paddle's reading of it
            s = None if int(s) >= 2**31 - 1 or (at_run_time and int(s) == 0) else int(s)  # 2**31-1 is open
        if not isinstance(e, Variable):
            e = None if int(e) >= 2**31 - 1 or (not at_run_time and st < 0 and int(e) == -1) else int(e)
        index[axis] = slice(s, e, None if not at_run_time and st == 1 else st)
    out = x[tuple(index)]
    if decrease:
        out = paddle.squeeze(out, decrease) if len(decrease) < out.ndim else paddle.reshape(out, [])
    return out


@reads("shape")
def _shape(op):
    x = op.x("Input")
    if -1 not in x.shape:
        return {"Out": paddle.to_tensor(np.asarray(x.shape, np.int32))}
    return {"Out": Shape(x, list(range(x.ndim)))}


@reads("fill_constant")
def _fill_constant(op):
    dtype = dtype_of(op.attr("dtype", 5))
    text = op.attr("str_value", "")
    value = float(text) if text not in ("", None) else op.attr("value", 0.0)
    if dtype == "bool":
        value = bool(value)
    elif dtype.startswith(("int", "uint")):
        value = int(value)
    if op.xs("ValueTensor"):
        raise NotImplementedError("fill_constant with a ValueTensor input (a value known only at run time)")
    return {"Out": paddle.full(_sizes(op, "ShapeTensor", "ShapeTensorList", "shape"), value, dtype)}


def _constant(var: Variable):
    """The value of a Variable made by fill_constant earlier in the same model (see pdmodel's constants)."""
    value = getattr(var, "_paddle_constant", None)
    if value is None:
        raise NotImplementedError(f"a shape entry {var.name!r} that is not a constant")
    return value


@reads("empty")
def _empty(op):
    """paddle.empty's op: uninitialized in Paddle, so any values are right (minipaddle's are zeros under run-time
    sizes, whatever the memory held otherwise)."""
    dtype = dtype_of(op.attr("dtype", 5))
    return {"Out": paddle.empty(_sizes(op, "ShapeTensor", "ShapeTensorList", "shape"), dtype)}


@reads("fill_any_like")
def _fill_any_like(op):
    dtype = op.attr("dtype", -1)
    return {"Out": paddle.full_like(op.x("X"), op.attr("value", 0.0), None if dtype == -1 else dtype_of(dtype))}


@reads("range")
def _range(op):
    bounds = [op.x(s) for s in ("Start", "End", "Step")]
    if any(getattr(b, "_paddle_constant", None) is None for b in bounds):  # a bound the Program computes
        values = [b if getattr(b, "_paddle_constant", None) is None else _constant(b).item() for b in bounds]
        return {"Out": paddle.arange(*values, dtype=bounds[0].dtype)}
    start, end, step = (_constant(b) for b in bounds)
    return {"Out": paddle.arange(start.item(), end.item(), step.item(), dtype=str(start.dtype))}


@reads("expand_v2")
def _expand_v2(op):
    return {"Out": paddle.expand(op.x("X"), _sizes(op, "Shape", "expand_shapes_tensor", "shape"))}


@reads("tile")
def _tile(op):
    return {"Out": paddle.tile(op.x("X"), _sizes(op, "RepeatTimes", "repeat_times_tensor", "repeat_times"))}


@reads("gather")
def _gather(op):
    if op.xs("Axis"):
        raise NotImplementedError("gather with an Axis tensor")
    return {"Out": paddle.gather(op.x("X"), op.x("Index"), axis=op.attr("axis", 0))}


@reads("arg_max")
def _arg_max(op):
    out = paddle.argmax(op.x("X"), axis=op.attr("axis", -1), keepdim=op.attr("keepdims", False),
                           dtype=dtype_of(op.attr("dtype", 3)))  # fmt: skip
    return {"Out": out}


def _reduce(path):
    def read(op):
        x = op.x("X")
        axes = None if op.attr("reduce_all", False) or not list(op.attr("dim", [])) else list(op.attr("dim"))
        return {"Out": _function(path)(x, axis=axes, keepdim=bool(op.attr("keep_dim", False)))}

    return read


for _type, _path in {"reduce_mean": "mean", "reduce_sum": "sum", "reduce_max": "max", "reduce_min": "min",
                     "reduce_prod": "prod", "reduce_all": "all", "reduce_any": "any"}.items():  # fmt: skip
    READERS[_type] = _reduce(_path)


# ---- recurrent networks ----------------------------------------------------------------------------------------


@reads("rnn")
def _rnn(op):
    """Paddle's fused `rnn` op (LSTM, GRU, RNN_TANH, RNN_RELU; one or two directions), unrolled over the time steps
    with minipaddle ops: the same gate equations as paddle.nn.LSTMCell/GRUCell, one layer after the other.

    Paddle's layout: a cell per (layer, direction), numbered layer * directions + direction; WeightList holds each
    cell's w_ih, w_hh, then each cell's b_ih, b_hh; PreState's first axis is the cell. A bidirectional layer runs
    its backward cell over the reversed sequence and gives both cells' outputs side by side to the next layer.

    With SequenceLength [N] (padded sequences), a step t >= length of sequence n leaves its state as it was and
    outputs zeros, in both directions: the backward cell meets the padding first, so it starts at the last real
    step with the initial state, as Paddle's kernel does."""
    mode = op.attr("mode", "LSTM")
    directions = 2 if op.attr("is_bidirec", False) else 1
    x = op.x("Input")  # [T, N, input] (time major)
    steps = x.shape[0]
    if steps < 0:
        raise NotImplementedError("rnn over a sequence whose length is known only at run time")
    layers = op.attr("num_layers", 1)
    weights = op.xs("WeightList")
    cells = layers * directions
    states = op.xs("PreState")
    h0 = states[0]
    c0 = states[1] if mode == "LSTM" else None
    hs, cs = [None] * cells, [None] * cells
    seq = [x[t] for t in range(steps)]
    masks = [None] * steps
    lengths = op.x("SequenceLength")
    if lengths is not None:  # masks[t]: [N, 1], 1 where step t is inside the sequence
        masks = [paddle.unsqueeze(paddle.cast(lengths > paddle.full_like(lengths, t), x.dtype), -1) for t in
                 range(steps)]  # fmt: skip
    for layer in range(layers):
        runs = []
        for d in range(directions):
            cell = layer * directions + d
            w_ih, w_hh = weights[2 * cell], weights[2 * cell + 1]
            b_ih, b_hh = weights[2 * cells + 2 * cell], weights[2 * cells + 2 * cell + 1]
            inputs = seq if d == 0 else seq[::-1]
            c = c0[cell] if c0 is not None else None
            step_masks = masks if d == 0 else masks[::-1]
            outs, hs[cell], cs[cell] = _rnn_cell_run(mode, inputs, h0[cell], c, w_ih, w_hh, b_ih, b_hh, step_masks)
            runs.append(outs if d == 0 else outs[::-1])
        seq = runs[0] if directions == 1 else [paddle.concat([f, b], axis=-1) for f, b in zip(*runs)]
    out = paddle.stack(seq, axis=0)
    state = [paddle.stack(hs, axis=0)] + ([paddle.stack(cs, axis=0)] if mode == "LSTM" else [])
    return {"Out": out, "State": state}


def _rnn_cell_run(mode: str, inputs: list, h, c, w_ih, w_hh, b_ih, b_hh, masks: list) -> tuple:
    """(outputs, last h, last c) of one cell over the time steps `inputs`; masks[t] (None: every sequence is
    this long) keeps the state of the sequences that have ended and zeros their output."""
    outs = []
    for xt, mask in zip(inputs, masks):
        h_before, c_before = h, c
        gates_x = paddle.matmul(xt, w_ih, transpose_y=True) + b_ih
        gates_h = paddle.matmul(h, w_hh, transpose_y=True) + b_hh
        if mode == "LSTM":
            i, f, g, o = paddle.split(gates_x + gates_h, 4, axis=-1)
            c = F.sigmoid(f) * c + F.sigmoid(i) * paddle.tanh(g)
            h = F.sigmoid(o) * paddle.tanh(c)
        elif mode == "GRU":
            xr, xz, xc = paddle.split(gates_x, 3, axis=-1)
            hr, hz, hc = paddle.split(gates_h, 3, axis=-1)
            r, z = F.sigmoid(xr + hr), F.sigmoid(xz + hz)
            cand = paddle.tanh(xc + r * hc)
            h = (h - cand) * z + cand
        else:
            act = paddle.tanh if mode == "RNN_TANH" else F.relu
            h = act(gates_x + gates_h)
        if mask is not None:
            h = h * mask + h_before * (1.0 - mask)
            c = c * mask + c_before * (1.0 - mask) if c is not None else None
            outs.append(h * mask)
        else:
            outs.append(h)
    return outs, h, c


# ---- quantization (the ops PaddleSlim's quantized inference models hold) ----------------------------------------


@reads("quantize_linear")
def _quantize_linear(op):
    """minipaddle's own quantize_linear op (ops/fake_quant.py): Paddle's formula, rounding and clipping exactly;
    in training (InAccum, InState, is_test False) its moving-average update too."""
    outs = ops.quantize_linear(op.x("X"), op.x("Scale"), op.x("ZeroPoint"), op.attr("quant_axis", 0),
                               op.attr("bit_length", 8), op.attr("round_type", 0), op.x("InAccum"), op.x("InState"),
                               op.attr("is_test", True), op.attr("only_observer", False),
                               op.attr("moving_rate", 0.9))  # fmt: skip
    if not isinstance(outs, tuple):
        return {"Y": outs}
    return dict(zip(("Y", "OutScale") if len(outs) == 2 else ("Y", "OutState", "OutAccum", "OutScale"), outs))


@reads("dequantize_linear")
def _dequantize_linear(op):
    return {"Y": ops.dequantize_linear(op.x("X"), op.x("Scale"), op.x("ZeroPoint"), op.attr("quant_axis", 0),
                                       op.attr("bit_length", 8), op.attr("round_type", 0),
                                       op.attr("only_observer", False))}  # fmt: skip


@reads("fake_quantize_dequantize_moving_average_abs_max", "fake_quantize_moving_average_abs_max")
def _fake_moving_average(op):
    """minipaddle's own fake ops (ops/fake_quant.py); Paddle 2.6's fake ops round ties away from zero
    (round_type 1). An inference model's op (is_test) reads InScale only."""
    fn = (ops.fake_quantize_dequantize_moving_average_abs_max if "dequantize" in op.type
          else ops.fake_quantize_moving_average_abs_max)  # fmt: skip
    outs = fn(op.x("X"), op.x("InScale"), op.x("InAccum"), op.x("InState"), op.attr("moving_rate", 0.9),
              op.attr("bit_length", 8), 1, op.attr("is_test", False))  # fmt: skip
    return dict(zip(("Out", "OutScale", "OutState", "OutAccum"), outs))


@reads("fake_quantize_dequantize_abs_max", "fake_quantize_abs_max")
def _fake_abs_max(op):
    fn = ops.fake_quantize_dequantize_abs_max if "dequantize" in op.type else ops.fake_quantize_abs_max
    return dict(zip(("Out", "OutScale"), fn(op.x("X"), op.attr("bit_length", 8), 1)))


@reads("fake_channel_wise_quantize_dequantize_abs_max", "fake_channel_wise_quantize_abs_max")
def _fake_channel_abs_max(op):
    fn = (ops.fake_channel_wise_quantize_dequantize_abs_max if "dequantize" in op.type
          else ops.fake_channel_wise_quantize_abs_max)  # fmt: skip
    if op.type == "fake_channel_wise_quantize_abs_max" and op.attr("is_test", False):
        # in a test program Paddle's kernel quantizes with the scales stored in OutScale (read here as in_scale)
        stored = op.names.get(op.outputs.get("OutScale", [None])[0])
        if isinstance(stored, Variable):
            outs = fn(op.x("X"), op.attr("bit_length", 8), 1, op.attr("quant_axis", 0), stored, True)
            return dict(zip(("Out", "OutScale"), outs))
    return dict(zip(("Out", "OutScale"), fn(op.x("X"), op.attr("bit_length", 8), 1, op.attr("quant_axis", 0))))


@reads("fake_quantize_range_abs_max")
def _fake_range_abs_max(op):
    """Paddle's kernel updates its OutScales window in place: minipaddle's op reads it as in_scales."""
    window = op.outputs.get("OutScales", [])
    in_scales = op.names.get(window[0]) if window else None
    outs = ops.fake_quantize_range_abs_max(op.x("X"), op.x("InScale"), op.x("Iter"),
                                           in_scales if isinstance(in_scales, Variable) else None,
                                           op.attr("window_size", 10000), op.attr("bit_length", 8),
                                           op.attr("round_type", 1), op.attr("is_test", False))  # fmt: skip
    return dict(zip(("Out", "OutScale", "OutScales"), outs))


@reads("fake_dequantize_max_abs")
def _fake_dequantize_max_abs(op):
    return {"Out": ops.fake_dequantize_max_abs(op.x("X"), op.x("Scale"), op.attr("max_range", 127.0))}


@reads("fake_channel_wise_dequantize_max_abs")
def _fake_channel_wise_dequantize_max_abs(op):
    out = ops.fake_channel_wise_dequantize_max_abs(op.x("X"), op.xs("Scales"), op.attr("quant_bits", [8]),
                                                   op.attr("quant_axis", 0), op.attr("x_num_col_dims", 1))  # fmt: skip
    return {"Out": out}


@reads("moving_average_abs_max_scale")
def _moving_average_abs_max_scale(op):
    outs = ops.moving_average_abs_max_scale(op.x("X"), op.x("InAccum"), op.x("InState"), op.attr("moving_rate", 0.9),
                                            op.attr("is_test", False))  # fmt: skip
    return dict(zip(("Out", "OutScale", "OutState", "OutAccum"), outs))


# ---- writing: minipaddle op -> Paddle op ------------------------------------------------------------------------

WRITERS: dict = {}


def writes(*types):
    def register(fn):
        for t in types:
            WRITERS[t] = fn
        return fn

    return register


class Temp:
    """A variable a writer adds between the Paddle ops it writes for one minipaddle op (never persistable)."""

    persistable = is_data = is_parameter = False
    stop_gradient = True

    def __init__(self, shape, dtype) -> None:
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtypes.to_dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)


class VarAttr:
    """An attribute that names a variable (Paddle's VAR type), as paddle 2.6.2 writes eye's Tensor num_rows."""

    def __init__(self, name: str) -> None:
        self.name = name


class Steps(list):
    """What a writer returns when one minipaddle op is several Paddle ops (as Paddle's own Python API writes it,
    e.g. a 1-D pool as unsqueeze2, pool2d, squeeze2): the (type, inputs, outputs, attrs) of each in order, and
    `temps` {name: Temp}, the variables between them."""

    def __init__(self, steps, temps: dict) -> None:
        super().__init__(steps)
        self.temps = temps


def _one(op, slot):
    return op.inputs[slot][0]


def _simple(paddle_type, in_slots=("X",), out_slot="Out", attrs=None):
    def write(op, var_of):
        names = [n for ns in op.inputs.values() for n in ns]
        inputs = {s: [n] for s, n in zip(in_slots, names)}
        return paddle_type, inputs, {out_slot: op.outputs["Out"][:1]}, dict(attrs(op) if attrs else {})

    return write


for _mini, _paddle_type in {"relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "exp": "exp", "sqrt": "sqrt",
                            "abs": "abs", "log": "log", "assign": "assign", "hardswish": "hard_swish",
                            "relu6": "relu6", "floor": "floor", "square": "square", "logical_not": "logical_not"
                            }.items():  # fmt: skip
    WRITERS[_mini] = _simple(_paddle_type)

for _mini, _paddle_type in {"add": "elementwise_add", "subtract": "elementwise_sub", "multiply": "elementwise_mul",
                            "divide": "elementwise_div", "maximum": "elementwise_max", "minimum": "elementwise_min",
                            "elementwise_pow": "elementwise_pow", "greater_than": "greater_than",
                            "less_than": "less_than", "equal": "equal", "not_equal": "not_equal",
                            "greater_equal": "greater_equal", "less_equal": "less_equal"}.items():  # fmt: skip
    WRITERS[_mini] = _simple(_paddle_type, ("X", "Y"), attrs=lambda op: {"axis": -1})


def _w_linear_quant(paddle_type):
    def write(op, var_of):
        x, scale, zero_point = (op.inputs[k][0] for k in ("x", "scale", "zero_point"))
        attrs = {k: int(op.attrs.get(k, d)) for k, d in (("quant_axis", 0), ("bit_length", 8), ("round_type", 0))}
        inputs = {"X": [x], "Scale": [scale], "ZeroPoint": [zero_point]}
        outputs = {"Y": op.outputs["Out"][:1]}
        for key in ("is_test", "only_observer"):
            if key in op.attrs:
                attrs[key] = bool(op.attrs[key])
        if len(op.outputs["Out"]) == 4:  # quantize_linear in training per tensor: its statistics in and out
            inputs.update(InAccum=op.inputs["in_accum"], InState=op.inputs["in_state"])
            outputs.update(zip(("OutState", "OutAccum", "OutScale"), ([n] for n in op.outputs["Out"][1:])))
            attrs["moving_rate"] = float(op.attrs.get("moving_rate", 0.9))
        elif len(op.outputs["Out"]) == 2:  # in training per channel: the scale it found
            outputs["OutScale"] = op.outputs["Out"][1:]
        return paddle_type, inputs, outputs, attrs

    return write


WRITERS["quantize_linear"] = _w_linear_quant("quantize_linear")
WRITERS["dequantize_linear"] = _w_linear_quant("dequantize_linear")


def _w_fake_quant(in_slots, out_slots, attr_names):
    """A fake-quant op as Paddle's: the same op type, the inputs given (an inference op reads X and InScale), the
    statistics' outputs only in training, as Paddle's layers build them; Paddle's fake ops have no round_type (they
    round ties away from zero, minipaddle's round_type 1)."""

    def write(op, var_of):
        if op.attrs.get("round_type", 1) != 1:
            raise NotImplementedError(f"{op.type} with round_type {op.attrs['round_type']} (Paddle 2.6's fake ops "
                                      "round ties away from zero only, round_type 1)")  # fmt: skip
        names = [n for ns in op.inputs.values() for n in ns]
        inputs = {slot: [n] for slot, n in zip(in_slots, names) if n is not None}
        kept = out_slots[:2] if op.attrs.get("is_test", False) else out_slots
        outputs = {slot: [n] for slot, n in zip(kept, op.outputs["Out"])}
        attrs = {k: op.attrs[k] for k in attr_names if k in op.attrs}
        return op.type, inputs, outputs, attrs

    return write


_MOVING = (("X", "InScale", "InAccum", "InState"), ("Out", "OutScale", "OutState", "OutAccum"))
for _mini in ("fake_quantize_dequantize_moving_average_abs_max", "fake_quantize_moving_average_abs_max"):
    WRITERS[_mini] = _w_fake_quant(*_MOVING, ("moving_rate", "bit_length", "is_test"))
for _mini in ("fake_quantize_dequantize_abs_max", "fake_quantize_abs_max"):
    WRITERS[_mini] = _w_fake_quant(("X",), ("Out", "OutScale"), ("bit_length",))
WRITERS["fake_channel_wise_quantize_dequantize_abs_max"] = _w_fake_quant(("X",), ("Out", "OutScale"),
                                                                         ("bit_length", "quant_axis"))  # fmt: skip
WRITERS["fake_channel_wise_quantize_abs_max"] = _w_fake_quant(("X",), ("Out", "OutScale"),
                                                              ("bit_length", "quant_axis", "is_test"))  # fmt: skip
WRITERS["fake_quantize_range_abs_max"] = _w_fake_quant(("X", "InScale", "Iter"), ("Out", "OutScale", "OutScales"),
                                                       ("window_size", "bit_length", "is_test"))  # fmt: skip


@writes("fake_dequantize_max_abs")
def _w_fake_dequantize_max_abs(op, var_of):
    x, scale = op.inputs["x"][0], op.inputs["scale"][0]
    return op.type, {"X": [x], "Scale": [scale]}, {"Out": op.outputs["Out"][:1]}, {"max_range": op.attrs["max_range"]}


@writes("fake_channel_wise_dequantize_max_abs")
def _w_fake_channel_wise_dequantize_max_abs(op, var_of):
    attrs = {"quant_bits": [int(b) for b in op.attrs["quant_bits"]], "quant_axis": int(op.attrs["quant_axis"]),
             "x_num_col_dims": int(op.attrs.get("x_num_col_dims", 1))}  # fmt: skip
    inputs = {"X": op.inputs["x"][:1], "Scales": list(op.inputs["scales"])}
    return op.type, inputs, {"Out": op.outputs["Out"][:1]}, attrs


# paddle-mobile's quantize / dequantize (static/quantization/mobile.py renames a frozen Program's fake ops to them,
# keeping their inputs, outputs and attributes). Paddle 2.6.2 saves such a Program although it cannot run it: its
# save_inference_model clips every op against Paddle's own op of that name (framework.py _remove_training_info,
# clip_extra), here oneDNN's quantize / dequantize (slots Input -> Output, attributes Scale, Shift, ...), which
# keeps an input slot the proto lacks but drops such output slots and attributes. So the file has the fake op's
# inputs (X, InScale / X, Scale(s)) and neither its outputs nor its attributes: a record of the graph, not a model
# anything runs.
_MOBILE_FAKE_OPS = {
    "quantize": ("fake_quantize_moving_average_abs_max", "fake_quantize_range_abs_max", "fake_quantize_abs_max",
                 "fake_channel_wise_quantize_abs_max"),
    "dequantize": ("fake_channel_wise_dequantize_max_abs", "fake_dequantize_max_abs"),
}  # fmt: skip
_MOBILE_PROTO_ATTRS = {"quantize": ("Scale", "Shift", "is_negative_input", "output_format", "bfloat16"),
                       "dequantize": ("Scale", "Shift")}  # fmt: skip


def _fake_op_renamed(op):
    """The fake op a mobile quantize / dequantize was: the one with exactly its input slots (each fake op's are
    different) and whose kernel takes its attributes."""
    for kind in _MOBILE_FAKE_OPS[op.type]:
        slots = tuple(slot.lstrip("*") for slot in input_slots(OPS[kind]))  # (*scales: a variadic slot)
        if tuple(op.inputs) == slots and set(op.attrs) <= set(inspect.signature(OPS[kind].kernel).parameters):
            return kind
    raise NotImplementedError(f"write_pdmodel: the mobile op {op.type!r} with inputs {sorted(op.inputs)} and "
                              f"attributes {sorted(op.attrs)} was none of Paddle's fake quantize ops")  # fmt: skip


def _w_mobile(op, var_of):
    was = copy.copy(op)
    was.type = _fake_op_renamed(op)
    _, inputs, _, attrs = WRITERS[was.type](was, var_of)
    return op.type, inputs, {}, {k: v for k, v in attrs.items() if k in _MOBILE_PROTO_ATTRS[op.type]}


WRITERS["quantize"] = WRITERS["dequantize"] = _w_mobile


WRITERS["moving_average_abs_max_scale"] = _w_fake_quant(("X", "InAccum", "InState"), _MOVING[1],
                                                        ("moving_rate", "is_test"))  # fmt: skip


@writes("matmul")
def _w_matmul(op, var_of):
    x, y = op.inputs["x"][0], op.inputs["y"][0]
    attrs = {"trans_x": bool(op.attrs.get("transpose_x", False)), "trans_y": bool(op.attrs.get("transpose_y", False))}
    return "matmul_v2", {"X": [x], "Y": [y]}, {"Out": op.outputs["Out"][:1]}, attrs


def _pairs(p):
    """minipaddle's ((top, bottom), (left, right)) paddings as Paddle's flat list."""
    p = [tuple(q) if isinstance(q, (list, tuple)) else (q, q) for q in p]
    if all(a == b for a, b in p):
        return [int(a) for a, _ in p]
    return [int(v) for q in p for v in q]


@writes("conv2d")
def _w_conv2d(op, var_of):
    x, w = op.inputs["x"][0], op.inputs["w"][0]
    groups = int(op.attrs.get("groups", 1))
    data_format = op.attrs.get("data_format", "NCHW")
    padding = op.attrs.get("paddings", ((0, 0), (0, 0)))
    algorithm = "EXPLICIT"
    if isinstance(padding, str):
        algorithm, padding = padding.upper(), ((0, 0), (0, 0))
    channels = var_of(x).shape[1 if data_format == "NCHW" else -1]
    kind = "depthwise_conv2d" if groups > 1 and groups == channels == var_of(w).shape[0] else "conv2d"
    attrs = {"strides": [int(s) for s in op.attrs.get("strides", (1, 1))], "paddings": _pairs(padding),
             "dilations": [int(d) for d in op.attrs.get("dilations", (1, 1))], "groups": groups,
             "data_format": data_format, "padding_algorithm": algorithm}  # fmt: skip
    return kind, {"Input": [x], "Filter": [w]}, {"Output": op.outputs["Out"][:1]}, attrs


# minipaddle op -> the writer to use when its second output (the indices) is read (static/paddle_pooling.py)
INDEX_WRITERS: dict = {}


@writes("reshape")
def _w_reshape(op, var_of):
    out = op.outputs["Out"][0]
    return ("reshape2", {"X": op.inputs["x"][:1]}, {"Out": [out], "XShape": [out + "@XShape"]},
            {"shape": [int(s) for s in op.attrs["shape"]]})  # fmt: skip


@writes("transpose")
def _w_transpose(op, var_of):
    out = op.outputs["Out"][0]
    perm = op.attrs.get("perm", op.attrs.get("axis"))
    return ("transpose2", {"X": op.inputs["x"][:1]}, {"Out": [out], "XShape": [out + "@XShape"]},
            {"axis": [int(a) for a in perm]})  # fmt: skip


@writes("softmax")
def _w_softmax(op, var_of):
    return "softmax", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, {"axis": int(op.attrs["axis"])}


@writes("scale")
def _w_scale(op, var_of):
    attrs = {"scale": float(op.attrs.get("scale", 1.0)), "bias": float(op.attrs.get("bias", 0.0)),
             "bias_after_scale": bool(op.attrs.get("bias_after_scale", True))}  # fmt: skip
    return "scale", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, attrs


@writes("neg")
def _w_neg(op, var_of):
    """-x as paddle 2.6.2 writes it: scale by -1 (for a bool x too, which scale keeps, as minipaddle's neg)."""
    attrs = {"scale": -1.0, "bias": 0.0, "bias_after_scale": True}
    return "scale", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, attrs


@writes("concat")
def _w_concat(op, var_of):
    names = [n for ns in op.inputs.values() for n in ns]
    return "concat", {"X": names}, {"Out": op.outputs["Out"][:1]}, {"axis": int(op.attrs.get("axis", 0))}


@writes("gather")
def _w_gather(op, var_of):
    """gather along an axis at a 1-D (or 0-D) index as Paddle's gather; minipaddle's other modes (nd, row) and
    an index of more axes are other Paddle ops."""
    x, index = op.inputs["x"][0], op.inputs["index"][0]
    mode, shape = op.attrs.get("mode", "axis"), list(var_of(index).shape)
    if mode != "axis" or len(shape) > 1:
        raise NotImplementedError(f"gather in mode {mode!r} with an index of shape {shape} (Paddle's gather takes "
                                  "one axis at a 1-D index)")  # fmt: skip
    return "gather", {"X": [x], "Index": [index]}, {"Out": op.outputs["Out"][:1]}, {"axis": int(op.attrs["axis"])}


@writes("cast")
def _w_cast(op, var_of):
    x = op.inputs["x"][0]
    src = var_of(x).dtype.name
    dst = dtypes.to_dtype(op.attrs["dtype"]).name
    return ("cast", {"X": [x]}, {"Out": op.outputs["Out"][:1]},
            {"in_dtype": DTYPE_NUMBERS[src], "out_dtype": DTYPE_NUMBERS[dst]})  # fmt: skip


@writes("gelu")
def _w_gelu(op, var_of):
    return "gelu", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, {"approximate": bool(op.attrs.get(
        "approximate", False))}  # fmt: skip


@writes("leaky_relu")
def _w_leaky_relu(op, var_of):
    slope = op.attrs.get("negative_slope", op.attrs.get("alpha", 0.01))
    return "leaky_relu", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, {"alpha": float(slope)}


def _w_reduce(kind):
    def write(op, var_of):
        x = op.inputs["x"][0]
        axis = op.attrs.get("axis")
        ndim = var_of(x).ndim
        dims = list(range(ndim)) if axis is None else [int(a) for a in (axis if isinstance(axis, (list, tuple))
                                                                         else [axis])]  # fmt: skip
        attrs = {"dim": dims, "keep_dim": bool(op.attrs.get("keepdim", False)), "reduce_all": axis is None,
                 "in_dtype": -1, "out_dtype": -1}  # fmt: skip
        return kind, {"X": [x]}, {"Out": op.outputs["Out"][:1]}, attrs

    return write


WRITERS["mean"] = _w_reduce("reduce_mean")
WRITERS["sum"] = _w_reduce("reduce_sum")
WRITERS["max"] = _w_reduce("reduce_max")
WRITERS["min"] = _w_reduce("reduce_min")

for _mini in ("rsqrt", "erf", "sin", "cos", "reciprocal"):
    WRITERS[_mini] = _simple(_mini)


@writes("clip")
def _w_clip(op, var_of):
    lo, hi = op.attrs.get("min"), op.attrs.get("max")
    attrs = {"min": float(lo) if lo is not None else float(np.finfo(np.float32).min),
             "max": float(hi) if hi is not None else float(np.finfo(np.float32).max)}  # fmt: skip
    return "clip", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, attrs


@writes("standardize")
def _w_standardize(op, var_of):
    """minipaddle's standardize over trailing axes is Paddle's layer_norm without Scale and Bias (whose Mean and
    Variance outputs are flat; minipaddle keeps them shaped, so only Y may be read afterwards)."""
    x = op.inputs["x"][0]
    ndim = var_of(x).ndim
    axes = sorted(a % ndim for a in op.attrs["axes"])
    if axes != list(range(axes[0], ndim)):
        raise NotImplementedError(f"standardize over axes {axes} (Paddle's layer_norm normalizes trailing axes)")
    y, mean, var = op.outputs["Out"]
    attrs = {"begin_norm_axis": axes[0], "epsilon": float(op.attrs.get("epsilon", 1e-5))}
    return "layer_norm", {"X": [x]}, {"Y": [y], "Mean": [mean + "@flat"], "Variance": [var + "@flat"]}, attrs


@writes("assign_value")
def _w_assign_value(op, var_of):
    (out,) = op.outputs["Out"]
    dtype = dtypes.to_dtype(op.attrs["dtype"]).name
    values = np.asarray(op.attrs["values"]).reshape(-1)
    field = {"float32": "fp32_values", "float64": "fp64_values", "int32": "int32_values", "int64": "int64_values",
             "bool": "bool_values"}.get(dtype)  # fmt: skip
    if field is None:
        raise NotImplementedError(f"a constant of dtype {dtype} (Paddle's assign_value holds float, int and bool)")
    attrs = {"shape": [int(s) for s in op.attrs["shape"]], "dtype": DTYPE_NUMBERS[dtype], "bool_values": [],
             "fp32_values": [], "fp64_values": [], "int32_values": [], "int64_values": []}  # fmt: skip
    attrs[field] = [int(v) if dtype == "bool" or "int" in dtype else float(v) for v in values]
    return "assign_value", {}, {"Out": [out]}, attrs


@writes("full_like")
def _w_full_like(op, var_of):
    dtype = op.attrs.get("dtype")
    number = -1 if dtype is None else DTYPE_NUMBERS[dtypes.to_dtype(dtype).name]
    return ("fill_any_like", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]},
            {"value": float(op.attrs["value"]), "dtype": number})  # fmt: skip


@reads("assign_value")
def _assign_value(op):
    dtype = dtype_of(op.attr("dtype", 5))
    for field in ("fp32_values", "fp64_values", "int32_values", "int64_values", "bool_values", "values"):
        values = op.attr(field)
        if values:
            break
    data = np.asarray(values if values else [], dtype=dtypes.to_dtype(dtype).np).reshape(list(op.attr("shape", [])))
    return {"Out": paddle.to_tensor(data)}


@writes("pow")
def _w_pow(op, var_of):
    return "pow", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, {"factor": float(op.attrs["factor"])}


@reads("pow")
def _pow(op):
    factor = op.raw("FactorTensor")
    if factor is not None:
        raise NotImplementedError("pow with a FactorTensor (an exponent computed at run time)")
    return {"Out": paddle.pow(op.x("X"), float(op.attr("factor", 1.0)))}


# ---- embedding, the fused fc (slicing and set_value: static/paddle_indexing.py) -------------------------------------


@writes("embedding")
def _w_embedding(op, var_of):
    ids, weight = op.inputs["ids"][0], op.inputs["weight"][0]
    padding_idx = op.attrs.get("padding_idx")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += var_of(weight).shape[0]
    attrs = {"padding_idx": -1 if padding_idx is None else int(padding_idx)}
    if op.attrs.get("sparse"):  # the table's gradient is SelectedRows in Paddle (static/paddle_grad_ops.py)
        attrs["is_sparse"] = True
    return "lookup_table_v2", {"Ids": [ids], "W": [weight]}, {"Out": op.outputs["Out"][:1]}, attrs


@writes("fc")
def _w_fc(op, var_of):
    """minipaddle's fused fc as Paddle's fc op (x @ w + b over x's last axis, then relu or nothing)."""
    x, w, b = op.inputs["x"][0], op.inputs["w"][0], (op.inputs.get("b") or [None])[0]
    activation = op.attrs.get("activation")
    if activation not in (None, "relu"):
        raise NotImplementedError(f"fc with activation {activation!r} (Paddle's fc op applies relu or nothing)")
    out_features = var_of(w).shape[1]
    if b is not None and list(var_of(b).shape) not in ([out_features], [1, out_features]):
        raise NotImplementedError(f"fc with a bias of shape {var_of(b).shape} (Paddle's fc adds one row of biases)")
    attrs = {"in_num_col_dims": var_of(x).ndim - 1, "activation_type": activation or ""}
    inputs = {"Input": [x], "W": [w], "Bias": [b] if b is not None else []}
    return "fc", inputs, {"Out": op.outputs["Out"][:1]}, attrs


@reads("fc")
def _fc(op):
    x, w, b = op.x("Input"), op.x("W"), op.x("Bias")
    k = int(op.attr("in_num_col_dims", 1))
    if k != x.ndim - 1:  # Paddle multiplies x's axes from in_num_col_dims on, flattened into one
        x = paddle.flatten(x, start_axis=k)
    out = paddle.matmul(x, w)
    if b is not None:
        out = out + paddle.reshape(b, [w.shape[1]])
    activation = op.attr("activation_type", "")
    if activation == "relu":
        out = F.relu(out)
    elif activation:
        raise NotImplementedError(f"fc with activation_type {activation!r}")
    return {"Out": out}


@writes("split")
def _w_split(op, var_of):
    """split into known sections as Paddle's split (`num` when they are equal, as paddle.split writes it)."""
    sections = [int(n) for n in op.attrs["sections"]]
    axis = int(op.attrs["axis"])
    equal = len(set(sections)) == 1
    attrs = {"axis": axis, "num": len(sections) if equal else 0, "sections": [] if equal else sections}
    return "split", {"X": op.inputs["x"][:1]}, {"Out": list(op.outputs["Out"])}, attrs


@reads("max_pool2d_with_index")
def _max_pool2d_with_index(op):
    """Max pooling with the flat index of each maximum (Mask), as minipaddle's pools give it with return_mask."""
    x = op.x("X")
    ksize = [int(k) for k in op.attr("ksize")]
    if op.attr("global_pooling", False):
        out, mask = F.adaptive_max_pool2d(x, 1, return_mask=True)
    elif op.attr("adaptive", False):
        out, mask = F.adaptive_max_pool2d(x, ksize, return_mask=True)
    else:
        paddings = [int(p) for p in op.attr("paddings", [0, 0])]
        out, mask = F.max_pool2d(x, ksize, [int(s) for s in op.attr("strides")], paddings, return_mask=True)
    return {"Out": out, "Mask": mask}


@writes("hardsigmoid")
def _w_hardsigmoid(op, var_of):
    attrs = {"slope": float(op.attrs["slope"]), "offset": float(op.attrs["offset"])}
    return "hard_sigmoid", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, attrs


@writes("cumsum")
def _w_cumsum(op, var_of):
    """Running sums along an axis (minipaddle flattens for axis=None before the op, so `flatten` stays False)."""
    attrs = {"axis": int(op.attrs["axis"]), "reverse": bool(op.attrs.get("reverse", False)), "exclusive": False,
             "flatten": False}  # fmt: skip
    return "cumsum", {"X": op.inputs["x"][:1]}, {"Out": op.outputs["Out"][:1]}, attrs


@reads("cumsum")
def _cumsum(op):
    if op.xs("AxisTensor"):
        raise NotImplementedError("cumsum with an AxisTensor (an axis known only at run time)")
    x = op.x("X")
    if op.attr("flatten", False):
        x = paddle.reshape(x, [-1])
    axis = 0 if op.attr("flatten", False) else int(op.attr("axis", -1)) % x.ndim
    out = ops.cumsum(x, axis, bool(op.attr("reverse", False)))  # (paddle.cumsum has no `reverse`)
    if op.attr("exclusive", False):  # the sums of the elements before each one
        out = out - x
    return {"Out": out}


@reads("linspace")
def _linspace(op):
    """Start, Stop and Num are tensors: constants (fill_constant) read as numbers, the others stay Variables."""
    values = []
    for slot in ("Start", "Stop", "Num"):
        v = op.x(slot)
        values.append(v if getattr(v, "_paddle_constant", None) is None else _constant(v).item())
    return {"Out": paddle.linspace(*values, dtype=dtype_of(op.attr("dtype", 5)))}


def _random_reader(draw):
    def read(op):
        return {"Out": draw(_sizes(op, "ShapeTensor", "ShapeTensorList", "shape"), dtype_of(op.attr("dtype", 5)), op)}

    return read


# Paddle's random ops as the public functions with the same shape (a list holding Variables: sized at run time)
READERS["uniform_random"] = _random_reader(lambda shape, dtype, op: paddle.uniform(
    shape, dtype, min=op.attr("min", -1.0), max=op.attr("max", 1.0), seed=op.attr("seed", 0)))  # fmt: skip
READERS["randint"] = _random_reader(lambda shape, dtype, op: paddle.randint(
    op.attr("low", 0), op.attr("high", 1), shape, dtype))  # fmt: skip


@reads("gaussian_random")
def _gaussian_random(op):
    if op.attr("seed", 0):
        raise NotImplementedError("gaussian_random with its own seed")
    draw = paddle.standard_normal(_sizes(op, "ShapeTensor", "ShapeTensorList", "shape"), dtype_of(op.attr("dtype", 5)))
    mean, std = op.attr("mean", 0.0), op.attr("std", 1.0)
    return {"Out": draw if (mean, std) == (0.0, 1.0) else draw * std + mean}


@reads("eye")
def _eye(op):
    """num_rows / num_columns are ints, or (VAR attributes) the names of variables holding them."""
    sizes = []
    for name in ("num_rows", "num_columns"):
        v = op.attr(name, -1)
        if isinstance(v, str):  # a VAR attribute: the variable's value is the size when the Program runs
            if v not in op.names:
                raise ValueError(f"op 'eye' reads {name} from {v!r}, which no earlier op of the model computes")
            v = op.names[v].value() if isinstance(op.names[v], Shape) else op.names[v]
        sizes.append(None if isinstance(v, int) and v == -1 else v)
    return {"Out": paddle.eye(sizes[0], sizes[1], dtype=dtype_of(op.attr("dtype", 5)))}
