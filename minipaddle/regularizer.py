"""paddle.regularizer: weight decay added to a parameter's gradient before the optimizer's update.

A regularizer is called as `regularizer(param, grad)` and returns the term the optimizer adds to the gradient:
- L2Decay(coeff): coeff * param          (the gradient of coeff/2 * ||param||^2)
- L1Decay(coeff): coeff * sign(param)    (the gradient of coeff * ||param||_1)

Where it comes from, for each parameter (as in paddle 2.6): the ParamAttr's `regularizer` if the parameter has one,
else the optimizer's `weight_decay` (a float means L2Decay). Gradient clipping runs before it, so the decay term
is never clipped. AdamW's decay is different (decoupled: it shrinks the parameter, not the gradient).
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_number

__all__ = ["L1Decay", "L2Decay"]


class WeightDecayRegularizer:
    """The base of L1Decay and L2Decay: `coeff` and the decay term for one parameter."""

    def __init__(self, coeff: float = 0.0) -> None:
        self._coeff = float(check_number(coeff, type(self).__name__, "coeff"))

    @property
    def coeff(self) -> float:
        return self._coeff

    def __call__(self, param: Tensor, grad: Tensor, block=None) -> Tensor:
        """The term to add to `grad` (`block` is static mode's; unused in dynamic mode)."""
        raise TypeError(f"{type(self).__name__} is abstract; use L1Decay or L2Decay")

    def __str__(self) -> str:
        return f"{type(self).__name__}, coeff={self._coeff:f}"

    __repr__ = __str__


class L2Decay(WeightDecayRegularizer):
    """L2 weight decay: adds `coeff * param` to the gradient.

    Args:
        coeff: the decay coefficient (default 0.0).

    Example:
        >>> attr = paddle.ParamAttr(regularizer=paddle.regularizer.L2Decay(1e-4))   # for one parameter
        >>> linear = paddle.nn.Linear(10, 10, weight_attr=attr)
        >>> opt = paddle.optimizer.Momentum(0.1, parameters=linear.parameters(),
        ...                                 weight_decay=paddle.regularizer.L2Decay(1e-4))   # for the others
    """

    def __call__(self, param: Tensor, grad: Tensor, block=None) -> Tensor:
        return ops.scale(param, self._coeff)


class L1Decay(WeightDecayRegularizer):
    """L1 weight decay: adds `coeff * sign(param)` to the gradient, pushing small weights to exactly zero.

    Args:
        coeff: the decay coefficient (default 0.0).

    Example:
        >>> decay = paddle.regularizer.L1Decay(1e-4)
        >>> opt = paddle.optimizer.SGD(0.1, parameters=linear.parameters(), weight_decay=decay)
    """

    def __call__(self, param: Tensor, grad: Tensor, block=None) -> Tensor:
        return ops.scale(ops.sign(param), self._coeff)
