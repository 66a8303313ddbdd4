"""paddle.sparse.nn.functional: functions of sparse tensors. activation.py holds relu, relu6, leaky_relu and
softmax; conv.py the convolutions (regular and submanifold, 2-D and 3-D) over rulebook.py's pairs; pooling.py
max_pool3d. paddle 2.6's transformer module (attention) is CUDA-only there and has no counterpart here."""

from minipaddle.sparse.nn.functional.activation import leaky_relu, relu, relu6, softmax
from minipaddle.sparse.nn.functional.conv import conv2d, conv3d, subm_conv2d, subm_conv3d
from minipaddle.sparse.nn.functional.pooling import max_pool3d

__all__ = ["conv2d", "conv3d", "subm_conv2d", "subm_conv3d", "max_pool3d", "relu", "relu6", "leaky_relu", "softmax"]
