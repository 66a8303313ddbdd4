"""CosineSimilarity and PairwiseDistance: layers comparing two inputs."""

from __future__ import annotations

from minipaddle.nn import functional as F
from minipaddle.nn.layer.layers import Layer

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class CosineSimilarity(Layer):
    """x1 . x2 / (|x1| |x2|) along `axis`."""

    def __init__(self, axis=1, eps=1e-8) -> None:
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"


class PairwiseDistance(Layer):
    """The p-norm distance between rows of x and y: |x - y + epsilon|_p over the last axis."""

    def __init__(self, p=2.0, epsilon=1e-6, keepdim=False, name=None) -> None:
        super().__init__()
        self.p, self.epsilon, self.keepdim, self.name = p, epsilon, keepdim, name

    def forward(self, x, y):
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self) -> str:
        text = f"p={self.p}"
        if self.epsilon != 1e-6:
            text += f", epsilon={self.epsilon}"
        if self.keepdim is not False:
            text += f", keepdim={self.keepdim}"
        if self.name is not None:
            text += f", name={self.name}"
        return text
