"""paddle.incubate: APIs Paddle kept here before they settled elsewhere. The graph ones now live in
paddle.geometric, and these are their incubate names and signatures (minipaddle/incubate/graph.py); the others are
graph_khop_sampler (graph_khop.py), the LookAhead and ModelAverage optimizers (optimizer.py) and identity_loss and
the fused masked softmaxes (nn_functional.py)."""

from minipaddle.incubate.graph import (
    graph_reindex,
    graph_sample_neighbors,
    graph_send_recv,
    segment_max,
    segment_mean,
    segment_min,
    segment_sum,
)
from minipaddle.incubate.graph_khop import graph_khop_sampler
from minipaddle.incubate.nn_functional import identity_loss, softmax_mask_fuse, softmax_mask_fuse_upper_triangle
from minipaddle.incubate.optimizer import LookAhead, ModelAverage

__all__ = [
    "LookAhead",
    "ModelAverage",
    "identity_loss",
    "softmax_mask_fuse",
    "softmax_mask_fuse_upper_triangle",
    "graph_khop_sampler",
    "graph_send_recv",
    "graph_sample_neighbors",
    "graph_reindex",
    "segment_sum",
    "segment_mean",
    "segment_max",
    "segment_min",
]
