"""The optimizer a Paddle training Program holds, rebuilt from its optimizer ops' type and attributes.

static/paddle_training.py reads a training `.pdmodel` that paddle 2.6 wrote and appends minipaddle's backward and
update ops; the optimizer object it needs is built here, a floor above static, and installed there on import:

    sgd                                   SGD
    momentum (mu, use_nesterov, l2_decay) Momentum(momentum, use_nesterov, weight_decay)
    adam (beta1, beta2, epsilon)          Adam
    adamw (... coeff, with_decay)         AdamW(weight_decay=coeff)

with the gradient clip and weight decay the Program's ops hold (static/paddle_clip_ops.py reads them): the clip
as `grad_clip` (the parameters it leaves out get need_clip=False), one regularizer for all parameters as
`weight_decay`, regularizers that differ as each parameter's own (ParamAttr's `regularizer`).
"""

from __future__ import annotations

from minipaddle.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from minipaddle.optimizer.adam import Adam
from minipaddle.optimizer.adamw import AdamW
from minipaddle.optimizer.momentum import Momentum
from minipaddle.optimizer.sgd import SGD
from minipaddle.regularizer import L1Decay, L2Decay
from minipaddle.static import paddle_training

__all__: list = []


def _number(value) -> float:
    """A float attribute as it was written in Python (Paddle stores float32: 0.9 reads as 0.8999999761581421)."""
    return float(f"{float(value):.7g}")


_CLIPS = {"ClipGradByGlobalNorm": ClipGradByGlobalNorm, "ClipGradByNorm": ClipGradByNorm,
          "ClipGradByValue": ClipGradByValue}  # fmt: skip
_DECAYS = {"L1Decay": L1Decay, "L2Decay": L2Decay}


def optimizer_from_paddle_op(kind: str, attrs: dict, clip=None, decays=None, params=()):
    """The minipaddle optimizer for Paddle's optimizer op `kind` (sgd, momentum, adam, adamw) and its attributes
    (multi_precision: float16/bfloat16 parameters are updated through float32 master weights), with the clip
    (class name, its arguments, the names of the parameters it clips) or None and the regularizers
    {parameter name: (L1Decay|L2Decay, coeff)} of the Program's parameters `params` (Variables) it updates."""
    grad_clip = None
    if clip is not None:
        grad_clip = _CLIPS[clip[0]](*clip[1])
        for p in params:
            p.need_clip = p.name in clip[2]
    decays = decays or {}
    shared = {decays.get(p.name) for p in params}
    weight_decay = None
    if len(shared) == 1 and None not in shared and kind != "adamw":  # one for all (AdamW's is its own coeff)
        weight_decay = _DECAYS[decays[params[0].name][0]](decays[params[0].name][1])
    else:
        for p in params:
            if p.name in decays:
                p.regularizer = _DECAYS[decays[p.name][0]](decays[p.name][1])
    multi_precision = bool(attrs.get("multi_precision", False))
    given = {"grad_clip": grad_clip, "weight_decay": weight_decay, "multi_precision": multi_precision}
    if kind == "sgd":
        return SGD(**given)
    if kind == "momentum":
        if attrs.get("regularization_method") == "l2_decay":  # Paddle's momentum op holds an L2Decay itself
            given["weight_decay"] = _number(attrs.get("regularization_coeff", 0.0))
        mu, nesterov = _number(attrs.get("mu", 0.9)), bool(attrs.get("use_nesterov", False))
        return Momentum(momentum=mu, use_nesterov=nesterov, **given)
    betas = {k: _number(attrs.get(k, d)) for k, d in (("beta1", 0.9), ("beta2", 0.999), ("epsilon", 1e-8))}
    if kind == "adam":
        return Adam(**betas, lazy_mode=bool(attrs.get("lazy_mode", False)), **given)
    coeff = _number(attrs.get("coeff", 0.01)) if attrs.get("with_decay", True) else 0.0
    return AdamW(**betas, weight_decay=coeff, grad_clip=grad_clip, multi_precision=multi_precision)


paddle_training.install_optimizers(optimizer_from_paddle_op)
