"""LogicalTransformer: `a and b`, `a or b`, `not a` become `_jst.And(lambda: a, lambda: b)`, `_jst.Or(...)` and
`_jst.Not(a)`. On Python values they keep Python's meaning (short-circuit included); on bool Variables they
build `logical_and` / `logical_or` / `logical_not` ops."""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer, jst_call, lambda0, located


class LogicalTransformer(Transformer):
    name = "LogicalTransformer"
    level = 6
    doc = "and/or/not -> _jst.And/Or/Not (logical ops on Variables, Python semantics otherwise)"

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        helper = "And" if isinstance(node.op, ast.And) else "Or"
        result = node.values[0]
        for v in node.values[1:]:
            result = jst_call(helper, lambda0(result), lambda0(v))
        return located(result, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return located(jst_call("Not", node.operand), node)
        return node
