"""LeNet (LeCun et al., 1998), as paddle.vision.models.LeNet builds it: for 1x28x28 images such as MNIST."""

from __future__ import annotations

from minipaddle import nn
from minipaddle.tensor.manipulation import flatten

__all__ = ["LeNet"]


class LeNet(nn.Layer):
    """LeNet: two convolutions with ReLU and max pooling, then three Linear layers (with no activation between
    them, as in Paddle).

    Args:
        num_classes: the number of output classes; 0 or less leaves out the Linear layers, so the network returns
            the [N, 16, 5, 5] features.

    Example:
        >>> net = paddle.vision.models.LeNet()
        >>> net(paddle.rand([2, 1, 28, 28])).shape
        [2, 10]
    """

    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
        )
        if num_classes > 0:
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes))

    def forward(self, inputs):
        x = self.features(inputs)
        if self.num_classes > 0:
            x = flatten(x, 1)
            x = self.fc(x)
        return x
