"""paddle.incubate's optimizer wrappers: LookAhead (slow weights over an inner optimizer) and ModelAverage
(a sliding-window average of the parameters, applied for evaluation).

Both follow paddle 2.6's dynamic-mode code step by step, state in accumulators named like Paddle's
(`<param name>_slow_0`, `<param name>_sum_1_0`, ...), so `state_dict()` lists the same keys. They work in dynamic
mode only: their static-graph forms (a Program with conditional assigns, apply/restore Programs) are not built.
"""

from __future__ import annotations

import contextlib
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.tensor.creation import to_tensor

__all__ = ["LookAhead", "ModelAverage"]

_ASSIGN = get_op("assign")


def _set(target: Tensor, value: Tensor) -> None:
    """target <- value, in place (value is cast to target's dtype)."""
    if value.dtype != target.dtype:
        value = ops.cast(value, target.dtype.np)
    apply_inplace(_ASSIGN, target, (value,))


def _zeros(like: Tensor) -> Tensor:
    return ops.full_like(like, 0, like.dtype.np)


def _dynamic_only(cls: str, what: str) -> None:
    if STATE.static_mode:
        raise RuntimeError(f"{cls}.{what}: only dynamic mode is supported in minipaddle (call paddle.disable_static())")


def _with_grad(params: list) -> list:
    """(param, grad) for the trainable parameters that have a gradient, in the given order."""
    return [(p, p.grad) for p in params if not p.stop_gradient and p.grad is not None]


class LookAhead(Optimizer):
    r"""The Lookahead optimizer (https://arxiv.org/abs/1907.08610): the inner optimizer updates the "fast"
    parameters every step; every k steps the "slow" copies move toward them and the fast ones restart there:

    .. math::

        slow\_param_t = slow\_param_{t-1} + \alpha (fast\_param_{t-1} - slow\_param_{t-1}), \qquad
        fast\_param_t = slow\_param_t

    At the first step the slow copy starts from the parameter (after the inner update), as in Paddle.

    Args:
        inner_optimizer (Optimizer): the optimizer that updates the fast parameters at every step.
        alpha (float, optional): the slow parameters' step, in [0, 1]. Default 0.5.
        k (int, optional): the slow parameters are updated every k steps; a positive int. Default 5.
        name (str, optional): a prefix for the accumulators' names.

    Examples:
        >>> linear = paddle.nn.Linear(10, 1)
        >>> sgd = paddle.optimizer.SGD(learning_rate=0.1, parameters=linear.parameters())
        >>> lookahead = paddle.incubate.LookAhead(sgd, alpha=0.2, k=5)
        >>> paddle.mean(linear(paddle.rand([1, 10]))).backward()
        >>> lookahead.step()
        >>> lookahead.clear_grad()
    """

    _slow_str = "slow"

    def __init__(self, inner_optimizer, alpha=0.5, k=5, name=None) -> None:
        if inner_optimizer is None:
            raise ValueError("LookAhead: inner_optimizer can not be None")
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError(
                f"LookAhead: inner_optimizer must be a paddle optimizer, got {type(inner_optimizer).__name__}"
            )
        if not isinstance(alpha, numbers.Real) or isinstance(alpha, bool):
            raise TypeError(f"LookAhead: alpha must be a float, got {type(alpha).__name__}")
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(
                f"LookAhead: alpha should be larger or equal to 0.0, and less or equal than 1.0, got {alpha}"
            )
        if not isinstance(k, int) or isinstance(k, bool) or k <= 0:
            raise ValueError(f"LookAhead: k should be a positive integer, got {k!r}")
        self.inner_optimizer = inner_optimizer
        # Paddle passes alpha as the learning rate of the base Optimizer (an int alpha is refused there).
        super().__init__(alpha, inner_optimizer._parameter_list, None, None, name)
        self.alpha = alpha
        self.k = k
        self.type = "lookahead"
        self._global_step = 0  # steps taken (Paddle's `lookahead_step` variable)

    @no_grad()
    def step(self) -> None:
        """One step of the inner optimizer, then LookAhead's own update of the parameters that have a gradient."""
        _dynamic_only("LookAhead", "step")
        self.inner_optimizer.step()
        self._global_step += 1
        self._update_slow(_with_grad(self._all_params()))

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None) -> tuple:
        """The inner optimizer's minimize (after `loss.backward()`), then LookAhead's update.
        Returns the inner optimizer's (optimize_ops, params_grads)."""
        if not isinstance(loss, Tensor):
            raise TypeError(f"LookAhead.minimize: loss must be a Tensor, got {type(loss).__name__}")
        _dynamic_only("LookAhead", "minimize")
        optimize_ops, params_grads = self.inner_optimizer.minimize(loss, startup_program, parameters, no_grad_set)
        self._global_step += 1
        with no_grad():
            self._update_slow([(p, g) for p, g in params_grads if not p.stop_gradient])
        return optimize_ops, params_grads

    def _update_slow(self, params_grads: list) -> None:
        """Paddle's _append_optimize_op for each parameter: start the slow copy at step 1, sync every k steps."""
        first, sync = self._global_step == 1, self._global_step % self.k == 0
        for param, _ in params_grads:
            slow = self._add_accumulator(self._slow_str, param)
            if first:
                _set(slow, param)
            if sync:
                mixed = ops.add(ops.scale(param, self.alpha), ops.scale(slow, 1.0 - self.alpha))
                _set(param, mixed)
                _set(slow, mixed)


class ModelAverage(Optimizer):
    r"""Keep a sliding-window average of the parameters, to evaluate with: `apply()` puts the average into the
    parameters (and by default restores them on leaving), `restore()` puts the training values back.

    Each `step()` adds the current parameters to the window (it does not change them: train with another
    optimizer and call `model_average.step()` after it). The window restarts when

        num_accumulates >= min_average_window and
        num_accumulates >= min(max_average_window, num_updates * average_window_rate)

    the sums so far then moving to `sum_3`, which the average still counts (`old_num_accumulates` of them).
    Every 16384 updates `sum_1` is folded into `sum_2` to keep precision. The average is
    (sum_1 + sum_2 + sum_3) / (num_accumulates + old_num_accumulates), computed in float32 as Paddle does.

    Args:
        average_window_rate (float): the window's length as a fraction of the number of updates.
        parameters (list): the parameters to average (required in dynamic mode).
        min_average_window (int, optional): the window's minimum length. Default 10000.
        max_average_window (int, optional): the window's maximum length. Default 10000.
        name (str, optional): a prefix for the accumulators' names.

    Examples:
        >>> linear = paddle.nn.Linear(10, 1)
        >>> sgd = paddle.optimizer.SGD(learning_rate=0.1, parameters=linear.parameters())
        >>> model_average = paddle.incubate.ModelAverage(0.15, parameters=linear.parameters(),
        ...                                              min_average_window=2, max_average_window=10)
        >>> paddle.mean(linear(paddle.rand([4, 10]))).backward()
        >>> sgd.step()
        >>> model_average.step()
        >>> with model_average.apply():
        ...     prediction = linear(paddle.rand([4, 10]))
    """

    _MAX_NUM_ACCUMULATES = 16384  # Paddle's kMaxNumAccumulates

    def __init__(self, average_window_rate, parameters=None, min_average_window=10000, max_average_window=10000,
                 name=None) -> None:  # fmt: skip
        if not isinstance(average_window_rate, numbers.Real) or isinstance(average_window_rate, bool):
            raise TypeError(
                f"ModelAverage: average_window_rate must be a float, got {type(average_window_rate).__name__}"
            )
        for arg, v in (("min_average_window", min_average_window), ("max_average_window", max_average_window)):
            if not isinstance(v, numbers.Integral) or isinstance(v, bool):
                raise TypeError(f"ModelAverage: {arg} must be an int, got {type(v).__name__}")
        _dynamic_only("ModelAverage", "__init__")
        super().__init__(0.0, parameters, None, None, name)
        self.average_window = average_window_rate
        self.min_average_window = int(min_average_window)
        self.max_average_window = int(max_average_window)
        self.type = "average_accumulates"

    def _create_accumulators(self, params: list) -> None:
        for param in params:
            for name in ("sum_1", "sum_2", "sum_3", "restore"):
                self._add_accumulator(name, param)
            for name in ("num_accumulates", "old_num_accumulates", "num_updates"):
                self._add_accumulator(name, param, dtype="int64", shape=[1])

    @no_grad()
    def step(self) -> None:
        """Add the parameters that have a gradient to the window (accumulators are made for all of them)."""
        _dynamic_only("ModelAverage", "step")
        if self.min_average_window > self.max_average_window:
            raise ValueError(
                f"ModelAverage.step: min_average_window ({self.min_average_window}) must not be larger than "
                f"max_average_window ({self.max_average_window})"
            )
        params_grads = _with_grad(self._all_params())
        self._create_accumulators(self._all_params())
        for param, _ in params_grads:
            self._accumulate(param)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None) -> None:
        """Same as `step()` (dynamic mode)."""
        self.step()

    def _acc(self, name: str, param: Tensor) -> Tensor:
        if self._name is not None:
            name = f"{self._name}_{name}"
        return self._accumulators[name][param.name]

    def _accumulate(self, param: Tensor) -> None:
        """Paddle's average_accumulates kernel, in place; the counters are read to choose the branch."""
        sum_1, sum_2, sum_3 = (self._acc(n, param) for n in ("sum_1", "sum_2", "sum_3"))
        counters = [self._acc(n, param) for n in ("num_updates", "num_accumulates", "old_num_accumulates")]
        num_updates, num_accumulates, old_num_accumulates = (int(c.item()) for c in counters)
        num_updates += 1
        num_accumulates += 1
        _set(sum_1, ops.add(sum_1, param))
        if num_updates % self._MAX_NUM_ACCUMULATES == 0:  # move the sum to another buffer, for precision
            _set(sum_2, ops.add(sum_2, sum_1))
            _set(sum_1, _zeros(sum_1))
        # num_updates * average_window in float32 (the attribute's type), truncated, as Paddle's min<int64_t>.
        window = min(self.max_average_window, int(np.float32(num_updates) * np.float32(self.average_window)))
        if num_accumulates >= self.min_average_window and num_accumulates >= window:  # the window is full: restart
            _set(sum_3, ops.add(sum_1, sum_2))
            _set(sum_1, _zeros(sum_1))
            _set(sum_2, _zeros(sum_2))
            old_num_accumulates, num_accumulates = num_accumulates, 0
        for counter, value in zip(counters, (num_updates, num_accumulates, old_num_accumulates)):
            _set(counter, to_tensor([value], dtype="int64"))

    @contextlib.contextmanager
    def apply(self, executor=None, need_restore=True):
        """Put the average into the parameters (keeping their values for `restore()`); a context manager that
        restores them on leaving when need_restore is True.

        Example:
            >>> with model_average.apply():
            ...     evaluate(model)          # with the averaged parameters
            >>> # the training values are back here
        """
        _dynamic_only("ModelAverage", "apply")
        with no_grad():
            for param in self._all_params():
                self._check_has_state(param, "apply")
                _set(self._acc("restore", param), param)
                total = ops.add(
                    ops.add(self._acc("sum_1", param), self._acc("sum_2", param)), self._acc("sum_3", param)
                )
                count = ops.add(self._acc("num_accumulates", param), self._acc("old_num_accumulates", param))
                average = ops.divide(ops.cast(total, dtypes.float32.np), ops.cast(count, dtypes.float32.np))
                _set(param, average)
        try:
            yield
        finally:
            if need_restore:
                self.restore()

    def restore(self, executor=None) -> None:
        """Put back the parameter values saved by the last `apply()`."""
        _dynamic_only("ModelAverage", "restore")
        with no_grad():
            for param in self._all_params():
                self._check_has_state(param, "restore")
                _set(param, self._acc("restore", param))

    def _check_has_state(self, param: Tensor, what: str) -> None:
        name = "sum_1" if self._name is None else f"{self._name}_sum_1"
        if param.name not in self._accumulators.get(name, {}):
            raise RuntimeError(
                f"ModelAverage.{what}: parameter {param.name} has no accumulated values yet; call step() first"
            )
