"""paddle.sparse.nn: activation layers for sparse tensors (they act on the stored values).

layer/activation.py holds the Layers, functional/activation.py the functions, as paddle 2.6 lays them out.
"""

from minipaddle.sparse.nn import functional
from minipaddle.sparse.nn.layer.activation import LeakyReLU, ReLU, ReLU6, Softmax

__all__ = ["LeakyReLU", "ReLU", "ReLU6", "Softmax"]
