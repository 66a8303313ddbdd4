"""The AST transformers of to_static, in the order they run (each one a small module to read on its own).

A transformer's `level` is its place in this order: `paddle.jit.set_code_level(level)` prints the code after it,
and `viz.show_to_static(fn)` shows each step's changes.
"""

from minipaddle.jit.transformers.assert_statement import AssertTransformer
from minipaddle.jit.transformers.basic_api import BasicApiTransformer
from minipaddle.jit.transformers.break_continue import BreakContinueTransformer
from minipaddle.jit.transformers.call import CallTransformer
from minipaddle.jit.transformers.cast import CastTransformer
from minipaddle.jit.transformers.create_variable import CreateVariableTransformer
from minipaddle.jit.transformers.early_return import EarlyReturnTransformer
from minipaddle.jit.transformers.ifelse import IfElseTransformer
from minipaddle.jit.transformers.logical import LogicalTransformer
from minipaddle.jit.transformers.loop import LoopTransformer
from minipaddle.jit.transformers.print_call import PrintTransformer
from minipaddle.jit.transformers.return_statement import ReturnTransformer
from minipaddle.jit.transformers.tensor_shape import TensorShapeTransformer

TRANSFORMERS = (
    EarlyReturnTransformer,
    BasicApiTransformer,
    TensorShapeTransformer,
    BreakContinueTransformer,
    ReturnTransformer,
    LogicalTransformer,
    LoopTransformer,
    IfElseTransformer,
    AssertTransformer,
    PrintTransformer,
    CallTransformer,
    CastTransformer,
    CreateVariableTransformer,
)

__all__ = ["TRANSFORMERS"] + [t.__name__ for t in TRANSFORMERS]
