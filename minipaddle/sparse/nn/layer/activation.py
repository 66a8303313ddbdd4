"""paddle.sparse.nn.layer.activation: activation layers for sparse tensors (they act on the stored values)."""

from minipaddle.nn.layer.layers import Layer
from minipaddle.sparse.nn import functional

__all__ = ["LeakyReLU", "ReLU", "ReLU6", "Softmax"]


class ReLU(Layer):
    """max(0, x) on the stored values of a sparse tensor (`paddle.sparse.nn.functional.relu`)."""

    def __init__(self, name=None) -> None:
        super().__init__()

    def forward(self, x):
        return functional.relu(x)


class ReLU6(Layer):
    """min(max(0, x), 6) on the stored values of a sparse tensor."""

    def __init__(self, name=None) -> None:
        super().__init__()

    def forward(self, x):
        return functional.relu6(x)


class LeakyReLU(Layer):
    """Leaky ReLU on the stored values of a sparse tensor."""

    def __init__(self, negative_slope=0.01, name=None) -> None:
        super().__init__()
        self._negative_slope = negative_slope

    def forward(self, x):
        return functional.leaky_relu(x, self._negative_slope)


class Softmax(Layer):
    """Softmax over the stored entries of each row of a sparse tensor (axis -1 only)."""

    def __init__(self, axis=-1, name=None) -> None:
        super().__init__()
        self._axis = axis

    def forward(self, x):
        return functional.softmax(x, self._axis)
