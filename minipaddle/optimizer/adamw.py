"""AdamW: Adam with decoupled weight decay."""

from __future__ import annotations

from minipaddle.optimizer.adam import adam_step, check_betas
from minipaddle.optimizer.optimizer import Optimizer

__all__ = ["AdamW"]


class AdamW(Optimizer):
    r"""AdamW (Loshchilov & Hutter, "Decoupled Weight Decay Regularization"):

        param = param * (1 - learning_rate * weight_decay)      (the decay: on the parameter, not the gradient)
        then Adam's update of param with the plain gradient (see paddle.optimizer.Adam)

    Unlike `Adam(weight_decay=...)`, the decay does not pass through the moments, so it is not rescaled by them.
    A parameter's own ParamAttr regularizer is still added to its gradient, as in Paddle.

    Args:
        learning_rate: a float or an LRScheduler (default 0.001).
        beta1, beta2, epsilon: as in Adam (0.9, 0.999, 1e-8).
        parameters: the Tensors to update, or a list of parameter-group dicts (a group may set 'weight_decay').
        weight_decay: the decay coefficient, a float (default 0.01).
        lr_ratio: a function param -> factor on the learning rate of that parameter (layer-wise rates), or None.
        apply_decay_param_fun: a function name -> bool; only parameters whose name it accepts are decayed
            (e.g. to skip biases and norms). None decays every parameter.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        lazy_mode: for sparse gradients in Paddle; no effect on minipaddle's dense gradients.
        multi_precision: keep a float32 copy of float16 parameters and update that.
        name: a prefix for the optimizer's state names.

    Example:
        >>> adamw = paddle.optimizer.AdamW(learning_rate=0.01, parameters=linear.parameters(), weight_decay=0.01,
        ...                                apply_decay_param_fun=lambda name: "b_" not in name)
    """

    _decoupled_decay = True

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None, weight_decay=0.01,
                 lr_ratio=None, apply_decay_param_fun=None, grad_clip=None, lazy_mode=False, multi_precision=False,
                 name=None) -> None:  # fmt: skip
        if learning_rate is None:
            raise ValueError("AdamW: learning_rate is not set")
        beta1, beta2, epsilon = check_betas("AdamW", beta1, beta2, epsilon)
        if not isinstance(weight_decay, float):
            raise TypeError(f"AdamW: weight_decay must be a float, got {type(weight_decay).__name__}")
        for fn, arg in ((lr_ratio, "lr_ratio"), (apply_decay_param_fun, "apply_decay_param_fun")):
            if fn is not None and not callable(fn):
                raise TypeError(f"AdamW: {arg} must be a function or None, got {type(fn).__name__}")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._weight_decay = weight_decay
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun
        self._lazy_mode = bool(lazy_mode)
        self._multi_precision = bool(multi_precision)
        self._default_dict.update(weight_decay=weight_decay, beta1=beta1, beta2=beta2, epsilon=epsilon,
                                  lazy_mode=self._lazy_mode)  # fmt: skip

    def _lr_factor(self, param, group: dict) -> float:
        factor = super()._lr_factor(param, group)
        return factor * self._lr_ratio(param) if self._lr_ratio is not None else factor

    def _update_param(self, param, grad, lr, options) -> None:
        self._warn_low_precision(param)
        name = options["param"].name
        decays = self._apply_decay_param_fun is None or self._apply_decay_param_fun(name)
        adam_step(self, param, grad, lr, options, coeff=float(options["weight_decay"]) if decays else 0.0)
