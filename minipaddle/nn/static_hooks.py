"""What nn needs from static mode, installed by minipaddle.static.

nn stands a floor below static (static.nn builds its layers on nn.functional), yet three things in nn act
differently while a Program is being built: a new Parameter is declared in the Programs (its initial values set by
the startup Program), dropout or batch_norm in training mode becomes a train-or-eval switch that the Program
decides when it runs, and the ops a normalization builds are marked as the one Paddle op they stand for.
minipaddle.static installs the functions that do these here when it is imported, as it installs its Program
builder into the door (core/dispatch.py); static mode is switched on only through it.
"""

from __future__ import annotations


def _static_not_loaded(*args, **kwargs):
    raise RuntimeError("static mode is on, but minipaddle.static, which builds Programs, is not imported")


declare_parameter = _static_not_loaded  # (Parameter) -> its Variable in the Programs: static/parameters.py
needs_switch = _static_not_loaded  # (training) -> whether to build a train/eval switch: static/train_switch.py
train_or_eval = _static_not_loaded  # (build) -> cond(training flag, build(True), build(False)): the same
paddle_op_group = _static_not_loaded  # (paddle_op, inputs) -> marks the ops built as one Paddle op: static/op_groups.py


def install(**functions) -> None:
    """Set the functions above (by name), from minipaddle.static."""
    for name, fn in functions.items():
        if name not in ("declare_parameter", "needs_switch", "train_or_eval", "paddle_op_group"):
            raise TypeError(f"static_hooks.install: no hook named {name!r}")
        globals()[name] = fn
