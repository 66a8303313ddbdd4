"""Optimizers in static mode: `opt.minimize(loss)` appends backward ops and then the update ops.

The optimizer's own code (minipaddle/optimizer/) runs unchanged: its update rules are ops applied in place, so
in static mode they append ops whose outputs are written back into the parameters and accumulators. Three
things differ, and live here:
- accumulators (Adam's moments, ...) are persistable Variables, set to their start values by the startup Program;
- the learning rate is a persistable Variable that the Executor sets from the optimizer before each run, so an
  LRScheduler stepped between runs takes effect (as Paddle's static mode does); as in Paddle, the Program names
  the scheduler (`program.lr_scheduler`) and the scheduler its variable (`_var_name`), which is how a Program read
  from a file gets its schedule back (the file holds the variable, not the schedule);
- minimize runs `append_backward` first (in dynamic mode the user has called `loss.backward()`).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import unique_name
from minipaddle.static.backward import append_backward
from minipaddle.static.parameters import declare_master_weight, declare_persistable
from minipaddle.static.program import ROLE_OPTIMIZE, Variable, default_main_program


def accumulator(name: str, shape, fill_value: float, dtype) -> Variable:
    """A persistable Variable for optimizer state, starting at fill_value."""
    return declare_persistable(unique_name(name), np.full(tuple(shape), fill_value, dtype=dtype.np))


def master_weight(param: Variable) -> Variable:
    """multi_precision's float32 copy of a float16/bfloat16 parameter, started from it by the startup Program."""
    return declare_master_weight(param, unique_name(f"{param.name}_fp32_master"))


def learning_rate(optimizer, dtype) -> Variable:
    """The optimizer's learning rate as a persistable Variable of the current Program (one per optimizer),
    refreshed by the Executor from `optimizer.get_lr()` before every run."""
    program = default_main_program()
    feeds = program.lr_feeds
    for name, opt in feeds:
        if opt is optimizer:
            return program.global_block().var(name)
    v = declare_persistable(unique_name("learning_rate"), np.asarray(optimizer.get_lr(), dtype=dtype.np))
    feeds.append((v.name, optimizer))
    schedule = optimizer._learning_rate
    if not isinstance(schedule, float):  # an LRScheduler: Paddle's attributes, which user code reads and sets
        program.lr_scheduler, schedule._var_name = schedule, v.name
    return v


def minimize(optimizer, loss, parameters=None, no_grad_set=None) -> tuple:
    """append_backward + the optimizer's update ops (role 'optimize'). Returns (update ops, (param, grad) pairs)."""
    if not isinstance(loss, Variable):
        raise TypeError(f"{type(optimizer).__name__}.minimize: in static mode loss must be a Variable")
    program = loss.block.program
    params_grads = append_backward(loss, parameter_list=parameters, no_grad_set=no_grad_set)
    first = len(program.global_block().ops)
    with program.role(ROLE_OPTIMIZE):
        optimizer.apply_gradients(params_grads)
    return program.global_block().ops[first:], params_grads


def refresh_learning_rates(program, scope) -> None:
    """Executor: write each optimizer's current learning rate into its Variable before running `program`, and
    the value of the Program's `lr_scheduler` (as Paddle's Executor does: the one way to drive the learning rate
    of a training Program read from a file) into the variable the scheduler names."""
    rates = [(name, optimizer.get_lr()) for name, optimizer in program.lr_feeds]
    schedule = getattr(program, "lr_scheduler", None)
    if schedule is not None:
        name = getattr(schedule, "_var_name", None)
        if not callable(schedule) or name not in program.global_block().vars:
            raise ValueError(f"Executor.run: program.lr_scheduler must be an LRScheduler whose _var_name is the "
                             f"Program's learning-rate variable (e.g. 'learning_rate_0'), got "
                             f"{type(schedule).__name__} with _var_name {name!r}")  # fmt: skip
        rates.append((name, schedule()))
    for name, value in rates:
        current = scope.vars.get(name)
        dtype = current.dtype if current is not None else np.float32
        scope.vars[name] = np.asarray(value, dtype=dtype)
