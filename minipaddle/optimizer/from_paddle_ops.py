"""The optimizer a Paddle training Program holds, rebuilt from its optimizer ops' type and attributes.

static/paddle_training.py reads a training `.pdmodel` that paddle 2.6 wrote and appends minipaddle's backward and
update ops; the optimizer object it needs is built here, a floor above static, and installed there on import:

    sgd                                   SGD
    momentum (mu, use_nesterov, l2_decay) Momentum(momentum, use_nesterov, weight_decay)
    adam (beta1, beta2, epsilon)          Adam
    adamw (... coeff, with_decay)         AdamW(weight_decay=coeff)
"""

from __future__ import annotations

from minipaddle.optimizer.adam import Adam
from minipaddle.optimizer.adamw import AdamW
from minipaddle.optimizer.momentum import Momentum
from minipaddle.optimizer.sgd import SGD
from minipaddle.static import paddle_training

__all__: list = []


def _number(value) -> float:
    """A float attribute as it was written in Python (Paddle stores float32: 0.9 reads as 0.8999999761581421)."""
    return float(f"{float(value):.7g}")


def optimizer_from_paddle_op(kind: str, attrs: dict):
    """The minipaddle optimizer for Paddle's optimizer op `kind` (sgd, momentum, adam, adamw) and its attributes
    (multi_precision: float16/bfloat16 parameters are updated through float32 master weights)."""
    multi_precision = bool(attrs.get("multi_precision", False))
    if kind == "sgd":
        return SGD(multi_precision=multi_precision)
    if kind == "momentum":
        decay = _number(attrs.get("regularization_coeff", 0.0)) if attrs.get("regularization_method") == "l2_decay" \
            else None  # fmt: skip
        mu, nesterov = _number(attrs.get("mu", 0.9)), bool(attrs.get("use_nesterov", False))
        return Momentum(momentum=mu, use_nesterov=nesterov, weight_decay=decay, multi_precision=multi_precision)
    betas = {k: _number(attrs.get(k, d)) for k, d in (("beta1", 0.9), ("beta2", 0.999), ("epsilon", 1e-8))}
    if kind == "adam":
        return Adam(**betas, lazy_mode=bool(attrs.get("lazy_mode", False)), multi_precision=multi_precision)
    coeff = _number(attrs.get("coeff", 0.01)) if attrs.get("with_decay", True) else 0.0
    return AdamW(**betas, weight_decay=coeff, multi_precision=multi_precision)


paddle_training.install_optimizers(optimizer_from_paddle_op)
