"""Program -> ONNX model: clean the Program for inference, choose the opset, translate op by op, check.

    model = program_to_onnx(program, ["x"], ["y"], values, opset_version=9)

1. the inference passes that change no arithmetic run first (inference/passes/): train/eval switches to their
   inference branch, identities removed, constants folded into weights (so a Layer's parameters, which a
   trace records as constants, become initializers);
2. the opset: the lowest >= opset_version that every op's export entry can use (op_table.opset_needed), as
   paddle2onnx's auto_upgrade_opset; an op with no entry raises NotExportableError naming it and the opset;
3. each op's entry adds its nodes; the graph's inputs are the feeds (-1 dimensions symbolic), its outputs
   the fetches, its initializers the persistable variables the nodes read;
4. onnx.checker.check_model.
"""

from __future__ import annotations

import sys

import numpy as np

from minipaddle.inference.passes import IR_PASSES
from minipaddle.onnx.control_flow import translate_ops
from minipaddle.onnx.graph import NotExportableError, OnnxGraph
from minipaddle.onnx.op_table import EXPORTS, MAX_OPSET, MIN_OPSET, opset_needed

__all__ = ["program_to_onnx", "prepare_program"]


class _Scope:
    def __init__(self, values: dict) -> None:
        self.vars = dict(values)


class _Ctx:
    def __init__(self, scope, keep) -> None:
        self.scope, self.keep, self.notes = scope, list(keep), []

    def note(self, text: str) -> None:
        self.notes.append(text)


def prepare_program(program, fetches, values: dict):
    """(program, values) after the passes that keep every value the same: is_test, identities, constants."""

    program = _without_self_assigns(program)
    scope = _Scope(values)
    ctx = _Ctx(scope, list(fetches) + _int8_weights(program, values))
    for name in ("is_test_pass", "simplify_with_basic_ops_pass", "constant_folding_pass"):
        program = IR_PASSES[name](program, ctx)
    return program, scope.vars


def _without_self_assigns(program):
    """Without the assigns of a variable onto itself (a model saved again by save_inference_model copies its fetch
    onto itself): they compute nothing, and an ONNX graph may write each name only once."""
    block = program.global_block()
    if not any(op.type == "assign" and op.input_names() == op.output_names() for op in block.ops):
        return program
    program = program.clone()
    block = program.global_block()
    block.ops = [op for op in block.ops if not (op.type == "assign" and op.input_names() == op.output_names())]
    return program


def _int8_weights(program, values: dict) -> list:
    """The outputs of the dequantize_linear ops that read a weight stored as levels: kept from constant folding,
    so the ONNX file holds the weight as int8 with a DequantizeLinear (paddle2onnx's form), not as floats."""
    block = program.global_block()
    return [op.outputs["Out"][0] for op in block.ops if op.type == "dequantize_linear"
            and op.inputs["x"][0] in values and block.var(op.inputs["x"][0]).persistable]  # fmt: skip


def _names_read(nodes) -> set:
    """Every name the nodes read, those of their subgraphs (If / Loop bodies) included."""
    names = set()
    for n in nodes:
        names.update(n.input)
        for a in n.attribute:
            for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                names |= _names_read(sub.node)
    return names


def _all_ops(program) -> list:
    """(op, its block) for every op of every block: sub-blocks become ONNX subgraphs (onnx/control_flow.py)."""
    return [(op, block) for block in program.blocks for op in block.ops]


def _choose_opset(program, opset_version: int, auto_upgrade: bool) -> int:
    ops = _all_ops(program)
    missing = sorted({op.type for op, _ in ops if op.type not in EXPORTS})
    if missing:
        raise NotExportableError(
            f"paddle.onnx.export: op(s) {missing} cannot be exported at opset {opset_version}: the export table "
            "(minipaddle/onnx/op_table.py) has no ONNX form for them; paddle.onnx.not_exportable() lists every such op"
        )
    needs = {op.type: max(opset_needed(o, b) for o, b in ops if o.type == op.type) for op, _ in ops}
    needed = max([opset_version, *needs.values()])
    if needed > opset_version:
        if not auto_upgrade:
            worst = sorted(t for t, n in needs.items() if n > opset_version)
            raise NotExportableError(f"paddle.onnx.export: op(s) {worst} cannot be exported at opset {opset_version}; "
                                     f"they need opset {needed} (or pass auto_update_opset=True)")  # fmt: skip
        print(f"[minipaddle.onnx] Use opset_version = {needed} for ONNX export.", file=sys.stderr)
    if needed > MAX_OPSET:
        raise NotExportableError(f"paddle.onnx.export: the model needs opset {needed}, above {MAX_OPSET}")
    return needed


def program_to_onnx(program, feeds, fetches, values: dict, opset_version: int = 9, auto_upgrade: bool = True,
                    check: bool = True, prepared: bool = False):  # fmt: skip
    """An onnx.ModelProto computing `fetches` from `feeds` as `program` does, with `values` (name -> array) for
    its persistable variables."""
    import onnx
    from onnx import helper

    if isinstance(opset_version, bool) or not isinstance(opset_version, int):
        raise TypeError(f"paddle.onnx.export: opset_version must be an int, got {opset_version!r}")
    if not MIN_OPSET <= opset_version <= MAX_OPSET:
        raise ValueError(f"paddle.onnx.export: opset_version must be in [{MIN_OPSET}, {MAX_OPSET}], got "
                         f"{opset_version}")  # fmt: skip
    if not prepared:
        program, values = prepare_program(program, fetches, values)
    opset = _choose_opset(program, opset_version, auto_upgrade)
    g = OnnxGraph(program, values, opset)
    g.fetches = set(fetches)
    block = program.global_block()
    read = {n for op, _ in _all_ops(program) for n in op.input_names() if n is not None}
    for name in sorted(read | set(fetches)):
        if name in values and block.has_var(name) and block.var(name).persistable:
            arr = np.asarray(values[name])
            g.initializers[name] = onnx.numpy_helper.from_array(arr, name)
    translate_ops(g, block.ops)
    used = _names_read(g.nodes) | set(fetches)
    g.initializers = {k: v for k, v in g.initializers.items() if k in used}  # (a weight only read as int8 goes)
    dims: dict = {}
    inputs = [g.value_info(n, dims) for n in feeds]
    outputs = []
    for n in fetches:
        if n in feeds or n in g.initializers:  # an output must be made by a node
            g.one("Identity", [n], f"{n}.out")
            outputs.append(g.value_info(n, dims))
            outputs[-1].name = f"{n}.out"
        else:
            outputs.append(g.value_info(n, dims))
    graph = helper.make_graph(g.nodes, "minipaddle", inputs, outputs, list(g.initializers.values()))
    model = helper.make_model(graph, producer_name="minipaddle", opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = min(model.ir_version, 8)  # readable by older onnxruntime builds, as paddle2onnx writes
    if check:
        onnx.checker.check_model(model)
    return model
