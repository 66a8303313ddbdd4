"""Reindexing a sampled subgraph (paddle.geometric.reindex_graph, reindex_heter_graph): number its nodes from 0."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_tensor

__all__ = ["reindex_graph", "reindex_heter_graph"]


def _check(x, neighbors, count, fn: str) -> None:
    check_tensor(x, fn, "x")
    if x.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{fn}: x must be int32 or int64, got {x.dtype.name}")
    check_tensor(neighbors, fn, "neighbors")
    if neighbors.dtype != x.dtype:
        raise TypeError(f"{fn}: neighbors must have x's dtype ({x.dtype.name}), got {neighbors.dtype.name}")
    check_tensor(count, fn, "count")
    if count.dtype.name != "int32":
        raise TypeError(f"{fn}: count must be int32, got {count.dtype.name}")


def reindex_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None) -> tuple:
    """
    Number the nodes of a sampled subgraph from 0 and return its edges in those numbers.

    The nodes of x come first (x should hold distinct nodes), then every neighbor not in x, in order of first
    appearance. Node x[i] has the neighbors neighbors[sum(count[:i]):sum(count[:i + 1])].

    Args:
        x (Tensor): int32 or int64, the input nodes.
        neighbors (Tensor): x's dtype, their sampled neighbors, node after node (as sample_neighbors returns them).
        count (Tensor): int32, the number of neighbors of each node of x.
        value_buffer, index_buffer (Tensor, optional): only used by Paddle's GPU kernel; ignored.
        name (str, optional): unused, kept for Paddle compatibility.

    Returns:
        reindex_src (Tensor): each neighbor's new number (the edges' sources);
        reindex_dst (Tensor): the new number of the node each neighbor belongs to (the edges' destinations);
        out_nodes (Tensor): the original id of each new number.

    Examples:
        >>> import minipaddle as paddle
        >>> x = paddle.to_tensor([0, 1, 2])
        >>> neighbors = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7])
        >>> count = paddle.to_tensor([2, 3, 2], dtype="int32")
        >>> src, dst, nodes = paddle.geometric.reindex_graph(x, neighbors, count)
        >>> src.numpy(), dst.numpy(), nodes.numpy()
        (array([3, 4, 0, 5, 6, 7, 6]), array([0, 0, 1, 1, 1, 2, 2]), array([0, 1, 2, 8, 9, 4, 7, 6]))
    """
    _check(x, neighbors, count, "reindex_graph")
    return ops.reindex_graph(x, neighbors, count)


def reindex_heter_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None) -> tuple:
    """
    reindex_graph over several edge types at once: neighbors and count are lists with one Tensor per edge type.

    The new numbers are shared by all types (x first, then new neighbors in order of first appearance over the
    types in turn); the edges of each type follow the previous type's.

    Args:
        x (Tensor): int32 or int64, the input nodes.
        neighbors (list|tuple of Tensor): per edge type, the neighbors of x's nodes, node after node.
        count (list|tuple of Tensor): per edge type, int32 neighbor counts, one per node of x.
        value_buffer, index_buffer, name: ignored, as in `reindex_graph`.

    Returns:
        (reindex_src, reindex_dst, out_nodes), as in `reindex_graph`.

    Examples:
        >>> x = paddle.to_tensor([0, 1, 2])
        >>> neighbors = [paddle.to_tensor([8, 9, 0, 4, 7, 6, 7]), paddle.to_tensor([0, 2, 3, 5, 1])]
        >>> count = [paddle.to_tensor([2, 3, 2], dtype="int32"), paddle.to_tensor([1, 3, 1], dtype="int32")]
        >>> src, dst, nodes = paddle.geometric.reindex_heter_graph(x, neighbors, count)
        >>> nodes.numpy()
        array([0, 1, 2, 8, 9, 4, 7, 6, 3, 5])
    """
    fn = "reindex_heter_graph"
    neighbors = [neighbors] if isinstance(neighbors, Tensor) else neighbors
    count = [count] if isinstance(count, Tensor) else count
    for arg, v in (("neighbors", neighbors), ("count", count)):
        if not isinstance(v, (list, tuple)) or not v:
            raise TypeError(f"{fn}: {arg} must be a non-empty list or tuple of Tensors, got {type(v).__name__}")
    if len(neighbors) != len(count):
        raise ValueError(f"{fn}: neighbors and count must have one Tensor per edge type each, got {len(neighbors)} "
                         f"and {len(count)}")  # fmt: skip
    for i, (nb, c) in enumerate(zip(neighbors, count)):
        _check(x, nb, c, f"{fn} (edge type {i})")
    return ops.reindex_graph(x, ops.concat(list(neighbors), 0), ops.concat(list(count), 0))
