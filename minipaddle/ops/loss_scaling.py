"""Loss scaling's two fused ops, with paddle's names: check_finite_and_unscale and update_loss_scaling.

A loss-scaled step divides every gradient by the scale and asks whether any of them holds Inf or NaN. Spelled out
in element-wise ops that is five ops per gradient (cast to float32, scale, cast back, isfinite, all); paddle does
it in one op over the whole list of gradients, and so does minipaddle: a LeNet step's ten gradients cost one
dispatch instead of fifty, and the cast map shows one node where the scaler works.

- check_finite_and_unscale(*grads, scale) -> (*unscaled, found_inf): each gradient times 1/scale, computed in
  float32 for float16/bfloat16 gradients and rounded once to their dtype (paddle's GPU kernel: MPDType math);
  found_inf (bool [1]) is True when any unscaled value is Inf or NaN. Paddle's CPU kernel (float32/float64 only)
  multiplies the gradients after the first bad one by 0 instead; minipaddle follows the GPU kernel, as the rest
  of its AMP does, so every gradient is unscaled alike.
- update_loss_scaling(*grads, found_inf, scale, good_steps, bad_steps) -> (*grads, scale, good_steps, bad_steps):
  paddle's static-graph rule. A bad step zeroes the gradients, counts a bad step and, every
  decr_every_n_nan_or_inf of them, multiplies the scale by decr_ratio (never below 1); a good step counts a good
  step and, every incr_every_n_steps of them, multiplies the scale by incr_ratio if the result is finite.
  stop_update=True zeroes the gradients only. (Dygraph's GradScaler updates its scale in Python, without the
  clamp at 1, as paddle 2.6's does: see amp/grad_scaler.py.)

Neither op has a gradient, and AMP never casts their inputs: each gradient keeps its dtype.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.ops.half_casts import from_float32, to_float32
from minipaddle.ops.low_precision import LOW_CODES

__all__ = ["check_finite_and_unscale", "update_loss_scaling"]

_BOOL = dtypes.from_numpy(np.dtype(np.bool_))
_INT32 = dtypes.from_numpy(np.dtype(np.int32))


class LossScalingOp(OpDef):
    differentiable = False
    saves_inputs = False
    amp = "keep"  # each gradient keeps its dtype; the scale and counters are float32 / int32


@register
class CheckFiniteAndUnscale(LossScalingOp):
    """Inputs: the gradients, then the scale (float32 [1]). Outputs: the unscaled gradients, then found_inf."""

    name = "check_finite_and_unscale"

    def kernel(self, *arrays):
        *grads, scale = arrays
        inverse = np.float32(1.0) / scale.astype(np.float32).reshape(())
        outs, finite = [], True
        with np.errstate(over="ignore", invalid="ignore"):  # Inf/NaN are the answer here, not an error
            for g in grads:
                if g.dtype.char in LOW_CODES:  # float32 math, one rounding to the gradient's dtype
                    unscaled = to_float32(g) * inverse
                    out = from_float32(unscaled, g.dtype)
                    if finite and not _all_finite_low(g, inverse, unscaled):
                        finite = False
                else:
                    out = unscaled = g * inverse.astype(g.dtype)
                    if finite and not np.isfinite(unscaled).all():
                        finite = False
                outs.append(out)
        return (*outs, np.array([not finite]))

    def infer_meta(self, *metas: Meta):
        return (*metas[:-1], Meta((1,), _BOOL))


_INF_CODE = {"e": np.uint16(0x7C00), "E": np.uint16(0x7F80)}  # +inf's bits in float16 and bfloat16: NaNs lie above


def _all_finite_low(g: np.ndarray, inverse: np.float32, unscaled: np.ndarray) -> bool:
    """Whether unscaled = float32(g) * inverse holds no Inf or NaN, for a float16/bfloat16 g.

    With 0 <= inverse <= 1 (a loss scale of 1 or more, or Inf) no finite value of g becomes Inf in float32 and Inf
    or NaN stay not finite (Inf * 0 is NaN), so the answer is g's: its magnitudes' bits all below Inf's, one pass
    over 16-bit integers instead of isfinite over the float32 products. Any other inverse asks the products."""
    if not np.float32(0) <= inverse <= np.float32(1) or g.size == 0:
        return bool(np.isfinite(unscaled).all())
    return bool((g.view(np.uint16) & np.uint16(0x7FFF)).max() < _INF_CODE[g.dtype.char])


def check_finite_and_unscale(grads, scale) -> tuple:
    """(unscaled grads..., found_inf). `grads` is a list of Tensors, `scale` a float32 Tensor of one element."""
    return apply(CheckFiniteAndUnscale, (*grads, scale))


@register
class UpdateLossScaling(LossScalingOp):
    """Inputs: the gradients, found_inf, the scale, good and bad step counters (int32 [1]).
    Outputs: the gradients (zeros on a bad step), the new scale, the new counters."""

    name = "update_loss_scaling"

    def kernel(self, *arrays, incr_every_n_steps, decr_every_n_nan_or_inf, incr_ratio, decr_ratio,
               stop_update=False):  # fmt: skip
        *grads, found_inf, scale, good, bad = arrays
        bad_step = bool(found_inf.reshape(-1)[0])
        outs = [np.zeros_like(g) if bad_step else g.copy() for g in grads]
        new_scale, new_good, new_bad = scale.copy(), good.copy(), bad.copy()
        if not stop_update:
            if bad_step:
                new_good[...] = 0
                new_bad[...] = bad + 1
                if int(new_bad.reshape(-1)[0]) == decr_every_n_nan_or_inf:
                    new_scale[...] = np.maximum(scale * scale.dtype.type(decr_ratio), scale.dtype.type(1))
                    new_bad[...] = 0
            else:
                new_bad[...] = 0
                new_good[...] = good + 1
                if int(new_good.reshape(-1)[0]) == incr_every_n_steps:
                    with np.errstate(over="ignore"):
                        larger = scale * scale.dtype.type(incr_ratio)
                    new_scale[...] = np.where(np.isfinite(larger), larger, scale)
                    new_good[...] = 0
        return (*outs, new_scale, new_good, new_bad)

    def infer_meta(self, *metas: Meta, **attrs):
        *grads, _found_inf, scale, good, bad = metas
        return (*grads, scale, good, bad)


def update_loss_scaling(grads, found_inf, scale, good_steps, bad_steps, incr_every_n_steps,
                        decr_every_n_nan_or_inf, incr_ratio, decr_ratio, stop_update=False) -> tuple:  # fmt: skip
    """(grads..., new scale, new good_steps, new bad_steps), as the module docstring says."""
    attrs = {
        "incr_every_n_steps": int(incr_every_n_steps),
        "decr_every_n_nan_or_inf": int(decr_every_n_nan_or_inf),
        "incr_ratio": float(incr_ratio),
        "decr_ratio": float(decr_ratio),
        "stop_update": bool(stop_update),
    }
    return apply(UpdateLossScaling, (*grads, found_inf, scale, good_steps, bad_steps), attrs)
