"""`paddle.sparse.nn.layer.pooling`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.layer.pooling import MaxPool3D

__all__ = ["MaxPool3D"]
