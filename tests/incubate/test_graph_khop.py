"""paddle.incubate.graph_khop_sampler: the outputs paddle 2.6.2 gave (measured there; deterministic where every
degree fits the sample size), random sampling's invariants, and argument errors."""

import numpy as np
import pytest

import minipaddle as paddle

ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]


def _run(nodes, sizes, dtype="int64"):
    out = paddle.incubate.graph_khop_sampler(
        paddle.to_tensor(ROW, dtype=dtype),
        paddle.to_tensor(COLPTR, dtype=dtype),
        paddle.to_tensor(nodes, dtype=dtype),
        sizes,
        sorted_eids=paddle.arange(13, dtype=dtype),
        return_eids=True,
    )
    assert all(t.dtype.name == dtype for t in out)
    return [t.numpy().ravel().tolist() for t in out]


# (input nodes, sample sizes) -> edge_src, edge_dst, sample_index, reindex_nodes, edge_eids from paddle 2.6.2
PADDLE = {
    ((0, 8, 1, 2), (2, 2)): [[4, 5, 6, 5, 0, 6, 2, 7], [0, 0, 1, 1, 2, 2, 3, 4], [0, 8, 1, 2, 3, 7, 9, 4],
                             [0, 1, 2, 3], [0, 1, 11, 12, 2, 3, 4, 5]],
    ((5,), (5, 5, 5)): [[2, 1, 3, 4], [0, 0, 1, 3], [5, 3, 9, 4, 2], [0], [7, 8, 5, 6]],
    ((0, 0, 1), (5,)): [[2, 3, 0, 4], [0, 0, 1, 1], [0, 1, 3, 7, 9], [0, 0, 1], [0, 1, 2, 3]],
    ((0,), (5,) * 6): [[1, 2, 3, 4, 5, 6, 7, 1, 2], [6, 6, 1, 3, 4, 5, 5, 6, 6], [0, 3, 7, 4, 2, 1, 0, 9], [6],
                       [0, 1, 5, 6, 4, 2, 3, 0, 1]],
}  # fmt: skip


@pytest.mark.parametrize("key", sorted(PADDLE), ids=str)
def test_matches_paddle(key):
    assert _run(list(key[0]), list(key[1])) == PADDLE[key]


def test_int32_and_without_eids():
    assert _run([6, 5], [5, 5], "int32") == [[4, 2, 4, 3, 5, 4, 6], [0, 0, 1, 1, 2, 2, 3], [6, 5, 1, 3, 9, 0, 4],
                                             [0, 1], [9, 10, 7, 8, 2, 3, 5]]  # fmt: skip
    out = paddle.incubate.graph_khop_sampler(
        paddle.to_tensor(ROW), paddle.to_tensor(COLPTR), paddle.to_tensor([8]), [2]
    )
    assert len(out) == 4 and out[0].shape == [2, 1]


def test_random_sampling_is_consistent_and_seeded():
    row, colptr = np.array(ROW), np.array(COLPTR)
    results = []
    for _ in range(2):
        paddle.seed(7)
        results.append(_run([6, 5, 1], [1, 1]))
    assert results[0] == results[1]
    src, dst, index, reindex, eids = results[0]
    index = np.array(index)
    for s, d, e in zip(src, dst, eids):  # every sampled edge is a real edge e: row[e] -> its CSC column
        assert row[e] == index[s] and colptr[index[d]] <= e < colptr[index[d] + 1]
    assert np.bincount(dst).max() == 1  # one neighbor per frontier node
    assert index[reindex].tolist() == [6, 5, 1]


def test_errors():
    row, colptr = paddle.to_tensor(ROW), paddle.to_tensor(COLPTR)
    with pytest.raises(ValueError, match="sorted_eids"):
        paddle.incubate.graph_khop_sampler(row, colptr, paddle.to_tensor([0]), [2], return_eids=True)
    with pytest.raises(ValueError, match="at least one neighbor"):
        paddle.incubate.graph_khop_sampler(row, colptr, paddle.to_tensor([7]), [2])
    with pytest.raises(ValueError, match="non-negative"):
        paddle.incubate.graph_khop_sampler(row, colptr, paddle.to_tensor([0]), [-1])
    with pytest.raises(TypeError, match="row's dtype"):
        paddle.incubate.graph_khop_sampler(row, colptr.astype("int32"), paddle.to_tensor([0]), [2])
    with pytest.raises(TypeError, match="int32 or int64"):
        paddle.incubate.graph_khop_sampler(row.astype("float32"), colptr, paddle.to_tensor([0]), [2])
    with pytest.raises(ValueError, match="must not be empty"):
        paddle.incubate.graph_khop_sampler(row, colptr, paddle.to_tensor([], dtype="int64"), [2])
