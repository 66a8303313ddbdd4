"""paddle.sparse.nn: Layers for sparse tensors: activations (acting on the stored values), convolutions (regular
and submanifold), 3-D max pooling and batch normalization.

layer/ holds the Layers, functional/ the functions, as paddle 2.6 lays them out.
"""

from minipaddle.sparse.nn import functional
from minipaddle.sparse.nn.layer.activation import LeakyReLU, ReLU, ReLU6, Softmax
from minipaddle.sparse.nn.layer.conv import Conv2D, Conv3D, SubmConv2D, SubmConv3D
from minipaddle.sparse.nn.layer.norm import BatchNorm
from minipaddle.sparse.nn.layer.pooling import MaxPool3D

__all__ = [
    "ReLU",
    "ReLU6",
    "LeakyReLU",
    "Softmax",
    "Conv2D",
    "Conv3D",
    "SubmConv2D",
    "SubmConv3D",
    "MaxPool3D",
    "BatchNorm",
]
