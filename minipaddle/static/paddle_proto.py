"""Paddle 2.6's ProgramDesc schema (paddle/fluid/framework/framework.proto), written here with Paddle's own message
names and field numbers, and turned into protobuf message classes without generated code.

A `.pdmodel` file is one serialized `ProgramDesc`. The schema below is the part of framework.proto a model file
uses (OpProto, which describes op definitions and never appears in a model, is left out). It is proto2, like
Paddle's, so required fields are checked when a file is parsed and written. `tests/static/test_paddle_models.py`
compares every message, field name, number, type and label with the schema inside the paddle 2.6.2 wheel.

    ProgramDesc   blocks = 1 (BlockDesc*), version = 4 (Version), op_version_map = 5 (OpVersionMap)
    BlockDesc     idx = 1, parent_idx = 2, vars = 3 (VarDesc*), ops = 4 (OpDesc*), forward_block_idx = 5
    VarDesc       name = 1, type = 2 (VarType), persistable = 3, need_check_feed = 4, is_parameter = 5,
                  stop_gradient = 6, attrs = 7
    VarType       type = 1 (VarType.Type), lod_tensor = 3 (LoDTensorDesc), tensor_array = 4, ...
    OpDesc        inputs = 1 (Var*: parameter = slot name, arguments = variable names), outputs = 2, type = 3,
                  attrs = 4 (Attr*: name, type (AttrType), then one value field per type), is_target = 5
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool

__all__ = ["ProgramDesc", "VarTypeProto", "AttrType", "VarTypeEnum", "TensorDesc", "SCHEMA"]

PACKAGE = "paddle.framework.proto"

# enum name: [(value name, number)]
ENUMS = {
    "AttrType": [("INT", 0), ("FLOAT", 1), ("STRING", 2), ("INTS", 3), ("FLOATS", 4), ("STRINGS", 5),
                 ("BOOLEAN", 6), ("BOOLEANS", 7), ("BLOCK", 8), ("LONG", 9), ("BLOCKS", 10), ("LONGS", 11),
                 ("FLOAT64S", 12), ("VAR", 13), ("VARS", 14), ("FLOAT64", 15), ("SCALAR", 16), ("SCALARS", 17)],
    "Scalar.Type": [("BOOLEAN", 1), ("LONG", 2), ("FLOAT64", 3), ("COMPLEX128", 4)],
    "VarType.Type": [("BOOL", 0), ("INT16", 1), ("INT32", 2), ("INT64", 3), ("FP16", 4), ("FP32", 5), ("FP64", 6),
                     ("SIZE_T", 19), ("UINT8", 20), ("INT8", 21), ("BF16", 22), ("COMPLEX64", 23),
                     ("COMPLEX128", 24), ("LOD_TENSOR", 7), ("SELECTED_ROWS", 8), ("FEED_MINIBATCH", 9),
                     ("FETCH_LIST", 10), ("STEP_SCOPES", 11), ("LOD_RANK_TABLE", 12), ("LOD_TENSOR_ARRAY", 13),
                     ("PLACE_LIST", 14), ("READER", 15), ("RAW", 17), ("TUPLE", 18), ("STRING", 25),
                     ("STRINGS", 26), ("VOCAB", 27), ("FEED_LIST", 28), ("PSTRING", 29), ("SPARSE_COO", 30),
                     ("SPARSE_CSR", 31)],
}  # fmt: skip

# message name: [(field name, number, label, type, default)]; a type starting with a capital is a message or enum
SCHEMA = {
    "Version": [("version", 1, "optional", "int64", "0")],
    "Complex": [("r", 1, "required", "double", None), ("i", 2, "required", "double", None)],
    "Scalar": [("type", 1, "required", "Scalar.Type", None), ("b", 2, "optional", "bool", None),
               ("i", 3, "optional", "int64", None), ("r", 4, "optional", "double", None),
               ("c", 5, "optional", "Complex", None)],
    "OpDesc.Attr": [("name", 1, "required", "string", None), ("type", 2, "required", "AttrType", None),
                    ("i", 3, "optional", "int32", None), ("f", 4, "optional", "float", None),
                    ("s", 5, "optional", "string", None), ("ints", 6, "repeated", "int32", None),
                    ("floats", 7, "repeated", "float", None), ("strings", 8, "repeated", "string", None),
                    ("b", 10, "optional", "bool", None), ("bools", 11, "repeated", "bool", None),
                    ("block_idx", 12, "optional", "int32", None), ("l", 13, "optional", "int64", None),
                    ("blocks_idx", 14, "repeated", "int32", None), ("longs", 15, "repeated", "int64", None),
                    ("float64s", 16, "repeated", "double", None), ("var_name", 17, "optional", "string", None),
                    ("vars_name", 18, "repeated", "string", None), ("float64", 19, "optional", "double", None),
                    ("scalar", 20, "optional", "Scalar", None), ("scalars", 21, "repeated", "Scalar", None)],
    "OpDesc.Var": [("parameter", 1, "required", "string", None), ("arguments", 2, "repeated", "string", None)],
    "OpDesc": [("type", 3, "required", "string", None), ("inputs", 1, "repeated", "OpDesc.Var", None),
               ("outputs", 2, "repeated", "OpDesc.Var", None), ("attrs", 4, "repeated", "OpDesc.Attr", None),
               ("is_target", 5, "optional", "bool", "false")],
    "VarType.TensorDesc": [("data_type", 1, "required", "VarType.Type", None),
                           ("dims", 2, "repeated", "int64", None)],
    "VarType.LoDTensorDesc": [("tensor", 1, "required", "VarType.TensorDesc", None),
                              ("lod_level", 2, "optional", "int32", "0")],
    "VarType.LoDTensorArrayDesc": [("tensor", 1, "required", "VarType.TensorDesc", None),
                                   ("lod_level", 2, "optional", "int32", "0")],
    "VarType.ReaderDesc": [("lod_tensor", 1, "repeated", "VarType.LoDTensorDesc", None)],
    "VarType.Tuple": [("element_type", 1, "repeated", "VarType.Type", None)],
    "VarType": [("type", 1, "required", "VarType.Type", None),
                ("selected_rows", 2, "optional", "VarType.TensorDesc", None),
                ("lod_tensor", 3, "optional", "VarType.LoDTensorDesc", None),
                ("tensor_array", 4, "optional", "VarType.LoDTensorArrayDesc", None),
                ("reader", 5, "optional", "VarType.ReaderDesc", None),
                ("tuple", 7, "optional", "VarType.Tuple", None),
                ("string", 8, "optional", "VarType.TensorDesc", None),
                ("strings", 9, "optional", "VarType.TensorDesc", None),
                ("vocab", 10, "optional", "VarType.TensorDesc", None),
                ("sparse_coo", 11, "optional", "VarType.TensorDesc", None),
                ("sparse_csr", 12, "optional", "VarType.TensorDesc", None)],
    "VarDesc.Attr": [("name", 1, "required", "string", None), ("type", 2, "required", "AttrType", None),
                     ("i", 3, "optional", "int32", None), ("s", 4, "optional", "string", None),
                     ("ints", 5, "repeated", "int32", None)],
    "VarDesc": [("name", 1, "required", "string", None), ("type", 2, "required", "VarType", None),
                ("persistable", 3, "optional", "bool", "false"), ("need_check_feed", 4, "optional", "bool", "false"),
                ("is_parameter", 5, "optional", "bool", "false"), ("stop_gradient", 6, "optional", "bool", "false"),
                ("attrs", 7, "repeated", "VarDesc.Attr", None)],
    "BlockDesc": [("idx", 1, "required", "int32", None), ("parent_idx", 2, "required", "int32", None),
                  ("vars", 3, "repeated", "VarDesc", None), ("ops", 4, "repeated", "OpDesc", None),
                  ("forward_block_idx", 5, "optional", "int32", "-1")],
    "OpVersion": [("version", 1, "required", "int32", None)],
    "OpVersionMap.OpVersionPair": [("op_name", 1, "required", "string", None),
                                   ("op_version", 2, "required", "OpVersion", None)],
    "OpVersionMap": [("pair", 1, "repeated", "OpVersionMap.OpVersionPair", None)],
    "ProgramDesc": [("blocks", 1, "repeated", "BlockDesc", None), ("version", 4, "optional", "Version", None),
                    ("op_version_map", 5, "optional", "OpVersionMap", None)],
}  # fmt: skip

_SCALARS = {"int32": 5, "int64": 3, "float": 2, "double": 1, "string": 9, "bool": 8, "bytes": 12}
_LABELS = {"optional": 1, "required": 2, "repeated": 3}


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    fd = descriptor_pb2.FileDescriptorProto(name="minipaddle/paddle_framework.proto", package=PACKAGE, syntax="proto2")
    messages: dict[str, descriptor_pb2.DescriptorProto] = {}

    def message(path: str) -> descriptor_pb2.DescriptorProto:
        if path not in messages:
            parent, _, name = path.rpartition(".")
            container = message(parent).nested_type if parent else fd.message_type
            messages[path] = container.add(name=name)
        return messages[path]

    for path, fields in SCHEMA.items():
        m = message(path)
        for name, number, label, typ, default in fields:
            f = m.field.add(name=name, number=number, label=_LABELS[label])
            if typ in _SCALARS:
                f.type = _SCALARS[typ]
            else:
                f.type = 14 if typ in ENUMS else 11  # TYPE_ENUM, TYPE_MESSAGE
                f.type_name = f".{PACKAGE}.{typ}"
            if default is not None:
                f.default_value = default
    for path, values in ENUMS.items():
        parent, _, name = path.rpartition(".")
        e = (message(parent).enum_type if parent else fd.enum_type).add(name=name)
        for value_name, number in values:
            e.value.add(name=value_name, number=number)
    return fd


def _message_classes() -> dict:
    pool = descriptor_pool.DescriptorPool()
    pool.Add(_file_descriptor())
    try:
        from google.protobuf.message_factory import GetMessageClass
    except ImportError:  # protobuf < 4.22
        from google.protobuf.message_factory import MessageFactory

        GetMessageClass = MessageFactory(pool).GetPrototype  # noqa: N806
    return {path: GetMessageClass(pool.FindMessageTypeByName(f"{PACKAGE}.{path}")) for path in SCHEMA}, pool


_CLASSES, POOL = _message_classes()
ProgramDesc = _CLASSES["ProgramDesc"]
VarTypeProto = _CLASSES["VarType"]
TensorDesc = _CLASSES["VarType.TensorDesc"]
AttrType = {name: number for name, number in ENUMS["AttrType"]}
VarTypeEnum = {name: number for name, number in ENUMS["VarType.Type"]}


def file_descriptor_proto() -> descriptor_pb2.FileDescriptorProto:
    """The schema as a FileDescriptorProto (what the test compares with Paddle's framework_pb2)."""
    return _file_descriptor()
