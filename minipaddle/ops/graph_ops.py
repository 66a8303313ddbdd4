"""Graph ops (paddle.geometric): reduce edge messages into nodes, sample neighbors, reindex a sampled subgraph.

Message passing is built from two steps. `gather` (ops/indexing.py) reads each edge's source row; `graph_reduce`
(here) folds the rows of the edge messages into the rows of the output named by an index, with sum, mean, max or
min. Every paddle.geometric message-passing function is these two ops with an elementwise op between them, so one
grad rule here serves them all:

    sum   d msg[e] = g[index[e]]
    mean  d msg[e] = g[index[e]] / count[index[e]]
    max   d msg[e] = g[index[e]] where msg[e] equals the maximum of its row, else 0 (every tied element gets
    min         the whole gradient, as in Paddle 2.6)

An output row that no message reaches is 0, for every reduction (as Paddle). The sampling and reindexing ops have
no gradient: their outputs are node ids.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.ops.low_precision import finfo, is_float

__all__ = ["graph_reduce", "sample_neighbors", "weighted_sample_neighbors", "reindex_graph"]


# ---- reduce messages into rows ----------------------------------------------------------------------------------


def _check_index(index: np.ndarray, rows: int | None, sorted_index: bool) -> int:
    """The number of output rows; IndexError for an index outside them, ValueError for unsorted segment ids."""
    if index.size and index.min() < 0:
        raise IndexError(f"every index must be >= 0, got {index.min()}")
    needed = int(index.max()) + 1 if index.size else 0
    if sorted_index and index.size > 1 and np.any(np.diff(index) < 0):
        first = int(np.argmax(np.diff(index) < 0))
        raise ValueError(f"the segment ids should be sorted, but got segment_ids[{first}]:{index[first]} > "
                         f"segment_ids[{first + 1}]:{index[first + 1]}")  # fmt: skip
    if rows is None:
        return needed
    if needed > rows:
        raise IndexError(f"the output has {rows} rows, but an index names row {needed - 1}; out_size must be at "
                         f"least max(index) + 1 = {needed}")  # fmt: skip
    return rows


def _mean(total: np.ndarray, count: np.ndarray) -> np.ndarray:
    """total / count per row (count 0 gives 0); integers divide truncating toward zero, as Paddle's C++ does."""
    count = np.maximum(count, 1).reshape((-1,) + (1,) * (total.ndim - 1))
    if total.dtype.kind in "iu":
        return (np.sign(total) * (np.abs(total) // count)).astype(total.dtype)
    return (total / count).astype(total.dtype)


@register
class GraphReduce(OpDef):
    """out[r] = reduce(messages[e] for every e with index[e] == r), for r in range(num_rows).

    num_rows None means max(index) + 1 (the segment functions); sorted_index asks that index be sorted (Paddle's
    segment_* refuse unsorted ids).
    """

    name = "graph_reduce"
    saves_outputs = True  # max/min compare each message with its row's result

    def kernel(self, messages, index, reduce, num_rows=None, sorted_index=False):
        rows = _check_index(index, num_rows, sorted_index)
        shape = (rows, *messages.shape[1:])
        if reduce in ("sum", "mean"):
            out = np.zeros(shape, messages.dtype)
            np.add.at(out, index, messages)
            return _mean(out, np.bincount(index, minlength=rows)) if reduce == "mean" else out
        info = finfo if is_float(messages.dtype) else np.iinfo
        start = info(messages.dtype).min if reduce == "max" else info(messages.dtype).max
        out = np.full(shape, start, messages.dtype)
        (np.maximum if reduce == "max" else np.minimum).at(out, index, messages)
        out[np.bincount(index, minlength=rows) == 0] = 0  # a row no message reached is 0
        return out

    def grad(self, node, g):
        messages, index = node.inputs
        reduce = node.attrs["reduce"]
        g_edge = ops.gather(g, index)  # each message's row of the output gradient
        if reduce == "mean":
            ones = ops.full_like(index, 1, g.dtype.np)
            count = graph_reduce(ones, index, "sum", node.attrs.get("num_rows"))
            count = ops.reshape(ops.gather(count, index), (-1,) + (1,) * (len(g.shape) - 1))
            return ops.divide(g_edge, count), None
        if reduce in ("max", "min"):
            hit = ops.equal(messages, ops.gather(node.output(0), index))
            return ops.multiply(g_edge, ops.cast(hit, g.dtype)), None
        return g_edge, None

    def infer_meta(self, messages: Meta, index: Meta, reduce, num_rows=None, sorted_index=False) -> Meta:
        return Meta((-1 if num_rows is None else num_rows, *messages.shape[1:]), messages.dtype)


def graph_reduce(messages: Tensor, index: Tensor, reduce: str, num_rows=None, sorted_index: bool = False) -> Tensor:
    attrs = {"reduce": reduce, "num_rows": num_rows, "sorted_index": sorted_index}
    return apply(GraphReduce, (messages, index), attrs)


# ---- neighbor sampling -----------------------------------------------------------------------------------------


def _sample(row, colptr, nodes, eids, sample_size, keys):
    """Pick up to sample_size in-edges of each input node of a CSC graph: the ones with the smallest `keys`.

    keys(n) draws one random key per candidate edge. Nodes with no more than sample_size neighbors keep all of them
    in CSC order; the others keep their picks in the random order of their keys (as Paddle's reservoir does).
    Returns (neighbors, int32 counts, eids or an empty array).
    """
    row, colptr, nodes = row.reshape(-1), colptr.reshape(-1), nodes.reshape(-1)
    if nodes.size and (nodes.min() < 0 or nodes.max() >= colptr.size - 1):
        raise IndexError(f"input_nodes must be in [0, {colptr.size - 1}) (the graph's nodes), got "
                         f"[{nodes.min()}, {nodes.max()}]")  # fmt: skip
    begin, degree = colptr[nodes], colptr[nodes + 1] - colptr[nodes]
    take = degree if sample_size < 0 else np.minimum(degree, sample_size)
    # Every candidate edge of every input node, laid out node after node.
    owner = np.repeat(np.arange(nodes.size), degree)
    start = np.cumsum(degree) - degree
    edge = begin[owner] + np.arange(owner.size) - start[owner]
    picked = take[owner] == degree[owner]  # the nodes that keep every neighbor, in CSC order
    candidates = np.flatnonzero(~picked)
    if candidates.size:  # the others: sort each node's candidates by key, keep the first `take`
        order = candidates[np.lexsort((keys(edge[candidates]), owner[candidates]))]
        rank = np.arange(order.size) - np.searchsorted(owner[order], owner[order])
        kept = order[rank < take[owner[order]]]
        # Place each node's picks where its block starts, in key order.
        chosen = np.concatenate([np.flatnonzero(picked), kept])
        chosen = chosen[np.argsort(owner[chosen], kind="stable")]
    else:
        chosen = np.arange(owner.size)
    picks = edge[chosen]
    out_eids = eids.reshape(-1)[picks] if eids is not None else np.zeros(0, row.dtype)
    return row[picks], take.astype(np.int32), out_eids


@register
class SampleNeighbors(OpDef):
    """Uniform sampling without replacement of up to sample_size neighbors per input node (-1: all)."""

    name = "sample_neighbors"
    differentiable = False
    saves_inputs = False
    random = True

    def kernel(self, row, colptr, nodes, eids, sample_size):
        return _sample(row, colptr, nodes, eids, sample_size, lambda e: STATE.rng.random(e.size))

    def infer_meta(self, row: Meta, colptr: Meta, nodes: Meta, eids, sample_size):
        return Meta((-1,), row.dtype), Meta(nodes.shape[:1], dtypes.int32), Meta((-1,), row.dtype)


def sample_neighbors(row, colptr, nodes, eids, sample_size: int) -> tuple:
    return apply(SampleNeighbors, (row, colptr, nodes, eids), {"sample_size": sample_size})


@register
class WeightedSampleNeighbors(OpDef):
    """Sampling without replacement with probability following edge_weight (Efraimidis-Spirakis: the smallest keys
    -log(u) / w win, so weight 0 is picked last)."""

    name = "weighted_sample_neighbors"
    differentiable = False
    saves_inputs = False
    random = True

    def kernel(self, row, colptr, weight, nodes, eids, sample_size):
        w = weight.reshape(-1).astype(np.float64)

        def keys(e):
            with np.errstate(divide="ignore"):
                return -np.log(1.0 - STATE.rng.random(e.size)) / w[e]

        return _sample(row, colptr, nodes, eids, sample_size, keys)

    def infer_meta(self, row: Meta, colptr: Meta, weight: Meta, nodes: Meta, eids, sample_size):
        return Meta((-1,), row.dtype), Meta(nodes.shape[:1], dtypes.int32), Meta((-1,), row.dtype)


def weighted_sample_neighbors(row, colptr, weight, nodes, eids, sample_size: int) -> tuple:
    return apply(WeightedSampleNeighbors, (row, colptr, weight, nodes, eids), {"sample_size": sample_size})


# ---- reindexing -------------------------------------------------------------------------------------------------


@register
class ReindexGraph(OpDef):
    """Renumber the nodes of a sampled subgraph from 0: x first, then each new neighbor in order of appearance.

    count holds, for each edge type in turn, the number of neighbors of each node of x (len(count) is a multiple
    of len(x)). A node named twice in x takes the number of its last place, as in Paddle.
    """

    name = "reindex_graph"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, neighbors, count):
        x, neighbors, count = x.reshape(-1), neighbors.reshape(-1), count.reshape(-1)
        if (count.size % x.size if x.size else count.size) or count.sum() != neighbors.size:
            raise ValueError(f"count must hold one neighbor count per node of x ({x.size}) for each edge type, "
                             f"adding up to len(neighbors) = {neighbors.size}; got {count.size} counts adding up "
                             f"to {count.sum()}")  # fmt: skip
        every = np.concatenate([x, neighbors])
        values, first, inverse = np.unique(every, return_index=True, return_inverse=True)
        # A value found in x is numbered by its last place in x; a new one after x, by its first appearance.
        last_in_x = np.full(values.size, -1)
        last_in_x[inverse[: x.size]] = np.arange(x.size)  # (later places overwrite earlier ones)
        new = np.flatnonzero(last_in_x < 0)
        new = new[np.argsort(first[new])]
        number = last_in_x.copy()
        number[new] = x.size + np.arange(new.size)
        out_nodes = np.concatenate([x, values[new]]).astype(x.dtype)
        src = number[inverse[x.size :]].astype(x.dtype)
        dst = number[inverse[np.repeat(np.arange(count.size) % x.size, count)]].astype(x.dtype)
        return src, dst, out_nodes

    def infer_meta(self, x: Meta, neighbors: Meta, count: Meta):
        return Meta(neighbors.shape[:1], x.dtype), Meta(neighbors.shape[:1], x.dtype), Meta((-1,), x.dtype)


def reindex_graph(x: Tensor, neighbors: Tensor, count: Tensor) -> tuple:
    return apply(ReindexGraph, (x, neighbors, count))
