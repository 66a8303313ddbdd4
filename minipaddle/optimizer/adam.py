"""Adam: adaptive moment estimation (the step that AdamW and Lamb build on)."""

from __future__ import annotations

from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.tensor.checks import check_number

__all__ = ["Adam"]

_EMA = get_op("ema")
_EMA_SQUARE = get_op("ema_square")
_LAZY_EMA, _LAZY_EMA_SQUARE = get_op("lazy_ema"), get_op("lazy_ema_square")
_ADAM_PARAM = get_op("adam_param")
_SPARSE_ADAM_PARAM = get_op("sparse_adam_param")


def check_betas(cls: str, beta1, beta2, epsilon) -> tuple[float, float, float]:
    """beta1, beta2 in [0, 1) and epsilon >= 0, as floats (one-element Tensors are accepted)."""
    beta1, beta2, epsilon = (float(check_number(v, cls, n)) for v, n in ((beta1, "beta1"), (beta2, "beta2"),
                                                                         (epsilon, "epsilon")))  # fmt: skip
    if not 0 <= beta1 < 1:
        raise ValueError(f"{cls}: beta1 must be in [0, 1), got {beta1}")
    if not 0 <= beta2 < 1:
        raise ValueError(f"{cls}: beta2 must be in [0, 1), got {beta2}")
    if not 0 <= epsilon:
        raise ValueError(f"{cls}: epsilon must be >= 0, got {epsilon}")
    return beta1, beta2, epsilon


def moments_dtype(param):
    """Adam-family moments of a float16 or bfloat16 parameter are kept in float32, as in Paddle."""
    return dtypes.float32 if param.dtype in (dtypes.float16, dtypes.bfloat16) else param.dtype


def update_moments(opt: Optimizer, param, grad, beta1: float, beta2: float, rows=None) -> tuple:
    """The Adam-family state of `param` (Adam, AdamW, Lamb), its moments moved by this step's gradient (only in
    the bool mask `rows` when given: lazy_mode): (moment1, moment2, beta1_pow_acc, beta2_pow_acc). The caller
    scales the powers once it has updated param."""
    acc_dtype = moments_dtype(param)
    moment1 = opt._add_accumulator("moment1", param, dtype=acc_dtype)
    moment2 = opt._add_accumulator("moment2", param, dtype=acc_dtype)
    beta1_pow = opt._add_accumulator("beta1_pow_acc", param, fill_value=beta1, shape=[1], dtype=acc_dtype)
    beta2_pow = opt._add_accumulator("beta2_pow_acc", param, fill_value=beta2, shape=[1], dtype=acc_dtype)
    if rows is None:
        apply_inplace(_EMA, moment1, (moment1, grad), {"decay": beta1})
        apply_inplace(_EMA_SQUARE, moment2, (moment2, grad), {"decay": beta2})
    else:
        apply_inplace(_LAZY_EMA, moment1, (moment1, grad, rows), {"decay": beta1})
        apply_inplace(_LAZY_EMA_SQUARE, moment2, (moment2, grad, rows), {"decay": beta2})
    return moment1, moment2, beta1_pow, beta2_pow


def adam_step(opt: Optimizer, param, grad, lr, options: dict, coeff: float = 0.0) -> None:
    """One Adam update of `param` with the optimizer's accumulators (AdamW passes its decay `coeff`). Adam on a
    sparse gradient (nn.Embedding(sparse=True): the gradient marked with its rows, ops/nn_common.py) is paddle's
    SelectedRows kernel, sparse_adam_param (lazy_mode: the rows the gradient does not hold stay as they are)."""
    beta1, beta2 = options["beta1"], options["beta2"]
    rows = None if opt._decoupled_decay else grad._selected_rows  # (AdamW's sparse kernel is not rebuilt here)
    lazy = rows is not None and options["lazy_mode"]
    moment1, moment2, beta1_pow, beta2_pow = update_moments(opt, param, grad, beta1, beta2, rows if lazy else None)
    inputs = (param, moment1, moment2, lr, beta1_pow, beta2_pow)
    if rows is None:
        opt._write_param(_ADAM_PARAM, param, inputs, {"epsilon": options["epsilon"], "coeff": coeff}, options)
    else:
        attrs = {"epsilon": options["epsilon"], "beta1": beta1, "beta2": beta2, "lazy_mode": lazy}
        opt._write_param(_SPARSE_ADAM_PARAM, param, (*inputs, rows), attrs, options)
    opt._scale_in_place(beta1_pow, beta1)
    opt._scale_in_place(beta2_pow, beta2)


class Adam(Optimizer):
    r"""Adam (Kingma & Ba, 2014), as paddle 2.6 computes it:

        moment1 = beta1 * moment1 + (1 - beta1) * grad
        moment2 = beta2 * moment2 + (1 - beta2) * grad * grad
        lr_t    = learning_rate * sqrt(1 - beta2^t) / (1 - beta1^t)
        param   = param - lr_t * moment1 / (sqrt(moment2) + epsilon * sqrt(1 - beta2^t))

    A float weight_decay is L2 decay added to the gradient (coupled); for decoupled decay use AdamW. The state
    is moment1, moment2, beta1_pow_acc and beta2_pow_acc per parameter (beta^t, starting at beta for t = 1).

    Args:
        learning_rate: a float or an LRScheduler (default 0.001).
        beta1, beta2: the moments' decay rates (0.9, 0.999), in [0, 1).
        epsilon: keeps the division finite (1e-8).
        parameters: the Tensors to update, or a list of parameter-group dicts.
        weight_decay: a float (L2 coefficient), L1Decay/L2Decay, or None.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        lazy_mode: for a sparse gradient (nn.Embedding(sparse=True)), move only the rows it holds; a dense
            gradient ignores it, as in Paddle.
        multi_precision: keep a float32 copy of float16 parameters and update that.
        use_multi_tensor: Paddle's fused kernel; same results, so it changes nothing here.
        name: a prefix for the optimizer's state names.

    Example:
        >>> adam = paddle.optimizer.Adam(learning_rate=0.01, parameters=linear.parameters())
        >>> linear(x).mean().backward()
        >>> adam.step()
        >>> adam.clear_grad()
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None,
                 weight_decay=None, grad_clip=None, lazy_mode=False, multi_precision=False, use_multi_tensor=False,
                 name=None) -> None:  # fmt: skip
        if learning_rate is None:
            raise ValueError("Adam: learning_rate is not set")
        beta1, beta2, epsilon = check_betas("Adam", beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lazy_mode = bool(lazy_mode)
        self._multi_precision = bool(multi_precision)
        self._use_multi_tensor = bool(use_multi_tensor)
        self._default_dict.update(beta1=beta1, beta2=beta2, epsilon=epsilon, lazy_mode=self._lazy_mode)

    def _step(self) -> None:
        if self.regularization is not None:  # paddle 2.6's dynamic Adam refuses it (a decay would make it dense)
            sparse = [p.name for p in self._all_params() if p._grad is not None and p._grad._selected_rows is not None]
            if sparse:
                raise RuntimeError(f"Adam: weight_decay is not supported with a sparse gradient (that of "
                                   f"{sparse[0]}, an nn.Embedding(sparse=True) table), as in paddle 2.6; set "
                                   "weight_decay=None")  # fmt: skip
        super()._step()

    def _update_param(self, param, grad, lr, options) -> None:
        self._warn_low_precision(param)
        adam_step(self, param, grad, lr, options)
