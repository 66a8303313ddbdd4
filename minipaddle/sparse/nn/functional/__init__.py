"""paddle.sparse.nn.functional: functions of sparse tensors. activation.py holds relu, relu6, leaky_relu and softmax
(paddle 2.6's conv, pooling and transformer modules have no sparse counterpart here yet)."""

from minipaddle.sparse.nn.functional.activation import leaky_relu, relu, relu6, softmax

__all__ = ["leaky_relu", "relu", "relu6", "softmax"]
