"""paddle.incubate's graph_khop_sampler: k hops of neighbor sampling on a CSC graph, then one renumbering.

Each hop samples up to sample_sizes[i] in-neighbors of its frontier (with graph_ops' sampler, so paddle.seed makes
it repeatable); the next frontier is the hop's sampled nodes that were not in this frontier, sorted. Then every
node is renumbered as Paddle 2.6's CPU kernel does: the frontiers' nodes in order (a node in two frontiers takes
the number of its last place), then the new source nodes in order of first appearance. No gradient.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.ops.graph_ops import _sample

__all__ = ["graph_khop_sampler"]


def _renumber(frontiers: np.ndarray, sources: np.ndarray):
    """(ids of the frontiers' nodes, ids of the sources, every numbered node in order); last place wins for
    repeated frontier nodes, new sources are numbered after them by first appearance."""
    keys, last = np.unique(frontiers[::-1], return_index=True)  # last occurrence of each frontier node
    key_ids = frontiers.size - 1 - last
    known = np.isin(sources, keys)
    new, first = np.unique(sources[~known], return_index=True)
    new = new[np.argsort(first)]  # new sources by first appearance
    all_keys = np.concatenate([keys, new])
    all_ids = np.concatenate([key_ids, frontiers.size + np.arange(new.size)])
    sort = np.argsort(all_keys)
    all_keys, all_ids = all_keys[sort], all_ids[sort]

    def ids_of(nodes):
        return all_ids[np.searchsorted(all_keys, nodes)]

    return ids_of, np.concatenate([frontiers, new])


@register
class GraphKhopSampler(OpDef):
    """Outputs: edge_src [E, 1], edge_dst [E, 1], sample_index, reindex_nodes, edge_eids (empty without eids)."""

    name = "graph_khop_sampler"
    differentiable = False
    saves_inputs = False
    random = True

    def kernel(self, row, colptr, nodes, eids, sample_sizes):
        nodes = nodes.reshape(-1)
        keep = np.concatenate([[True], nodes[1:] != nodes[:-1]]) if nodes.size else nodes.astype(bool)
        frontier = nodes[keep]  # Paddle drops only repeats next to each other (std::unique)
        frontiers, sources, counts, out_eids = [], [], [], []
        for hop, size in enumerate(sample_sizes):
            if frontier.size == 0:  # nothing left to sample from
                break
            picked, count, picked_eids = _sample(row, colptr, frontier, eids, size, lambda e: STATE.rng.random(e.size))
            if hop == 0 and picked.size == 0:
                raise ValueError("graph_khop_sampler: the input nodes should have at least one neighbor, but none "
                                 "of them has any")  # fmt: skip
            frontiers.append(frontier)
            sources.append(picked)
            counts.append(count)
            out_eids.append(picked_eids)
            frontier = np.setdiff1d(np.unique(picked), frontier)
        frontiers, sources = np.concatenate(frontiers), np.concatenate(sources)
        ids_of, sample_index = _renumber(frontiers, sources)
        dst = np.repeat(ids_of(frontiers), np.concatenate(counts))
        dtype = row.dtype
        return (
            ids_of(sources).astype(dtype).reshape(-1, 1),
            dst.astype(dtype).reshape(-1, 1),
            sample_index.astype(dtype),
            ids_of(nodes).astype(dtype),
            np.concatenate(out_eids).astype(dtype),
        )

    def infer_meta(self, row: Meta, colptr: Meta, nodes: Meta, eids, sample_sizes):
        edges = Meta((-1, 1), row.dtype)
        return edges, edges, Meta((-1,), row.dtype), Meta(nodes.shape[:1], row.dtype), Meta((-1,), row.dtype)


def graph_khop_sampler(row, colptr, nodes, eids, sample_sizes: tuple) -> tuple:
    return apply(GraphKhopSampler, (row, colptr, nodes, eids), {"sample_sizes": tuple(sample_sizes)})
