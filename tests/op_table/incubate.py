"""Op-table section: paddle.incubate.graph_khop_sampler (its op, graph_khop_sampler).

Sample sizes at least every node's degree keep all neighbors, so the outputs are deterministic. The reference walks
the hops with Python lists and dicts, one node at a time, as Paddle 2.6's CPU kernel does.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample

ROW = np.array([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
COLPTR = np.array([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])


def khop_ref(row, colptr, nodes, *sorted_eids, sample_sizes, return_eids=False):
    frontier = [n for i, n in enumerate(nodes.tolist()) if i == 0 or n != nodes[i - 1]]
    dst_nodes, src_nodes, counts, eids = [], [], [], []
    for _ in sample_sizes:
        if not frontier:
            break
        picked = []
        for n in frontier:
            edges = list(range(colptr[n], colptr[n + 1]))
            picked += [int(row[e]) for e in edges]
            eids += edges
            counts.append(len(edges))
        dst_nodes += frontier
        src_nodes += picked
        frontier = sorted(set(picked) - set(frontier))
    ids = {}
    for i, n in enumerate(dst_nodes):
        ids[n] = i  # a node in two frontiers keeps its later number
    order = list(dst_nodes)
    for n in src_nodes:
        if n not in ids:
            ids[n] = len(order)
            order.append(n)
    dst = [ids[n] for n, c in zip(dst_nodes, counts) for _ in range(c)]
    out = [[ids[n] for n in src_nodes], dst, order, [ids[n] for n in nodes.tolist()]]
    if return_eids:
        out.append(eids)
    return np.concatenate([np.asarray(o, row.dtype) for o in out])


def khop(row, colptr, nodes, *sorted_eids, **kwargs):
    """All outputs as one Tensor; sorted_eids comes positionally so that the table makes it a Tensor."""
    out = paddle.incubate.graph_khop_sampler(row, colptr, nodes, sorted_eids=(sorted_eids or [None])[0], **kwargs)
    return paddle.concat([t.reshape([-1]) for t in out])


def khop_samples(rng):
    return [
        Sample((ROW, COLPTR, np.array([0, 8, 1, 2])), {"sample_sizes": [2, 2]}, "two hops"),
        Sample((ROW, COLPTR, np.array([0])), {"sample_sizes": [5] * 6}, "a node in two frontiers"),
        Sample(
            (ROW.astype("int32"), COLPTR.astype("int32"), np.array([6, 5], "int32"), np.arange(13, dtype="int32")),
            {"sample_sizes": [5, 5], "return_eids": True},
            "int32 with eids",
        ),  # fmt: skip
        Sample((ROW, COLPTR, np.array([8])), {"sample_sizes": [5, 5, 5]}, "frontier runs out"),
    ]


ENTRIES = [OpInfo("graph_khop_sampler", khop, khop_ref, khop_samples, grad=False, dtypes=("int64",))]
