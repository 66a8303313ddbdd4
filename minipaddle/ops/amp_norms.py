"""The normalizations under AMP: each is ONE Paddle op, decided once, in dynamic and in static mode alike.

minipaddle computes F.batch_norm, layer_norm, group_norm and instance_norm as compositions of small ops
(standardize, multiply, add). Paddle has one fused op for each, and AMP decides that op as a whole:

- batch_norm and layer_norm (and sync_batch_norm): only x decides the dtype and only x is cast; the scale, bias
  and running statistics keep their dtype (float32), and the output has x's dtype;
- group_norm and instance_norm: every floating input decides and is cast, as for an ordinary op;
- whatever dtype x arrives in, the kernel accumulates its statistics and applies the affine step in float32 and
  rounds the output once to x's dtype.

Dynamic mode applies this in minipaddle/amp/composite.py, the static rewrite (static/passes/amp_cast.py) on the ops
a normalization built, which static/op_groups.py marks as one group. Both read the rule from here, which sits on
the ops floor so that amp/ and static/ can both import it.

O2's parameters: `paddle.amp.decorate` keeps the parameters of BatchNorm in float32 always, those of LayerNorm
and InstanceNorm for float16 (bfloat16 has float32's range, so they are cast); the static O2 rewrite counts a
normalization's parameters by the same rule.
"""

from __future__ import annotations

__all__ = ["NORM_OPS", "CAST_ONLY_X", "cast_inputs", "keeps_float32_parameters"]

CAST_ONLY_X = frozenset({"batch_norm", "layer_norm", "sync_batch_norm"})
NORM_OPS = CAST_ONLY_X | {"group_norm", "instance_norm"}

_FLOAT32_PARAMETERS = {
    "float16": frozenset({"batch_norm", "sync_batch_norm", "layer_norm", "instance_norm"}),
    "bfloat16": frozenset({"batch_norm", "sync_batch_norm"}),
}


def cast_inputs(paddle_op: str, n_inputs: int) -> range:
    """The positions of the inputs (x first) that decide the op's dtype and that AMP casts to it."""
    return range(min(1, n_inputs)) if paddle_op in CAST_ONLY_X else range(n_inputs)


def keeps_float32_parameters(paddle_op: str, dtype: str) -> bool:
    """Whether O2 with low dtype `dtype` ('float16' or 'bfloat16') keeps this normalization's parameters float32."""
    return paddle_op in _FLOAT32_PARAMETERS.get(dtype, ())
