"""paddle.onnx: export a Layer, or a saved inference model, to an ONNX file (built with the onnx package).

    paddle.onnx.export(model, "lenet", input_spec=[paddle.static.InputSpec([None, 1, 28, 28], "float32", "x")])
    # -> lenet.onnx, checked with onnx.checker; run it with onnxruntime

export.py    export (a Layer), export_model (a .pdmodel + .pdiparams pair), the trace into a Program
convert.py   Program -> ONNX model: inference clean-up, opset choice, the op-by-op translation, the checker
op_table.py  the export table: minipaddle op -> ONNX nodes, with the opset each needs
control_flow.py  `cond` / `while` (to_static's if / while) as ONNX If / Loop, sub-blocks as subgraphs
graph.py     the graph under construction (names, initializers, opset-dependent forms)
"""

from minipaddle.onnx.convert import program_to_onnx
from minipaddle.onnx.export import export, export_model
from minipaddle.onnx.graph import NotExportableError
from minipaddle.onnx.op_table import EXPORTS, MAX_OPSET, MIN_OPSET, not_exportable

__all__ = ["EXPORTS", "MAX_OPSET", "MIN_OPSET", "NotExportableError", "export", "export_model", "not_exportable",
           "program_to_onnx"]  # fmt: skip
