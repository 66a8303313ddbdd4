"""Ops behind common layers: dropout (with its mask as an input), embedding (a row lookup whose gradient is its
own scatter-add op) and one_hot.

A sparse embedding's gradient (Paddle's SelectedRows: the looked-up rows only) is here the dense gradient of the
same values, marked with the rows it holds: `grad._selected_rows`, a bool mask over the table's rows from the
embedding_rows op. Autograd keeps the mark when it sums and accumulates gradients (core/autograd.py), and the
optimizers whose Paddle kernels treat a SelectedRows gradient otherwise read it (Adam: optimizer/adam.py).

Random masks are drawn by the public function (from STATE.rng) and passed in, so the op itself is a
deterministic function of its inputs: its gradient can be checked, and a graph shows which mask was used.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["dropout", "embedding", "embedding_rows", "one_hot"]  # the raw op functions; ops/__init__.py gathers them


@register
class Dropout(OpDef):
    """out = x * mask * scale, with `mask` a 0/1 tensor broadcastable to x (scale = 1 / (1 - p) when
    upscaling in training)."""

    name = "dropout"

    def kernel(self, x, mask, scale):
        return (x * mask.astype(x.dtype) * np.asarray(scale, dtype=x.dtype)).astype(x.dtype)

    def grad(self, node, g):
        mask = ops.cast(node.inputs[1], g.dtype)
        return apply(Dropout, (g, mask), {"scale": node.attrs["scale"]}), None

    def infer_meta(self, x: Meta, mask: Meta, scale) -> Meta:
        return x


def dropout(x: Tensor, mask: Tensor, scale: float) -> Tensor:
    return apply(Dropout, (x, mask), {"scale": scale})


@register
class Embedding(OpDef):
    """out[..., :] = weight[ids[...], :]; rows asked for by `padding_idx` come out as zeros. `sparse` (set only
    when True) is Paddle's is_sparse: the gradient is the dense array of the values of Paddle's rows
    (SelectedRows), marked with the rows (see the module docstring). As paddle 2.6.2's sparse gradient kernel,
    it leaves no row out: the padding row gets its share too, and trains."""

    name = "embedding"
    amp = "fp32"

    def kernel(self, ids, weight, padding_idx=None, sparse=False):
        if ids.size and (ids.min() < 0 or ids.max() >= weight.shape[0]):
            raise IndexError(
                f"ids must be in [0, {weight.shape[0]}) (the number of embeddings), got values in "
                f"[{ids.min()}, {ids.max()}]"
            )
        out = weight[ids]
        if padding_idx is not None:
            out[ids == padding_idx] = 0
        return out

    def grad(self, node, g):
        ids, weight = node.inputs
        sparse = node.attrs.get("sparse", False)
        attrs = {"rows": weight.shape[0], "padding_idx": None if sparse else node.attrs["padding_idx"]}
        grad = apply(EmbeddingGrad, (g, ids), attrs)
        if sparse:
            grad._selected_rows = apply(EmbeddingRows, (ids,), {"rows": weight.shape[0]})
        return None, grad

    def infer_meta(self, ids: Meta, weight: Meta, padding_idx=None, sparse=False) -> Meta:
        return Meta(tuple(ids.shape) + (weight.shape[1],), weight.dtype)


@register
class EmbeddingGrad(OpDef):
    """The gradient of the table: each looked-up row's gradient added into its row (repeats add up); the
    padding row gets none."""

    name = "embedding_grad"
    saves_inputs = True

    def kernel(self, g, ids, rows, padding_idx=None):
        out = np.zeros((rows, g.shape[-1]), dtype=g.dtype)
        np.add.at(out, ids, g)
        if padding_idx is not None:
            out[padding_idx] = 0
        return out

    def grad(self, node, gg):
        return apply(Embedding, (node.inputs[1], gg), {"padding_idx": node.attrs["padding_idx"]}), None

    def infer_meta(self, g: Meta, ids: Meta, rows, padding_idx=None) -> Meta:
        return Meta((rows, g.shape[-1]), g.dtype)


@register
class EmbeddingRows(OpDef):
    """The rows of the table that `ids` look up, as a bool mask over its `rows` rows: the rows a sparse
    gradient (Paddle's SelectedRows) holds."""

    name = "embedding_rows"
    differentiable = False
    saves_inputs = False

    def kernel(self, ids, rows):
        out = np.zeros(rows, dtype=bool)
        out[ids.reshape(-1)] = True
        return out

    def infer_meta(self, ids: Meta, rows) -> Meta:
        return Meta((rows,), dtypes.bool_)


def embedding_rows(ids: Tensor, rows: int) -> Tensor:
    return apply(EmbeddingRows, (ids,), {"rows": rows})


def embedding(ids: Tensor, weight: Tensor, padding_idx=None, sparse: bool = False) -> Tensor:
    attrs = {"padding_idx": padding_idx, "sparse": True} if sparse else {"padding_idx": padding_idx}
    return apply(Embedding, (ids, weight), attrs)


@register
class OneHot(OpDef):
    """float32 vectors with a 1 at each label's position: [..] int -> [.., num_classes]."""

    name = "one_hot"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, num_classes):
        if x.size and (x.min() < 0 or x.max() >= num_classes):
            raise ValueError(f"labels must be in [0, {num_classes}) (num_classes), got values in "
                             f"[{x.min()}, {x.max()}]")  # fmt: skip
        return np.eye(num_classes, dtype=np.float32)[x]

    def infer_meta(self, x: Meta, num_classes) -> Meta:
        return Meta(tuple(x.shape) + (num_classes,), dtypes.float32)


def one_hot(x: Tensor, num_classes: int) -> Tensor:
    return apply(OneHot, (x,), {"num_classes": num_classes})
