"""PrintTransformer: `print(a, b)` becomes `_jst.Print(a, b)`: Python values print while the Program is built,
Variables through a `print` op each time the Program runs (paddle.static.Print)."""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer, jst, located


class PrintTransformer(Transformer):
    name = "PrintTransformer"
    level = 10
    doc = "print(...) -> _jst.Print(...): a print op for Variables"

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "print":
            node.func = located(jst("Print"), node.func)
        return node
