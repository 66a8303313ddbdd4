"""Runs of ops in a Program that stand for one Paddle op: F.batch_norm builds standardize, multiply, add, ...,
where Paddle's Program has one `batch_norm` op.

A pass that must see the Paddle op, as the AMP rewrite must (its rule decides a normalization as a whole, see
minipaddle/ops/amp_norms.py), reads the group from the ops: each op the function appended to the block carries
the same OpGroup in `OpDesc.group`: the Paddle op's name, its input variables (in the Paddle op's order, x first)
and the variable holding its result. Ops inside sub-blocks (the branches of batch_norm's train/eval switch) are
reached through the group's `cond` op.

nn/functional/norm.py opens a group through nn.static_hooks (nn stands below static):

    with static_hooks.paddle_op_group("batch_norm", (x, mean, var, weight, bias)) as op:
        ...                                   # build the composition from op.inputs
        return op.result(y)                   # marks the ops appended since the `with`

A group opened inside another one (the switch's branches call batch_norm again) marks nothing: the outer group
holds those ops. Passes that copy ops into new OpDescs may drop the marks; the ops are then rewritten one by one.
"""

from __future__ import annotations

import dataclasses
import threading

from minipaddle.nn import static_hooks
from minipaddle.static.program import TRAINING_FLAG, Variable, default_main_program

__all__ = ["OpGroup", "paddle_op_group"]


@dataclasses.dataclass(frozen=True)
class OpGroup:
    """The Paddle op a run of ops computes: its name, input variable names (None where absent) and output name."""

    paddle_op: str
    inputs: tuple
    output: str


class _Open(threading.local):
    depth = 0  # groups being built on this thread (static mode is per thread)


_open = _Open()


class _Marking:
    """Marks the ops appended to the current block between `with` and `result(y)` as one OpGroup."""

    __slots__ = ("paddle_op", "inputs", "_block", "_start", "_had_flag")

    def __init__(self, paddle_op: str, inputs: tuple) -> None:
        self.paddle_op, self.inputs = paddle_op, tuple(inputs)

    def __enter__(self) -> _Marking:
        self._block = default_main_program().current_block()
        self._start = len(self._block.ops)
        self._had_flag = TRAINING_FLAG in self._block.vars
        _open.depth += 1
        return self

    def result(self, y):
        """Hand back the op's output `y`, after marking the ops that computed it."""
        block, start = self._block, self._start
        if block.idx == 0 and not self._had_flag and TRAINING_FLAG in block.vars:
            start += 1  # the train/eval switch put the training flag's op first in the block: not part of the op
        if isinstance(y, Variable) and isinstance(self.inputs[0], Variable):
            names = tuple(t.name if isinstance(t, Variable) else None for t in self.inputs)
            group = OpGroup(self.paddle_op, names, y.name)
            for op in block.ops[start:]:
                op.group = group
        return y

    def __exit__(self, *exc) -> None:
        _open.depth -= 1


class _Inside:
    """A group inside a group: inputs untouched, nothing marked."""

    __slots__ = ("inputs",)

    def __init__(self, inputs: tuple) -> None:
        self.inputs = tuple(inputs)

    def __enter__(self) -> _Inside:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def result(self, y):
        return y


def paddle_op_group(paddle_op: str, inputs: tuple):
    """A context manager that marks the ops built inside it as Paddle's op `paddle_op` (see the module docstring)."""
    return _Inside(inputs) if _open.depth else _Marking(paddle_op, inputs)


static_hooks.install(paddle_op_group=paddle_op_group)
