"""Paddle 2.6's inference-model files, both ways: `.pdmodel` (a ProgramDesc protobuf), `.pdiparams` (the combined
parameter stream) and `.pdiparams.info` (a pickle of names), into a minipaddle Program and back.

Reading (`read_pdmodel`): the protobuf is parsed with the schema in static/paddle_proto.py; then each Paddle op
of each block is translated by the table in static/paddle_ops.py into minipaddle ops, whose outputs get the
names Paddle gave them. `feed`/`fetch` ops become the feed and fetch names; persistable variables become
parameters; `conditional_block` + `select_input` become minipaddle `cond` ops and `while` a `while` op, whose
sub-blocks are translated the same way (Paddle's sub-blocks write their results into the parent's variables
in place, which the Executor's shared environment does too).

Writing (`write_pdmodel`): each minipaddle op is written as Paddle's op (paddle_ops.WRITERS), with the feed and
fetch ops, the `scale` op Paddle puts before each fetch, Paddle's version number and its op version map.

The parameter stream (`.pdiparams`, Paddle's save_combine): for each persistable variable, sorted by name,
    uint32 0 (LoD version) | uint64 LoD levels, each uint64 byte size + offsets | uint32 0 (tensor version)
    | int32 size of the TensorDesc | TensorDesc protobuf (data type, dims) | the raw little-endian values
"""

from __future__ import annotations

import io
import math
import re
import struct
import warnings

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, set_static_mode
from minipaddle.static import (  # noqa: F401 (they fill the tables)
    paddle_indexing,
    paddle_loss_ops,
    paddle_pooling,
    paddle_rnn_ops,
    paddle_runtime_shapes,
)
from minipaddle.static.builder import enable_static
from minipaddle.static.paddle_amp_ops import (
    move_gradient_casts,
    paddle_loss_scaling_ops,
    with_skip_update,
    without_same_dtype_casts,
)
from minipaddle.static.paddle_clip_ops import paddle_grad_edits
from minipaddle.static.paddle_grad_ops import append_paddle_backward, as_selected_rows
from minipaddle.static.paddle_op_defaults import op_defaults
from minipaddle.static.paddle_op_versions import OP_VERSIONS
from minipaddle.static.paddle_ops import DTYPE_NUMBERS, INDEX_WRITERS, READERS, WRITERS, Shape, Steps, VarAttr, dtype_of
from minipaddle.static.paddle_optimizer_ops import paddle_optimizer_ops
from minipaddle.static.paddle_proto import AttrType, ProgramDesc, TensorDesc, VarTypeEnum
from minipaddle.static.paddle_train_switches import paddle_switch_ops
from minipaddle.static.paddle_training import count_past, count_past_taken_names, rebuild_training
from minipaddle.static.parameters import StaticParameter
from minipaddle.static.pdmodel_checks import check_attr_types
from minipaddle.static.program import (
    ROLE_BACKWARD,
    ROLE_FORWARD,
    ROLE_OPTIMIZE,
    TRAINING_FLAG,
    OpDesc,
    Program,
    Variable,
    program_guard,
)
from minipaddle.tensor.manipulation import assign, cast

__all__ = [
    "read_pdmodel", "write_pdmodel", "write_program_desc", "read_pdiparams", "write_pdiparams", "is_pdmodel",
    "PADDLE_VERSION", "quant_attrs_of",
]  # fmt: skip

PADDLE_VERSION = 2006002  # what paddle 2.6.2 writes in ProgramDesc.version
# Paddle's OpRole bits (paddle/fluid/framework/op_proto_maker.h): Backward 0x1, Optimize 0x2, LRSched 0x10; the
# forward ops are 0 (and Loss 0x100, the loss op itself)
_NOT_FORWARD = 0x1 | 0x2 | 0x10
_ATTR_NAMES = {number: name for name, number in AttrType.items()}
# `X0_threshold`, `Input0_threshold`, `out_threshold`, ...: what a saved quantized model notes per input and
# output for int8 engines; with `with_quant_attr` and `skip_quant` they are read into OpDesc.quant_attrs.
_QUANT_ATTR = re.compile(r"^(?:[A-Za-z]+\d+|out)_threshold$")


def quant_attrs_of(attrs: dict) -> dict:
    """The quantization notes among a Paddle op's attributes ({} for an op that has none: with_quant_attr False)."""
    notes = {k: v for k, v in attrs.items() if k in ("with_quant_attr", "skip_quant") or _QUANT_ATTR.match(k)}
    return notes if any(v is not False for v in notes.values()) else {}


_SKIPPED_ATTRS = {"op_callstack", "op_device", "op_namescope", "op_role", "op_role_var", "with_quant_attr",
                  "use_mkldnn", "use_cudnn", "use_quantizer", "mkldnn_data_type", "is_test"}  # fmt: skip


# ---- attributes -----------------------------------------------------------------------------------------------


def _attr_value(a):
    kind = _ATTR_NAMES.get(a.type)
    if kind == "INT":
        return a.i
    if kind == "FLOAT":
        return float(np.float32(a.f))
    if kind == "STRING":
        return a.s
    if kind in ("INTS", "FLOATS", "STRINGS", "BOOLEANS", "LONGS", "FLOAT64S", "BLOCKS", "VARS"):
        field = {"INTS": "ints", "FLOATS": "floats", "STRINGS": "strings", "BOOLEANS": "bools", "LONGS": "longs",
                 "FLOAT64S": "float64s", "BLOCKS": "blocks_idx", "VARS": "vars_name"}[kind]  # fmt: skip
        return list(getattr(a, field))
    if kind == "BOOLEAN":
        return a.b
    if kind == "LONG":
        return a.l
    if kind == "BLOCK":
        return a.block_idx
    if kind == "FLOAT64":
        return a.float64
    if kind == "VAR":
        return a.var_name
    if kind in ("SCALAR", "SCALARS"):
        scalars = [a.scalar] if kind == "SCALAR" else list(a.scalars)
        values = [s.b if s.type == 1 else s.i if s.type == 2 else s.r if s.type == 3 else complex(s.c.r, s.c.i)
                  for s in scalars]  # fmt: skip
        return values[0] if kind == "SCALAR" else values
    raise ValueError(f"attribute {a.name!r} has an unknown type number {a.type}")


_FIELDS = {"INT": "i", "FLOAT": "f", "STRING": "s", "BOOLEAN": "b", "LONG": "l", "FLOAT64": "float64",
           "INTS": "ints", "FLOATS": "floats", "STRINGS": "strings", "BOOLEANS": "bools", "LONGS": "longs",
           "FLOAT64S": "float64s"}  # fmt: skip


def _attr_of(od, name: str):
    """The value of op desc `od`'s attribute `name`, or None."""
    return next((_attr_value(a) for a in od.attrs if a.name == name), None)


def _set_op_attr(od, name: str, kind: str | None, value) -> None:
    """Set op desc `od`'s attribute `name` (kind None: remove it)."""
    kept = [a for a in od.attrs if a.name != name]
    del od.attrs[:]
    od.attrs.extend(kept)
    if kind is not None:
        _set_typed_attr(od.attrs.add(), name, kind, value)


def _set_typed_attr(a, name: str, kind: str, value) -> None:
    """An attribute of Paddle's type `kind` (its name in paddle's pybind enum or in framework.proto)."""
    kind = {"BOOL": "BOOLEAN", "BOOLS": "BOOLEANS"}.get(kind, kind)
    if kind == "SCALARS":  # numbers as Paddle's Scalar messages (set_value's values)
        a.name, a.type = name, AttrType[kind]
        for v in value:
            if isinstance(v, bool):
                a.scalars.add(type=1, b=v)
            elif isinstance(v, int):
                a.scalars.add(type=2, i=v)
            else:
                a.scalars.add(type=3, r=float(v))
        return
    if kind not in _FIELDS:
        raise TypeError(f"attribute {name!r}: cannot write Paddle attribute type {kind}")
    a.name, a.type = name, AttrType[kind]
    field = _FIELDS[kind]
    if kind.endswith("S") and kind != "STRINGS" or kind == "STRINGS":
        getattr(a, field).extend(value)
    else:
        setattr(a, field, value)


def _op_attrs(kind: str, attrs: dict) -> list:
    """[(name, Paddle type, value)] for an op: Paddle's defaults for its type (paddle_op_defaults.py), then ours."""
    defaults = op_defaults(kind)[0]
    out = []
    for name in sorted(set(defaults) | set(attrs)):
        if name in defaults:
            typ, value = defaults[name]
            out.append((name, typ, attrs.get(name, value)))
        else:
            out.append((name, None, attrs[name]))
    return out


def _set_attr(a, name: str, value) -> None:
    a.name = name
    if isinstance(value, bool):
        a.type, a.b = AttrType["BOOLEAN"], value
    elif isinstance(value, int):
        if -(2**31) <= value < 2**31:
            a.type, a.i = AttrType["INT"], value
        else:
            a.type, a.l = AttrType["LONG"], value
    elif isinstance(value, float):
        a.type, a.f = AttrType["FLOAT"], value
    elif isinstance(value, str):
        a.type, a.s = AttrType["STRING"], value
    elif isinstance(value, list) and all(isinstance(v, bool) for v in value) and value:
        a.type = AttrType["BOOLEANS"]
        a.bools.extend(value)
    elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        a.type = AttrType["INTS"]
        a.ints.extend(value)
    elif isinstance(value, list) and all(isinstance(v, float) for v in value):
        a.type = AttrType["FLOATS"]
        a.floats.extend(value)
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        a.type = AttrType["STRINGS"]
        a.strings.extend(value)
    else:
        raise TypeError(f"attribute {name!r}: cannot write {value!r:.60} as a Paddle attribute")


# ---- reading a .pdmodel -----------------------------------------------------------------------------------------


def is_pdmodel(data: bytes) -> bool:
    """Whether these bytes look like a ProgramDesc (a protobuf starting with field 1, blocks) and not JSON."""
    return len(data) > 2 and data[:1] == b"\x0a"


class _PaddleOp:
    """One Paddle op as the translation functions see it: input slots as Variables, attributes by name."""

    def __init__(self, desc, names: dict, model: str) -> None:
        self.type = desc.type
        self.desc = desc
        self.names = names
        self.model = model
        self.inputs = {v.parameter: list(v.arguments) for v in desc.inputs}
        self.outputs = {v.parameter: list(v.arguments) for v in desc.outputs}
        self.attrs = {a.name: _attr_value(a) for a in desc.attrs}

    def raws(self, slot: str) -> list:
        out = []
        for name in self.inputs.get(slot, []):
            if name not in self.names:
                raise ValueError(f"op '{self.type}' reads {name!r}, which no earlier op of the model computes")
            out.append(self.names[name])
        return out

    def raw(self, slot: str):
        values = self.raws(slot)
        return values[0] if values else None

    def xs(self, slot: str) -> list:
        """The slot's inputs as Variables: a run-time shape (paddle_ops.Shape) becomes minipaddle's shape op."""
        return [v.value() if isinstance(v, Shape) else v for v in self.raws(slot)]

    def x(self, slot: str):
        values = self.xs(slot)
        return values[0] if values else None

    def attr(self, name: str, default=None):
        return self.attrs.get(name, default)


class _Reader:
    def __init__(self, desc, model: str, info: dict | None) -> None:
        self.desc = desc
        self.model = model
        self.info = info or {}
        self.program = Program()
        self.names: dict = {}  # Paddle variable name -> Variable (or a constant Tensor, or a symbolic Shape)
        self.feeds: dict = {}
        self.fetches: dict = {}
        self.left_out: list = []  # the backward and optimizer ops (descs) of a whole Program, not read
        self.branches: dict = {}  # result name -> the minipaddle cond a conditional_block became
        self.fused: set = set()  # ids of those conds that hold both branches now

    def read(self):
        block0 = self.desc.blocks[0]
        vars0 = {v.name: v for v in block0.vars}
        gb = self.program.global_block()
        # A whole Program marks its parameters (is_parameter); its other persistables are optimizer state. An
        # inference model marks none: every persistable variable of it is a parameter.
        marked = any(vd.is_parameter for vd in block0.vars)
        for vd in block0.vars:
            if vd.persistable and vd.type.type == VarTypeEnum["LOD_TENSOR"] and marked and not vd.is_parameter:
                shape, dtype = _tensor_shape(vd)
                self.names[vd.name] = gb.create_var(vd.name, shape, dtype, persistable=True)
            elif vd.persistable and vd.type.type == VarTypeEnum["LOD_TENSOR"]:
                shape, dtype = _tensor_shape(vd)
                trainable = self.info.get(vd.name, {}).get("trainable", not vd.stop_gradient)
                p = StaticParameter(gb, vd.name, shape, dtype, trainable=bool(trainable))
                gb.vars[vd.name] = p
                self.names[vd.name] = p
        for op in block0.ops:
            if op.type == "feed":
                self._feed(op, vars0)
        for vd in block0.vars:  # a whole Program (paddle.save(program)) has no feed ops: its data variables
            if vd.need_check_feed and vd.name not in self.names:
                shape, dtype = _tensor_shape(vd)
                self.names[vd.name] = gb.create_var(vd.name, shape, dtype, is_data=True, stop_gradient=True)
        with program_guard(self.program):
            was_static = STATE.static_mode
            enable_static()
            try:
                # the names minipaddle's ops give their outputs before they are renamed to the file's must be
                # none of the file's (a lookup named embedding_1.tmp_0 would write over the file's variable)
                count_past(vd.name for bd in self.desc.blocks for vd in bd.vars)
                self._block(0)
                built = None
                if self.left_out:  # a training Program: minipaddle's own backward and Paddle's optimizer again
                    with program_guard(self.program, Program()):  # (its state comes from static.load, as Paddle's)
                        built = rebuild_training(self.program, self.left_out,
                                                 lambda o: {a.name: _attr_value(a) for a in o.attrs})  # fmt: skip
                count_past_taken_names(self.program)  # the user's next ops name no variable like one read here
            finally:
                set_static_mode(was_static)
        if self.left_out:
            kinds = sorted({o.type for o in self.left_out})
            then = f"rebuilt them as minipaddle's own backward and {built}" if built else (
                "minipaddle reads the forward ops; optimizer.minimize builds minipaddle's own backward")  # fmt: skip
            warnings.warn(f"{self.model}: left out the Program's {len(self.left_out)} backward and optimizer ops "
                          f"({', '.join(kinds[:6])}{', ...' if len(kinds) > 6 else ''}): {then}",
                          stacklevel=4)  # fmt: skip
        feeds = [self.feeds[c] for c in sorted(self.feeds)]
        if not feeds:  # a whole Program: its data variables, in the order they were declared
            feeds = [vd.name for vd in block0.vars if vd.need_check_feed]
        fetches = [self.fetches[c] for c in sorted(self.fetches)]
        return self.program, feeds, fetches

    def _feed(self, op, vars0) -> None:
        args = {v.parameter: list(v.arguments) for v in op.outputs}
        name = args["Out"][0]
        col = next((a.i for a in op.attrs if a.name == "col"), len(self.feeds))
        shape, dtype = _tensor_shape(vars0[name])
        v = self.program.global_block().create_var(name, shape, dtype, is_data=True, stop_gradient=True)
        self.names[name] = v
        self.feeds[col] = name

    def _block(self, idx: int) -> None:
        for op in self.desc.blocks[idx].ops:
            if op.type == "feed":
                continue
            role = next((a.i for a in op.attrs if a.name == "op_role"), 0)
            if role & _NOT_FORWARD:
                self.left_out.append(op)
                continue
            if op.type == "fetch":
                x = [list(v.arguments) for v in op.inputs if v.parameter == "X"][0][0]
                col = next((a.i for a in op.attrs if a.name == "col"), len(self.fetches))
                self.fetches[col] = self._materialize(x)
                continue
            check_attr_types(op, self.model)  # before translating: a wrong type would fail inside a kernel later
            self._op(_PaddleOp(op, self.names, self.model), idx)

    def _materialize(self, name: str) -> str:
        """`name` as a Variable of the program (a constant, kept as a Tensor so far, becomes one)."""
        value = self.names[name]
        if isinstance(value, Variable):
            return name
        self._bind(assign(value), name)
        return name

    def _op(self, op: _PaddleOp, block_idx: int) -> None:
        if op.type in _CONTROL_FLOW:
            _CONTROL_FLOW[op.type](self, op)
            return
        read = READERS.get(op.type)
        if read is None:
            raise NotImplementedError(
                f"{self.model}: op '{op.type}' (block {block_idx}) is not in minipaddle's table of Paddle ops "
                f"(static/paddle_ops.py), so the model cannot be loaded; its inputs: {op.inputs}"
            )
        block = self.program.current_block()
        before_ops, before_vars = len(block.ops), set(block.vars)
        try:
            outs = read(op)
        except NotImplementedError as e:
            raise NotImplementedError(f"{self.model}: op '{op.type}' (block {block_idx}): {e}") from None
        except (ValueError, TypeError, IndexError) as e:
            raise ValueError(f"{self.model}: op '{op.type}' (block {block_idx}) cannot be translated: {e}") from e
        renames = {}
        for slot, values in outs.items():
            values = values if isinstance(values, list) else [values]
            for name, value in zip(op.outputs.get(slot, []), values):
                if isinstance(value, Variable):
                    if value.name in before_vars or block.vars.get(value.name) is not value:
                        value = assign(value)
                    renames[value.name] = name
                self.names[name] = value
        self._rename(block, before_ops, before_vars, renames, op)
        notes = quant_attrs_of(op.attrs)
        if notes and len(block.ops) > before_ops:  # on the ops that write the Paddle op's outputs (else its last)
            made = block.ops[before_ops:]
            outputs = {n for names in op.outputs.values() for n in names}
            for desc in [d for d in made if outputs & set(d.output_names())] or made[-1:]:
                desc.quant_attrs.update(notes)

    def _bind(self, var: Variable, name: str) -> None:
        block = self.program.current_block()
        self._rename(block, len(block.ops) - 1, set(block.vars) - {var.name}, {var.name: name}, None)
        self.names[name] = block.vars[name] if name in block.vars else block.var(name)

    def _rename(self, block, first_op: int, before_vars: set, renames: dict, op) -> None:
        """Give the ops' outputs Paddle's names; name the helper variables after the first output."""
        first = next(iter(renames.values()), op.type if op is not None else "tmp")
        # (the training flag a train/eval switch adds keeps its name: its op went first in the block, not among
        # the op's, and every switch reads it)
        new_vars = [n for n in block.vars if n not in before_vars and n != TRAINING_FLAG]
        mapping = {}
        k = 0
        for n in new_vars:
            if n in renames:
                mapping[n] = renames[n]
            else:
                mapping[n] = f"{first}.{k}"
                k += 1
        # the op's own ops, and those of the sub-blocks it made (a while_loop's cond and body read its variables)
        made = block.ops[first_op:] + [d for b in self.program.blocks if b.idx > block.idx for d in b.ops]
        for desc in made:
            desc.inputs = {s: [mapping.get(n, n) for n in ns] for s, ns in desc.inputs.items()}
            desc.outputs = {s: [mapping.get(n, n) for n in ns] for s, ns in desc.outputs.items()}
            for key in ("true_outs", "false_outs", "body_outs", "cond_outs"):
                if key in desc.attrs:
                    desc.attrs[key] = [mapping.get(n, n) for n in desc.attrs[key]]
        for old, new in mapping.items():
            var = block.vars.pop(old)
            if block.has_var(new) and new != old:  # Paddle writes an existing variable in place
                continue
            var.name = new
            block.vars[new] = var
        for new in renames.values():
            if new in self.names and isinstance(self.names[new], Variable):
                try:
                    self.names[new] = block.var(new)
                except KeyError:
                    pass


def _tensor_shape(vd) -> tuple:
    t = vd.type
    tensor = t.lod_tensor.tensor if t.HasField("lod_tensor") else t.selected_rows
    return [int(d) for d in tensor.dims], dtype_of(tensor.data_type)


# ---- control flow -----------------------------------------------------------------------------------------------


def _conditional_block(reader: _Reader, op: _PaddleOp) -> None:
    program = reader.program
    parent = program.current_block()
    pred = op.x("Cond")
    outs = op.outputs.get("Out", [])
    declared = {v.name: v for b in reader.desc.blocks for v in b.vars}
    for name in outs:  # the sub-block writes these variables of the parent block
        if name not in reader.names:
            shape, dtype = _tensor_shape(declared[name])
            reader.names[name] = parent.create_var(name, shape, dtype)
    with program.sub_block() as tb:
        reader._block(op.attr("sub_block"))
    with program.sub_block() as fb:
        pass
    if pred.dtype.name != "bool" or pred.size != 1:
        raise NotImplementedError("conditional_block with a condition that is not one bool")
    attrs = {"true_block": tb.idx, "false_block": fb.idx, "true_outs": list(outs), "false_outs": []}
    cond = parent.append_op("cond", {"pred": [pred.name], "inputs": [v.name for v in op.xs("Input")]}, {"Out": outs},
                            attrs)  # fmt: skip
    for name in outs:
        reader.branches[name] = cond


def _fuse_branches(reader: _Reader, t: str, f: str) -> bool:
    """Paddle writes `cond(p, a, b)` as conditional_block(p) -> t, conditional_block(logical_not(p)) -> f and
    select_input(cast(p), [f, t]). When `t` and `f` come from such a pair, make the first one minipaddle's whole
    cond (its false block is the second's block, whose op goes away), so the result always has a value and the
    cond has its gradient; True when fused (then `t` holds the selected value)."""
    ct, cf = reader.branches.get(t), reader.branches.get(f)
    if ct is None or cf is None or ct is cf:
        return ct is not None and ct is cf and id(ct) in reader.fused
    block = reader.program.current_block()
    if ct not in block.ops or cf not in block.ops:
        return False
    negation = [o for o in block.ops if o.type == "logical_not" and o.outputs["Out"] == cf.inputs["pred"]]
    if not negation or negation[0].inputs["x"] != ct.inputs["pred"] or len(ct.outputs["Out"]) != len(cf.outputs["Out"]):
        return False
    # the false branch writes its results into the true branch's result variables (Paddle's in-place writes)
    to_true = dict(zip(cf.outputs["Out"], ct.outputs["Out"]))
    for sub in reader.program.blocks[cf.attrs["true_block"]].ops:
        sub.inputs = {k: [to_true.get(n, n) for n in v] for k, v in sub.inputs.items()}
        sub.outputs = {k: [to_true.get(n, n) for n in v] for k, v in sub.outputs.items()}
    ct.attrs["false_block"] = cf.attrs["true_block"]
    ct.attrs["false_outs"] = [to_true.get(n, n) for n in cf.attrs["true_outs"]]
    reader.fused.add(id(ct))
    ct.inputs["inputs"] = list(dict.fromkeys(ct.inputs["inputs"] + cf.inputs["inputs"]))
    block.ops.remove(cf)
    for ft, ff in zip(ct.outputs["Out"], cf.outputs["Out"]):  # the false results are the true results now
        reader.names[ff] = reader.names[ft]
        reader.branches[ff] = ct
    return True


def _select_input(reader: _Reader, op: _PaddleOp) -> None:
    program = reader.program
    parent = program.current_block()
    xs = op.xs("X")
    if len(xs) != 2:
        raise NotImplementedError(f"select_input over {len(xs)} inputs (minipaddle translates two)")
    (out,) = op.outputs["Out"]
    f, t = op.inputs["X"]
    if _fuse_branches(reader, t, f):
        reader._bind(assign(reader.names[t]), out)
        return
    mask = cast(op.x("Mask"), "bool")
    reader._bind(mask, out + ".mask")
    with program.sub_block() as tb:
        pass
    with program.sub_block() as fb:
        pass
    shape = [a if a == b else -1 for a, b in zip(xs[1].shape, xs[0].shape)]
    reader.names[out] = parent.create_var(out, shape, xs[1].dtype)
    parent.append_op("cond", {"pred": [out + ".mask"], "inputs": [xs[0].name, xs[1].name]}, {"Out": [out]},
                     {"true_block": tb.idx, "false_block": fb.idx, "true_outs": [xs[1].name],
                      "false_outs": [xs[0].name]})  # fmt: skip


def _while(reader: _Reader, op: _PaddleOp) -> None:
    program = reader.program
    parent = program.current_block()
    cond = op.x("Condition")
    state = [reader._materialize(n) for n in op.inputs.get("X", [])]  # loop variables must be Variables
    with program.sub_block() as cb:
        pass
    with program.sub_block() as bb:
        reader._block(op.attr("sub_block"))
    parent.append_op("while", {"loop_vars": state, "inputs": [cond.name]}, {"Out": list(state)},
                     {"cond_block": cb.idx, "body_block": bb.idx, "cond_outs": [cond.name], "body_outs": list(state),
                      "keep_history": False, "is_test": True})  # fmt: skip


_CONTROL_FLOW = {"conditional_block": _conditional_block, "select_input": _select_input, "while": _while}


def read_pdmodel(data: bytes, model: str = "the model", info: dict | None = None) -> tuple:
    """(Program, feed names, fetch names) from the bytes of a Paddle `.pdmodel`.

    A ValueError when the bytes are not a ProgramDesc; a NotImplementedError naming the op and the model for an
    op outside the translation table.
    """
    desc = ProgramDesc()
    try:
        desc.ParseFromString(bytes(data))
    except Exception as e:  # protobuf's DecodeError, or a missing required field
        raise ValueError(f"{model} is not a Paddle ProgramDesc (.pdmodel), or it is truncated: {e}") from None
    if not desc.blocks:
        raise ValueError(f"{model} is a ProgramDesc without blocks")
    return _Reader(desc, model, info).read()


# ---- the parameter stream (.pdiparams) --------------------------------------------------------------------------


def read_pdiparams(data: bytes, specs: list, what: str = "the parameters") -> dict:
    """{name: array} from a `.pdiparams` stream holding, in order, the variables `specs` = [(name, shape, dtype)]."""
    f = io.BytesIO(bytes(data))
    out = {}

    def take(n: int) -> bytes:
        chunk = f.read(n)
        if len(chunk) != n:
            raise ValueError(f"{what} ends early (truncated) while reading {name!r}")
        return chunk

    for name, _shape, _dtype in specs:
        (lod_version,) = struct.unpack("<I", take(4))
        if lod_version != 0:
            raise ValueError(f"{what} is neither a Paddle .pdiparams stream ({name!r} has LoD version {lod_version}, "
                             "expected 0) nor a minipaddle .npz")  # fmt: skip
        (levels,) = struct.unpack("<Q", take(8))
        for _ in range(levels):
            (size,) = struct.unpack("<Q", take(8))
            take(size)
        (tensor_version,) = struct.unpack("<I", take(4))
        if tensor_version != 0:
            raise ValueError(f"{what}: {name!r} has tensor version {tensor_version}, expected 0")
        (desc_size,) = struct.unpack("<i", take(4))
        if desc_size < 0:
            raise ValueError(f"{what}: {name!r} declares a tensor description of {desc_size} bytes")
        desc = TensorDesc()
        desc.ParseFromString(take(desc_size))
        dtype = np.dtype(dtypes.to_dtype(dtype_of(desc.data_type)).np)
        shape = [int(d) for d in desc.dims]
        if any(d < 0 for d in shape):
            raise ValueError(f"{what}: {name!r} declares a negative dimension, shape {shape}")
        declared, left = math.prod(shape) * dtype.itemsize, len(data) - f.tell()
        if declared > left:  # the stream is uncompressed: a tensor cannot be larger than what is left of it
            raise ValueError(f"{what} ends early (truncated): {name!r} declares shape {shape} of {dtype} "
                             f"({declared} bytes), more than the {left} bytes left in the file; refused before "
                             "allocating")  # fmt: skip
        out[name] = np.frombuffer(take(declared), dtype=dtype).reshape(shape).copy()
    if f.read(1):
        raise ValueError(f"{what} holds more data than the model's {len(specs)} persistable variables")
    return out


def write_pdiparams(arrays: dict) -> bytes:
    """The `.pdiparams` stream of `arrays` ({name: array}), sorted by name as Paddle's save_combine writes it."""
    buf = io.BytesIO()
    for name in sorted(arrays):
        a = np.asarray(arrays[name])
        a = np.ascontiguousarray(a).reshape(a.shape)  # (ascontiguousarray alone makes a 0-d scale [1])
        desc = TensorDesc(data_type=DTYPE_NUMBERS[dtypes.from_numpy(a.dtype).name], dims=list(a.shape))
        raw = desc.SerializeToString()
        buf.write(struct.pack("<IQI", 0, 0, 0))
        buf.write(struct.pack("<i", len(raw)))
        buf.write(raw)
        buf.write(a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes())
    return buf.getvalue()


def persistable_specs(program: Program) -> list:
    """[(name, shape, dtype)] of the program's persistable variables, sorted by name (the .pdiparams order)."""
    found = {v.name: v for v in program.list_vars() if v.persistable}
    return [(n, found[n].shape, found[n].dtype.name) for n in sorted(found)]


# ---- writing a .pdmodel ----------------------------------------------------------------------------------------


def _var_desc(block_desc, name: str, shape, dtype: str, persistable=False, lod_tensor=True, **flags) -> None:
    """Declare a variable in a BlockDesc; `flags`: need_check_feed (a data variable), is_parameter, stop_gradient."""
    vd = block_desc.vars.add(name=name, persistable=persistable, **flags)
    if not lod_tensor:
        vd.type.type = VarTypeEnum["FEED_MINIBATCH" if name == "feed" else "FETCH_LIST"]
        return
    vd.type.type = VarTypeEnum["LOD_TENSOR"]
    vd.type.lod_tensor.tensor.data_type = DTYPE_NUMBERS[dtype]
    vd.type.lod_tensor.tensor.dims.extend(int(s) for s in shape)


def inference_ops(program: Program, idx: int = 0, constants: dict | None = None) -> list:
    """Block `idx`'s ops with every `cond` on a constant inlined: minipaddle's dropout and batch_norm choose
    between their training and inference branches by the @IS_TRAINING@ flag, which an inference Program sets to
    False with an assign_value, so only the inference branch is written (then no op reads the flag)."""
    constants = {} if constants is None else constants
    ops = []
    for op in program.blocks[idx].ops:
        if op.type == "assign_value" and op.attrs.get("dtype") == "bool" and len(op.attrs.get("values", [])) == 1:
            constants[op.outputs["Out"][0]] = bool(op.attrs["values"][0])
        if op.type == "cond" and op.inputs["pred"][0] in constants:
            key = "true" if constants[op.inputs["pred"][0]] else "false"
            ops += inference_ops(program, op.attrs[f"{key}_block"], constants)
            for out, src in zip(op.outputs["Out"], op.attrs[f"{key}_outs"]):
                ops.append(OpDesc("assign", {"x": [src]}, {"Out": [out]}, {}))
            continue
        ops.append(op)
    if idx == 0:  # drop constants no op reads any more
        read = {n for op in ops for names in op.inputs.values() for n in names}
        ops = [op for op in ops if op.type != "assign_value" or op.outputs["Out"][0] in read]
    return ops


class _DescWriter:
    """A ProgramDesc being written from a minipaddle Program: block 0 and the sub-blocks of its control flow, each
    variable declared in the block that first uses it (persistable ones always in block 0, as Paddle loads them)."""

    def __init__(self, program: Program, full_flags: bool = False) -> None:
        self.program = program
        self.variables = {v.name: v for v in program.list_vars()}
        self.full_flags = full_flags  # mark data variables and parameters as Paddle's Program does
        self.constants: dict = {}  # the bool constants inference_ops inlines `cond`s on
        self.desc = ProgramDesc()
        self.desc.version.version = PADDLE_VERSION
        for op_name, version in OP_VERSIONS:  # Paddle writes its whole registry's versions, in its order
            pair = self.desc.op_version_map.pair.add(op_name=op_name)
            pair.op_version.version = version
        self.block = self.desc.blocks.add(idx=0, parent_idx=-1)
        self.written: set = set()
        self.persistables: list = []
        self.switches: dict = {}  # id(cond) -> Steps: the train/eval switches of a training Program, as Paddle's op
        self.read = {n for b in program.blocks for op in b.ops for ns in op.inputs.values() for n in ns}
        for b in program.blocks:  # what control flow copies out of its blocks is read too
            for op in b.ops:
                for key in ("true_outs", "false_outs", "body_outs", "cond_outs"):
                    self.read.update(op.attrs.get(key, []))

    def declare(self, name: str, bd=None, like: str | None = None) -> None:
        """Declare `name` in the desc block `bd` (default block 0); `like`: with the shape and dtype of that
        minipaddle variable (for the variables control flow adds)."""
        if name in self.written:
            return
        self.written.add(name)
        v = self.variables.get(like or name)
        if v is None:
            raise ValueError(f"write_pdmodel: the program has no variable {name!r}")
        flags = {}
        if self.full_flags and like is None:
            flags = {"need_check_feed": bool(v.is_data), "is_parameter": bool(v.is_parameter),
                     "stop_gradient": bool(v.stop_gradient)}  # fmt: skip
        if v.persistable and like is None:
            bd = self.block
            self.persistables.append(name)
        _var_desc(self.block if bd is None else bd, name, v.shape, v.dtype.name,
                  persistable=v.persistable and like is None, **flags)  # fmt: skip

    def add_op(self, kind: str, inputs: dict, outputs: dict, attrs: dict, bd=None, sub_block: int | None = None):
        od = (self.block if bd is None else bd).ops.add(type=kind)
        _, in_slots, out_slots = op_defaults(kind)
        for slot in sorted(set(in_slots) | set(inputs)):
            od.inputs.add(parameter=slot, arguments=inputs.get(slot, []))
        for slot in sorted(set(out_slots) | set(outputs)):
            od.outputs.add(parameter=slot, arguments=outputs.get(slot, []))
        for key, typ, value in _op_attrs(kind, attrs):
            if isinstance(value, VarAttr):  # the attribute is a variable's value when the Program runs
                a = od.attrs.add(name=key, type=AttrType["VAR"])
                a.var_name = value.name
            elif typ is None:
                _set_attr(od.attrs.add(), key, value)
            else:
                _set_typed_attr(od.attrs.add(), key, typ, value)
        if sub_block is not None:
            a = od.attrs.add(name="sub_block", type=AttrType["BLOCK"])
            a.block_idx = sub_block
        return od

    def write_ops(self, ops: list, bd=None) -> None:
        """Each minipaddle op as Paddle's (a NotImplementedError names one outside the table)."""
        for op in ops:
            if op.type == "cond" and id(op) in self.switches:  # a train/eval switch: Paddle's one op
                written = self.switches[id(op)]
            elif op.type == "cond":
                self._cond(op, bd)
                continue
            elif op.type == "while":
                self._while(op, bd)
                continue
            else:
                written = self._written(op)
            if isinstance(written, Steps):  # several Paddle ops, with the variables they pass between them
                self.variables.update(written.temps)
            for kind, inputs, outputs, attrs in written if isinstance(written, Steps) else [written]:
                attrs = {**attrs, **op.quant_attrs}  # Paddle keeps the quantization notes among the op's attributes
                for names in inputs.values():
                    for n in names:
                        self.declare(n, bd)
                for names in outputs.values():
                    for n in names:
                        self._declare_output(n, inputs, attrs, bd)
                self.add_op(kind, inputs, outputs, attrs, bd)

    def _written(self, op):
        """The Paddle op (or Steps of several) of one minipaddle op."""
        write = WRITERS.get(op.type)
        if op.type in INDEX_WRITERS and len(op.outputs["Out"]) > 1 and op.outputs["Out"][1] in self.read:
            write = INDEX_WRITERS[op.type]
        if write is None:
            raise NotImplementedError(
                f"write_pdmodel: minipaddle op '{op.type}' has no Paddle op in the translation table "
                "(static/paddle_ops.py WRITERS)"
            )
        return write(op, lambda n: self.variables[n])

    def _declare_output(self, n: str, inputs: dict, attrs: dict, bd) -> None:
        if n in self.written:
            return
        bd = self.block if bd is None else bd
        if n.endswith("@XShape"):  # Paddle's XShape: the input's shape with a leading 0, never read
            source = self.variables[inputs["X"][0]]
            self.written.add(n)
            _var_desc(bd, n, [0] + list(source.shape), source.dtype.name)
        elif n.endswith("@flat"):  # layer_norm's Mean/Variance: one value per normalized row, never read
            source = self.variables[inputs["X"][0]]
            self.written.add(n)
            rows = int(np.prod(source.shape[: attrs["begin_norm_axis"]]))
            _var_desc(bd, n, [rows if rows >= 0 else -1], source.dtype.name)
        else:
            self.declare(n, bd)

    # ---- control flow, as Paddle 2.6's cond and while_loop write it ----

    def _sub_block(self, parent) -> tuple:
        parent = self.block if parent is None else parent
        bd = self.desc.blocks.add(idx=len(self.desc.blocks), parent_idx=parent.idx)
        return bd, parent

    def _scope_var(self, name: str, bd) -> None:
        self.written.add(name)
        vd = bd.vars.add(name=name)
        vd.type.type = VarTypeEnum["STEP_SCOPES"]

    def _assign(self, src: str, dst: str, bd) -> None:
        self.add_op("assign", {"X": [src]}, {"Out": [dst]}, {}, bd)

    def _cond(self, op, parent) -> None:
        """minipaddle's cond (pred, two branch blocks, their results) as Paddle's: a conditional_block per branch
        (the false one on logical_not(pred)), each copying its results into parent variables, then select_input
        per result on the pred cast to int32."""
        bd_parent = self.block if parent is None else parent
        pred, reads, outs = op.inputs["pred"][0], op.inputs.get("inputs", []), op.outputs.get("Out", [])
        self.declare(pred, bd_parent)
        for n in reads:
            self.declare(n, bd_parent)
        branch_outs = {}
        for key in ("true", "false"):
            cond_var = pred
            if key == "false":
                cond_var = f"{pred}@not.{len(self.desc.blocks)}"
                self.declare(cond_var, bd_parent, like=pred)
                self.add_op("logical_not", {"X": [pred]}, {"Out": [cond_var]}, {}, bd_parent)
            results = [f"{out}@{key}" for out in outs]
            for res, out in zip(results, outs):
                self.declare(res, bd_parent, like=out)
            bd, _ = self._sub_block(bd_parent)
            self.write_ops(inference_ops(self.program, op.attrs[f"{key}_block"], self.constants), bd)
            for src, res in zip(op.attrs[f"{key}_outs"], results):
                self.declare(src, bd)
                self._assign(src, res, bd)
            scope = f"{pred}@scope.{bd.idx}"
            self._scope_var(scope, bd_parent)
            self.add_op("conditional_block", {"Cond": [cond_var], "Input": list(reads)},
                        {"Out": results, "Scope": [scope]}, {"is_scalar_condition": True}, bd_parent,
                        sub_block=bd.idx)  # fmt: skip
            branch_outs[key] = results
        if outs:
            mask = f"{pred}@mask.{len(self.desc.blocks)}"
            self.written.add(mask)
            _var_desc(bd_parent, mask, list(self.variables[pred].shape), "int32")
            dtypes_attr = {"in_dtype": DTYPE_NUMBERS["bool"], "out_dtype": DTYPE_NUMBERS["int32"]}
            self.add_op("cast", {"X": [pred]}, {"Out": [mask]}, dtypes_attr, bd_parent)
        for out, f, t in zip(outs, branch_outs["false"], branch_outs["true"]):
            self.declare(out, bd_parent)
            self.add_op("select_input", {"Mask": [mask], "X": [f, t]}, {"Out": [out]}, {}, bd_parent)

    def _while(self, op, parent) -> None:
        """minipaddle's while (a cond block and a body block over loop variables) as Paddle's: the cond block's ops
        before the loop, then `while` whose sub-block runs the body, copies its results into the loop variables
        and computes the condition again into the same variable."""
        bd_parent = self.block if parent is None else parent
        state, extra = op.inputs["loop_vars"], op.inputs.get("inputs", [])
        cond_out, body_outs = op.attrs["cond_outs"][0], op.attrs["body_outs"]
        for n in list(state) + list(extra):
            self.declare(n, bd_parent)
        cond_ops = inference_ops(self.program, op.attrs["cond_block"], self.constants)
        self.write_ops(cond_ops, bd_parent)
        bd, _ = self._sub_block(bd_parent)
        self.write_ops(inference_ops(self.program, op.attrs["body_block"], self.constants), bd)
        moved = []
        for n, new in zip(state, body_outs):  # through temporaries when a result is itself a loop variable
            self.declare(new, bd)
            if new in state and new != n:
                tmp = f"{new}@next.{bd.idx}"
                self.declare(tmp, bd, like=new)
                self._assign(new, tmp, bd)
                moved.append((tmp, n))
            elif new != n:
                moved.append((new, n))
        for src, dst in moved:
            self._assign(src, dst, bd)
        renames = {}  # the condition again, into body-local names, then into the loop's condition variable
        for cop in cond_ops:
            for names in cop.outputs.values():
                for name in names:
                    renames[name] = f"{name}@again.{bd.idx}"
        for cop in cond_ops:
            again = OpDesc(cop.type, {k: [renames.get(n, n) for n in v] for k, v in cop.inputs.items()},
                           {k: [renames.get(n, n) for n in v] for k, v in cop.outputs.items()}, cop.attrs)  # fmt: skip
            for names in again.outputs.values():
                for name in names:
                    original = next(k for k, v in renames.items() if v == name)
                    self.declare(name, bd, like=original)
            self.write_ops([again], bd)
        self._assign(renames.get(cond_out, cond_out), cond_out, bd)
        scope = f"{cond_out}@scope.{bd.idx}"
        self._scope_var(scope, bd_parent)
        reads = list(dict.fromkeys([*state, *extra]))
        self.add_op("while", {"Condition": [cond_out], "X": reads}, {"Out": [*state, cond_out], "StepScopes": [scope]},
                    {"is_test": True}, bd_parent, sub_block=bd.idx)  # fmt: skip
        for out, n in zip(op.outputs["Out"], state):
            if out != n:
                self.declare(out, bd_parent)
                self._assign(n, out, bd_parent)


def write_pdmodel(program: Program, feed_names: list, fetch_names: list) -> tuple:
    """(the `.pdmodel` bytes, the persistable names it declares) of an inference Program, as Paddle's
    save_inference_model writes them: feed ops, the ops, a scale(1.0) and a fetch op per target.

    A NotImplementedError names a minipaddle op outside the translation table (or control flow on a variable).
    """
    w = _DescWriter(program)
    w.read.update(fetch_names)
    ops = inference_ops(program, 0, w.constants)
    _var_desc(w.block, "feed", (), "float32", persistable=True, lod_tensor=False)
    _var_desc(w.block, "fetch", (), "float32", persistable=True, lod_tensor=False)
    for name in feed_names:
        w.declare(name)
    for col, name in reversed(list(enumerate(feed_names))):  # Paddle prepends each feed op: the last col comes
        w.add_op("feed", {"X": ["feed"]}, {"Out": [name]}, {"col": col})  # first, and jit.load relies on that
    w.write_ops(ops)
    for col, name in enumerate(fetch_names):  # Paddle ends with scale(1.0) -> fetch for each target
        w.declare(name)
        target = f"save_infer_model/scale_{col}.tmp_0"
        v = w.variables[name]
        _var_desc(w.block, target, v.shape, v.dtype.name)
        w.add_op("scale", {"X": [name]}, {"Out": [target]}, {"scale": 1.0, "bias": 0.0, "bias_after_scale": True})
        w.add_op("fetch", {"X": [target]}, {"Out": ["fetch"]}, {"col": col})
    return w.desc.SerializeToString(), w.persistables


def _switches_on(w: _DescWriter, forward: list) -> bool:
    """Whether the Program's training flag is True: then its batch_norm and dropout switches are set to be written
    as Paddle's one op each in training mode (static/paddle_train_switches.py)."""
    flag = [op for op in forward if op.type == "assign_value" and op.outputs["Out"] == [TRAINING_FLAG]]
    if not flag or list(flag[0].attrs["values"]) != [True]:
        return False
    w.switches = paddle_switch_ops(w.program, forward)
    return True


def _without_the_flag(w: _DescWriter, forward: list) -> list:
    """The forward ops without the training flag's op when only the switches written as Paddle's ops read it (it
    is no Paddle variable)."""
    flag_read = any(TRAINING_FLAG in op.input_names() for op in forward if id(op) not in w.switches)
    return [op for op in forward if flag_read or op.outputs.get("Out") != [TRAINING_FLAG]]


def write_program_desc(program: Program) -> bytes:
    """The whole Program as Paddle's ProgramDesc bytes, as paddle 2.6's `program.desc.serialize_to_string()` gives
    them for paddle.save(program) and static.save's `.pdmodel`: no feed or fetch ops; data variables marked
    need_check_feed, parameters is_parameter, and every persistable variable declared.

    A training Program (one that holds minipaddle's backward and update ops) is written as Paddle's: its forward
    ops, then the `*_grad` ops Paddle's append_backward generates for them (static/paddle_grad_ops.py), then one
    sgd/momentum/adam/adamw op per parameter (static/paddle_optimizer_ops.py), after Paddle's ops of the gradient
    clip and weight decay (static/paddle_clip_ops.py) and of static.amp's loss scaling (static/paddle_amp_ops.py),
    so paddle 2.6 trains on from it. Its batch_norm and
    dropout, and those of a Program built in training mode without a backward, are Paddle's ops in training mode
    (static/paddle_train_switches.py).

    A NotImplementedError names a minipaddle op outside the translation table, a forward op without a Paddle grad
    op, or an update op that is not one of those four optimizers'.
    """
    w = _DescWriter(program, full_flags=True)
    for v in program.global_block().vars.values():
        if v.is_data or v.persistable:
            w.declare(v.name)
    ops = program.global_block().ops
    forward = [op for op in ops if op.role == ROLE_FORWARD]
    if len(forward) == len(ops):  # no backward: built in training mode, its switches are Paddle's training ops
        training = _switches_on(w, forward)
        w.write_ops(_without_the_flag(w, forward) if training else inference_ops(program, 0, w.constants))
        return w.desc.SerializeToString()
    seed = next(op for op in ops if op.role == ROLE_BACKWARD)
    if seed.type != "full_like" or float(seed.attrs.get("value", 0.0)) != 1.0:
        raise NotImplementedError(f"write_program_desc: the backward does not start from d(loss)/d(loss) = 1 "
                                  f"(its first op is '{seed.type}')")  # fmt: skip
    _switches_on(w, forward)
    forward = _without_the_flag(w, forward)
    if program.amp_loss_scaling is not None:
        forward = without_same_dtype_casts(forward, program.global_block().vars.get)
    # what the forward ops read (a max pool's indices only minipaddle's backward reads: pool2d then, as Paddle's)
    w.read = {n for op in forward for ns in op.inputs.values() for n in ns} | {seed.inputs["x"][0]}
    w.write_ops(forward)
    # static.amp's loss scaling, the gradients' clip and weight decay as Paddle's ops, then the update ops reading
    # what those leave
    var_of, taken = program.global_block().vars.get, lambda n: n in program.global_block().vars or n in w.written
    optimize = [op for op in ops if op.role == ROLE_OPTIMIZE]
    scaling, optimize, found_inf, amp_vars = paddle_loss_scaling_ops(optimize, var_of, program.amp_loss_scaling, taken)
    sparse = {f"{op.inputs['weight'][0]}@GRAD" for op in forward if op.type == "embedding" and op.attrs.get("sparse")}
    edits, update_ops, new_vars, rows_vars = paddle_grad_edits(optimize, var_of, sparse)
    is_adamw = any(type(o).__name__ == "AdamW" for _, o in program.lr_feeds)
    updates = paddle_optimizer_ops(update_ops, is_adamw, clipped=new_vars)
    copies, updates = with_skip_update(updates, found_inf, amp_vars, taken)
    loss = w.variables[seed.inputs["x"][0]]
    by_name = {vd.name: vd for vd in w.block.vars}

    def declare_grad(grad: str, name: str) -> None:
        if grad in w.written:
            return
        w.written.add(grad)
        vd = w.block.vars.add()
        vd.CopyFrom(by_name[name])
        vd.name, vd.persistable = grad, False
        for flag in ("need_check_feed", "is_parameter", "stop_gradient"):
            vd.ClearField(flag)

    params = [inputs["Param"][0] for _, inputs, _, _ in updates]
    append_paddle_backward(w.block, loss.name, loss.shape, DTYPE_NUMBERS[loss.dtype.name], params, declare_grad)
    amp = program.amp_loss_scaling
    if amp is not None and not amp.bf16_decorator:
        checked = [g for kind, ins, _, _ in scaling if kind == "check_finite_and_unscale" for g in ins["X"]]
        move_gradient_casts(w.block, checked or [f"{p}@GRAD" for p in params], _attr_of, _set_op_attr)
    for name, (shape, dtype) in {**new_vars, **amp_vars}.items():
        _var_desc(w.block, name, shape, dtype)
        if name in rows_vars:
            as_selected_rows(w.block, name)
    for kind, inputs, outputs, attrs in scaling + copies + edits + updates:
        od = w.block.ops.add(type=kind)
        for slot in sorted(inputs):
            od.inputs.add(parameter=slot, arguments=inputs[slot])
        for slot in sorted(outputs):
            od.outputs.add(parameter=slot, arguments=outputs[slot])
        # Paddle's defaults under ours, as for the forward ops: every attribute paddle gives the op (op_device, ...)
        for name, (typ, value) in sorted({**op_defaults(kind)[0], **attrs}.items()):
            _set_typed_attr(od.attrs.add(), name, typ, value)
    return w.desc.SerializeToString()
