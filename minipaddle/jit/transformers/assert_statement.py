"""AssertTransformer: `assert test, msg` becomes `_jst.Assert(test, msg)`: Python's assert on Python values, an
`assert` op (checked each time the Program runs) on a Variable."""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer, const, jst_call, located


class AssertTransformer(Transformer):
    name = "AssertTransformer"
    level = 9
    doc = "assert t, msg -> _jst.Assert(t, msg): an assert op on Variables"

    def visit_Assert(self, node):
        self.generic_visit(node)
        msg = node.msg if node.msg is not None else const(None)
        return located(ast.Expr(jst_call("Assert", node.test, msg)), node)
