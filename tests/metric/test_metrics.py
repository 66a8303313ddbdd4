"""paddle.metric against numbers recorded from paddle 2.6.2 on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.metric import Accuracy, Auc, Metric, Precision, Recall, accuracy

PRED = np.array(
    [[0.637, 0.27, 0.041, 0.017, 0.813], [0.913, 0.607, 0.729, 0.544, 0.935], [0.816, 0.003, 0.857, 0.034, 0.73],
     [0.176, 0.863, 0.541, 0.3, 0.423], [0.028, 0.124, 0.671, 0.647, 0.615], [0.384, 0.997, 0.981, 0.686, 0.65],
     [0.688, 0.389, 0.135, 0.721, 0.525], [0.31, 0.486, 0.889, 0.934, 0.358]],
    dtype="float32",
)  # fmt: skip
LABEL = np.array([[0], [1], [2], [3], [4], [0], [1], [2]])


@pytest.mark.parametrize("k,expected", [(1, 0.125), (2, 0.375), (3, 0.5)])
def test_accuracy_function_matches_paddle(k, expected):
    acc = accuracy(paddle.to_tensor(PRED), paddle.to_tensor(LABEL), k=k)
    assert acc.shape == [] and acc.dtype == paddle.float32
    assert acc.item() == pytest.approx(expected)


def test_accuracy_function_fills_correct_and_total():
    correct = paddle.to_tensor(0, dtype="int32")
    total = paddle.to_tensor(0, dtype="int32")
    accuracy(paddle.to_tensor(PRED), paddle.to_tensor(LABEL.astype("int32")), k=3, correct=correct, total=total)
    assert correct.item() == 4 and total.item() == 8 and correct.dtype == paddle.int32


def test_accuracy_function_checks_shapes():
    with pytest.raises(ValueError, match=r"\[N, 1\]"):
        accuracy(paddle.to_tensor(PRED), paddle.to_tensor(LABEL.ravel()))
    with pytest.raises(ValueError, match="k must"):
        accuracy(paddle.to_tensor(PRED), paddle.to_tensor(LABEL), k=6)


def test_accuracy_metric_matches_paddle():
    m = Accuracy(topk=(1, 3))
    assert m.name() == ["acc_top1", "acc_top3"]
    correct = m.compute(paddle.to_tensor(PRED), paddle.to_tensor(LABEL))
    assert correct.dtype == paddle.float32 and correct.shape == [8, 3]
    expected = [[0, 1, 0], [0, 0, 0], [1, 0, 0], [0, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0], [0, 1, 0]]
    np.testing.assert_array_equal(correct.numpy(), expected)
    assert m.update(correct) == [0.125, 0.5]
    one_hot = np.eye(5)[LABEL[:3, 0]]  # one-hot labels count as their argmax
    assert m.update(m.compute(paddle.to_tensor(PRED[:3]), paddle.to_tensor(one_hot))) == pytest.approx([1 / 3, 2 / 3])
    assert m.accumulate() == pytest.approx([2 / 11, 6 / 11])
    m.reset()
    assert m.accumulate() == [0.0, 0.0]


def test_accuracy_metric_with_one_k_gives_numbers():
    m = Accuracy()
    assert m.name() == ["acc"]
    assert m.update(m.compute(paddle.to_tensor(PRED), paddle.to_tensor(LABEL.ravel()))) == pytest.approx(0.125)
    assert m.accumulate() == pytest.approx(0.125)


PROBS = np.array([0.1, 0.5, 0.49, 0.9, 0.7, 0.2, 1.5, 2.5])
BINARY = np.array([[0], [1], [1], [1], [0], [0], [1], [1]])


def test_precision_matches_paddle():
    p = Precision()
    p.update(PROBS, BINARY)
    assert p.accumulate() == pytest.approx(2 / 3) and p.name() == "precision"
    p.update(paddle.to_tensor(PROBS), paddle.to_tensor(BINARY))  # Tensors are welcome too
    assert p.accumulate() == pytest.approx(2 / 3)
    p.reset()
    assert p.accumulate() == 0.0


def test_recall_matches_paddle():
    r = Recall()
    r.update(PROBS, BINARY)
    assert r.accumulate() == pytest.approx(0.2) and r.name() == "recall"  # 1.5 and 2.5 round to 2: not a hit


def test_precision_and_recall_reject_lists():
    with pytest.raises(ValueError, match="numpy ndarray or a Tensor"):
        Precision().update([0.1], [1])
    with pytest.raises(ValueError, match="numpy ndarray or a Tensor"):
        Recall().update(np.array([0.1]), [1])


SCORES = np.array([
    0.5715, 0.3219, 0.5943, 0.3379, 0.3916, 0.8903, 0.2272, 0.6232, 0.084, 0.8326, 0.7871, 0.2394, 0.8765, 0.0586,
    0.3361, 0.1503, 0.4503, 0.7963, 0.2306, 0.052, 0.4046, 0.1985, 0.0908, 0.5803, 0.2987, 0.672, 0.1995, 0.9421,
    0.3651, 0.1055, 0.6291, 0.9272, 0.4404, 0.9546, 0.4999, 0.4252, 0.6202, 0.9951, 0.9489, 0.46, 0.7577, 0.4974,
    0.5293, 0.7858, 0.4147, 0.7345, 0.7111, 0.9321, 0.1149, 0.729])  # fmt: skip
TRUTH = np.array([0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0,
                  1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1, 0, 1])  # fmt: skip


@pytest.mark.parametrize("num_thresholds,expected", [(4095, 0.7386363636363636), (10, 0.737012987012987)])
def test_auc_matches_paddle(num_thresholds, expected):
    auc = Auc(num_thresholds=num_thresholds)
    preds = np.stack([1 - SCORES, SCORES], axis=1)
    auc.update(preds[:20], TRUTH[:20].reshape(-1, 1))  # in two batches: the histograms add up
    auc.update(paddle.to_tensor(preds[20:]), paddle.to_tensor(TRUTH[20:]))
    assert auc.accumulate() == pytest.approx(expected, rel=1e-12)
    assert auc.name() == "auc"
    auc.reset()
    assert auc.accumulate() == 0.0


def test_auc_of_a_perfect_ranking_is_one():
    auc = Auc()
    auc.update(np.array([[0.9, 0.1], [0.8, 0.2], [0.1, 0.9]]), np.array([0, 0, 1]))
    assert auc.accumulate() == 1.0


def test_auc_checks_arguments():
    with pytest.raises(ValueError, match="ROC"):
        Auc(curve="PR")
    with pytest.raises(ValueError, match=r"\[N, 2\]"):
        Auc().update(np.array([0.5, 0.2]), np.array([1, 0]))


def test_metric_is_abstract_and_compute_passes_through():
    with pytest.raises(TypeError):
        Metric()

    class Count(Metric):
        def reset(self):
            self.n = 0

        def update(self, *args):
            self.n += 1

        def accumulate(self):
            return self.n

        def name(self):
            return "count"

    c = Count()
    assert c.compute(1, 2) == (1, 2)
