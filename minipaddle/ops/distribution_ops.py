"""Random ops that paddle.distribution needs and ops/random_ops.py lacks: standard_gamma.

As every random op here, the kernel draws from `STATE.rng` when it runs, so `paddle.seed(n)` makes the draws
repeat. Paddle 2.6 gives these draws no gradient (Beta and Dirichlet have no rsample), so neither do we.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = ["standard_gamma"]  # the raw op functions; ops/__init__.py gathers them


@register
class StandardGamma(OpDef):
    """One Gamma(alpha, 1) draw per element alpha of x, in x's dtype and shape (the building block of
    Beta and Dirichlet samples: Dirichlet(alpha) = gamma draws divided by their sum)."""

    name = "standard_gamma"
    random = True
    differentiable = False
    saves_inputs = False

    def kernel(self, x):
        alpha = x.astype(np.float64)
        if alpha.size and not np.all(alpha > 0):  # also catches nan
            raise ValueError("standard_gamma: every concentration in x must be > 0")
        return STATE.rng.standard_gamma(alpha).astype(x.dtype)

    def infer_meta(self, x: Meta) -> Meta:
        return x


def standard_gamma(x: Tensor) -> Tensor:
    return apply(StandardGamma, (x,))
