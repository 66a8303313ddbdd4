"""CallTransformer: every call `f(x)` becomes `_jst.Call(f)(x)`, so that user functions and Layers reached from a
converted function are converted too, when they are called (recursively; jit/dy2static/convert_call.py decides:
minipaddle's own functions, builtins and library code run as they are).

Left alone: `paddle.*` calls, the helpers `_jst.*`, `pdb.set_trace()` (as Paddle: the debugger then stops in the
transformed code, whose file is real) and Python's builtins; `len(x)` becomes `_jst.Len(x)` (a
Variable's unknown length is a Tensor), and `super()` becomes `super(__class__, self)` (the converted method is
compiled outside its class body, so the zero-argument form has nothing to find).
"""

from __future__ import annotations

import ast
import builtins

from minipaddle.jit.transformers.base import HELPER, JST, Transformer, jst, located, name

_BUILTINS = set(dir(builtins))
_CASTS = {"int", "float", "bool"}  # CastTransformer's


def root_name(node) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.value if not isinstance(node, ast.Call) else node.func
    return node.id if isinstance(node, ast.Name) else None


def _is_set_trace(f) -> bool:
    return (isinstance(f, ast.Attribute) and f.attr == "set_trace"
            and isinstance(f.value, ast.Name) and f.value.id in ("pdb", "ipdb"))  # fmt: skip


class CallTransformer(Transformer):
    name = "CallTransformer"
    level = 11
    doc = "f(x) -> _jst.Call(f)(x): user functions and Layers called from here are converted when called"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.first_args: list = []

    def visit_FunctionDef(self, node):
        if not getattr(node, HELPER, False):
            args = node.args.posonlyargs + node.args.args
            self.first_args.append(args[0].arg if args else None)
            self.generic_visit(node)
            self.first_args.pop()
            return node
        self.generic_visit(node)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id in _BUILTINS:
            if f.id == "len" and len(node.args) == 1 and not node.keywords:
                node.func = located(jst("Len"), f)
            elif f.id == "super" and not node.args and self.first_args and self.first_args[-1]:
                node.args = [located(name("__class__"), f), located(name(self.first_args[-1]), f)]
            return node
        if root_name(f) in (JST, "paddle") or _is_set_trace(f):
            return node
        node.func = located(ast.Call(func=jst("Call"), args=[f], keywords=[]), f)
        return node
