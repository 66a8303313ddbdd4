"""EarlyReturnTransformer: `if c: return a` followed by more statements becomes `if c: return a` / `else: <the rest>`,
so each branch ends in its own return and the ReturnTransformer has less to guard.

    if x > 0:                 if x > 0:
        return x      ->          return x
    return -x                 else:
                                  return -x
"""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer


def _rewrite(stmts: list) -> list:
    for i, s in enumerate(stmts):
        _rewrite_children(s)
        if isinstance(s, ast.If) and not s.orelse and s.body and isinstance(s.body[-1], ast.Return):
            rest = stmts[i + 1 :]
            if rest:
                s.orelse = _rewrite(rest)
                return stmts[: i + 1]
    return stmts


def _rewrite_children(node) -> None:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
        return
    for field in ("body", "orelse", "finalbody"):
        value = getattr(node, field, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            setattr(node, field, _rewrite(value))
    for h in getattr(node, "handlers", []) or []:
        h.body = _rewrite(h.body)


class EarlyReturnTransformer(Transformer):
    name = "EarlyReturnTransformer"
    level = 1
    doc = "`if c: return a` + more statements -> if/else, each branch ending in its own return"

    def visit_FunctionDef(self, node):
        node.body = _rewrite(node.body)
        for s in node.body:
            self.visit(s)
        return node
