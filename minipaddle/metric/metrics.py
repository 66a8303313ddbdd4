"""Evaluation metrics (paddle.metric): Metric, Accuracy, Precision, Recall, Auc, and the `accuracy` function.

A Metric keeps running totals over batches:

    metric.reset()
    for x, y in loader:
        pred = model(x)
        metric.update(metric.compute(pred, y))   # compute: per-batch Tensor work; update: add to the totals
    print(metric.name(), metric.accumulate())

`compute` runs minipaddle ops on Tensors; `update` and `accumulate` count on the host with numpy, as Paddle does.
"""

from __future__ import annotations

import abc

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.tensor.creation import full
from minipaddle.tensor.manipulation import assign, cast, reshape
from minipaddle.tensor.search import argmax, argsort, topk

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]


def _host_array(value, fn: str, arg: str) -> np.ndarray:
    """A Tensor or numpy array as numpy (the metrics count on the host)."""
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    raise ValueError(f"{fn}: {arg} must be a numpy ndarray or a Tensor, got {type(value).__name__}")


class Metric(metaclass=abc.ABCMeta):
    """The base of all metrics. A subclass defines `reset`, `update`, `accumulate` and `name`, and may define
    `compute`, which turns a batch's Tensors into what `update` takes (by default it passes its inputs on)."""

    @abc.abstractmethod
    def reset(self) -> None:
        """Clear the running totals."""

    @abc.abstractmethod
    def update(self, *args):
        """Add one batch to the running totals."""

    @abc.abstractmethod
    def accumulate(self):
        """The metric over every batch since the last reset."""

    @abc.abstractmethod
    def name(self):
        """The metric's name (a string, or a list of names for a metric with several values)."""

    def compute(self, *args):
        """Per-batch preprocessing with Tensor ops; the default returns its inputs unchanged."""
        return args


class Accuracy(Metric):
    """Top-k accuracy: how often the label is among the k highest-scoring classes.

    Args:
        topk (tuple of int): the k values to report, e.g. (1, 5). Default (1,).
        name (str, optional): the metric's name. Default 'acc' ('acc_top1', 'acc_top5', ... when max(topk) > 1).

    Example:
        >>> m = paddle.metric.Accuracy(topk=(1, 2))
        >>> m.update(m.compute(paddle.to_tensor([[0.1, 0.7, 0.2]]), paddle.to_tensor([[2]])))
        [0.0, 1.0]
    """

    def __init__(self, topk=(1,), name=None, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        topk = tuple(topk) if isinstance(topk, (list, tuple)) else (topk,)
        if not topk or any(not isinstance(k, int) or isinstance(k, bool) or k < 1 for k in topk):
            raise ValueError(f"Accuracy: topk must be positive ints, got {topk!r}")
        self.topk = topk
        self.maxk = max(topk)
        name = name or "acc"
        self._name = [f"{name}_top{k}" for k in topk] if self.maxk != 1 else [name]
        self.reset()

    def compute(self, pred, label, *args) -> Tensor:
        """A float32 [N, maxk] matrix: entry j is 1.0 when the j-th best class of a sample is its label.

        `label` may be class ids ([N] or [N, 1]) or one-hot / soft labels ([N, C])."""
        if not isinstance(pred, Tensor) or not isinstance(label, Tensor):
            raise TypeError(f"Accuracy.compute: pred and label must be Tensors, got {type(pred).__name__} and "
                            f"{type(label).__name__}")  # fmt: skip
        if pred.shape[-1] < self.maxk:
            raise ValueError(f"Accuracy.compute: top-{self.maxk} needs at least {self.maxk} classes, but pred has "
                             f"shape {pred.shape}")  # fmt: skip
        best = argsort(pred, descending=True)[..., : self.maxk]
        if label.ndim == 1 or (label.ndim == 2 and label.shape[-1] == 1):
            label = reshape(label, (-1, 1))
        elif label.shape[-1] != 1:
            label = argmax(label, axis=-1, keepdim=True)
        return cast(best == label, "float32")

    def update(self, correct, *args):
        """Add a batch's correct matrix (from `compute`); returns the batch's accuracy (a list for several k)."""
        correct = _host_array(correct, "Accuracy.update", "correct")
        num_samples = int(np.prod(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            num_correct = float(correct[..., :k].sum())
            accs.append(num_correct / num_samples if num_samples else 0.0)
            self.total[i] += num_correct
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self) -> None:
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [t / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self):
        return self._name


def _binary_pairs(preds, labels, fn: str) -> tuple[np.ndarray, np.ndarray]:
    preds = _host_array(preds, fn, "preds")
    labels = _host_array(labels, fn, "labels")
    n = labels.shape[0] if labels.ndim else 1
    if preds.size != n or labels.size != n:
        raise ValueError(f"{fn}: expected one prediction and one label per sample, got preds of shape "
                         f"{list(preds.shape)} and labels of shape {list(labels.shape)}")  # fmt: skip
    return preds.reshape(n), labels.reshape(n)


class Precision(Metric):
    """Precision of a binary classifier: true positives / predicted positives.

    `update(preds, labels)` takes probabilities of the positive class (rounded: p >= 0.5 counts as 1) and
    labels in {0, 1}, one per sample.
    """

    def __init__(self, name="precision", *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._name = name
        self.reset()

    def update(self, preds, labels) -> None:
        preds, labels = _binary_pairs(preds, labels, "Precision.update")
        predicted = np.floor(preds + 0.5).astype(np.int32) == 1
        self.tp += int(np.sum(predicted & (labels == 1)))
        self.fp += int(np.sum(predicted & (labels != 1)))

    def reset(self) -> None:
        self.tp = 0
        self.fp = 0

    def accumulate(self) -> float:
        positives = self.tp + self.fp
        return self.tp / positives if positives else 0.0

    def name(self):
        return self._name


class Recall(Metric):
    """Recall of a binary classifier: true positives / actual positives.

    `update(preds, labels)` takes probabilities of the positive class (rounded half to even, as Paddle's
    np.rint) and labels in {0, 1}, one per sample.
    """

    def __init__(self, name="recall", *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._name = name
        self.reset()

    def update(self, preds, labels) -> None:
        preds, labels = _binary_pairs(preds, labels, "Recall.update")
        actual = labels == 1
        hit = np.rint(preds).astype(np.int32) == labels
        self.tp += int(np.sum(actual & hit))
        self.fn += int(np.sum(actual & ~hit))

    def reset(self) -> None:
        self.tp = 0
        self.fn = 0

    def accumulate(self) -> float:
        positives = self.tp + self.fn
        return self.tp / positives if positives else 0.0

    def name(self):
        return self._name


class Auc(Metric):
    """Area under the ROC curve, from histograms of the scores of positive and negative samples.

    Args:
        curve (str): 'ROC' (the only curve Paddle computes).
        num_thresholds (int): histogram bins over [0, 1]. Default 4095.
        name (str): default 'auc'.

    `update(preds, labels)`: preds is [N, 2] (column 1 is the positive-class probability), labels [N] or [N, 1].
    """

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if curve != "ROC":
            raise ValueError(f"Auc: only curve='ROC' is computed, got {curve!r}")
        if not isinstance(num_thresholds, int) or num_thresholds < 1:
            raise ValueError(f"Auc: num_thresholds must be a positive int, got {num_thresholds!r}")
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds, labels) -> None:
        labels = _host_array(labels, "Auc.update", "labels").reshape(-1)
        preds = _host_array(preds, "Auc.update", "preds")
        if preds.ndim != 2 or preds.shape[1] < 2 or preds.shape[0] != labels.shape[0]:
            raise ValueError(f"Auc.update: preds must be [N, 2] for N labels, got preds of shape "
                             f"{list(preds.shape)} and {labels.shape[0]} labels")  # fmt: skip
        bins = (preds[:, 1] * self._num_thresholds).astype(np.int64)  # truncation, as Paddle's int()
        if bins.size and (bins.min() < 0 or bins.max() > self._num_thresholds):
            raise ValueError("Auc.update: the positive-class probabilities must lie in [0, 1]")
        size = self._num_thresholds + 1
        positive = labels.astype(bool)
        self._stat_pos += np.bincount(bins[positive], minlength=size)
        self._stat_neg += np.bincount(bins[~positive], minlength=size)

    def accumulate(self) -> float:
        # Sweep the threshold from high to low; each bin adds a trapezoid under the (unnormalised) ROC curve.
        pos, neg = self._stat_pos[::-1], self._stat_neg[::-1]
        tot_pos = np.cumsum(pos)
        auc = np.sum(neg * (tot_pos + (tot_pos - pos)) / 2.0)
        if tot_pos[-1] > 0 and neg.sum() > 0:
            return float(auc / tot_pos[-1] / neg.sum())
        return 0.0

    def reset(self) -> None:
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self):
        return self._name


def accuracy(input, label, k=1, correct=None, total=None, name=None) -> Tensor:  # noqa: A002 (Paddle's name)
    """The fraction of samples whose label is among the k highest scores: a float32 0-d Tensor.

    Args:
        input (Tensor): scores, [N, C].
        label (Tensor): class ids, [N, 1] (int64 or int32).
        k (int): how many of the best classes count. Default 1.
        correct, total (Tensor, optional): int32 tensors that receive the number of correct samples and N.

    Example:
        >>> paddle.metric.accuracy(paddle.to_tensor([[0.1, 0.9], [0.8, 0.2]]), paddle.to_tensor([[1], [1]]))
        Tensor(shape=[], dtype=float32, ..., 0.50000000)
    """
    fn = "accuracy"
    if not isinstance(input, Tensor) or not isinstance(label, Tensor):
        raise TypeError(f"{fn}: input and label must be Tensors, got {type(input).__name__} and "
                        f"{type(label).__name__}")  # fmt: skip
    if input.ndim != 2 or label.ndim != 2 or label.shape[1] != 1 or label.shape[0] != input.shape[0]:
        raise ValueError(f"{fn}: input must be [N, C] and label [N, 1], got shapes {input.shape} and {label.shape}")
    if not label.dtype.is_integer:
        raise TypeError(f"{fn}: label must hold integer class ids, got {label.dtype.name}")
    if not isinstance(k, int) or not 1 <= k <= input.shape[1]:
        raise ValueError(f"{fn}: k must be an int in [1, {input.shape[1]}] (the number of classes), got {k!r}")
    _, best = topk(input, k)
    hits = cast(best == cast(label, "int64"), "int32").sum()  # each row holds at most one hit
    num_correct = cast(hits, "int32")
    num_total = input.shape[0]
    if correct is not None:
        assign(num_correct, output=correct)
    if total is not None:
        assign(full([], num_total, "int32"), output=total)
    return cast(hits, "float32") / float(num_total)
