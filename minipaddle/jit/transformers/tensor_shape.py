"""TensorShapeTransformer: `x.shape` becomes `_jst.Shape(x)`: the list of x's sizes, where a size the Program
knows only when it runs (an InputSpec's None batch dimension) is a Tensor, `paddle.shape(x)[i]`, instead of -1.

So `paddle.zeros([x.shape[0], 8])` and `x.reshape([x.shape[0], -1])` work for any batch size in one Program
(the creation and shape functions take Tensor sizes in static mode), and `range(x.shape[0])` becomes a loop on
a Tensor. Known sizes stay Python ints, and a Tensor that holds values (dynamic mode) gives its plain shape."""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import Transformer, jst_call, located


class TensorShapeTransformer(Transformer):
    name = "TensorShapeTransformer"
    level = 3
    doc = "x.shape -> _jst.Shape(x): sizes unknown when building become paddle.shape(x)[i]"

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if node.attr != "shape" or not isinstance(node.ctx, ast.Load):
            return node
        if isinstance(node.value, ast.Name) and node.value.id == "paddle":  # paddle.shape, the function
            return node
        return located(jst_call("Shape", node.value), node)
