"""paddle.nn.RNNTLoss: the RNN-Transducer loss layer (see paddle.nn.functional.rnnt_loss)."""

from __future__ import annotations

from minipaddle.nn.functional.rnnt import rnnt_loss
from minipaddle.nn.layer.layers import Layer

__all__ = ["RNNTLoss"]


class RNNTLoss(Layer):
    """The RNN-Transducer loss of [B, T, U + 1, V] log-probabilities against [B, U] int32 labels.

    Args:
        blank (int, optional): the blank class. Default 0.
        fastemit_lambda (float, optional): FastEmit regularization: label emissions' gradients are multiplied by
            1 + fastemit_lambda. Default 0.001.
        reduction (str, optional): 'none' | 'mean' (sum / batch size) | 'sum'. Default 'mean'.
        name (str, optional): unused, for Paddle compatibility.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> loss_fn = paddle.nn.RNNTLoss(reduction="sum", fastemit_lambda=0.0)
            >>> # loss = loss_fn(log_probs, labels, input_lengths, label_lengths)
    """

    def __init__(self, blank=0, fastemit_lambda=0.001, reduction="mean", name=None):
        super().__init__()
        self.blank = blank
        self.reduction = reduction
        self.fastemit_lambda = fastemit_lambda
        self.name = name

    def forward(self, input, label, input_lengths, label_lengths):
        return rnnt_loss(input, label, input_lengths, label_lengths, blank=self.blank,
                         fastemit_lambda=self.fastemit_lambda, reduction=self.reduction, name=self.name)  # fmt: skip
