"""paddle.incubate.graph_khop_sampler: multi-hop neighbor sampling with the subgraph renumbered in one go."""

from __future__ import annotations

import numbers

from minipaddle import ops
from minipaddle.tensor.checks import check_bool, check_tensor

__all__ = ["graph_khop_sampler"]


def graph_khop_sampler(row, colptr, input_nodes, sample_sizes, sorted_eids=None, return_eids=False, name=None):
    """
    Sample len(sample_sizes) hops of in-neighbors from a CSC graph and renumber the sampled subgraph.

    Hop i samples up to sample_sizes[i] neighbors (uniformly, without replacement; all of them when a node has no
    more) of each node of its frontier: the input nodes for the first hop, then the nodes the previous hop sampled
    that were not in its own frontier, in increasing order. Sampling stops early when a frontier is empty.

    Args:
        row (Tensor): int32 or int64, [num_edges] or [num_edges, 1]: the CSC graph's source nodes.
        colptr (Tensor): row's dtype, [num_nodes + 1] or [num_nodes + 1, 1]: where each node's edges start.
        input_nodes (Tensor): row's dtype: the nodes to start from.
        sample_sizes (list|tuple): one non-negative int per hop.
        sorted_eids (Tensor, optional): row's dtype, one id per edge in CSC order; needed when return_eids.
        return_eids (bool, optional): also return the sampled edges' ids. Default False.
        name (str, optional): unused, kept for Paddle compatibility.

    Returns:
        edge_src (Tensor): [num_sampled_edges, 1], the new number of each sampled edge's source;
        edge_dst (Tensor): [num_sampled_edges, 1], the new number of its destination;
        sample_index (Tensor): the original id of every new number (frontier nodes first, hop after hop,
            then new source nodes in order of appearance);
        reindex_nodes (Tensor): the new number of each input node;
        edge_eids (Tensor): the sampled edges' ids, only when return_eids is True.
        All of row's dtype. A node in two frontiers takes the number of its later place, as in Paddle 2.6.

    Examples:
        >>> row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> nodes = paddle.to_tensor([0, 8, 1, 2])
        >>> src, dst, sample_index, reindex = paddle.incubate.graph_khop_sampler(row, colptr, nodes, [2, 2])
        >>> sample_index.numpy()
        array([0, 8, 1, 2, 3, 7, 9, 4])
    """
    fn = "graph_khop_sampler"
    return_eids = check_bool(return_eids, fn, "return_eids")
    if return_eids and sorted_eids is None:
        raise ValueError(f"{fn}: `sorted_eids` should not be None if return_eids is True")
    check_tensor(row, fn, "row")
    if row.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{fn}: row must be int32 or int64, got {row.dtype.name}")
    named = (("colptr", colptr), ("input_nodes", input_nodes)) + (
        (("sorted_eids", sorted_eids),) if return_eids else ()
    )
    for arg, t in named:
        check_tensor(t, fn, arg)
        if t.dtype != row.dtype:
            raise TypeError(f"{fn}: {arg} must have row's dtype ({row.dtype.name}), got {t.dtype.name}")
    for arg, t in (("row", row), ("colptr", colptr), ("input_nodes", input_nodes)):
        if t.size == 0:
            raise ValueError(f"{fn}: {arg} must not be empty, got shape {list(t.shape)}")
    if not isinstance(sample_sizes, (list, tuple)) or not sample_sizes:
        raise TypeError(f"{fn}: sample_sizes must be a non-empty list or tuple of ints, got {sample_sizes!r}")
    for size in sample_sizes:
        if not isinstance(size, numbers.Integral) or isinstance(size, bool) or size < 0:
            raise ValueError(f"{fn}: every sample size must be a non-negative int, got {list(sample_sizes)}")
    eids = sorted_eids if return_eids else None
    out = ops.graph_khop_sampler(row, colptr, input_nodes, eids, tuple(int(s) for s in sample_sizes))
    return out if return_eids else out[:4]
