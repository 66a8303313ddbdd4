"""Paddle's backward ops for a training Program being written as Paddle's ProgramDesc (static/pdmodel.py).

minipaddle's own backward is made of ordinary minipaddle ops (static/backward.py replays the grad rules), which
Paddle's program would not hold: paddle 2.6's `append_backward` writes one generated `<type>_grad` op per forward
op. So the backward is generated again here, from the Paddle forward ops already written, the way Paddle's grad
makers do it: walk the forward ops in reverse, give each one that a needed gradient flows through its `_grad` op,
name the gradient of `v` `v@GRAD`, and where `v` gets several shares name them `v@GRAD@RENAME@block0@k` and add
them with a `sum` op (which carries a parameter's op_role_var then). The root is Paddle's `fill_constant` of 1.0
into `loss@GRAD` (op_role Backward|Loss); an output no one read (a part of split) gets zeros from `fill_any_like`.

GRAD_OPS says, per forward op type, which slots its grad op reads (a forward input or output slot by name, or
`S@GRAD`: the gradient of forward output slot S) and which it writes (`S@GRAD`: the gradient of forward input
slot S), in Paddle 2.6.2's own slot lists (as its append_backward writes them). The grad op carries the forward
op's attributes, as Paddle's grad makers copy them.
"""

from __future__ import annotations

from collections import Counter

from minipaddle.static.paddle_proto import AttrType, VarTypeEnum

__all__ = ["GRAD_OPS", "append_paddle_backward", "as_selected_rows"]

ROLE_BACKWARD, ROLE_LOSS = 0x1, 0x100


def _spec(text: str) -> tuple:
    reads, writes = text.split("->")
    return tuple(s.strip() for s in reads.split(",")), tuple(s.strip() for s in writes.split(","))


_UNARY_OUT = "Out, Out@GRAD -> X@GRAD"  # the gradient from the result alone (relu: where Out > 0)
_UNARY_X = "Out@GRAD, X -> X@GRAD"
_UNARY_BOTH = "Out, Out@GRAD, X -> X@GRAD"
_BINARY = "Out@GRAD, X, Y -> X@GRAD, Y@GRAD"
_XSHAPE = "Out@GRAD, XShape -> X@GRAD"  # the input's shape, kept in XShape by the forward op

GRAD_OPS = {t: _spec(s) for t, s in {
    **dict.fromkeys(["relu", "tanh", "sigmoid", "exp", "sqrt", "softmax", "log_softmax", "relu6"], _UNARY_OUT),
    **dict.fromkeys(["gelu", "leaky_relu", "abs", "log", "square", "hard_swish", "reduce_mean", "reduce_sum",
                     "mean"], _UNARY_X),  # fmt: skip
    **dict.fromkeys(["elu", "silu", "reduce_max", "reduce_min"], _UNARY_BOTH),
    **dict.fromkeys(["elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_pow", "elementwise_max",
                     "elementwise_min", "matmul_v2", "mul"], _BINARY),  # fmt: skip
    **dict.fromkeys(["reshape2", "transpose2", "flatten_contiguous_range", "squeeze2"], _XSHAPE),
    "unsqueeze2": "AxesTensor, AxesTensorList, Out@GRAD, XShape -> X@GRAD",
    "elementwise_div": "Out, Out@GRAD, X, Y -> X@GRAD, Y@GRAD",
    "pow": "FactorTensor, Out@GRAD, X -> X@GRAD",
    "clip": "Max, Min, Out@GRAD, X -> X@GRAD",
    "softmax_with_cross_entropy": "Label, Loss@GRAD, Softmax -> Logits@GRAD",
    "slice": "EndsTensor, EndsTensorList, Input, Out@GRAD, StartsTensor, StartsTensorList -> Input@GRAD",
    "conv2d": "Filter, Input, Output@GRAD -> Filter@GRAD, Input@GRAD",
    "depthwise_conv2d": "Filter, Input, Output@GRAD -> Filter@GRAD, Input@GRAD",
    "pool2d": "Out, Out@GRAD, X -> X@GRAD",
    "concat": "AxisTensor, Out@GRAD, X -> X@GRAD",
    "stack": "X, Y@GRAD -> X@GRAD",
    "gather": "Axis, Index, Out@GRAD, X -> X@GRAD",
    "lookup_table_v2": "Ids, Out@GRAD, W -> W@GRAD",
    "gather_nd": "Index, Out@GRAD, X -> X@GRAD",  # what advanced indexing writes (static/paddle_indexing.py)
    # minipaddle's LayerNorm writes layer_norm without Scale and Bias (and multiplies and adds after it): those
    # slots are then empty in the grad op too, and only X@GRAD is written
    "layer_norm": "Bias, Mean, Scale, Variance, X, Y@GRAD -> Bias@GRAD, Scale@GRAD, X@GRAD",
    # the train/eval switches written as Paddle's one op (static/paddle_train_switches.py)
    "batch_norm": "Bias, MeanOut, ReserveSpace, SavedMean, SavedVariance, Scale, VarianceOut, X, Y@GRAD -> "
                  "Bias@GRAD, Scale@GRAD, X@GRAD",
    "dropout": "Mask, Out@GRAD -> X@GRAD",
    # written as forward ops (_GRAD_AS_OP)
    "scale": "Out@GRAD -> X@GRAD",
    "cast": "Out@GRAD -> X@GRAD",
    "split": "Out@GRAD -> X@GRAD",
}.items()}  # fmt: skip

# Paddle's grad of these is a forward op on the gradients, from X to Out: scale by the same factor, cast back, and
# concat the parts of split (its X the gradients of split's Out in order, its Out that of split's X): {forward
# op: (the grad op's type, its input slots besides X, which Paddle writes empty)}
_GRAD_AS_OP = {"scale": ("scale", ()), "cast": ("cast", ()), "split": ("concat", ("AxisTensor",))}

# ops no gradient flows through: their outputs do not depend on the parameters for the backward
_NO_GRAD = frozenset({"fill_constant", "shape", "arg_max", "arg_min", "equal", "not_equal", "less_than",
                      "greater_than", "less_equal", "greater_equal", "logical_not", "logical_and", "assign_value",
                      "uniform_random", "gaussian_random", "fill_any_like", "range", "one_hot_v2", "feed"})  # fmt: skip


def _slots(vars_) -> dict:
    return {v.parameter: list(v.arguments) for v in vars_}


def _names(vars_) -> list:
    return [n for v in vars_ for n in v.arguments]


def _set_int(od, name: str, value: int) -> None:
    for a in od.attrs:
        if a.name == name:
            a.i = value
            return
    od.attrs.add(name=name, type=AttrType["INT"], i=value)


_FIELDS = {"BOOLEAN": "b", "INT": "i", "FLOAT": "f", "STRING": "s", "LONGS": "longs", "STRINGS": "strings"}


def _add_op(block, kind: str, inputs: dict, outputs: dict, attrs: list, role_var: list | None = None):
    """A backward op that is no forward op's grad (sum, fill_constant, fill_any_like): its slots, its attributes
    [(name, AttrType name, value)], and those every Paddle op has (a Backward op's op_role, `role_var`)."""
    od = block.ops.add(type=kind)
    for slot, args in inputs.items():
        od.inputs.add(parameter=slot, arguments=args)
    for slot, args in outputs.items():
        od.outputs.add(parameter=slot, arguments=args)
    common = [("op_device", "STRING", ""), ("op_role", "INT", ROLE_BACKWARD),
              ("op_role_var", "STRINGS", list(role_var or [])), ("with_quant_attr", "BOOLEAN", False)]  # fmt: skip
    for name, typ, value in attrs + common:
        a = od.attrs.add(name=name, type=AttrType[typ])
        if isinstance(value, list):
            getattr(a, _FIELDS[typ]).extend(value)
        else:
            setattr(a, _FIELDS[typ], value)
    return od


class _Backward:
    def __init__(self, block, declare_grad) -> None:
        self.block = block
        self.declare_grad = declare_grad  # (grad name, forward name): declares the gradient variable
        self.shares: Counter = Counter()  # how many gradient shares each variable gets
        self.given: dict = {}  # variable -> the names of the shares written so far
        self.summed: set = set()

    def share_name(self, n: str) -> str:
        """The name the next share of d/d`n` is written under (declared)."""
        done = self.given.setdefault(n, [])
        g = f"{n}@GRAD" if self.shares[n] == 1 else f"{n}@GRAD@RENAME@block0@{len(done)}"
        done.append(g)
        self.declare_grad(g, n)
        return g

    def zeros_of(self, n: str) -> str:
        """d/d`n` for an output of an op the gradient flows through that nothing read: zeros like it (Paddle's
        fill_any_like, as append_backward adds it for a grad op's input no op wrote)."""
        g = f"{n}@GRAD"
        self.given[n] = [g]
        self.declare_grad(g, n)
        _add_op(self.block, "fill_any_like", {"X": [n]}, {"Out": [g]}, [("dtype", "INT", -1), ("value", "FLOAT", 0.0)])
        return g

    def grad_of(self, n: str, role_var: list | None = None) -> str:
        """d/d`n`, all its shares added (Paddle's `sum` op, once they are all written, with `role_var`)."""
        g = f"{n}@GRAD"
        parts = self.given.get(n, [])
        if len(parts) > 1 and n not in self.summed:
            self.summed.add(n)
            self.declare_grad(g, n)
            attrs = [("use_mkldnn", "BOOLEAN", False), ("mkldnn_data_type", "STRING", "float32")]
            _add_op(self.block, "sum", {"X": parts}, {"Out": [g]}, attrs, role_var)
            types = {v.name: v.type.type for v in self.block.vars}
            if all(types.get(part) == VarTypeEnum["SELECTED_ROWS"] for part in parts):  # (paddle's sum: rows too)
                as_selected_rows(self.block, g)
        return g


def append_paddle_backward(block, loss: str, loss_shape, loss_dtype: int, params: list, declare_grad) -> None:
    """Append to the BlockDesc `block`, which holds the forward ops as Paddle's, the backward Paddle's
    append_backward writes for `loss` and the parameters `params` (their gradients end as `p@GRAD`).
    `declare_grad(grad_name, forward_name)` declares a gradient variable like its forward variable.

    NotImplementedError names a forward op a needed gradient flows through whose grad op is outside GRAD_OPS.
    """
    forward = list(block.ops)
    depends = set(params)
    for od in forward:
        if od.type not in _NO_GRAD and any(n in depends for n in _names(od.inputs)):
            depends.update(_names(od.outputs))
    reaches = {loss}
    for od in reversed(forward):
        if any(n in reaches for n in _names(od.outputs)):
            reaches.update(_names(od.inputs))
    needed = depends & reaches
    through = [od for od in forward if od.type not in _NO_GRAD and any(n in needed for n in _names(od.outputs))]
    for od in through:
        if od.type not in GRAD_OPS:
            raise NotImplementedError(f"write_program_desc: no Paddle grad op for the forward op '{od.type}' "
                                      "(static/paddle_grad_ops.py GRAD_OPS)")  # fmt: skip
    w = _Backward(block, declare_grad)
    for od in through:
        ins = _slots(od.inputs)
        for slot in GRAD_OPS[od.type][1]:
            w.shares.update(n for n in ins.get(slot.removesuffix("@GRAD"), []) if n in needed)
    for od in forward:  # Paddle marks the op that computes the loss
        if loss in _names(od.outputs):
            _set_int(od, "op_role", ROLE_LOSS)
    w.declare_grad(f"{loss}@GRAD", loss)
    w.given[loss] = [f"{loss}@GRAD"]
    root = _add_op(block, "fill_constant", {}, {"Out": [f"{loss}@GRAD"]},
                   [("shape", "LONGS", [int(s) for s in loss_shape]), ("value", "FLOAT", 1.0),
                    ("dtype", "INT", loss_dtype), ("force_cpu", "BOOLEAN", False), ("str_value", "STRING", ""),
                    ("place_type", "INT", -1)])  # fmt: skip
    _set_int(root, "op_role", ROLE_BACKWARD | ROLE_LOSS)
    for od in reversed(through):
        _grad_op(w, od, needed, set(params))
    for p in params:  # Paddle marks the op that writes a parameter's whole gradient with (p, p@GRAD)
        if p in w.given:
            w.grad_of(p, [p, f"{p}@GRAD"])


def _grad_op(w: _Backward, od, needed: set, params: set) -> None:
    reads, writes = GRAD_OPS[od.type]
    ins, outs = _slots(od.inputs), _slots(od.outputs)
    read_args = {}
    for slot in reads:  # the gradients of the outputs first: all their shares are written by now
        if slot.endswith("@GRAD"):
            read_args[slot] = [w.grad_of(n) if n in w.given else w.zeros_of(n) for n in outs[slot.removesuffix(
                "@GRAD")]]  # fmt: skip
        else:
            read_args[slot] = ins.get(slot, outs.get(slot, []))
    write_args, role_var = {}, []
    for slot in writes:
        args = [w.share_name(n) if n in needed else "@EMPTY@" for n in ins.get(slot.removesuffix("@GRAD"), [])]
        write_args[slot] = [] if args == ["@EMPTY@"] else args  # Paddle leaves a lone unneeded gradient out
        role_var += [pair for n, g in zip(ins.get(slot.removesuffix("@GRAD"), []), args)
                     if n in params and g == f"{n}@GRAD" for pair in (n, g)]  # fmt: skip
    if od.type == "batch_norm" and bool(write_args.get("Scale@GRAD")) != bool(write_args.get("Bias@GRAD")):
        # Paddle's batch_norm_grad writes both or neither: the other (of a fixed scale or shift,
        # static/paddle_train_switches.py) goes to a gradient variable nothing reads
        for slot in ("Scale@GRAD", "Bias@GRAD"):
            if not write_args.get(slot):
                (fixed,) = ins[slot.removesuffix("@GRAD")]
                write_args[slot] = [f"{fixed}@GRAD"]
                w.declare_grad(f"{fixed}@GRAD", fixed)
    if od.type == "lookup_table_v2" and any(a.name == "is_sparse" and a.b for a in od.attrs):
        for name in write_args.get("W@GRAD", []):  # nn.Embedding(sparse=True): Paddle's table gradient is rows
            as_selected_rows(w.block, name)
    kind, empty_slots = _GRAD_AS_OP.get(od.type, (f"{od.type}_grad", ()))
    g = w.block.ops.add(type=kind)
    if od.type in _GRAD_AS_OP:
        for slot in empty_slots:
            g.inputs.add(parameter=slot, arguments=[])
        g.inputs.add(parameter="X", arguments=read_args["Out@GRAD"])
        g.outputs.add(parameter="Out", arguments=write_args["X@GRAD"])
    else:
        for slot in sorted(read_args):
            g.inputs.add(parameter=slot, arguments=read_args[slot])
        for slot in sorted(write_args):
            g.outputs.add(parameter=slot, arguments=write_args[slot])
    for a in od.attrs:
        if a.name in ("op_role", "op_role_var"):
            continue
        copy = g.attrs.add()
        copy.CopyFrom(a)
        if kind == "scale" and a.name == "bias":  # d(s*x + b)/dx = s
            copy.f = 0.0
        if kind == "cast" and a.name in ("in_dtype", "out_dtype"):  # back to the input's dtype
            other = "out_dtype" if a.name == "in_dtype" else "in_dtype"
            copy.i = next(b.i for b in od.attrs if b.name == other)
    _set_int(g, "op_role", ROLE_BACKWARD)
    g.attrs.add(name="op_role_var", type=AttrType["STRINGS"]).strings.extend(role_var)


def as_selected_rows(block, name: str) -> None:
    """Declare the gradient variable `name` SELECTED_ROWS (the rows a sparse lookup's gradient touches, in Paddle)
    with its tensor's dtype and shape."""
    (vd,) = [v for v in block.vars if v.name == name]
    tensor = vd.type.lod_tensor.tensor
    dtype, dims = tensor.data_type, list(tensor.dims)
    vd.type.ClearField("lod_tensor")
    vd.type.type = VarTypeEnum["SELECTED_ROWS"]
    vd.type.selected_rows.data_type = dtype
    vd.type.selected_rows.dims.extend(dims)
