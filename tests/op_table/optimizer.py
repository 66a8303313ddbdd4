"""Op-table section: the optimizers' update rules (minipaddle/ops/optimizer_ops.py).

Each rule is checked against the textbook form of its formula, written independently here (e.g. Adam with
bias-corrected moments, m_hat / (sqrt(v_hat) + eps), where Paddle's kernel moves the corrections onto lr and eps).
The rules have no gradient. Sample arguments: p = parameter, g = gradient, lr a 0-d array, beta powers shape [1].
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, pos, r

SHAPES = [(3, 4), (5,)]


def lr():
    return np.asarray(0.1)


def _samples(make, labels=("2-d", "1-d")):
    """One sample per shape; `make(rng, shape)` returns (args, kwargs)."""

    def samples(rng):
        return [Sample(*make(rng, shape), label) for shape, label in zip(SHAPES, labels)]

    return samples


def sgd_ref(p, g, lr):
    return p - lr * g


def momentum_velocity_ref(v, g, p, mu, rescale_grad=1.0, l2_coeff=0.0):
    return mu * v + (rescale_grad * g + l2_coeff * p)


def momentum_param_ref(p, g, v, lr, mu, use_nesterov=False, rescale_grad=1.0, l2_coeff=0.0):
    step = (rescale_grad * g + l2_coeff * p) + mu * v if use_nesterov else v
    return p - lr * step


def ema_ref(acc, x, decay):
    return decay * acc + (1 - decay) * x


def ema_square_ref(acc, x, decay):
    return decay * acc + (1 - decay) * x**2


def adam_param_ref(p, m, v, lr, b1p, b2p, epsilon, coeff=0.0):
    p = p * (1 - lr * coeff)
    m_hat, v_hat = m / (1 - b1p), v / (1 - b2p)
    return p - lr * m_hat / (np.sqrt(v_hat) + epsilon)


def in_rows_ref(new, old, rows):
    return np.where(np.reshape(rows, (-1,) + (1,) * (np.ndim(new) - 1)), new, old)


def sparse_adam_param_ref(p, m, v, lr, b1p, b2p, rows, epsilon, beta1, beta2, lazy_mode=False):
    """Paddle's SelectedRows Adam: the next step's powers; the gradient's rows the textbook step, the others
    epsilon unscaled by the bias correction (lazy_mode: the others unchanged)."""
    b1, b2 = beta1 * b1p, beta2 * b2p
    held = p - lr * (m / (1 - b1)) / (np.sqrt(v / (1 - b2)) + epsilon)
    other = p if lazy_mode else p - lr * np.sqrt(1 - b2) / (1 - b1) * m / (np.sqrt(v) + epsilon)
    return in_rows_ref(held, other, rows)


def adamax_inf_norm_ref(u, g, beta2, epsilon):
    return np.maximum(beta2 * u + epsilon, np.abs(g))


def adamax_param_ref(p, m, u, lr, b1p):
    return p - lr / (1 - b1p) * m / u


def adagrad_param_ref(p, g, moment, lr, epsilon):
    return p - lr * g / (np.sqrt(moment) + epsilon)


def adadelta_direction_ref(g, avg_g, avg_u, epsilon):
    return np.sqrt((avg_u + epsilon) / (avg_g + epsilon)) * g


def rmsprop_moment_ref(mom, g, ms, mg, lr, momentum, epsilon):
    var = ms - (mg**2 if mg is not None else 0)
    return momentum * mom + lr * g / np.sqrt(var + epsilon)


def lamb_param_ref(p, m, v, lr, b1p, b2p, epsilon, weight_decay, always_adapt=False):
    r_ = (m / (1 - b1p)) / (np.sqrt(v / (1 - b2p)) + epsilon) + weight_decay * p
    ratio = np.linalg.norm(p) / np.linalg.norm(r_) if (weight_decay > 0 or always_adapt) else 1.0
    return p - lr * ratio * r_


def pows(rng):
    return np.array([0.9**3]), np.array([0.999**3])


ROWS = np.array([True, False, True, False])  # the rows a sparse gradient holds (ops.embedding_rows)
BETAS = {"beta1": 0.9, "beta2": 0.999}

ENTRIES: list[OpInfo] = [
    OpInfo("sgd", ops.sgd, sgd_ref, _samples(lambda rng, s: ((r(rng, *s), r(rng, *s), lr()), {})), grad=False),
    OpInfo("momentum_velocity", ops.momentum_velocity, momentum_velocity_ref,
           _samples(lambda rng, s: ((r(rng, *s), r(rng, *s), r(rng, *s)),
                                    {"mu": 0.9, "rescale_grad": 0.5, "l2_coeff": 0.01})), grad=False),
    OpInfo("momentum_param", ops.momentum_param, momentum_param_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3, 4), r(rng, 3, 4), lr()), {"mu": 0.9}, "plain"),
                        Sample((r(rng, 5), r(rng, 5), r(rng, 5), lr()),
                               {"mu": 0.8, "use_nesterov": True, "rescale_grad": 0.5, "l2_coeff": 0.1}, "nesterov")],
           grad=False),
    OpInfo("ema", ops.ema, ema_ref, _samples(lambda rng, s: ((r(rng, *s), r(rng, *s)), {"decay": 0.9})), grad=False),
    OpInfo("ema_square", ops.ema_square, ema_square_ref,
           _samples(lambda rng, s: ((pos(rng, *s), r(rng, *s)), {"decay": 0.999})), grad=False),
    OpInfo("lazy_ema", ops.lazy_ema, lambda acc, x, rows, decay: in_rows_ref(ema_ref(acc, x, decay), acc, rows),
           lambda rng: [Sample((r(rng, 4, 3), r(rng, 4, 3), ROWS), {"decay": 0.9})], grad=False),
    OpInfo("lazy_ema_square", ops.lazy_ema_square,
           lambda acc, x, rows, decay: in_rows_ref(ema_square_ref(acc, x, decay), acc, rows),
           lambda rng: [Sample((pos(rng, 4, 3), r(rng, 4, 3), ROWS), {"decay": 0.999})], grad=False),
    OpInfo("adam_param", ops.adam_param, adam_param_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3, 4), pos(rng, 3, 4), lr(), *pows(rng)),
                               {"epsilon": 1e-8}, "adam"),
                        Sample((r(rng, 5), r(rng, 5), pos(rng, 5), lr(), *pows(rng)),
                               {"epsilon": 1e-3, "coeff": 0.01}, "adamw")],
           grad=False),
    OpInfo("sparse_adam_param", ops.sparse_adam_param, sparse_adam_param_ref,
           lambda rng: [Sample((r(rng, 4, 3), r(rng, 4, 3), pos(rng, 4, 3) * 1e-12, lr(), *pows(rng), ROWS),
                               {**BETAS, "epsilon": 1e-6}, "tiny moment2: epsilon decides"),
                        Sample((r(rng, 4, 3), r(rng, 4, 3), pos(rng, 4, 3), lr(), *pows(rng), ROWS),
                               {**BETAS, "epsilon": 1e-8, "lazy_mode": True}, "lazy_mode")],
           grad=False),
    OpInfo("adamax_inf_norm", ops.adamax_inf_norm, adamax_inf_norm_ref,
           _samples(lambda rng, s: ((pos(rng, *s), r(rng, *s)), {"beta2": 0.999, "epsilon": 1e-8})), grad=False),
    OpInfo("adamax_param", ops.adamax_param, adamax_param_ref,
           _samples(lambda rng, s: ((r(rng, *s), r(rng, *s), pos(rng, *s), lr(), np.array([0.9**2])), {})),
           grad=False),
    OpInfo("adagrad_moment", ops.adagrad_moment, lambda m, g: m + g * g,
           _samples(lambda rng, s: ((pos(rng, *s), r(rng, *s)), {})), grad=False),
    OpInfo("adagrad_param", ops.adagrad_param, adagrad_param_ref,
           _samples(lambda rng, s: ((r(rng, *s), r(rng, *s), pos(rng, *s), lr()), {"epsilon": 1e-6})), grad=False),
    OpInfo("adadelta_direction", ops.adadelta_direction, adadelta_direction_ref,
           _samples(lambda rng, s: ((r(rng, *s), pos(rng, *s), pos(rng, *s)), {"epsilon": 1e-6})), grad=False),
    OpInfo("rmsprop_moment", ops.rmsprop_moment, rmsprop_moment_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3, 4), pos(rng, 3, 4) + 1, None, lr()),
                               {"momentum": 0.9, "epsilon": 1e-6}, "uncentered"),
                        Sample((r(rng, 5), r(rng, 5), pos(rng, 5) + 1, r(rng, 5), lr()),
                               {"momentum": 0.0, "epsilon": 1e-6}, "centered")],
           grad=False),
    OpInfo("rmsprop_param", ops.rmsprop_param, lambda p, m: p - m,
           _samples(lambda rng, s: ((r(rng, *s), r(rng, *s)), {})), grad=False),
    OpInfo("lamb_param", ops.lamb_param, lamb_param_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3, 4), pos(rng, 3, 4), lr(), *pows(rng)),
                               {"epsilon": 1e-6, "weight_decay": 0.01}, "decay"),
                        Sample((r(rng, 5), r(rng, 5), pos(rng, 5), lr(), *pows(rng)),
                               {"epsilon": 1e-6, "weight_decay": 0.0}, "no decay"),
                        Sample((r(rng, 5), r(rng, 5), pos(rng, 5), lr(), *pows(rng)),
                               {"epsilon": 1e-6, "weight_decay": 0.0, "always_adapt": True}, "always adapt")],
           grad=False),
]  # fmt: skip
