"""BasicApiTransformer: `paddle.to_tensor(data, ...)` becomes `paddle.assign(data)`, which puts the data into the
Program as a constant (in a Program there is no "tensor made now", only values the Program makes)."""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer


def _root(node) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


class BasicApiTransformer(Transformer):
    name = "BasicApiTransformer"
    level = 2
    doc = "paddle.to_tensor(x) -> paddle.assign(x)"

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "to_tensor" and _root(f) == "paddle" and node.args:
            f.attr = "assign"
            node.args, node.keywords = node.args[:1], []
        return node
