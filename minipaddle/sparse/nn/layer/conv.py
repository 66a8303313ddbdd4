"""`paddle.sparse.nn.layer.conv`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.layer.conv import Conv2D, Conv3D

__all__ = ["Conv2D", "Conv3D"]
