"""paddle.incubate's graph functions give paddle 2.6.2's values (measured there) through paddle.geometric."""

import numpy as np
import pytest

import minipaddle as paddle

X = [[0.0, 2.0, 3.0], [1.0, 4.0, 5.0], [2.0, 6.0, 7.0]]
SRC, DST = [0, 1, 2, 0], [1, 2, 1, 0]
EXPECTED = {
    "sum": [[0.0, 2.0, 3.0], [2.0, 8.0, 10.0], [1.0, 4.0, 5.0]],
    "mean": [[0.0, 2.0, 3.0], [1.0, 4.0, 5.0], [1.0, 4.0, 5.0]],
    "max": [[0.0, 2.0, 3.0], [2.0, 6.0, 7.0], [1.0, 4.0, 5.0]],
    "min": [[0.0, 2.0, 3.0], [0.0, 2.0, 3.0], [1.0, 4.0, 5.0]],
}


@pytest.mark.parametrize("pool_type", sorted(EXPECTED))
def test_graph_send_recv(pool_type):
    x = paddle.to_tensor(X)
    out = paddle.incubate.graph_send_recv(x, paddle.to_tensor(SRC), paddle.to_tensor(DST), pool_type)
    np.testing.assert_allclose(out.numpy(), EXPECTED[pool_type])


def test_graph_send_recv_out_size_and_errors():
    x = paddle.to_tensor(X)
    out = paddle.incubate.graph_send_recv(x, paddle.to_tensor(SRC), paddle.to_tensor([1, 0, 1, 0]), out_size=2)
    np.testing.assert_allclose(out.numpy(), [[1.0, 6.0, 8.0], [2.0, 8.0, 10.0]])
    with pytest.raises(ValueError, match="pool_type"):
        paddle.incubate.graph_send_recv(x, paddle.to_tensor(SRC), paddle.to_tensor(DST), "SUM")


def test_segment_functions_are_geometric_ones():
    out = paddle.incubate.segment_mean(paddle.to_tensor(X), paddle.to_tensor([0, 0, 1]))
    np.testing.assert_allclose(out.numpy(), [[0.5, 3.0, 4.0], [2.0, 6.0, 7.0]])
    for name in ("segment_sum", "segment_mean", "segment_max", "segment_min"):
        assert getattr(paddle.incubate, name) is getattr(paddle.geometric, name)


def test_graph_reindex():
    out = paddle.incubate.graph_reindex(
        paddle.to_tensor([0, 1, 2]), paddle.to_tensor([8, 9, 0, 4, 7, 6, 7]), paddle.to_tensor([2, 3, 2], "int32")
    )
    expected = [[3, 4, 0, 5, 6, 7, 6], [0, 0, 1, 1, 1, 2, 2], [0, 1, 2, 8, 9, 4, 7, 6]]
    assert [t.numpy().tolist() for t in out] == expected
    with pytest.raises(ValueError, match="value_buffer"):
        paddle.incubate.graph_reindex(
            paddle.to_tensor([0]), paddle.to_tensor([1]), paddle.to_tensor([1]), flag_buffer_hashtable=True
        )


def test_graph_sample_neighbors_takes_all_when_sample_size_is_minus_one():
    row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
    colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
    nodes = paddle.to_tensor([0, 8, 1, 2])
    neighbors, count = paddle.incubate.graph_sample_neighbors(row, colptr, nodes)
    assert count.numpy().tolist() == [2, 2, 2, 1]
    # by hand from the CSC arrays (paddle 2.6.2's CPU kernel for this op dies with std::length_error)
    assert neighbors.numpy().tolist() == [3, 7, 9, 7, 0, 9, 1]
    with pytest.raises(ValueError, match="eids"):
        paddle.incubate.graph_sample_neighbors(row, colptr, nodes, return_eids=True)
    with pytest.raises(ValueError, match="perm_buffer"):
        paddle.incubate.graph_sample_neighbors(row, colptr, nodes, flag_perm_buffer=True)
