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

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, set_static_mode
from minipaddle.static.builder import enable_static
from minipaddle.static.paddle_op_defaults import ATTR_DEFAULTS, SLOTS
from minipaddle.static.paddle_op_versions import OP_VERSIONS
from minipaddle.static.paddle_ops import DTYPE_NUMBERS, READERS, WRITERS, Shape, dtype_of
from minipaddle.static.paddle_proto import AttrType, ProgramDesc, TensorDesc, VarTypeEnum
from minipaddle.static.parameters import StaticParameter
from minipaddle.static.program import OpDesc, Program, Variable, program_guard

__all__ = ["read_pdmodel", "write_pdmodel", "read_pdiparams", "write_pdiparams", "is_pdmodel", "PADDLE_VERSION",
           "quant_attrs_of"]  # fmt: skip

PADDLE_VERSION = 2006002  # what paddle 2.6.2 writes in ProgramDesc.version
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
_COMMON_ATTRS = {"op_device": ("STRING", ""), "op_namescope": ("STRING", "/"), "op_role": ("INT", 0),
                 "op_role_var": ("STRINGS", []), "with_quant_attr": ("BOOLEAN", False)}  # fmt: skip


def _set_typed_attr(a, name: str, kind: str, value) -> None:
    """An attribute of Paddle's type `kind` (its name in paddle's pybind enum or in framework.proto)."""
    kind = {"BOOL": "BOOLEAN", "BOOLS": "BOOLEANS"}.get(kind, kind)
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
    defaults = dict(ATTR_DEFAULTS.get(kind, _COMMON_ATTRS))
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
        values = self.raws(slot)
        for name, v in zip(self.inputs.get(slot, []), values):
            if isinstance(v, Shape):
                raise NotImplementedError(
                    f"op '{self.type}' uses {name!r}, a shape known only at run time, which minipaddle's static "
                    "shapes cannot express here"
                )
        return values

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

    def read(self):
        block0 = self.desc.blocks[0]
        vars0 = {v.name: v for v in block0.vars}
        gb = self.program.global_block()
        for vd in block0.vars:
            if vd.persistable and vd.type.type == VarTypeEnum["LOD_TENSOR"]:
                shape, dtype = _tensor_shape(vd)
                trainable = self.info.get(vd.name, {}).get("trainable", not vd.stop_gradient)
                p = StaticParameter(gb, vd.name, shape, dtype, trainable=bool(trainable))
                gb.vars[vd.name] = p
                self.names[vd.name] = p
        for op in block0.ops:
            if op.type == "feed":
                self._feed(op, vars0)
        with program_guard(self.program):
            was_static = STATE.static_mode
            enable_static()
            try:
                self._block(0)
            finally:
                set_static_mode(was_static)
        feeds = [self.feeds[c] for c in sorted(self.feeds)]
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
            if op.type == "fetch":
                x = [list(v.arguments) for v in op.inputs if v.parameter == "X"][0][0]
                col = next((a.i for a in op.attrs if a.name == "col"), len(self.fetches))
                self.fetches[col] = self._materialize(x)
                continue
            self._op(_PaddleOp(op, self.names, self.model), idx)

    def _materialize(self, name: str) -> str:
        """`name` as a Variable of the program (a constant, kept as a Tensor so far, becomes one)."""
        value = self.names[name]
        if isinstance(value, Variable):
            return name
        from minipaddle import assign

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
                        from minipaddle import assign

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
        new_vars = [n for n in block.vars if n not in before_vars]
        mapping = {}
        k = 0
        for n in new_vars:
            if n in renames:
                mapping[n] = renames[n]
            else:
                mapping[n] = f"{first}.{k}"
                k += 1
        for desc in block.ops[first_op:]:
            desc.inputs = {s: [mapping.get(n, n) for n in ns] for s, ns in desc.inputs.items()}
            desc.outputs = {s: [mapping.get(n, n) for n in ns] for s, ns in desc.outputs.items()}
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
    parent.append_op("cond", {"pred": [pred.name], "inputs": [v.name for v in op.xs("Input")]}, {"Out": outs}, attrs)


def _select_input(reader: _Reader, op: _PaddleOp) -> None:
    from minipaddle import cast

    program = reader.program
    parent = program.current_block()
    xs = op.xs("X")
    if len(xs) != 2:
        raise NotImplementedError(f"select_input over {len(xs)} inputs (minipaddle translates two)")
    mask = cast(op.x("Mask"), "bool")
    (out,) = op.outputs["Out"]
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


def _var_desc(block_desc, name: str, shape, dtype: str, persistable=False, lod_tensor=True) -> None:
    vd = block_desc.vars.add(name=name, persistable=persistable)
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


def write_pdmodel(program: Program, feed_names: list, fetch_names: list) -> tuple:
    """(the `.pdmodel` bytes, the persistable names it declares) of an inference Program, as Paddle's
    save_inference_model writes them: feed ops, the ops, a scale(1.0) and a fetch op per target.

    A NotImplementedError names a minipaddle op outside the translation table (or control flow on a variable).
    """
    ops = inference_ops(program)
    for op in ops:
        if op.type in ("cond", "while"):
            raise NotImplementedError(f"writing a Paddle .pdmodel of a Program with control flow ('{op.type}')")
    variables = {v.name: v for v in program.list_vars()}
    desc = ProgramDesc()
    desc.version.version = PADDLE_VERSION
    for op_name, version in OP_VERSIONS:  # Paddle writes its whole registry's versions, in its order
        pair = desc.op_version_map.pair.add(op_name=op_name)
        pair.op_version.version = version
    bd = desc.blocks.add(idx=0, parent_idx=-1)
    _var_desc(bd, "feed", (), "float32", persistable=True, lod_tensor=False)
    _var_desc(bd, "fetch", (), "float32", persistable=True, lod_tensor=False)
    written, persistables = set(), []

    def declare(name: str) -> None:
        if name in written:
            return
        written.add(name)
        v = variables.get(name)
        if v is None:
            raise ValueError(f"write_pdmodel: the program has no variable {name!r}")
        _var_desc(bd, name, v.shape, v.dtype.name, persistable=v.persistable)
        if v.persistable:
            persistables.append(name)

    def add_op(kind, inputs, outputs, attrs):
        od = bd.ops.add(type=kind)
        in_slots, out_slots = SLOTS.get(kind, ((), ()))
        for slot in sorted(set(in_slots) | set(inputs)):
            od.inputs.add(parameter=slot, arguments=inputs.get(slot, []))
        for slot in sorted(set(out_slots) | set(outputs)):
            od.outputs.add(parameter=slot, arguments=outputs.get(slot, []))
        for key, typ, value in _op_attrs(kind, attrs):
            if typ is None:
                _set_attr(od.attrs.add(), key, value)
            else:
                _set_typed_attr(od.attrs.add(), key, typ, value)

    for col, name in enumerate(feed_names):
        declare(name)
        add_op("feed", {"X": ["feed"]}, {"Out": [name]}, {"col": col})
    for op in ops:
        write = WRITERS.get(op.type)
        if write is None:
            raise NotImplementedError(
                f"write_pdmodel: minipaddle op '{op.type}' has no Paddle op in the translation table "
                "(static/paddle_ops.py WRITERS)"
            )
        kind, inputs, outputs, attrs = write(op, lambda n: variables[n])
        attrs = {**attrs, **op.quant_attrs}  # Paddle keeps the quantization notes among the op's attributes
        for names in inputs.values():
            for n in names:
                declare(n)
        for names in outputs.values():
            for n in names:
                if n.endswith("@XShape"):  # Paddle's XShape: the input's shape with a leading 0, never read
                    source = variables[inputs["X"][0]]
                    written.add(n)
                    _var_desc(bd, n, [0] + list(source.shape), source.dtype.name)
                elif n.endswith("@flat"):  # layer_norm's Mean/Variance: one value per normalized row, never read
                    source = variables[inputs["X"][0]]
                    written.add(n)
                    rows = int(np.prod(source.shape[: attrs["begin_norm_axis"]]))
                    _var_desc(bd, n, [rows if rows >= 0 else -1], source.dtype.name)
                else:
                    declare(n)
        add_op(kind, inputs, outputs, attrs)
    for col, name in enumerate(fetch_names):  # Paddle ends with scale(1.0) -> fetch for each target
        declare(name)
        target = f"save_infer_model/scale_{col}.tmp_0"
        v = variables[name]
        _var_desc(bd, target, v.shape, v.dtype.name)
        add_op("scale", {"X": [name]}, {"Out": [target]}, {"scale": 1.0, "bias": 0.0, "bias_after_scale": True})
        add_op("fetch", {"X": [target]}, {"Out": ["fetch"]}, {"col": col})
    return desc.SerializeToString(), persistables
