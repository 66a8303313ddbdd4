"""paddle.incubate: APIs Paddle kept here before they settled elsewhere. The graph ones now live in
paddle.geometric, and these are their incubate names and signatures (minipaddle/incubate/graph.py)."""

from minipaddle.incubate.graph import (
    graph_reindex,
    graph_sample_neighbors,
    graph_send_recv,
    segment_max,
    segment_mean,
    segment_min,
    segment_sum,
)

__all__ = [
    "graph_send_recv",
    "graph_sample_neighbors",
    "graph_reindex",
    "segment_sum",
    "segment_mean",
    "segment_max",
    "segment_min",
]
