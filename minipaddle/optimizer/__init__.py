"""paddle.optimizer: the optimizers and, in `lr`, the learning-rate schedules.

Every optimizer updates the parameters from the gradients that `loss.backward()` left in them:

    >>> opt = paddle.optimizer.Adam(learning_rate=0.001, parameters=model.parameters())
    >>> loss.backward()
    >>> opt.step()          # or opt.minimize(loss)
    >>> opt.clear_grad()

The shared machinery (clipping, weight decay, per-parameter learning rates, parameter groups, state dicts) is in
optimizer.py; each other file holds one update rule, whose ops live in minipaddle/ops/optimizer_ops.py.
"""

from minipaddle.optimizer import lr
from minipaddle.optimizer.adadelta import Adadelta
from minipaddle.optimizer.adagrad import Adagrad
from minipaddle.optimizer.adam import Adam
from minipaddle.optimizer.adamax import Adamax
from minipaddle.optimizer.adamw import AdamW
from minipaddle.optimizer.from_paddle_ops import optimizer_from_paddle_op  # noqa: F401 (installs it in static)
from minipaddle.optimizer.lamb import Lamb
from minipaddle.optimizer.lbfgs import LBFGS
from minipaddle.optimizer.momentum import Momentum
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.optimizer.rmsprop import RMSProp
from minipaddle.optimizer.sgd import SGD

__all__ = [
    "Optimizer",
    "SGD",
    "Momentum",
    "Adam",
    "AdamW",
    "Adamax",
    "Adagrad",
    "Adadelta",
    "RMSProp",
    "Lamb",
    "LBFGS",
    "lr",
]
