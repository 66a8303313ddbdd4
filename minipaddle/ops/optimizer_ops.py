"""The update rules of the optimizers, one op per state they change: sgd, momentum_velocity, momentum_param, ema,
ema_square, lazy_ema, lazy_ema_square, adam_param, sparse_adam_param, adamax_inf_norm, adamax_param,
adagrad_moment, adagrad_param, adadelta_direction, rmsprop_moment, rmsprop_param, lamb_param.

An optimizer applies these ops in place (core/inplace.apply_inplace) under no_grad: `param <- sgd(param, grad, lr)`.
Each op computes the new value of ONE tensor (the parameter or one accumulator) from the current values, so a step
of Adam is a short list of ops: ema(moment1, grad), ema_square(moment2, grad), adam_param(param, ...), and two
`scale`s of the beta powers (under multi_precision the parameter's op updates its float32 master weight and
writes the parameter too, rounded: ParamUpdateOp). Static mode appends the same ops to a Program, which is why
the learning rate is an input tensor (a learning-rate scheduler changes its value between runs), not an attribute.

The formulas are paddle 2.6's CPU kernels (paddle/phi/kernels), including where epsilon goes, and compute in the
parameter's dtype as they do. None of these ops has a gradient.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.half_casts import from_float32

__all__ = [
    "sgd",
    "momentum_velocity",
    "momentum_param",
    "ema",
    "ema_square",
    "lazy_ema",
    "lazy_ema_square",
    "adam_param",
    "sparse_adam_param",
    "adamax_inf_norm",
    "adamax_param",
    "adagrad_moment",
    "adagrad_param",
    "adadelta_direction",
    "rmsprop_moment",
    "rmsprop_param",
    "lamb_param",
]  # the raw op functions; ops/__init__.py gathers them


class UpdateOp(OpDef):
    """The new value of the state passed as input 0: same shape and dtype, no gradient."""

    differentiable = False
    saves_inputs = False
    amp = "keep"  # AMP never casts an optimizer's update: each parameter and accumulator keeps its dtype

    def infer_meta(self, state: Meta, *others: Meta, **attrs) -> Meta:
        return state


class ParamUpdateOp(UpdateOp):
    """An update of a parameter, which also takes `param_dtype` for multi_precision: input 0 is then the float32
    master weight of a float16/bfloat16 parameter, and the op gives two outputs, the new master and the new master
    rounded to `param_dtype` (the parameter), as paddle's fused updates write MasterParamOut and ParamOut. The
    optimizer writes both in place with this one op (core/inplace.apply_inplace_pair)."""

    def infer_meta(self, state: Meta, *others: Meta, param_dtype=None, **attrs) -> Meta | tuple:
        if param_dtype is None:
            return state
        return state, Meta(state.shape, dtypes.from_numpy(np.dtype(param_dtype)))

    def kernel_into_pair(self, outs: tuple, *arrays, param_dtype=None, **attrs) -> bool:
        """The multi_precision update written into its targets (core/inplace.apply_inplace_pair): the new master into
        outs[0], the master input's own storage (through kernel_into where the op has one, else a copy of kernel's
        result), and the parameter rounded from it straight into outs[1]'s storage. The same bits as `kernel`.
        Without param_dtype the op has one output: False, nothing written (the caller's general path says so)."""
        if param_dtype is None or len(outs) != 2:
            return False
        master, param = outs
        if self.kernel_into is not None:
            self.kernel_into(master, *arrays, **attrs)
        else:
            master[...] = self.kernel(*arrays, **attrs)
        with np.errstate(over="ignore", invalid="ignore"):  # (as _with_param)
            from_float32(master, param_dtype, out=param)
        return True


def _with_param(master: np.ndarray, param_dtype) -> np.ndarray | tuple:
    """An update's result; under multi_precision (param_dtype given) the new master and the parameter rounded
    from it (a float32 beyond float16's range becomes Inf, as the cast op rounds)."""
    if param_dtype is None:
        return master
    with np.errstate(over="ignore", invalid="ignore"):
        return master, from_float32(master, param_dtype)


def _scalar(a: np.ndarray) -> np.ndarray:
    """A one-element input (learning rate [] or a beta power [1]) as a 0-d array, so it broadcasts to any shape."""
    return a.reshape(())


def _const(value, like: np.ndarray) -> np.ndarray:
    """A Python number in the dtype of `like`, so float32 state stays float32 (as Paddle's kernels cast it)."""
    return np.asarray(value, dtype=like.dtype)


# ---- SGD and momentum ----------------------------------------------------------------------------------------


@register
class Sgd(ParamUpdateOp):
    """param - lr * grad."""

    name = "sgd"

    def kernel(self, param, grad, lr, param_dtype=None):
        out = grad * -_scalar(lr)  # one temporary: param + (-lr * grad) is exactly param - lr * grad
        out += param
        return _with_param(out, param_dtype)

    def kernel_into(self, out, param, grad, lr):  # the same arithmetic, written into the parameter's storage
        # param - lr * grad has the bits of param + (-lr * grad): IEEE subtraction adds the negation, and negating
        # lr or the product is exact. (lr.reshape: the [] or [1] learning rate as a 0-d array, without _scalar.)
        step = grad * lr.reshape(())
        np.subtract(param, step, out=out, casting="unsafe")


def sgd(param: Tensor, grad: Tensor, lr: Tensor) -> Tensor:
    return apply(Sgd, (param, grad, lr))


def _momentum_grad(grad, param, rescale_grad, l2_coeff):
    """The gradient Momentum's kernel uses: rescaled, plus L2 decay folded in (not rescaled, as in Paddle)."""
    g = grad * _const(rescale_grad, grad) if rescale_grad != 1.0 else grad
    return g + _const(l2_coeff, param) * param if l2_coeff else g


@register
class MomentumVelocity(UpdateOp):
    """velocity = mu * velocity + g, where g = rescale_grad * grad + l2_coeff * param."""

    name = "momentum_velocity"

    def kernel(self, velocity, grad, param, mu, rescale_grad=1.0, l2_coeff=0.0):
        return _const(mu, velocity) * velocity + _momentum_grad(grad, param, rescale_grad, l2_coeff)


def momentum_velocity(velocity, grad, param, mu, rescale_grad=1.0, l2_coeff=0.0) -> Tensor:
    attrs = {"mu": mu, "rescale_grad": rescale_grad, "l2_coeff": l2_coeff}
    return apply(MomentumVelocity, (velocity, grad, param), attrs)


@register
class MomentumParam(ParamUpdateOp):
    """param - lr * velocity, or with Nesterov param - lr * (g + mu * velocity). `velocity` is the new one."""

    name = "momentum_param"

    def kernel(self, param, grad, velocity, lr, mu, use_nesterov=False, rescale_grad=1.0, l2_coeff=0.0,
               param_dtype=None):  # fmt: skip
        if use_nesterov:
            g = _momentum_grad(grad, param, rescale_grad, l2_coeff)
            return _with_param(param - (g + _const(mu, velocity) * velocity) * _scalar(lr), param_dtype)
        return _with_param(param - _scalar(lr) * velocity, param_dtype)


def momentum_param(param, grad, velocity, lr, mu, use_nesterov=False, rescale_grad=1.0, l2_coeff=0.0) -> Tensor:
    attrs = {"mu": mu, "use_nesterov": use_nesterov, "rescale_grad": rescale_grad, "l2_coeff": l2_coeff}
    return apply(MomentumParam, (param, grad, velocity, lr), attrs)


# ---- moving averages (Adam's moments, RMSProp's mean square, Adadelta's averages) -----------------------------


@register
class Ema(UpdateOp):
    """Exponential moving average: decay * acc + (1 - decay) * x."""

    name = "ema"

    def kernel(self, acc, x, decay):
        d = _const(decay, acc)
        return d * acc + (1 - d) * x


def ema(acc: Tensor, x: Tensor, decay: float) -> Tensor:
    return apply(Ema, (acc, x), {"decay": decay})


@register
class EmaSquare(UpdateOp):
    """Moving average of the square: decay * acc + (1 - decay) * x * x."""

    name = "ema_square"

    def kernel(self, acc, x, decay):
        d = _const(decay, acc)
        return d * acc + (1 - d) * x * x


def ema_square(acc: Tensor, x: Tensor, decay: float) -> Tensor:
    return apply(EmaSquare, (acc, x), {"decay": decay})


@register
class LazyEma(UpdateOp):
    """ema in the rows of the bool mask `rows` only (a sparse gradient's, over axis 0); the other rows keep their
    value: Adam's moments with lazy_mode on a sparse gradient."""

    name = "lazy_ema"

    def kernel(self, acc, x, rows, decay):
        return _in_rows(Ema.kernel(acc, x, decay), acc, rows)


def lazy_ema(acc: Tensor, x: Tensor, rows: Tensor, decay: float) -> Tensor:
    return apply(LazyEma, (acc, x, rows), {"decay": decay})


@register
class LazyEmaSquare(UpdateOp):
    """ema_square in the rows of `rows` only (lazy_ema's square)."""

    name = "lazy_ema_square"

    def kernel(self, acc, x, rows, decay):
        return _in_rows(EmaSquare.kernel(acc, x, decay), acc, rows)


def lazy_ema_square(acc: Tensor, x: Tensor, rows: Tensor, decay: float) -> Tensor:
    return apply(LazyEmaSquare, (acc, x, rows), {"decay": decay})


def _in_rows(new: np.ndarray, old: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """`new` in the rows of the bool mask `rows` (over axis 0), `old` in the others."""
    return np.where(rows.reshape((-1,) + (1,) * (new.ndim - 1)), new, old)


# ---- Adam, AdamW, Adamax -------------------------------------------------------------------------------------


@register
class AdamParam(ParamUpdateOp):
    """Adam's step from the new moments; with `coeff` > 0 AdamW's decoupled decay comes first.

        param  = param * (1 - lr * coeff)                                     (AdamW only)
        lr_t   = lr * sqrt(1 - beta2_pow) / (1 - beta1_pow)
        param  = param - lr_t * moment1 / (sqrt(moment2) + epsilon * sqrt(1 - beta2_pow))

    beta1_pow, beta2_pow are beta1**t, beta2**t for this step t (they start at beta1, beta2). Paddle scales
    epsilon by sqrt(1 - beta2_pow), which is the textbook form with the bias correction moved onto lr.
    """

    name = "adam_param"

    def kernel(self, param, moment1, moment2, lr, beta1_pow, beta2_pow, epsilon, coeff=0.0, param_dtype=None):
        lr, b1p, b2p = _scalar(lr), _scalar(beta1_pow), _scalar(beta2_pow)
        if coeff:
            param = param - lr * _const(coeff, param) * param
        lr_t = lr * (np.sqrt(1 - b2p) / (1 - b1p))
        eps = _const(epsilon, param) * np.sqrt(1 - b2p)
        return _with_param(param - lr_t * (moment1 / (np.sqrt(moment2) + eps)), param_dtype)


def adam_param(param, moment1, moment2, lr, beta1_pow, beta2_pow, epsilon, coeff=0.0) -> Tensor:
    return apply(AdamParam, (param, moment1, moment2, lr, beta1_pow, beta2_pow), {"epsilon": epsilon, "coeff": coeff})


@register
class SparseAdamParam(ParamUpdateOp):
    """Adam's step on a sparse gradient (Paddle's SelectedRows, whose rows are the bool mask `rows`), as paddle
    2.6.2's CPU kernel adam_dense_param_sparse_grad computes it, which differs from the dense step (adam_param)
    twice:

        beta1_pow, beta2_pow = beta1 * beta1_pow, beta2 * beta2_pow      (the powers of the NEXT step)
        lr_t  = lr * sqrt(1 - beta2_pow) / (1 - beta1_pow)
        param = param - lr_t * moment1 / (sqrt(moment2) + epsilon * sqrt(1 - beta2_pow))   (in rows)
        param = param - lr_t * moment1 / (sqrt(moment2) + epsilon)                         (the other rows)

    The kernel writes the new powers before it reads them (Beta1PowOut is the Beta1Pow variable), so every step
    uses the powers one step on; and the rows the gradient does not hold (moments only decayed) take epsilon
    unscaled (SparseAdamFunctor). With lazy_mode those rows do not move at all.
    """

    name = "sparse_adam_param"

    def kernel(self, param, moment1, moment2, lr, beta1_pow, beta2_pow, rows, epsilon, beta1, beta2,
               lazy_mode=False, param_dtype=None):  # fmt: skip
        lr = _scalar(lr)
        b1p = _const(beta1, beta1_pow) * _scalar(beta1_pow)
        b2p = _const(beta2, beta2_pow) * _scalar(beta2_pow)
        lr_t = lr * (np.sqrt(1 - b2p) / (1 - b1p))
        eps = _const(epsilon, param)
        held = rows.reshape((-1,) + (1,) * (param.ndim - 1))
        new = param - lr_t * (moment1 / (np.sqrt(moment2) + np.where(held, eps * np.sqrt(1 - b2p), eps)))
        return _with_param(_in_rows(new, param, rows) if lazy_mode else new, param_dtype)


def sparse_adam_param(param, moment1, moment2, lr, beta1_pow, beta2_pow, rows, epsilon, beta1, beta2,
                      lazy_mode=False) -> Tensor:  # fmt: skip
    attrs = {"epsilon": epsilon, "beta1": beta1, "beta2": beta2, "lazy_mode": lazy_mode}
    return apply(SparseAdamParam, (param, moment1, moment2, lr, beta1_pow, beta2_pow, rows), attrs)


@register
class AdamaxInfNorm(UpdateOp):
    """Adamax's infinity norm: max(|grad|, beta2 * inf_norm + epsilon)."""

    name = "adamax_inf_norm"

    def kernel(self, inf_norm, grad, beta2, epsilon):
        return np.maximum(np.abs(grad), _const(beta2, inf_norm) * inf_norm + _const(epsilon, inf_norm))


def adamax_inf_norm(inf_norm: Tensor, grad: Tensor, beta2: float, epsilon: float) -> Tensor:
    return apply(AdamaxInfNorm, (inf_norm, grad), {"beta2": beta2, "epsilon": epsilon})


@register
class AdamaxParam(ParamUpdateOp):
    """param - lr / (1 - beta1_pow) * moment / inf_norm (moment and inf_norm already updated)."""

    name = "adamax_param"

    def kernel(self, param, moment, inf_norm, lr, beta1_pow, param_dtype=None):
        lr_t = _scalar(lr) / (1 - _scalar(beta1_pow))
        return _with_param(param - lr_t * (moment / inf_norm), param_dtype)


def adamax_param(param, moment, inf_norm, lr, beta1_pow) -> Tensor:
    return apply(AdamaxParam, (param, moment, inf_norm, lr, beta1_pow))


# ---- Adagrad, Adadelta, RMSProp ------------------------------------------------------------------------------


@register
class AdagradMoment(UpdateOp):
    """The running sum of squared gradients: moment + grad * grad."""

    name = "adagrad_moment"

    def kernel(self, moment, grad):
        return moment + grad * grad


def adagrad_moment(moment: Tensor, grad: Tensor) -> Tensor:
    return apply(AdagradMoment, (moment, grad))


@register
class AdagradParam(ParamUpdateOp):
    """param - lr * grad / (sqrt(moment) + epsilon), with the new moment."""

    name = "adagrad_param"

    def kernel(self, param, grad, moment, lr, epsilon, param_dtype=None):
        return _with_param(param - _scalar(lr) * grad / (np.sqrt(moment) + _const(epsilon, moment)), param_dtype)


def adagrad_param(param, grad, moment, lr, epsilon) -> Tensor:
    return apply(AdagradParam, (param, grad, moment, lr), {"epsilon": epsilon})


@register
class AdadeltaDirection(OpDef):
    """Adadelta's step direction: sqrt(avg_squared_update + eps) / sqrt(avg_squared_grad + eps) * grad.

    Not an in-place update: the optimizer moves the parameter along it (param - lr * direction, the `sgd` op) and
    averages its square into avg_squared_update (the `ema_square` op).
    """

    name = "adadelta_direction"
    amp = "keep"
    differentiable = False
    saves_inputs = False

    def kernel(self, grad, avg_squared_grad, avg_squared_update, epsilon):
        eps = _const(epsilon, grad)
        return np.sqrt(avg_squared_update + eps) / np.sqrt(avg_squared_grad + eps) * grad

    def infer_meta(self, grad: Meta, *others: Meta, **attrs) -> Meta:
        return grad


def adadelta_direction(grad, avg_squared_grad, avg_squared_update, epsilon) -> Tensor:
    return apply(AdadeltaDirection, (grad, avg_squared_grad, avg_squared_update), {"epsilon": epsilon})


@register
class RmspropMoment(UpdateOp):
    """momentum * moment + lr * grad / sqrt(mean_square - mean_grad**2 + epsilon).

    `mean_grad` is None unless centered (then the square of the mean gradient is subtracted). The optimizer
    then subtracts the new moment from the parameter.
    """

    name = "rmsprop_moment"

    def kernel(self, moment, grad, mean_square, mean_grad, lr, momentum, epsilon):
        denom = mean_square - mean_grad * mean_grad if mean_grad is not None else mean_square
        return _const(momentum, moment) * moment + _scalar(lr) * grad / np.sqrt(denom + _const(epsilon, moment))


def rmsprop_moment(moment, grad, mean_square, mean_grad, lr, momentum, epsilon) -> Tensor:
    return apply(RmspropMoment, (moment, grad, mean_square, mean_grad, lr), {"momentum": momentum, "epsilon": epsilon})


@register
class RmspropParam(ParamUpdateOp):
    """param - moment: RMSProp's step, whose moment already holds the learning rate (rmsprop_moment)."""

    name = "rmsprop_param"

    def kernel(self, param, moment, param_dtype=None):
        return _with_param(param - moment, param_dtype)


def rmsprop_param(param: Tensor, moment: Tensor) -> Tensor:
    return apply(RmspropParam, (param, moment))


# ---- Lamb ----------------------------------------------------------------------------------------------------


@register
class LambParam(ParamUpdateOp):
    """LAMB: Adam's direction plus weight decay, scaled per tensor by a trust ratio.

    r     = (moment1 / (1 - beta1_pow)) / (sqrt(moment2 / (1 - beta2_pow)) + epsilon) + weight_decay * param
    ratio = ||param|| / ||r||   (1 when either norm is 0, or when weight_decay is 0 and not always_adapt)
    param = param - lr * ratio * r
    """

    name = "lamb_param"

    def kernel(self, param, moment1, moment2, lr, beta1_pow, beta2_pow, epsilon, weight_decay, always_adapt=False,
               param_dtype=None):  # fmt: skip
        m_hat = moment1 / (1 - _scalar(beta1_pow))
        v_hat = moment2 / (1 - _scalar(beta2_pow))
        r = m_hat / (np.sqrt(v_hat) + _const(epsilon, param)) + _const(weight_decay, param) * param
        ratio = _const(1.0, param)
        if weight_decay > 0 or always_adapt:
            p_norm, r_norm = np.sqrt(np.sum(param * param)), np.sqrt(np.sum(r * r))
            if p_norm > 0 and r_norm > 0:
                ratio = p_norm / r_norm
        return _with_param(param - (_scalar(lr) * ratio) * r, param_dtype)


def lamb_param(param, moment1, moment2, lr, beta1_pow, beta2_pow, epsilon, weight_decay, always_adapt=False) -> Tensor:
    attrs = {"epsilon": epsilon, "weight_decay": weight_decay, "always_adapt": always_adapt}
    return apply(LambParam, (param, moment1, moment2, lr, beta1_pow, beta2_pow), attrs)
