"""Neighbor sampling on a graph in CSC form (paddle.geometric.sample_neighbors, weighted_sample_neighbors).

In CSC form, the in-neighbors of node n are row[colptr[n]:colptr[n + 1]]. Sampling keeps up to sample_size of them
per input node, without replacement, drawn from minipaddle's random generator (paddle.seed makes it repeatable).
"""

from __future__ import annotations

import numbers

from minipaddle import ops
from minipaddle.tensor.checks import check_bool, check_tensor

__all__ = ["sample_neighbors", "weighted_sample_neighbors"]


def _check_graph(row, colptr, input_nodes, sample_size, eids, return_eids, fn: str):
    """Checks shared by both samplers; returns the eids to pass to the op (None unless they are returned)."""
    check_tensor(row, fn, "row")
    if row.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{fn}: row must be int32 or int64, got {row.dtype.name}")
    if return_eids and eids is None:
        raise ValueError(f"{fn}: `eids` should not be None if `return_eids` is True")
    for arg, t in (("colptr", colptr), ("input_nodes", input_nodes)) + ((("eids", eids),) if return_eids else ()):
        check_tensor(t, fn, arg)
        if t.dtype != row.dtype:
            raise TypeError(f"{fn}: {arg} must have row's dtype ({row.dtype.name}), got {t.dtype.name}")
    for arg, t in (("row", row), ("colptr", colptr)):
        if len(t.shape) not in (1, 2) or (len(t.shape) == 2 and t.shape[1] != 1):
            raise ValueError(f"{fn}: {arg} must have shape [n] or [n, 1], got {list(t.shape)}")
    if not isinstance(sample_size, numbers.Integral) or isinstance(sample_size, bool):
        raise TypeError(f"{fn}: sample_size must be an int, got {type(sample_size).__name__}")
    return eids if return_eids else None


def _result(out: tuple, return_eids: bool) -> tuple:
    neighbors, count, out_eids = out
    return (neighbors, count, out_eids) if return_eids else (neighbors, count)


def sample_neighbors(row, colptr, input_nodes, sample_size=-1, eids=None, return_eids=False, perm_buffer=None,
                     name=None) -> tuple:  # fmt: skip
    """
    Sample up to sample_size neighbors of each input node, uniformly without replacement.

    Args:
        row (Tensor): int32 or int64, [num_edges] or [num_edges, 1]: the CSC graph's source nodes.
        colptr (Tensor): row's dtype, [num_nodes + 1] or [num_nodes + 1, 1]: where each node's edges start.
        input_nodes (Tensor): row's dtype: the nodes to sample neighbors for.
        sample_size (int): how many neighbors to keep per node; -1 (default) keeps them all.
        eids (Tensor, optional): row's dtype, one id per edge; needed when return_eids is True.
        return_eids (bool): also return the ids of the sampled edges.
        perm_buffer (Tensor, optional): only used by Paddle's GPU kernel; ignored.
        name (str, optional): unused, kept for Paddle compatibility.

    Returns:
        out_neighbors (Tensor): the sampled neighbors, node after node, of row's dtype;
        out_count (Tensor): int32, how many were sampled for each input node;
        out_eids (Tensor): the sampled edges' ids, only when return_eids is True.
        A node with at most sample_size neighbors keeps all of them in CSC order; the others' picks come in
        random order.

    Examples:
        >>> import minipaddle as paddle
        >>> row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> neighbors, count = paddle.geometric.sample_neighbors(row, colptr, paddle.to_tensor([0, 8, 1, 2]), 2)
        >>> count.numpy()
        array([2, 2, 2, 1], dtype=int32)
    """
    fn = "sample_neighbors"
    return_eids = check_bool(return_eids, fn, "return_eids")
    eids = _check_graph(row, colptr, input_nodes, sample_size, eids, return_eids, fn)
    return _result(ops.sample_neighbors(row, colptr, input_nodes, eids, int(sample_size)), return_eids)


def weighted_sample_neighbors(row, colptr, edge_weight, input_nodes, sample_size=-1, eids=None, return_eids=False,
                              name=None) -> tuple:  # fmt: skip
    """
    Sample up to sample_size neighbors of each input node without replacement, an edge's chance following its weight.

    Args:
        row, colptr, input_nodes, sample_size, eids, return_eids, name: as in `sample_neighbors`.
        edge_weight (Tensor): float32 (float64 also accepted), one non-negative weight per edge in CSC order,
            [num_edges] or [num_edges, 1]. An edge of weight 0 is picked only when fewer than sample_size edges
            have a positive weight.

    Returns:
        (out_neighbors, out_count) or (out_neighbors, out_count, out_eids), as in `sample_neighbors`.

    Examples:
        >>> row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> weight = paddle.to_tensor([0.1, 0.5, 0.2, 0.5, 0.9, 1.9, 2.0, 2.1, 0.01, 0.9, 0.12, 0.59, 0.67])
        >>> neighbors, count = paddle.geometric.weighted_sample_neighbors(row, colptr, weight,
        ...                                                               paddle.to_tensor([0, 8, 1, 2]), 2)
    """
    fn = "weighted_sample_neighbors"
    return_eids = check_bool(return_eids, fn, "return_eids")
    eids = _check_graph(row, colptr, input_nodes, sample_size, eids, return_eids, fn)
    check_tensor(edge_weight, fn, "edge_weight")
    if edge_weight.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{fn}: edge_weight must be float32, got {edge_weight.dtype.name}")
    if edge_weight.size not in (row.size, -1) or len(edge_weight.shape) not in (1, 2):
        raise ValueError(f"{fn}: edge_weight must hold one weight per edge ({row.size}), got shape "
                         f"{list(edge_weight.shape)}")  # fmt: skip
    out = ops.weighted_sample_neighbors(row, colptr, edge_weight, input_nodes, eids, int(sample_size))
    return _result(out, return_eids)
