"""Float functional layers (paddle.nn.quant.add, ... matmul): tensor functions as Layers, so that
ImperativeQuantAware can find them in the Layer tree and fake-quantize their outputs."""

from __future__ import annotations

from minipaddle.nn.layer.layers import Layer

__all__ = ["FloatFunctionalLayer", "add", "subtract", "multiply", "divide", "reshape", "transpose", "concat",
           "flatten", "matmul"]  # fmt: skip


class FloatFunctionalLayer(Layer):
    """The base of the functional layers below."""


def _functional(name: str, module: str, doc: str):
    def forward(self, *args, **kwargs):
        import importlib

        kwargs.pop("name", None)
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return type(name, (FloatFunctionalLayer,), {"forward": forward, "__doc__": doc})


add = _functional("add", "minipaddle.tensor.math", "x + y as a Layer.")
subtract = _functional("subtract", "minipaddle.tensor.math", "x - y as a Layer.")
multiply = _functional("multiply", "minipaddle.tensor.math", "x * y as a Layer.")
divide = _functional("divide", "minipaddle.tensor.math", "x / y as a Layer.")
reshape = _functional("reshape", "minipaddle.tensor.manipulation", "paddle.reshape(x, shape) as a Layer.")
transpose = _functional("transpose", "minipaddle.tensor.manipulation", "paddle.transpose(x, perm) as a Layer.")
concat = _functional("concat", "minipaddle.tensor.manipulation", "paddle.concat(x, axis) as a Layer.")
flatten = _functional("flatten", "minipaddle.tensor.manipulation", "paddle.flatten(x, start, stop) as a Layer.")
matmul = _functional("matmul", "minipaddle.tensor.linalg", "paddle.matmul(x, y, transpose_x, transpose_y) as a Layer.")
