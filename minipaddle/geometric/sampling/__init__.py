"""paddle.geometric.sampling: neighbor sampling, defined in neighbors.py as in paddle 2.6."""

from minipaddle.geometric.sampling.neighbors import __all__, sample_neighbors, weighted_sample_neighbors  # noqa: F401
