"""A minipaddle Program as an ONNX graph: walk the main block's ops in order and let the export table
(onnx/op_table.py) turn each into ONNX nodes.

Names stay the Program's own (a variable `conv2d_1.tmp_0` is the ONNX value `conv2d_1.tmp_0`), so the two
graphs can be read side by side; nodes made for one op are named after it (`conv2d_1.tmp_0/Conv`).
Persistable variables (the weights) become initializers; a `-1` dimension becomes a symbolic one
(`DynamicDimension.0`, as paddle2onnx's `p2o.DynamicDimension.0`). Everything is built with the onnx package's
helpers: nothing here writes protobuf by hand.
"""

from __future__ import annotations

import numpy as np

__all__ = ["OnnxGraph", "NotExportableError"]


class NotExportableError(ValueError):
    """An op (or an op with these attributes) has no ONNX form at the opset asked for."""


class OnnxGraph:
    """The ONNX graph being built: nodes, initializers, and what the Program says about each variable."""

    def __init__(self, program, values: dict, opset: int) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.program = program
        self.block = program.global_block()
        self.values = values  # name -> array, for the persistable variables
        self.opset = opset
        self.nodes: list = []
        self.initializers: dict = {}
        self._counter = 0
        self.op = None  # the op being exported (names its nodes and its errors)
        self.fetches: set = set()  # the names the model returns
        self.int8_of: dict = {}  # quantized levels (paddle's floats) -> the int8 tensor QuantizeLinear made
        self.rename: dict = {}  # Program name -> ONNX name in the subgraph being built (onnx/control_flow.py)
        self.alias: dict = {}  # ONNX name -> the Program variable it stands for, where the two differ

    # ---- building -----------------------------------------------------------------------------------------------

    def fresh(self, hint: str) -> str:
        self._counter += 1
        base = self.op.output_names()[0] if self.op is not None and self.op.output_names() else "onnx"
        return f"{base}/{hint}_{self._counter}"

    def node(self, op_type: str, inputs, outputs=None, **attrs) -> list:
        """Add one node; `outputs` default to one fresh name. Returns the output names."""
        outputs = [self.fresh(op_type)] if outputs is None else list(outputs)
        inputs = ["" if i is None else i for i in inputs]
        name = f"{outputs[0]}/{op_type}"
        self.nodes.append(self.helper.make_node(op_type, inputs, outputs, name=name, **attrs))
        return outputs

    def one(self, op_type: str, inputs, out=None, **attrs) -> str:
        return self.node(op_type, inputs, None if out is None else [out], **attrs)[0]

    def const(self, value, dtype=None, hint: str = "const") -> str:
        """An initializer holding `value` (a numpy array or a Python number/list)."""
        arr = np.asarray(value, dtype=dtype)
        name = self.fresh(hint)
        self.initializers[name] = self.numpy_helper.from_array(arr, name)
        return name

    def ints(self, values) -> str:
        return self.const(np.asarray(list(values), dtype=np.int64), hint="ints")

    # ---- facts from the Program ---------------------------------------------------------------------------------

    def var(self, name: str):
        """The Program variable an ONNX name stands for, looked up from the block being translated."""
        return self.block.var(self.alias.get(name, name))

    def shape(self, name: str) -> list:
        return list(self.var(name).shape)

    def rank(self, name: str) -> int:
        return len(self.var(name).shape)

    def dtype(self, name: str) -> np.dtype:
        return self.var(name).dtype.np

    def value(self, name: str):
        """The array of a weight or constant, or None when the name is computed at run time."""
        return self.values.get(name)

    def refuse(self, why: str):
        raise NotExportableError(f"paddle.onnx.export: op '{self.op.type}' cannot be exported at opset "
                                 f"{self.opset}: {why}")  # fmt: skip

    # ---- opset-dependent forms shared by several ops ------------------------------------------------------------

    def unsqueeze(self, x: str, axes, out=None) -> str:
        if self.opset >= 13:
            return self.one("Unsqueeze", [x, self.ints(axes)], out)
        return self.one("Unsqueeze", [x], out, axes=list(axes))

    def squeeze(self, x: str, axes, out=None) -> str:
        if self.opset >= 13:
            return self.one("Squeeze", [x, self.ints(axes)], out)
        return self.one("Squeeze", [x], out, axes=list(axes))

    def split(self, x: str, sections, axis: int, outs) -> list:
        if self.opset >= 13:
            return self.node("Split", [x, self.ints(sections)], outs, axis=axis)
        return self.node("Split", [x], outs, axis=axis, split=list(sections))

    def reduce(self, kind: str, x: str, axes, keepdims: bool, out=None) -> str:
        """ReduceSum takes its axes as an input from opset 13, the other reductions only from 18."""
        attrs = {"keepdims": int(keepdims)}
        if axes is None:
            return self.one(kind, [x], out, **attrs)
        if kind == "ReduceSum" and self.opset >= 13:
            return self.one(kind, [x, self.ints(axes)], out, **attrs)
        return self.one(kind, [x], out, axes=list(axes), **attrs)

    def clip(self, x: str, lo, hi, out=None) -> str:
        if self.opset >= 11:
            dt = self.dtype(x) if self.block.has_var(self.alias.get(x, x)) else np.float32
            ins = [x, None if lo is None else self.const(lo, dt), None if hi is None else self.const(hi, dt)]
            while ins and ins[-1] is None:
                ins.pop()
            return self.one("Clip", ins, out)
        attrs = {}
        if lo is not None:
            attrs["min"] = float(lo)
        if hi is not None:
            attrs["max"] = float(hi)
        return self.one("Clip", [x], out, **attrs)

    # ---- the model ----------------------------------------------------------------------------------------------

    def value_info(self, name: str, dim_names: dict):
        from onnx import helper

        v = self.block.var(name)
        dims = []
        for d in v.shape:
            if d < 0:
                key = len(dim_names)
                dims.append(dim_names.setdefault((name, len(dims)), f"DynamicDimension.{key}"))
            else:
                dims.append(int(d))
        return helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(v.dtype.np), dims)
