"""paddle.nn.functional.rnnt_loss: the RNN-Transducer loss (the op is warprnnt, in minipaddle/ops/rnnt_ops.py)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import PreconditionNotMetError, check_float_tensor, check_number, check_tensor

__all__ = ["rnnt_loss"]


def _check_int32(t, fn: str, arg: str, ndim: int) -> None:
    check_tensor(t, fn, arg)
    if t.dtype.name != "int32":
        raise TypeError(f"{fn}: {arg} must be an int32 tensor (as Paddle's warprnnt), got {t.dtype.name}")
    if t.ndim != ndim:
        raise ValueError(f"{fn}: {arg} must be {ndim}-D, got shape {list(t.shape)}")


def _check_lengths(label, input_lengths, label_lengths, steps: int, nodes: int, classes: int, fn: str) -> None:
    """Values Paddle's kernel trusts (it reads out of bounds or crashes on them); only known in dynamic mode."""
    t_len, u_len, ids = input_lengths.numpy(), label_lengths.numpy(), label.numpy()
    if t_len.size and (t_len.min() < 1 or t_len.max() > steps):
        raise ValueError(f"{fn}: input_lengths must be in [1, {steps}] (the input's time axis), got {t_len.tolist()}")
    if u_len.size and (u_len.min() < 0 or u_len.max() > nodes - 1):
        raise ValueError(f"{fn}: label_lengths must be in [0, {nodes - 1}] (the input's label axis minus 1), "
                         f"got {u_len.tolist()}")  # fmt: skip
    used = ids[np.arange(ids.shape[1])[None, :] < u_len[:, None]]
    if used.size and (used.min() < 0 or used.max() >= classes):
        raise ValueError(f"{fn}: label values must be in [0, {classes}), got values in [{used.min()}, {used.max()}]")


def rnnt_loss(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001, reduction="mean",
              name=None) -> Tensor:  # fmt: skip
    """The RNN-Transducer loss (Graves 2012), as Paddle's warprnnt (warp-transducer) computes it on CPU.

    For each sample, -log of the total probability of every path through the T x (U + 1) lattice that emits the
    labels in order, interleaved with blanks, ending with a blank at the last node. Like Paddle's CPU kernel, the
    values of `input` are read as log-probabilities as they are (no log_softmax is applied: pass
    ``F.log_softmax(logits, -1)`` for a normalized model; on raw scores the loss can be negative, as in Paddle).

    Args:
        input (Tensor): [B, Tmax, Umax + 1, V] log-probabilities, float32 or float64.
        label (Tensor): [B, Umax] int32 labels, padded.
        input_lengths (Tensor): [B] int32 lengths of the time axis (1 to Tmax).
        label_lengths (Tensor): [B] int32 label lengths (0 to Umax).
        blank (int, optional): the blank class, in [0, V). Default 0.
        fastemit_lambda (float, optional): FastEmit regularization (arXiv 2010.11148): the gradient of every label
            emission is multiplied by 1 + fastemit_lambda; the loss value is unchanged. Default 0.001.
        reduction (str, optional): 'none' gives [B]; 'sum' the sum; 'mean' the sum divided by B. Default 'mean'.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: the loss, [B] with reduction='none', else 0-D; the dtype of `input`.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> acts = paddle.to_tensor([[[[0.1, 0.6, 0.1, 0.1, 0.1], [0.1, 0.1, 0.6, 0.1, 0.1],
            ...                            [0.1, 0.1, 0.2, 0.8, 0.1]],
            ...                           [[0.1, 0.6, 0.1, 0.1, 0.1], [0.1, 0.1, 0.2, 0.1, 0.1],
            ...                            [0.7, 0.1, 0.2, 0.1, 0.1]]]], dtype="float64")
            >>> labels = paddle.to_tensor([[1, 2]], dtype="int32")
            >>> lengths = paddle.to_tensor([2], dtype="int32")
            >>> label_lengths = paddle.to_tensor([2], dtype="int32")
            >>> paddle.nn.functional.rnnt_loss(acts, labels, lengths, label_lengths, fastemit_lambda=0.0,
            ...                                reduction="sum")  # -2.85042444
    """
    fn = "rnnt_loss"
    check_float_tensor(input, fn, "input")
    if input.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{fn}: input must be float32 or float64, got {input.dtype.name}")
    if input.ndim != 4:
        raise ValueError(f"{fn}: input must be 4-D [batch, time, labels + 1, classes], got shape {list(input.shape)}")
    _check_int32(label, fn, "label", 2)
    _check_int32(input_lengths, fn, "input_lengths", 1)
    _check_int32(label_lengths, fn, "label_lengths", 1)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{fn}: reduction should be 'none', 'mean' or 'sum', got {reduction!r}")
    fastemit_lambda = float(check_number(fastemit_lambda, fn, "fastemit_lambda"))
    if not fastemit_lambda >= 0:  # (paddle 2.6's warprnnt: PreconditionNotMet)
        raise PreconditionNotMetError(f"{fn}: fastemit_lambda must be >= 0, got {fastemit_lambda}")
    batch, steps, nodes, classes = input.shape
    if not isinstance(blank, (int, np.integer)) or isinstance(blank, bool):
        raise TypeError(f"{fn}: blank must be an int, got {type(blank).__name__}")
    if classes >= 0 and not 0 <= blank < classes:
        raise ValueError(f"{fn}: blank must be in [0, {classes}) (the number of classes), got {blank}")
    if label.shape[1] >= 0 and nodes >= 0 and label.shape[1] != nodes - 1:
        raise ValueError(f"{fn}: label must have input.shape[2] - 1 = {nodes - 1} columns, got shape "
                         f"{list(label.shape)}")  # fmt: skip
    for arg, t in (("label", label), ("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if batch >= 0 and t.shape[0] >= 0 and t.shape[0] != batch:  # (paddle 2.6: PreconditionNotMet)
            raise PreconditionNotMetError(f"{fn}: {arg} must have the batch size {batch} as its first dimension, got "
                             f"shape {list(t.shape)}")  # fmt: skip
    if in_dynamic_mode():
        _check_lengths(label, input_lengths, label_lengths, steps, nodes, classes, fn)
    loss = ops.warprnnt(input, label, input_lengths, label_lengths, int(blank), fastemit_lambda)[0]
    if reduction == "mean":  # Paddle: the sum over the batch divided by the batch size (not by label lengths)
        return ops.mean(loss)
    return ops.sum(loss) if reduction == "sum" else loss
