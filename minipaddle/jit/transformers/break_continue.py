"""BreakContinueTransformer: `break` and `continue` become flags, so a loop body is straight-line code that a
`while_loop` can hold.

    while i < n:                        __break_0 = False
        if x[i] > 0:                    while i < n and not __break_0:
            break             ->            if x[i] > 0:
        i += 1                                  __break_0 = True
                                            if not __break_0:
                                                i += 1

`break` also joins the loop's test; `continue` is reset at the top of every iteration. A `for` loop holding a
`break`, `continue` or `return` is first turned into a `while` over an index (as LoopTransformer does), so that
its test can carry the flag.
"""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer, assign, const, contains, located, name
from minipaddle.jit.transformers.loop import for_to_while


def _guard(flags: list, stmts: list, origin) -> ast.If:
    test = name(flags[0]) if len(flags) == 1 else ast.BoolOp(op=ast.Or(), values=[name(f) for f in flags])
    return located(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=test), body=stmts, orelse=[]), origin)


class _Flags:
    def __init__(self, brk, cont) -> None:
        self.brk, self.cont = brk, cont

    def rewrite(self, stmts: list) -> list:
        out = []
        for i, s in enumerate(stmts):
            if isinstance(s, ast.Break):
                out.append(located(assign(self.brk, const(True)), s))
                return out  # what follows a break in the same list never runs
            if isinstance(s, ast.Continue):
                out.append(located(assign(self.cont, const(True)), s))
                return out
            set_here = [f for f, t in ((self.brk, ast.Break), (self.cont, ast.Continue)) if f and contains(s, t)]
            self.rewrite_children(s)
            out.append(s)
            if set_here:
                rest = self.rewrite(stmts[i + 1 :])
                if rest:
                    out.append(_guard(set_here, rest, stmts[i + 1]))
                return out
        return out

    def rewrite_children(self, node) -> None:
        if isinstance(node, (ast.While, ast.For, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return  # a nested loop's breaks are its own
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self.rewrite(value) or [ast.Pass()])
        for h in getattr(node, "handlers", []) or []:
            h.body = self.rewrite(h.body) or [ast.Pass()]


class BreakContinueTransformer(Transformer):
    name = "BreakContinueTransformer"
    level = 4
    doc = "break/continue -> bool flags; the statements after them guarded by `if not flag`"

    def visit_For(self, node):
        self.generic_visit(node)
        needs = contains(node.body, (ast.Break, ast.Continue)) or contains(node.body, ast.Return, stop=())
        if not needs or node.orelse:
            return node
        stmts = for_to_while(node, self.ctx)
        stmts[-1] = self.visit_While(stmts[-1], visited=True)
        return _flatten(stmts)

    def visit_While(self, node, visited=False):
        if not visited:
            self.generic_visit(node)
        has_break, has_cont = contains(node.body, ast.Break), contains(node.body, ast.Continue)
        if node.orelse or not (has_break or has_cont):
            return node
        brk = self.ctx.fresh("__break") if has_break else None
        cont = self.ctx.fresh("__continue") if has_cont else None
        flags = _Flags(brk, cont)
        body = flags.rewrite(node.body) or [ast.Pass()]
        pre = []
        if cont:
            body = [located(assign(cont, const(False)), node)] + body
        if brk:
            pre.append(located(assign(brk, const(False)), node))
            node.test = located(ast.BoolOp(op=ast.And(), values=[node.test, ast.UnaryOp(op=ast.Not(),
                                operand=name(brk))]), node.test)  # fmt: skip
        node.body = body
        return pre + [node] if pre else node


def _flatten(stmts) -> list:
    out = []
    for s in stmts:
        out.extend(s if isinstance(s, list) else [s])
    return out
