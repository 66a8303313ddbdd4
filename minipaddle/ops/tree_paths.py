"""hsigmoid_path: the path of each label through hsigmoid_loss's binary tree, as paddle's hierarchical_sigmoid
kernel finds it: the node ids, the 0/1 decision taken at each, and which positions of the path exist.

The default tree (paddle's SimpleCode) is a complete binary tree in heap order with class c at c + num_classes: the
path of c visits the ancestors (code >> (j + 1)) - 1 and goes left or right by bit j of code = c + num_classes. Every
path is read over the same length, bit_length(num_classes - 1), the depth of the tree; shorter paths are padded
(mask 0). A custom tree gives its path_table (node ids, -1 pads) and path_code (decisions) directly.

The kernel reads the label values, so static mode knows only the shapes ([N, depth]) until the Program runs. The
outputs are int64 (0/1 for the decisions and the mask): they are data, with no gradient.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["hsigmoid_path"]


def tree_depth(num_classes: int) -> int:
    """The path length of the default tree of num_classes leaves (paddle's FindLastSet(num_classes - 1))."""
    return int(num_classes - 1).bit_length()


@register
class HsigmoidPath(OpDef):
    name = "hsigmoid_path"
    differentiable = False
    saves_inputs = False

    def kernel(self, label, path_table, path_code, num_classes):  # table and code may be None: no defaults, so
        if path_table is not None:  # static mode sees them as input slots
            mask = path_table >= 0
            return np.where(mask, path_table, 0).astype(np.int64), path_code.astype(np.int64), mask.astype(np.int64)
        code = label.reshape(-1).astype(np.int64) + num_classes
        if code.size and (code.min() < num_classes or code.max() >= 2 * num_classes):
            bad = label.reshape(-1)[(code < num_classes) | (code >= 2 * num_classes)][0]
            raise ValueError(f"hsigmoid_loss: label {int(bad)} is out of range for {num_classes} classes")
        bits = np.arange(tree_depth(num_classes))
        length = np.floor(np.log2(np.maximum(code, 1))).astype(np.int64)
        mask = bits[None, :] < length[:, None]
        nodes = np.where(mask, (code[:, None] >> (bits[None, :] + 1)) - 1, 0)
        decisions = np.where(mask, (code[:, None] >> bits[None, :]) & 1, 0)
        return nodes.astype(np.int64), decisions.astype(np.int64), mask.astype(np.int64)

    def infer_meta(self, label: Meta, path_table: Meta, path_code: Meta, num_classes) -> tuple:
        n = label.shape[0]
        depth = path_table.shape[1] if path_table is not None else tree_depth(num_classes)
        out = Meta((n, depth), dtypes.int64)
        return out, out, out


def hsigmoid_path(label: Tensor, path_table: Tensor | None, path_code: Tensor | None, num_classes: int) -> tuple:
    """(node ids, decisions, mask), each int64 [N, depth]."""
    return apply(HsigmoidPath, (label, path_table, path_code), {"num_classes": int(num_classes)})
