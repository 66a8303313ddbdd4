"""paddle.incubate's graph functions, under their older names and signatures, computed by paddle.geometric."""

from __future__ import annotations

from minipaddle import geometric
from minipaddle.geometric import segment_max, segment_mean, segment_min, segment_sum

__all__ = [
    "graph_send_recv",
    "graph_sample_neighbors",
    "graph_reindex",
    "segment_sum",
    "segment_mean",
    "segment_max",
    "segment_min",
]


def graph_send_recv(x, src_index, dst_index, pool_type: str = "sum", out_size=None, name=None):
    """Send x's rows along the edges src_index[e] -> dst_index[e] and pool what arrives at each node
    (paddle.geometric.send_u_recv with reduce_op=pool_type).

    Args:
        x (Tensor): node features, float32/float64/int32/int64.
        src_index, dst_index (Tensor): int32/int64, one entry per edge.
        pool_type (str): 'sum', 'mean', 'max' or 'min'.
        out_size (int|Tensor, optional): rows of the output; None or <= 0 keeps x's row count.

    Returns:
        Tensor: the pooled features, dtype of x.

    Example:
        >>> x = paddle.to_tensor([[0.0, 2.0, 3.0], [1.0, 4.0, 5.0], [2.0, 6.0, 7.0]])
        >>> paddle.incubate.graph_send_recv(x, paddle.to_tensor([0, 1, 2, 0]), paddle.to_tensor([1, 2, 1, 0]))
    """
    if pool_type not in ("sum", "mean", "max", "min"):
        raise ValueError(f"graph_send_recv: pool_type should be 'sum', 'mean', 'max' or 'min', got {pool_type!r}")
    return geometric.send_u_recv(x, src_index, dst_index, reduce_op=pool_type, out_size=out_size)


def graph_reindex(
    x, neighbors, count, value_buffer=None, index_buffer=None, flag_buffer_hashtable: bool = False, name=None
):
    """Renumber a sampled subgraph's nodes 0, 1, ... (paddle.geometric.reindex_graph). The buffers only speed up
    Paddle's GPU kernel; flag_buffer_hashtable=True requires both, as in Paddle.

    Returns:
        (reindex_src, reindex_dst, out_nodes): Tensors, as reindex_graph gives them.
    """
    if flag_buffer_hashtable and (value_buffer is None or index_buffer is None):
        raise ValueError("graph_reindex: value_buffer and index_buffer should not be None if flag_buffer_hashtable")
    return geometric.reindex_graph(x, neighbors, count, value_buffer, index_buffer)


def graph_sample_neighbors(
    row,
    colptr,
    input_nodes,
    eids=None,
    perm_buffer=None,
    sample_size: int = -1,
    return_eids: bool = False,
    flag_perm_buffer: bool = False,
    name=None,
):
    """Sample up to sample_size neighbours of each input node from a CSC graph (paddle.geometric.sample_neighbors).

    Returns:
        (out_neighbors, out_count), and out_eids too when return_eids.
    """
    if return_eids and eids is None:
        raise ValueError("graph_sample_neighbors: eids should not be None if return_eids is True")
    if flag_perm_buffer and perm_buffer is None:
        raise ValueError("graph_sample_neighbors: perm_buffer should not be None if flag_perm_buffer is True")
    return geometric.sample_neighbors(
        row, colptr, input_nodes, sample_size=sample_size, eids=eids, return_eids=return_eids, perm_buffer=perm_buffer
    )
