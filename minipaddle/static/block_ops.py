"""Ops that run sub-blocks of a Program: `cond`, `while`, `while_grad`, `pylayer`, `pylayer_grad`.

They have no kernel on arrays (they run whole blocks), so they are no OpDef. Each is described here by what the
Executor and static backward need of it: `step(desc, sub_plans)` makes its executor step (an object whose
`run(env)` runs its compiled sub-blocks), and `grad(desc, block, out_grads, wanted, no_grad)` appends the ops
of its gradient (None: no gradient flows through it). The modules that build them (control_flow.py,
nn/pylayer.py) register them here; the Executor and backward look them up by op type, so neither imports control
flow, which stands on both (its steps run compiled plans, its gradients call backward).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple


class BlockOp(NamedTuple):
    name: str
    step: Callable  # (desc, sub_plans) -> a step with run(env)
    grad: Callable | None = None  # (desc, block, out_grads, wanted, no_grad) -> {input name: gradient Variable}


BLOCK_OPS: dict[str, BlockOp] = {}


def register_block_op(name: str, step: Callable, grad: Callable | None = None) -> None:
    """File an op that runs sub-blocks under its type."""
    if name in BLOCK_OPS:
        raise ValueError(f"block op {name!r} is registered twice")
    BLOCK_OPS[name] = BlockOp(name, step, grad)


def block_grad(op_type: str) -> Callable | None:
    """The gradient builder of an op that runs sub-blocks, or None (for any other op, too)."""
    block_op = BLOCK_OPS.get(op_type)
    return None if block_op is None else block_op.grad
