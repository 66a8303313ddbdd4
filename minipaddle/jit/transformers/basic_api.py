"""BasicApiTransformer: `paddle.to_tensor(data, ...)` becomes `paddle.assign(paddle.to_tensor(data, ...))`, which
puts the data into the Program as a constant (in a Program there is no "tensor made now", only values the Program
makes). The call to_tensor stays inside, with its dtype: assign alone would make float64 data float32, as paddle's
assign does, while paddle 2.6's to_tensor in static mode keeps the data's dtype or the one asked for."""

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
    doc = "paddle.to_tensor(x) -> paddle.assign(paddle.to_tensor(x))"

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "to_tensor" and _root(f) == "paddle" and node.args:
            assign = ast.Attribute(value=f.value, attr="assign", ctx=ast.Load())
            return ast.copy_location(ast.Call(func=assign, args=[node], keywords=[]), node)
        return node
