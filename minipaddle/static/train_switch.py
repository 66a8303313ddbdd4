"""Train/eval behaviour in a Program: dropout and batch_norm built in training mode become a `cond` on the
Program's training flag, so `program.clone(for_test=True)` switches them to inference by flipping one constant.

In dynamic mode a layer's `training` argument decides on the spot; a Program is built once and may run both
ways, so the decision is left to run time:

    y = F.dropout(x, p=0.5, training=True)      # static mode: cond(@IS_TRAINING@, dropout-for-training, identity)
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.nn import static_hooks
from minipaddle.ops.constant import AssignValue, assign_value_attrs
from minipaddle.static.builder import slot_inputs
from minipaddle.static.control_flow import cond
from minipaddle.static.program import ROLE_FORWARD, TRAINING_FLAG, OpDesc, default_main_program


def needs_switch(training: bool) -> bool:
    """True when a function called with `training=True` is being built into a Program (and not already
    inside a switch): then it should build both behaviours with `train_or_eval`."""
    return bool(training) and STATE.static_mode and not STATE.in_train_switch


def training_flag():
    """The Program's `@IS_TRAINING@` bool Variable, made by the first op of block 0 (True; for_test clones: False)."""
    program = default_main_program()
    block = program.global_block()
    if TRAINING_FLAG not in block.vars:
        block.create_var(TRAINING_FLAG, (), "bool", stop_gradient=True)
        attrs = assign_value_attrs(np.asarray(True))
        block.ops.insert(0, OpDesc(AssignValue.name, slot_inputs(AssignValue, []), {"Out": [TRAINING_FLAG]}, attrs,
                                   ROLE_FORWARD))  # fmt: skip
        program._version += 1
    return block.vars[TRAINING_FLAG]


def train_or_eval(build):
    """`build(training)` builds one behaviour; return cond(training flag, build(True), build(False))."""
    flag = training_flag()
    STATE.in_train_switch = True
    try:
        return cond(flag, lambda: build(True), lambda: build(False))
    finally:
        STATE.in_train_switch = False


static_hooks.install(needs_switch=needs_switch, train_or_eval=train_or_eval)
