"""CreateVariableTransformer: every variable that a generated closure declares `nonlocal` gets a first binding
at the top of its function, `y = _jst.UndefinedVar('y')`, because Python needs one for `nonlocal` (and a variable
assigned in only one branch must exist after the `if`). Reading an UndefinedVar raises an error naming it.

It also refuses what cannot be converted: a `global` variable written inside converted control flow.
"""

from __future__ import annotations

import ast

from minipaddle.jit.error import UnsupportedSyntax
from minipaddle.jit.transformers.base import HELPER, Transformer, assign, const, jst_call, located

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own_nodes(fn):
    """The nodes of `fn`'s body, entering generated helper closures but not user-written nested scopes."""
    todo = list(fn.body)
    while todo:
        node = todo.pop(0)
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES) and not getattr(child, HELPER, False):
                continue
            todo.append(child)


class CreateVariableTransformer(Transformer):
    name = "CreateVariableTransformer"
    level = 13
    doc = "names the closures write get a first binding: y = _jst.UndefinedVar('y')"

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        if getattr(node, HELPER, False):
            return node
        a = node.args
        params = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        params |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        globals_, declared, wanted, order = {}, set(), {}, []
        for n in _own_nodes(node):
            if isinstance(n, ast.Global):
                globals_.update({g: n for g in n.names})
            elif isinstance(n, ast.Nonlocal) and n in node.body:
                declared.update(n.names)  # the user's own nonlocals: bound in an outer function already
            elif isinstance(n, ast.FunctionDef) and getattr(n, HELPER, False):
                for inner in n.body:
                    if isinstance(inner, ast.Nonlocal):
                        for v in inner.names:
                            if v not in wanted:
                                wanted[v] = n
                                order.append(v)
        for v in order:
            if v in globals_:
                raise UnsupportedSyntax(f"the global variable '{v}' is written inside control flow", wanted[v])
        inits = [located(assign(v, jst_call("UndefinedVar", const(v))), node.body[0])
                 for v in order if v not in params and v not in declared]  # fmt: skip
        if inits:
            start = 1 if _has_docstring(node) else 0
            node.body[start:start] = inits
        return node


def _has_docstring(fn) -> bool:
    s = fn.body[0] if fn.body else None
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
