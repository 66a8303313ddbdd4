"""paddle.geometric: message passing, segment reductions, neighbor sampling and reindexing for graph learning.

A graph is a list of edges: edge e runs from node src_index[e] to node dst_index[e]. One round of message passing
sends each node's features along its edges and folds what arrives at each node:

    messages = x[src_index]                         # one row per edge (ops.gather)
    out[n]   = sum/mean/max/min of messages[e] for the edges e with dst_index[e] == n    (ops.graph_reduce)

Example: message passing on a 4-node graph (a ring 0 -> 1 -> 2 -> 3 -> 0, plus 0 -> 2):

    >>> import minipaddle as paddle
    >>> x = paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]], stop_gradient=False)   # one feature per node
    >>> src = paddle.to_tensor([0, 1, 2, 3, 0])
    >>> dst = paddle.to_tensor([1, 2, 3, 0, 2])
    >>> paddle.geometric.send_u_recv(x, src, dst, reduce_op="sum").numpy().ravel()   # node 2 hears 0 and 1
    array([4., 1., 3., 3.], dtype=float32)
    >>> h = paddle.geometric.send_u_recv(x, src, dst, reduce_op="max")
    >>> h.numpy().ravel()
    array([4., 1., 2., 3.], dtype=float32)
    >>> h.sum().backward()          # the gradient flows back along the edges to the winning senders
    >>> x.grad.numpy().ravel()      # node 0 wins at node 1 only (node 1 beats it at node 2)
    array([1., 1., 1., 1.], dtype=float32)

Edge features join the messages with send_ue_recv (x[src] add/sub/mul/div y[e]); send_uv computes per-edge values
from both ends without reducing. The segment_* functions reduce rows by sorted segment ids, and sample_neighbors,
weighted_sample_neighbors and reindex_graph build the small subgraphs that minibatch training runs on.
"""

from minipaddle.geometric.math import *  # noqa: F403
from minipaddle.geometric.math import __all__ as _math_all
from minipaddle.geometric.message_passing import *  # noqa: F403
from minipaddle.geometric.message_passing import __all__ as _message_passing_all
from minipaddle.geometric.reindex import *  # noqa: F403
from minipaddle.geometric.reindex import __all__ as _reindex_all
from minipaddle.geometric.sampling import *  # noqa: F403
from minipaddle.geometric.sampling import __all__ as _sampling_all

__all__ = _message_passing_all + _math_all + _reindex_all + _sampling_all
