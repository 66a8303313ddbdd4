"""The op behind paddle.static.nn.data_norm: normalization by running statistics kept as three parameters
(BatchSize, BatchSum, BatchSquareSum), whose "gradients" are this batch's own statistics, so that an optimizer
step moves them towards the data (Paddle's CTR models train them this way).

data_norm_grad is its own op: the statistics' pseudo-gradients are not derivatives, so no composition of
other ops' gradients gives them.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["data_norm", "data_norm_grad"]  # the raw op functions; ops/__init__.py gathers them

_MIN_SHOW = 1e-7  # a slot whose show number is closer to zero than this counts as empty (Paddle's min_precision)


def _stats(batch_size, batch_sum, batch_square_sum):
    """The mean and the inverse standard deviation that the statistics stand for (epsilon is not used here)."""
    return batch_sum / batch_size, np.sqrt(batch_size / batch_square_sum)


def _shown(x: np.ndarray, slot_dim: int) -> np.ndarray | None:
    """[N, C] True where the element's slot is shown (its first column, the show number, is not zero); None for
    slot_dim <= 0 (every element counts)."""
    if slot_dim <= 0:
        return None
    show = x[:, ::slot_dim]
    return np.repeat(~((show > -_MIN_SHOW) & (show < _MIN_SHOW)), slot_dim, axis=1)


@register
class DataNorm(OpDef):
    """y = (x - batch_sum / batch_size) * sqrt(batch_size / batch_square_sum), per column of the [N, C] input;
    with scale_w and bias given, y = y * scale_w + bias. With slot_dim > 0 the columns come in slots of slot_dim
    whose first column is the show number: a row's slot with show 0 gives zeros."""

    name = "data_norm"

    def kernel(self, x, batch_size, batch_sum, batch_square_sum, scale_w, bias, epsilon=1e-5,
               slot_dim=-1):  # fmt: skip
        means, scales = _stats(batch_size, batch_sum, batch_square_sum)
        y = (x - means) * scales
        if scale_w is not None:
            y = y * scale_w + bias
        shown = _shown(x, slot_dim)
        if shown is not None:
            y = np.where(shown, y, 0)
        return y.astype(x.dtype)

    def infer_meta(self, x: Meta, *rest, epsilon=1e-5, slot_dim=-1):
        return x

    def grad(self, node, g):
        x, size, total, square, *affine = node.inputs  # static mode drops trailing None inputs
        scale_w = affine[0] if affine else None
        outs = ops.data_norm_grad(x, g, size, total, square, scale_w, node.attrs["epsilon"], node.attrs["slot_dim"])
        dx, d_size, d_sum, d_square, d_scale, d_bias = outs
        affine_grads = (d_scale, d_bias) if scale_w is not None else (None,) * len(affine)
        return dx, d_size, d_sum, d_square, *affine_grads


@register
class DataNormGrad(OpDef):
    """data_norm's gradients, as Paddle's CPU kernel computes them. Outputs:

    - dx = dy * scales (times scale_w with scale and shift; then also zero in empty slots);
    - the statistics' pseudo-gradients: N, the column sums of x, and sum((x - means)^2) + N * epsilon, where
      means is the mean the statistics stand for, not the batch's. With slot_dim > 0 each column counts only the
      rows whose slot is shown, and becomes 1, sum / count, square / count + count * epsilon (all 0 when no row
      shows it);
    - d scale_w = sum(dy * (x - means) * scales), d bias = sum(dy), over shown rows (zeros without scale_w).
    """

    name = "data_norm_grad"
    differentiable = False

    def kernel(self, x, dy, batch_size, batch_sum, batch_square_sum, scale_w, epsilon=1e-5, slot_dim=-1):
        means, scales = _stats(batch_size, batch_sum, batch_square_sum)
        eps = np.asarray(np.float32(epsilon), x.dtype)  # a float attribute in Paddle's op
        shown = _shown(x, slot_dim)
        weight = np.ones_like(x) if shown is None else shown.astype(x.dtype)
        dx = dy * scales
        d_scale, d_bias = np.zeros_like(means), np.zeros_like(means)
        if scale_w is not None:
            dx = dx * scale_w * weight
            d_bias = np.sum(dy * weight, axis=0)
            d_scale = np.sum((x - means) * scales * dy * weight, axis=0)
        count = np.sum(weight, axis=0)
        total = np.sum(x * weight, axis=0)
        square = np.sum(np.square(x - means) * weight, axis=0)
        if shown is None:
            square = square + count * eps
        else:
            seen = count >= 1
            safe = np.where(seen, count, 1)
            total = np.where(seen, total / safe, 0)
            square = np.where(seen, square / safe + count * eps, 0)
            count = seen.astype(x.dtype)
        return tuple(a.astype(x.dtype) for a in (dx, count, total, square, d_scale, d_bias))

    def infer_meta(self, x: Meta, dy: Meta, batch_size: Meta, *rest, epsilon=1e-5, slot_dim=-1):
        return x, batch_size, batch_size, batch_size, batch_size, batch_size


def data_norm(x: Tensor, batch_size: Tensor, batch_sum: Tensor, batch_square_sum: Tensor, scale_w=None, bias=None,
              epsilon: float = 1e-5, slot_dim: int = -1):  # fmt: skip
    attrs = {"epsilon": float(epsilon), "slot_dim": int(slot_dim)}
    return apply(DataNorm, (x, batch_size, batch_sum, batch_square_sum, scale_w, bias), attrs)


def data_norm_grad(x: Tensor, dy: Tensor, batch_size: Tensor, batch_sum: Tensor, batch_square_sum: Tensor,
                   scale_w=None, epsilon: float = 1e-5, slot_dim: int = -1):  # fmt: skip
    attrs = {"epsilon": float(epsilon), "slot_dim": int(slot_dim)}
    return apply(DataNormGrad, (x, dy, batch_size, batch_sum, batch_square_sum, scale_w), attrs)
