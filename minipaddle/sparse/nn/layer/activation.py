"""`paddle.sparse.nn.layer.activation`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.layer.activation import LeakyReLU, ReLU, ReLU6, Softmax

__all__ = ["LeakyReLU", "ReLU", "ReLU6", "Softmax"]
