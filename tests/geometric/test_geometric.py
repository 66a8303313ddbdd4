"""paddle.geometric against values recorded from Paddle 2.6 (tests/golden/geometric), plus argument errors and the
sampling functions' behaviour (random, so checked by their properties)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_arrays, read_json

G = paddle.geometric
GOLDEN = GOLDEN_ROOT / "geometric"
CASES = read_json(GOLDEN / "cases.json")["cases"]
MESSAGE_CASES = sorted(k for k, c in CASES.items() if not c["fn"].startswith("reindex"))
REINDEX_CASES = sorted(k for k, c in CASES.items() if c["fn"].startswith("reindex"))


@pytest.fixture(scope="module")
def arrays():
    return read_arrays(GOLDEN / "arrays.npz")


@pytest.mark.parametrize("name", MESSAGE_CASES)
def test_message_passing_matches_paddle(name, arrays):
    case = CASES[name]
    inputs = {k: paddle.to_tensor(arrays[f"{name}.{k}"], stop_gradient=k not in case["grads"]) for k in case["inputs"]}
    out = getattr(G, case["fn"])(*inputs.values(), **case["kwargs"])
    expected = arrays[f"{name}.out"]
    assert out.shape == list(expected.shape) and out.dtype.name == expected.dtype.name
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)
    if case["grads"]:
        loss = (out * paddle.to_tensor(arrays[f"{name}.cot"])).sum()
        grads = paddle.grad([loss], [inputs[k] for k in case["grads"]])
        for k, g in zip(case["grads"], grads):
            np.testing.assert_allclose(g.numpy(), arrays[f"{name}.grad_{k}"], rtol=1e-10, atol=1e-12, err_msg=k)


@pytest.mark.parametrize("name", REINDEX_CASES)
def test_reindex_matches_paddle(name, arrays):
    case = CASES[name]
    args = []
    for i, (is_list, length) in enumerate(zip(case["lists"], case["lengths"])):
        parts = [paddle.to_tensor(arrays[f"{name}.arg{i}_{j}"]) for j in range(length)]
        args.append(parts if is_list else parts[0])
    for got, key in zip(getattr(G, case["fn"])(*args), ["src", "dst", "nodes"]):
        expected = arrays[f"{name}.{key}"]
        assert got.dtype.name == expected.dtype.name
        np.testing.assert_array_equal(got.numpy(), expected, err_msg=key)


def test_tensor_out_size_and_nonpositive_out_size():
    x = paddle.to_tensor([[0.0, 2], [1, 4], [2, 6]])
    src, dst = paddle.to_tensor([0, 1, 2, 0]), paddle.to_tensor([1, 2, 1, 0])
    assert G.send_u_recv(x, src, dst, out_size=paddle.to_tensor([5])).shape == [5, 2]
    assert G.send_u_recv(x, src, dst, out_size=0).shape == [3, 2]
    assert G.send_u_recv(x, src, dst, out_size=-1).shape == [3, 2]


def _edges(n=4):
    return paddle.to_tensor([0, 1, 2, 0][:n]), paddle.to_tensor([1, 2, 1, 0][:n])


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda x, s, d: G.send_u_recv(x, s, d, reduce_op="prod"), ValueError, "reduce_op"),
        (lambda x, s, d: G.send_ue_recv(x, x[:1], s, d, message_op="mod"), ValueError, "message_op"),
        (lambda x, s, d: G.send_uv(x, x, s, d, message_op="pow"), ValueError, "message_op"),
        (lambda x, s, d: G.send_u_recv(x, s, d, out_size=2), IndexError, "out_size"),
        (lambda x, s, d: G.send_u_recv(x, s.astype("float32"), d), TypeError, "src_index"),
        (lambda x, s, d: G.send_u_recv(x, s, d.astype("int32")), TypeError, "same dtype"),
        (lambda x, s, d: G.send_u_recv(x, s, d[:3]), ValueError, "dst_index"),
        (lambda x, s, d: G.send_u_recv(x.astype("bool"), s, d), TypeError, "x must be"),
        (lambda x, s, d: G.send_u_recv(x, s, d, out_size=2.5), TypeError, "out_size"),
        (lambda x, s, d: G.send_ue_recv(x, paddle.ones([3, 3]), s, d), ValueError, "one row per edge"),
        (lambda x, s, d: G.send_ue_recv(x, paddle.ones([4, 2]), s, d), ValueError, "broadcast"),
        (lambda x, s, d: G.send_ue_recv(x, paddle.ones([4, 3], "float64"), s, d), TypeError, "same dtype"),
        (lambda x, s, d: G.send_uv(x.astype("int64"), x.astype("int64"), s, d, "div"), TypeError, "div"),
        (lambda x, s, d: G.segment_sum(x, paddle.to_tensor([1, 0, 1])), ValueError, "sorted"),
        (lambda x, s, d: G.segment_sum(x, paddle.to_tensor([-1, 0, 0])), IndexError, ">= 0"),
        (lambda x, s, d: G.segment_max(x, paddle.to_tensor([0, 0])), ValueError, "3 entries"),
        (lambda x, s, d: G.segment_min(x, paddle.to_tensor([[0, 0, 1]])), ValueError, "1-D"),
        (lambda x, s, d: G.segment_mean(x, paddle.to_tensor([0.0, 0, 1])), TypeError, "int32 or int64"),
    ],
)
def test_argument_errors_name_the_function(call, error, words):
    x = paddle.to_tensor([[0.0, 2, 3], [1, 4, 5], [2, 6, 7]])
    with pytest.raises(error, match=words):
        call(x, *_edges())


def test_reindex_errors():
    x, nb = paddle.to_tensor([0, 1, 2]), paddle.to_tensor([8, 9, 0, 4, 7, 6, 7])
    with pytest.raises(TypeError, match="reindex_graph: count must be int32"):
        G.reindex_graph(x, nb, paddle.to_tensor([2, 3, 2]))
    with pytest.raises(TypeError, match="neighbors must have x's dtype"):
        G.reindex_graph(x, nb.astype("int32"), paddle.to_tensor([2, 3, 2], "int32"))
    with pytest.raises(ValueError, match="adding up to len"):
        G.reindex_graph(x, nb, paddle.to_tensor([2, 3, 1], "int32"))
    with pytest.raises(ValueError, match="one Tensor per edge type"):
        G.reindex_heter_graph(x, [nb, nb], [paddle.to_tensor([2, 3, 2], "int32")])


# ---- sampling ---------------------------------------------------------------------------------------------------

ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]


def _graph(dtype="int64"):
    return paddle.to_tensor(ROW, dtype), paddle.to_tensor(COLPTR, dtype), paddle.to_tensor([0, 8, 1, 2, 5], dtype)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_sampling_keeps_every_neighbor_when_there_are_few(weighted, dtype):
    """Nodes with at most sample_size neighbors keep them all, in CSC order (as Paddle: [3 7 9 7 0 9 1])."""
    row, colptr, nodes = _graph(dtype)
    eids = paddle.arange(13, dtype=dtype) * 10
    weight = [paddle.rand([13]) + 0.1] if weighted else []
    fn = G.weighted_sample_neighbors if weighted else G.sample_neighbors
    for size in (-1, 5):
        nb, count, out_eids = fn(row, colptr, *weight, nodes, size, eids=eids, return_eids=True)
        np.testing.assert_array_equal(nb.numpy(), [3, 7, 9, 7, 0, 9, 1, 9, 3])
        np.testing.assert_array_equal(count.numpy(), [2, 2, 2, 1, 2])
        np.testing.assert_array_equal(out_eids.numpy(), [0, 10, 110, 120, 20, 30, 40, 70, 80])
        assert (nb.dtype.name, count.dtype.name, out_eids.dtype.name) == (dtype, "int32", dtype)
    nb, count = fn(row, colptr, *weight, nodes, 0)
    assert nb.shape == [0] and count.numpy().tolist() == [0] * 5


@pytest.mark.parametrize("weighted", [False, True])
def test_sampling_picks_distinct_neighbors_and_follows_the_seed(weighted):
    row, colptr = paddle.arange(20), paddle.to_tensor([0, 20])
    weight = [paddle.rand([20]) + 0.1] if weighted else []
    fn = G.weighted_sample_neighbors if weighted else G.sample_neighbors
    paddle.seed(3)
    first, count = fn(row, colptr, *weight, paddle.to_tensor([0, 0, 0]), 6)
    paddle.seed(3)
    again, _ = fn(row, colptr, *weight, paddle.to_tensor([0, 0, 0]), 6)
    np.testing.assert_array_equal(first.numpy(), again.numpy())
    assert count.numpy().tolist() == [6, 6, 6]
    for block in first.numpy().reshape(3, 6):
        assert len(set(block)) == 6  # without replacement
    assert len({tuple(b) for b in first.numpy().reshape(3, 6)}) > 1  # each node draws anew


def test_uniform_sampling_is_uniform():
    paddle.seed(0)
    nb, _ = G.sample_neighbors(paddle.arange(4), paddle.to_tensor([0, 4]), paddle.zeros([4000], "int64"), 1)
    freq = np.bincount(nb.numpy(), minlength=4) / 4000
    np.testing.assert_allclose(freq, 0.25, atol=0.03)


def test_weighted_sampling_follows_the_weights():
    row, colptr = paddle.arange(3), paddle.to_tensor([0, 3])
    paddle.seed(0)
    nb, _ = G.weighted_sample_neighbors(
        row, colptr, paddle.to_tensor([1.0, 3.0, 0.0]), paddle.zeros([4000], "int64"), 1
    )
    freq = np.bincount(nb.numpy(), minlength=3) / 4000
    np.testing.assert_allclose(freq, [0.25, 0.75, 0.0], atol=0.03)  # (Paddle 2.6: 472 : 1528 of 2000)
    nb, _ = G.weighted_sample_neighbors(row, colptr, paddle.to_tensor([0.0, 2.0, 0.0]), paddle.zeros([50], "int64"), 2)
    assert set(nb.numpy().reshape(50, 2)[:, 0]) == {1}  # a zero weight comes only after every positive one


def test_sampling_errors():
    row, colptr, nodes = _graph()
    with pytest.raises(ValueError, match="eids"):
        G.sample_neighbors(row, colptr, nodes, 2, return_eids=True)
    with pytest.raises(TypeError, match="colptr must have row's dtype"):
        G.sample_neighbors(row, colptr.astype("int32"), nodes, 2)
    with pytest.raises(TypeError, match="row must be int32 or int64"):
        G.sample_neighbors(row.astype("float32"), colptr, nodes)
    with pytest.raises(IndexError, match="input_nodes"):
        G.sample_neighbors(row, colptr, paddle.to_tensor([10]))
    with pytest.raises(TypeError, match="edge_weight must be float32"):
        G.weighted_sample_neighbors(row, colptr, paddle.ones([13], "int32"), nodes)
    with pytest.raises(ValueError, match="one weight per edge"):
        G.weighted_sample_neighbors(row, colptr, paddle.ones([12]), nodes)


def test_sampled_subgraph_feeds_message_passing():
    """The minibatch pipeline: sample, reindex, pass messages on the small graph."""
    row, colptr, _ = _graph()
    nodes = paddle.to_tensor([0, 1, 5])
    nb, count = G.sample_neighbors(row, colptr, nodes, -1)
    src, dst, out_nodes = G.reindex_graph(nodes, nb, count)
    feats = paddle.gather(paddle.arange(10, dtype="float32").reshape([10, 1]), out_nodes)
    out = G.send_u_recv(feats, src, dst, "sum", out_size=nodes.shape[0])
    np.testing.assert_array_equal(out.numpy().ravel(), [3 + 7, 0 + 9, 9 + 3])
