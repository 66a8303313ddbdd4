"""CastTransformer: `int(x)`, `float(x)`, `bool(x)` become `_jst.AsDtype(x, 'int')`: a `cast` op on a Variable
(to int32, float32 or bool, as Paddle 2.6 does), Python's cast otherwise."""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer, const, jst_call, located


class CastTransformer(Transformer):
    name = "CastTransformer"
    level = 12
    doc = "int(x)/float(x)/bool(x) -> _jst.AsDtype(x, 'int'): a cast op on Variables"

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id in ("int", "float", "bool") and len(node.args) == 1 and not node.keywords:
            return located(jst_call("AsDtype", node.args[0], const(f.id)), node)
        return node
