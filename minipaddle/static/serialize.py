"""A Program as JSON, and back: the `.pdmodel` file (DESIGN.md, wall 4: no pickle, loading never runs code).

    {"format": "minipaddle.program", "format_version": 1, "op_versions": {"matmul": 1, ...},
     "random_seed": 0, "feed_names": [...], "fetch_names": [...],
     "blocks": [{"idx": 0, "parent_idx": -1, "vars": [...], "ops": [{"type", "inputs", "outputs", "attrs",
                                                                   "role", "scope"}, ...]}]}

(an op of a saved quantized model also has "quant_attrs": its thresholds, see OpDesc; a Program that
paddle.static.amp.decorate minimized also has "amp_loss_scaling": {"level", "dtype", "init_loss_scaling",
"dynamic", "bf16_decorator"}, what the decorator was asked for, which the .pdmodel writer follows)

Attributes are plain data, but richer than JSON, so some values are tagged on the way out and rebuilt exactly:

    tuple (shapes, axes, paddings)      a JSON array                  lists are the tagged kind because kernels
    list                                {"__list__": [...]}           mostly want tuples (np.sum(axis=...))
    numpy dtype / paddle dtype          {"__dtype__": "float32"} / {"__dtype__": "float32", "paddle": true}
    numpy type (np.float32)             {"__dtype__": "float32", "type": true}
    numpy scalar                        {"__scalar__": 1.5, "dtype": "float32"}
    numpy array (an index)              {"__array__": [flat values], "dtype": "int64", "shape": [2, 3]}
    slice, Ellipsis                     {"__slice__": [start, stop, step]}, {"__ellipsis__": true}
    complex; nan and inf                {"__complex__": [re, im]}; {"__float__": "nan" | "inf" | "-inf"}

so the file is strict JSON that any JSON reader accepts.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import numbers

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.op import OPS
from minipaddle.static.block_ops import BLOCK_OPS
from minipaddle.static.op_groups import OpGroup
from minipaddle.static.paddle_amp_ops import AmpLossScaling
from minipaddle.static.parameters import StaticParameter
from minipaddle.static.program import Block, OpDesc, Program, Variable

FORMAT = "minipaddle.program"
FORMAT_VERSION = 1  # raise when the layout of the file changes; readers refuse versions newer than theirs

_TAGS = ("__list__", "__dtype__", "__scalar__", "__array__", "__slice__", "__ellipsis__", "__complex__", "__float__")


def known_op(op_type: str) -> bool:
    """Whether this minipaddle can run ops of this type (a registered op, or control flow: cond, while)."""
    return op_type in OPS or op_type in BLOCK_OPS


def op_version(op_type: str) -> int:
    """The version of an op's attributes: 1, unless its OpDef declares `version` (bumped when attrs change meaning)."""
    return getattr(OPS.get(op_type), "version", 1)


# ---- attributes ------------------------------------------------------------------------------------------------


def encode_attr(value, where: str = "attr"):
    """An attribute value as JSON-ready data (see the table above); TypeError naming `where` for anything else."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and not isinstance(value, np.integer):
        return value
    if isinstance(value, float) and not isinstance(value, np.floating):
        return value if math.isfinite(value) else {"__float__": repr(value)}
    if isinstance(value, complex):
        return {"__complex__": [encode_attr(value.real, where), encode_attr(value.imag, where)]}
    if isinstance(value, tuple):
        return [encode_attr(v, where) for v in value]
    if isinstance(value, list):
        return {"__list__": [encode_attr(v, where) for v in value]}
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value) or any(k in _TAGS for k in value):
            raise TypeError(f"{where}: a dict attribute needs string keys other than {_TAGS}, got {list(value)}")
        return {k: encode_attr(v, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(value, dtypes.DType):
        return {"__dtype__": value.name, "paddle": True}
    if isinstance(value, np.dtype):
        return {"__dtype__": value.name}
    if isinstance(value, type) and issubclass(value, np.generic):  # np.float32 itself, not np.dtype("float32")
        return {"__dtype__": np.dtype(value).name, "type": True}
    if isinstance(value, np.generic):
        return {"__scalar__": encode_attr(value.item(), where), "dtype": value.dtype.name}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biufc":
            raise TypeError(f"{where}: cannot save a numpy array of dtype {value.dtype}")
        flat = [encode_attr(v, where) for v in value.reshape(-1).tolist()]
        return {"__array__": flat, "dtype": value.dtype.name, "shape": list(value.shape)}
    if isinstance(value, slice):
        return {"__slice__": [encode_attr(v, where) for v in (value.start, value.stop, value.step)]}
    if value is Ellipsis:
        return {"__ellipsis__": True}
    raise TypeError(
        f"{where}: a value of type {type(value).__name__} cannot be saved in a Program file; attributes must be "
        "plain data (numbers, strings, tuples, lists, dicts, None, dtypes, slices, numpy arrays)"
    )


def decode_attr(data):
    """The inverse of encode_attr."""
    if isinstance(data, list):
        return tuple(decode_attr(v) for v in data)
    if not isinstance(data, dict):
        return data
    if "__list__" in data:
        return [decode_attr(v) for v in data["__list__"]]
    if "__float__" in data:
        return float(data["__float__"])
    if "__complex__" in data:
        re, im = (decode_attr(v) for v in data["__complex__"])
        return complex(re, im)
    if "__dtype__" in data:
        if data.get("paddle"):
            return dtypes.to_dtype(data["__dtype__"])
        return np.dtype(data["__dtype__"]).type if data.get("type") else np.dtype(data["__dtype__"])
    if "__scalar__" in data:
        return np.dtype(data["dtype"]).type(decode_attr(data["__scalar__"]))
    if "__array__" in data:
        values = [decode_attr(v) for v in data["__array__"]]
        return np.array(values, dtype=np.dtype(data["dtype"])).reshape(data["shape"])
    if "__slice__" in data:
        return slice(*(decode_attr(v) for v in data["__slice__"]))
    if "__ellipsis__" in data:
        return Ellipsis
    return {k: decode_attr(v) for k, v in data.items()}


# ---- Program -> data -------------------------------------------------------------------------------------------


def check_serializable(program: Program) -> None:
    """Raise a ValueError for an op that holds Python code (`py_func`: attrs {"serializable": False})."""
    for block in program.blocks:
        for i, op in enumerate(block.ops):
            if not op.attrs.get("serializable", True):
                raise ValueError(
                    f"cannot save this Program: op {i} of block {block.idx} ('{op.type}') runs Python code, which a "
                    "Program file cannot hold; save the parts before and after it, or rebuild it in Python after "
                    "loading"
                )


def program_to_dict(program: Program, feed_names=(), fetch_names=()) -> dict:
    """The Program as JSON-ready data: Program.to_dict() with every attribute encoded, plus the format header."""
    check_serializable(program)
    body = program.to_dict()
    for block in body["blocks"]:
        for i, op in enumerate(block["ops"]):
            where = f"op {i} ('{op['type']}') of block {block['idx']}"
            op["attrs"] = {k: encode_attr(v, f"{where}, attribute {k!r}") for k, v in op["attrs"].items()}
            if "quant_attrs" in op:
                op["quant_attrs"] = {k: encode_attr(v, f"{where}, quant attribute {k!r}")
                                     for k, v in op["quant_attrs"].items()}  # fmt: skip
    types = sorted({op["type"] for b in body["blocks"] for op in b["ops"]})
    out = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "op_versions": {t: op_version(t) for t in types},
        "random_seed": body["random_seed"],
        "feed_names": list(feed_names),
        "fetch_names": list(fetch_names),
    }
    if program.amp_loss_scaling is not None:  # (absent otherwise: the JSON of a Program without AMP is unchanged)
        out["amp_loss_scaling"] = encode_attr(dataclasses.asdict(program.amp_loss_scaling), "amp_loss_scaling")
    out["blocks"] = body["blocks"]
    return out


def program_to_bytes(program: Program, feed_names=(), fetch_names=()) -> bytes:
    """The `.pdmodel` content: UTF-8 JSON, one op per line so that a diff of two files reads well."""
    data = program_to_dict(program, feed_names, fetch_names)
    blocks = data.pop("blocks")
    head = json.dumps(data, allow_nan=False)[:-1]
    lines = []
    for b in blocks:
        ops = ",\n    ".join(json.dumps(op, allow_nan=False) for op in b["ops"])
        vars_ = ",\n    ".join(json.dumps(v, allow_nan=False) for v in b["vars"])
        lines.append(
            f'{{"idx": {b["idx"]}, "parent_idx": {b["parent_idx"]},\n   "vars": [\n    {vars_}],\n'
            f'   "ops": [\n    {ops}]}}'
        )
    return (head + ',\n "blocks": [\n  ' + ",\n  ".join(lines) + "]}\n").encode("utf-8")


# ---- data -> Program -------------------------------------------------------------------------------------------


def check_header(data, what: str = "the data") -> None:
    """A clear ValueError unless `data` is a minipaddle program this version can read."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(
            f"{what} is JSON but not a minipaddle program (its 'format' is {found!r}, expected {FORMAT!r})"
        )
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"{what}: format_version must be a positive integer, got {version!r}")
    if version > FORMAT_VERSION:
        raise ValueError(
            f"{what} was written by a newer minipaddle (program format version {version}; this one reads up to "
            f"{FORMAT_VERSION}): upgrade minipaddle to load it"
        )
    for op_type, v in data.get("op_versions", {}).items():
        if not known_op(op_type):
            raise ValueError(f"{what} uses op '{op_type}', which this minipaddle does not define")
        if v > op_version(op_type):
            raise ValueError(
                f"{what} uses op '{op_type}' at version {v}, newer than this minipaddle's ({op_version(op_type)}): "
                "upgrade minipaddle to load it"
            )


# ---- attribute types ----------------------------------------------------------------------------------------
#
# An OpDef's kernel declares its attributes as keyword arguments; a typed default (False, 0, 1.0, "mean") says
# what the attribute must be. A loaded Program's attributes are checked against them, so that `transpose_x: "zzz"`
# or `transpose_x: null` is refused when the file is read, not inside numpy at run time (or silently taken as False).

_KINDS = {bool: "a bool", int: "an int (or a list of ints)", float: "a number", str: "a str"}
_KIND_CACHE: dict = {}


def _attr_kinds(op_type: str) -> dict:
    """{attribute: the type of its kernel default} for the attributes of op_type with a bool/int/float/str default."""
    if op_type not in _KIND_CACHE:
        kinds = {}
        op = OPS.get(op_type)
        try:
            params = inspect.signature(op.kernel).parameters.values() if op is not None else ()
        except (TypeError, ValueError):
            params = ()
        for p in params:
            if p.default is not p.empty and type(p.default) in _KINDS:
                kinds[p.name] = type(p.default)
        _KIND_CACHE[op_type] = kinds
    return _KIND_CACHE[op_type]


def _fits(value, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, (bool, np.bool_))
    if kind is int:
        ints = (int, np.integer)
        if isinstance(value, (list, tuple)):
            return all(isinstance(v, ints) and not isinstance(v, bool) for v in value)
        return isinstance(value, ints) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
    return isinstance(value, str)


def check_op_attrs(op_type: str, attrs: dict, what: str) -> None:
    """A ValueError naming the file, the op, the attribute, the expected type and what came, for an attribute whose
    value does not have the type of its kernel default."""
    for name, value in attrs.items():
        kind = _attr_kinds(op_type).get(name)
        if kind is not None and not _fits(value, kind):
            raise ValueError(f"{what}: op '{op_type}', attribute {name!r} must be {_KINDS[kind]}, "
                             f"got {value!r:.60} ({type(value).__name__})")  # fmt: skip


def program_from_dict(data: dict, what: str = "the data") -> Program:
    """Rebuild a Program (blocks, Variables, StaticParameters, OpDescs) from `program_to_dict`'s output."""
    check_header(data, what)
    try:
        program = Program()
        program.random_seed = data.get("random_seed", 0)
        program.blocks = [_block_from_dict(program, b, what) for b in data["blocks"]]
        program.amp_loss_scaling = _amp_loss_scaling_from_dict(data.get("amp_loss_scaling"), what)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        if isinstance(e, ValueError) and str(e).startswith(what):
            raise
        raise ValueError(f"{what} is a damaged minipaddle program: {type(e).__name__}: {e}") from e
    if not program.blocks or [b.idx for b in program.blocks] != list(range(len(program.blocks))):
        raise ValueError(f"{what} is a damaged minipaddle program: its blocks are not numbered 0, 1, 2, ...")
    return program


def _block_from_dict(program: Program, data: dict, what: str) -> Block:
    block = Block(program, int(data["idx"]), int(data["parent_idx"]))
    groups: dict = {}  # the ops of one group share one OpGroup object, as when built (passes compare with `is`)
    for v in data["vars"]:
        block.vars[v["name"]] = _variable_from_dict(block, v)
    for op in data["ops"]:
        if not known_op(op["type"]):
            raise ValueError(f"{what} uses op '{op['type']}', which this minipaddle does not define")
        attrs = {k: decode_attr(a) for k, a in op["attrs"].items()}
        check_op_attrs(op["type"], attrs, what)
        notes = {k: decode_attr(a) for k, a in op.get("quant_attrs", {}).items()}
        block.ops.append(OpDesc(op["type"], _with_every_slot(op["type"], op["inputs"]), dict(op["outputs"]), attrs,
                                op["role"], op["scope"], notes))  # fmt: skip
        if "group" in op:
            group = _group_from_dict(op["group"], f"{what}: op '{op['type']}'")
            block.ops[-1].group = groups.setdefault(group, group)
    return block


def _group_from_dict(data, what: str) -> OpGroup:
    """An op's OpGroup, checked: the Paddle op's name, its input names (None where absent), its output's name."""
    ok = (
        isinstance(data, dict)
        and isinstance(data.get("paddle_op"), str)
        and isinstance(data.get("output"), str)
        and isinstance(data.get("inputs"), list)
        and all(n is None or isinstance(n, str) for n in data["inputs"])
    )
    if not ok:
        raise ValueError(f"{what} has a damaged 'group': expected {{'paddle_op': str, 'inputs': [str or null, ...], "
                         f"'output': str}}, got {data!r}")  # fmt: skip
    return OpGroup(data["paddle_op"], tuple(data["inputs"]), data["output"])


def _amp_loss_scaling_from_dict(data, what: str) -> AmpLossScaling | None:
    """The Program's AmpLossScaling (None when the file has none), checked field by field."""
    if data is None:
        return None
    data = decode_attr(data)
    expected = ("{'level': 'O1' | 'O2', 'dtype': 'float16' | 'bfloat16', 'init_loss_scaling': a number, "
                "'dynamic': bool, 'bf16_decorator': bool}")  # fmt: skip
    ok = (
        isinstance(data, dict)
        and set(data) == {f.name for f in dataclasses.fields(AmpLossScaling)}
        and data["level"] in ("O1", "O2")
        and data["dtype"] in ("float16", "bfloat16")
        and _fits(data["init_loss_scaling"], float)
        and isinstance(data["dynamic"], bool)
        and isinstance(data["bf16_decorator"], bool)
    )
    if not ok:
        raise ValueError(f"{what} has a damaged 'amp_loss_scaling': expected {expected}, got {data!r:.200}")
    return AmpLossScaling(**{**data, "init_loss_scaling": float(data["init_loss_scaling"])})


# Inputs added to an op after files were written: an older file's op does not name them (they are absent).
_ADDED_INPUTS = {"quantize_linear": ("in_accum", "in_state"), "fake_channel_wise_quantize_abs_max": ("in_scale",)}


def _with_every_slot(op_type: str, inputs: dict) -> dict:
    out = {k: list(v) for k, v in inputs.items()}
    for name in _ADDED_INPUTS.get(op_type, ()):
        out.setdefault(name, [None])
    return out


def _variable_from_dict(block: Block, v: dict) -> Variable:
    if v["is_parameter"]:
        return StaticParameter(block, v["name"], v["shape"], v["dtype"], trainable=not v["stop_gradient"])
    return Variable(block, name=v["name"], shape=v["shape"], dtype=v["dtype"], persistable=v["persistable"],
                    stop_gradient=v["stop_gradient"], is_data=v["is_data"])  # fmt: skip


def read_program(data: bytes, what: str = "the data") -> tuple:
    """(Program, feed names, fetch names) from `.pdmodel` bytes; a clear ValueError for anything else."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"{what} must be bytes (a .pdmodel file's content), got {type(data).__name__}")
    try:
        parsed = json.loads(bytes(data).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        hint = " (the file may be truncated)" if data[:1] == b"{" else ""
        raise ValueError(f"{what} is not a minipaddle program: it is not JSON{hint} ({e})") from None
    program = program_from_dict(parsed, what)
    return program, list(parsed.get("feed_names", [])), list(parsed.get("fetch_names", []))


def program_from_bytes(data: bytes) -> Program:
    return read_program(data)[0]
