"""The attribute types of a loaded .pdmodel's ops, checked against paddle 2.6's (issue 18): a crafted or damaged
file whose `trans_x` is a string, not a bool, is refused at load with the op, the attribute, both types and the
file named, instead of failing later inside a kernel (the JSON form's check is static/serialize.check_op_attrs)."""

from __future__ import annotations

from minipaddle.static.paddle_attr_types import ATTR_TYPES, TENSOR_ATTRS
from minipaddle.static.paddle_proto import AttrType

_NAMES = {number: name for name, number in AttrType.items()}
# Types paddle's own writers use interchangeably for one attribute (an int64 field written as INT or LONG by
# different versions; a float as FLOAT or FLOAT64), and the plain values a SCALAR(S) attribute may be written as.
_SAME = [{"INT", "LONG"}, {"INTS", "LONGS"}, {"FLOAT", "FLOAT64"}, {"FLOATS", "FLOAT64S"}]
_SCALAR = {"SCALAR": {"INT", "LONG", "FLOAT", "FLOAT64", "BOOLEAN"}, "SCALARS": {"INTS", "LONGS", "FLOATS", "FLOAT64S"}}


def _compatible(expected: str, got: str) -> bool:
    return expected == got or {expected, got} in _SAME or got in _SCALAR.get(expected, ())


def check_attr_types(op_desc, model: str) -> None:
    """A ValueError when an attribute of this OpDesc (paddle_proto) has another type than paddle 2.6 gives it."""
    expected_types = ATTR_TYPES.get(op_desc.type)
    if not expected_types:
        return
    from_tensors = TENSOR_ATTRS.get(op_desc.type, ())
    for a in op_desc.attrs:
        expected = expected_types.get(a.name)
        got = _NAMES.get(a.type, f"type number {a.type}")
        if got in ("VAR", "VARS") and a.name in from_tensors:  # a Variable gives it when the Program runs
            continue
        if expected is not None and not _compatible(expected, got):
            raise ValueError(f"{model}: op '{op_desc.type}', attribute {a.name!r} must be {expected} (as paddle 2.6 "
                             f"defines it), got {got}")  # fmt: skip
