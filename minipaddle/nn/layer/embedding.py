"""Embedding: a learned table of vectors, looked up by integer id."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dtype import get_default_dtype
from minipaddle.core.state import in_dynamic_mode, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.nn import functional as F
from minipaddle.nn.initializer.initializer import write_values
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor.checks import check_flag, check_int

__all__ = ["Embedding"]


class Embedding(Layer):
    """A table `weight` of shape [num_embeddings, embedding_dim]; calling it on int ids returns their rows.

    Args:
        padding_idx: an id (negative counts from the end) whose row starts at zero, is returned as zeros and
            is never updated.
        sparse: accepted for compatibility (the gradient is dense here).
        weight_attr: a ParamAttr; by default the table starts XavierUniform.

    Example:
        >>> emb = paddle.nn.Embedding(10, 4, padding_idx=0)
        >>> emb(paddle.to_tensor([[1, 0, 3]])).shape
        [1, 3, 4]
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, sparse=False, weight_attr=None, name=None):
        super().__init__()
        num_embeddings = check_int(num_embeddings, "Embedding", "num_embeddings")
        embedding_dim = check_int(embedding_dim, "Embedding", "embedding_dim")
        check_flag(sparse, "Embedding", "sparse")
        if padding_idx is not None:
            padding_idx = check_int(padding_idx, "Embedding", "padding_idx")
        if num_embeddings <= 0:
            raise ValueError(f"Embedding: num_embeddings must be greater than 0, got {num_embeddings}")
        if embedding_dim <= 0:
            raise ValueError(f"Embedding: embedding_dim must be greater than 0, got {embedding_dim}")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"Embedding: padding_idx must be within [-{num_embeddings}, {num_embeddings}), "
                             f"got {padding_idx}")  # fmt: skip
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        self._padding_idx, self._sparse, self._name = padding_idx, sparse, name
        self._dtype = get_default_dtype()
        self.weight = self.create_parameter([num_embeddings, embedding_dim], attr=weight_attr, dtype=self._dtype)
        # the padding row starts at zero in dynamic mode only, as Paddle's `weight[padding_idx] = 0.0`: in static
        # mode the write would be ops of the main Program, rewriting the parameter before each step's lookups (and
        # Paddle's backward would flow through them); there the lookup gives zeros for the padding id anyway
        if padding_idx is not None and in_dynamic_mode():
            keep = np.ones([num_embeddings, 1], dtype=self.weight.dtype.np)
            keep[padding_idx % num_embeddings] = 0
            with no_grad():
                write_values(self.weight, ops.multiply(self.weight, Tensor(keep)), "Embedding")

    def forward(self, x):
        return F.embedding(x, self.weight, padding_idx=self._padding_idx, sparse=self._sparse)

    def extra_repr(self) -> str:
        text = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            text += f", padding_idx={self._padding_idx}"
        text += f", sparse={self._sparse}"
        if self._name is not None:
            text += f", name={self._name}"
        return text
