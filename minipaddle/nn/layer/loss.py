"""Loss layers: each holds its settings and calls its function in paddle.nn.functional (see there for the
formulas and shapes). Like Paddle's, they print as `CrossEntropyLoss()`."""

from __future__ import annotations

from minipaddle.core.dtype import get_default_dtype
from minipaddle.nn import functional as F
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor.checks import check_in_range, check_int

__all__ = [
    "CrossEntropyLoss",
    "NLLLoss",
    "MSELoss",
    "L1Loss",
    "SmoothL1Loss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "KLDivLoss",
    "MarginRankingLoss",
    "CTCLoss",
    "HSigmoidLoss",
    "GaussianNLLLoss",
    "PoissonNLLLoss",
    "HingeEmbeddingLoss",
    "CosineEmbeddingLoss",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
    "MultiMarginLoss",
    "SoftMarginLoss",
    "MultiLabelSoftMarginLoss",
]


class CrossEntropyLoss(Layer):
    """Softmax cross entropy (see F.cross_entropy).

    Example:
        >>> loss_fn = paddle.nn.CrossEntropyLoss()
        >>> loss = loss_fn(logits, labels)      # logits [N, C], labels [N] int64
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", soft_label=False, axis=-1,
                 use_softmax=True, label_smoothing=0.0, name=None):  # fmt: skip
        super().__init__()
        self.weight, self.ignore_index, self.reduction = weight, ignore_index, reduction
        self.soft_label, self.axis, self.use_softmax = soft_label, axis, use_softmax
        self.label_smoothing, self.name = label_smoothing, name

    def forward(self, input, label):
        return F.cross_entropy(input, label, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, soft_label=self.soft_label, axis=self.axis,
                               use_softmax=self.use_softmax, label_smoothing=self.label_smoothing)  # fmt: skip


class NLLLoss(Layer):
    """Negative log likelihood of log-probabilities (see F.nll_loss)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", name=None):
        super().__init__()
        self._weight, self._ignore_index, self._reduction, self._name = weight, ignore_index, reduction, name

    def forward(self, input, label):
        return F.nll_loss(input, label, weight=self._weight, ignore_index=self._ignore_index,
                          reduction=self._reduction)  # fmt: skip


class MSELoss(Layer):
    """Mean squared error (see F.mse_loss)."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, label):
        return F.mse_loss(input, label, self.reduction)


class L1Loss(Layer):
    """Mean absolute error (see F.l1_loss)."""

    def __init__(self, reduction="mean", name=None):
        super().__init__()
        self.reduction, self.name = reduction, name

    def forward(self, input, label):
        return F.l1_loss(input, label, self.reduction)


class SmoothL1Loss(Layer):
    """The Huber loss (see F.smooth_l1_loss)."""

    def __init__(self, reduction="mean", delta=1.0, name=None):
        super().__init__()
        self.reduction, self.delta, self.name = reduction, delta, name

    def forward(self, input, label):
        return F.smooth_l1_loss(input, label, self.reduction, self.delta)


class BCELoss(Layer):
    """Binary cross entropy of probabilities (see F.binary_cross_entropy)."""

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        self.weight, self.reduction, self.name = weight, reduction, name

    def forward(self, input, label):
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(Layer):
    """Sigmoid + binary cross entropy, computed stably (see F.binary_cross_entropy_with_logits)."""

    def __init__(self, weight=None, reduction="mean", pos_weight=None, name=None):
        super().__init__()
        self.weight, self.reduction, self.pos_weight, self.name = weight, reduction, pos_weight, name

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(logit, label, self.weight, self.reduction, self.pos_weight)


class KLDivLoss(Layer):
    """KL divergence with log-probability inputs (see F.kl_div)."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, label):
        return F.kl_div(input, label, self.reduction)


class MarginRankingLoss(Layer):
    """max(0, -label * (input - other) + margin) (see F.margin_ranking_loss)."""

    def __init__(self, margin=0.0, reduction="mean", name=None):
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input, other, label):
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class CTCLoss(Layer):
    """Connectionist temporal classification loss (see F.ctc_loss)."""

    def __init__(self, blank=0, reduction="mean"):
        super().__init__()
        self.blank, self.reduction = blank, reduction

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, self.blank, self.reduction, norm_by_times)


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid loss with its own node weights: [num_classes - 1, feature_size] for the default
    tree, [num_classes, feature_size] with is_custom=True (then pass path_table and path_code to forward)."""

    def __init__(self, feature_size, num_classes, weight_attr=None, bias_attr=None, is_custom=False, is_sparse=False,
                 name=None):  # fmt: skip
        super().__init__()
        num_classes = check_int(num_classes, "HSigmoidLoss", "num_classes")
        feature_size = check_int(feature_size, "HSigmoidLoss", "feature_size")
        if num_classes < 2 and not is_custom:
            raise ValueError("HSigmoidLoss: num_classes must not be less than 2 with the default tree")
        self._feature_size, self._num_classes, self._is_custom = feature_size, num_classes, is_custom
        self._is_sparse = is_sparse and is_custom
        self._name = name
        self._dtype = get_default_dtype()
        nodes = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([nodes, feature_size], attr=weight_attr, dtype=self._dtype)
        self.bias = self.create_parameter([nodes, 1], attr=bias_attr, dtype=self._dtype, is_bias=True)

    def forward(self, input, label, path_table=None, path_code=None):
        return F.hsigmoid_loss(input, label, self._num_classes, self.weight, self.bias, path_table, path_code,
                               self._is_sparse)  # fmt: skip


class GaussianNLLLoss(Layer):
    """Gaussian negative log likelihood (see F.gaussian_nll_loss); forward(input, label, variance)."""

    def __init__(self, full=False, epsilon=1e-6, reduction="mean", name=None):
        super().__init__()
        self.full, self.epsilon, self.reduction, self.name = full, epsilon, reduction, name

    def forward(self, input, label, variance):
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon, self.reduction)


class PoissonNLLLoss(Layer):
    """Poisson negative log likelihood (see F.poisson_nll_loss)."""

    def __init__(self, log_input=True, full=False, epsilon=1e-8, reduction="mean", name=None):
        super().__init__()
        self._log_input, self._full, self._epsilon, self._reduction = log_input, full, epsilon, reduction
        self._name = name

    def forward(self, input, label):
        return F.poisson_nll_loss(input, label, self._log_input, self._full, self._epsilon, self._reduction)


class HingeEmbeddingLoss(Layer):
    """input for label 1, max(0, margin - input) for label -1 (see F.hinge_embedding_loss)."""

    def __init__(self, margin=1.0, reduction="mean", name=None):
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input, label):
        return F.hinge_embedding_loss(input, label, self.margin, self.reduction)


class CosineEmbeddingLoss(Layer):
    """1 - cos for similar pairs, max(0, cos - margin) for dissimilar ones (see F.cosine_embedding_loss)."""

    def __init__(self, margin=0, reduction="mean", name=None):
        super().__init__()
        check_in_range(margin, "CosineEmbeddingLoss", "margin", -1, 1)  # where paddle 2.6 checks it, NaN too
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input1, input2, label):
        return F.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class TripletMarginLoss(Layer):
    """max(0, |a - p|_p - |a - n|_p + margin) (see F.triplet_margin_loss)."""

    def __init__(self, margin=1.0, p=2.0, epsilon=1e-6, swap=False, reduction="mean", name=None):
        super().__init__()
        self.margin, self.p, self.epsilon, self.swap = margin, p, epsilon, swap
        self.reduction, self.name = reduction, name

    def forward(self, input, positive, negative):
        return F.triplet_margin_loss(input, positive, negative, self.margin, self.p, self.epsilon, self.swap,
                                     self.reduction)  # fmt: skip


class TripletMarginWithDistanceLoss(Layer):
    """The triplet loss with any distance function (see F.triplet_margin_with_distance_loss)."""

    def __init__(self, distance_function=None, margin=1.0, swap=False, reduction="mean", name=None):
        super().__init__()
        self.distance_function, self.margin, self.swap = distance_function, margin, swap
        self.reduction, self.name = reduction, name

    def forward(self, input, positive, negative):
        return F.triplet_margin_with_distance_loss(input, positive, negative, self.distance_function, self.margin,
                                                   self.swap, self.reduction)  # fmt: skip


class MultiMarginLoss(Layer):
    """The multi-class hinge loss (see F.multi_margin_loss)."""

    def __init__(self, p=1, margin=1.0, weight=None, reduction="mean", name=None):
        super().__init__()
        self.p, self.margin, self.weight, self.reduction, self.name = p, margin, weight, reduction, name

    def forward(self, input, label):
        return F.multi_margin_loss(input, label, self.p, self.margin, self.weight, self.reduction)


class SoftMarginLoss(Layer):
    """log(1 + exp(-label * input)) (see F.soft_margin_loss)."""

    def __init__(self, reduction="mean", name=None):
        super().__init__()
        self.reduction, self.name = reduction, name

    def forward(self, input, label):
        return F.soft_margin_loss(input, label, self.reduction)


class MultiLabelSoftMarginLoss(Layer):
    """Per-label binary cross entropy, averaged over the labels (see F.multi_label_soft_margin_loss)."""

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        self.weight, self.reduction, self.name = weight, reduction, name

    def forward(self, input, label):
        return F.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)
