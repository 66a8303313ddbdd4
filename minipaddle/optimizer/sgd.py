"""SGD: plain stochastic gradient descent."""

from __future__ import annotations

from minipaddle.core.op import get_op
from minipaddle.optimizer.optimizer import Optimizer

__all__ = ["SGD"]

_SGD = get_op("sgd")


class SGD(Optimizer):
    r"""Stochastic gradient descent:

        param = param - learning_rate * grad

    Args:
        learning_rate: a float or an LRScheduler (default 0.001).
        parameters: the Tensors to update, or a list of parameter-group dicts.
        weight_decay: a float (L2 coefficient), L1Decay/L2Decay, or None.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        multi_precision: keep a float32 copy of float16 parameters and update that.
        name: a prefix for the optimizer's state names.

    Example:
        >>> linear = paddle.nn.Linear(10, 10)
        >>> sgd = paddle.optimizer.SGD(learning_rate=0.1, parameters=linear.parameters(), weight_decay=0.01)
        >>> linear(paddle.rand([4, 10])).mean().backward()
        >>> sgd.step()
        >>> sgd.clear_grad()
    """

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None, multi_precision=False,
                 name=None) -> None:  # fmt: skip
        if learning_rate is None:
            raise ValueError("SGD: learning_rate is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)

    def _update_param(self, param, grad, lr, options) -> None:
        self._write_param(_SGD, param, (param, grad, lr), {}, options)
