"""ReturnTransformer: a function with `return`s inside branches or loops gets one return at its end.

    def f(x):                              def f(x):
        if x.mean() > 0:                       __return_0 = False
            return x * 2          ->           __return_value_0 = None
        return x - 1                           if x.mean() > 0:
                                                   __return_value_0 = x * 2
                                                   __return_0 = True
                                               if not __return_0:
                                                   __return_value_0 = x - 1
                                                   __return_0 = True
                                               return __return_value_0

Each `return v` sets the value and the flag; the statements after it are guarded by `if not flag`, and a loop
holding a return also stops on the flag. Branches that return different things (a Tensor and None, say) are
reconciled by `_jst.IfElse` when the flag is a Variable.
"""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer, assign, const, contains, located, name

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _needs(fn) -> bool:
    body = fn.body
    for i, s in enumerate(body):
        last = i == len(body) - 1
        if isinstance(s, ast.Return):
            if not last:
                return True
        elif contains(s, ast.Return, stop=()):
            return True
    return False


class _Returns:
    def __init__(self, flag: str, value: str) -> None:
        self.flag, self.value = flag, value

    def rewrite(self, stmts: list) -> list:
        out = []
        for i, s in enumerate(stmts):
            if isinstance(s, ast.Return):
                value = s.value if s.value is not None else const(None)
                out += located([assign(self.value, value), assign(self.flag, const(True))], s)
                return out
            had = not isinstance(s, _SCOPES) and contains(s, ast.Return, stop=())
            self.rewrite_children(s)
            out.append(s)
            if had:
                rest = self.rewrite(stmts[i + 1 :])
                if rest:
                    guard = ast.If(test=ast.UnaryOp(op=ast.Not(), operand=name(self.flag)), body=rest, orelse=[])
                    out.append(located(guard, stmts[i + 1]))
                return out
        return out

    def rewrite_children(self, node) -> None:
        if isinstance(node, _SCOPES):
            return
        if isinstance(node, ast.While) and contains(node.body, ast.Return, stop=()):
            stop = ast.UnaryOp(op=ast.Not(), operand=name(self.flag))
            node.test = located(ast.BoolOp(op=ast.And(), values=[node.test, stop]), node.test)
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self.rewrite(value) or [ast.Pass()])
        for h in getattr(node, "handlers", []) or []:
            h.body = self.rewrite(h.body) or [ast.Pass()]


class ReturnTransformer(Transformer):
    name = "ReturnTransformer"
    level = 5
    doc = "returns inside branches and loops -> a return flag and value, one return at the end"

    def visit_FunctionDef(self, node):
        for s in node.body:  # nested functions first, each with its own returns
            self.visit(s)
        if not _needs(node):
            return node
        flag, value = self.ctx.fresh("__return"), self.ctx.fresh("__return_value")
        body = _Returns(flag, value).rewrite(node.body)
        init = located([assign(flag, const(False)), assign(value, const(None))], node.body[0])
        end = located(ast.Return(value=name(value)), node.body[-1])
        node.body = init + body + [end]
        return node
