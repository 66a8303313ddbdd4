"""is_test_pass: put the model in inference mode for good.

Paddle's is_test_pass sets `is_test=True` on every op that behaves differently in training (dropout, batch_norm).
In minipaddle such layers, built in training mode, are a `cond` on the Program's training flag
(static/train_switch.py), and a saved inference model holds that flag as the constant False. This pass replaces
each such cond by the ops of its inference branch, so the ops behind a batch norm or a dropout lie in the main
block where the fusion passes can see them:

    before: flag = assign_value(False); y = cond(flag, <batch statistics, update running stats>, <running stats>)
    after:  y = <the running-statistics ops>
"""

from __future__ import annotations

from minipaddle.ops.constant import AssignValue
from minipaddle.static.builder import slot_inputs
from minipaddle.static.program import TRAINING_FLAG, OpDesc, Program


def is_test_pass(program: Program, ctx) -> Program:
    """A copy of `program` in which every train/eval switch is replaced by its inference branch."""
    new = program.clone()
    block = new.global_block()
    flag_ops = [op for op in block.ops if op.type == AssignValue.name and op.output_names() == [TRAINING_FLAG]]
    if not flag_ops or any(TRAINING_FLAG in op.output_names() for op in block.ops if op not in flag_ops):
        return new  # no switch, or a flag someone changes at run time: nothing is known for good
    ops, inlined = [], 0
    for op in block.ops:
        if op.type == "cond" and op.inputs.get("pred") == [TRAINING_FLAG]:
            ops.extend(_inference_branch(new, op))
            inlined += 1
        else:
            ops.append(op)
    if not any(TRAINING_FLAG in op.input_names() for op in ops):
        ops = [op for op in ops if op not in flag_ops]
        block.vars.pop(TRAINING_FLAG, None)
    block.ops = ops
    ctx.note(f"{inlined} train/eval switches replaced by their inference branch")
    return new


def _inference_branch(program: Program, cond: OpDesc) -> list:
    """The ops of the cond's false branch, moved into the main block; its results go to the cond's outputs."""
    block = program.global_block()
    branch = program.blocks[cond.attrs["false_block"]]
    outs, branch_outs = cond.output_names(), list(cond.attrs["false_outs"])
    rename = {}
    produced = {n for op in branch.ops for n in op.output_names()}
    for out, bout in zip(outs, branch_outs):
        if bout in produced and bout not in rename:  # the branch computes it: let it write the cond's name
            rename[bout] = out
    for name, v in branch.vars.items():
        if name not in rename and name not in block.vars:
            block.vars[name] = v.copy_to(block)
    moved = []
    for op in branch.ops:
        op.inputs = {s: [rename.get(n, n) for n in names] for s, names in op.inputs.items()}
        op.outputs = {s: [rename.get(n, n) for n in names] for s, names in op.outputs.items()}
        moved.append(op)
    for out, bout in zip(outs, branch_outs):  # the branch passes an outer value through: an identity
        if bout not in rename:
            moved.append(OpDesc("assign", slot_inputs_assign(bout), {"Out": [out]}, {}, cond.role, cond.scope))
    for idx in (cond.attrs["true_block"], cond.attrs["false_block"]):  # both branches are now empty
        program.blocks[idx].ops, program.blocks[idx].vars = [], {}
    return moved


def slot_inputs_assign(name: str) -> dict:
    from minipaddle.core.op import OPS

    return slot_inputs(OPS["assign"], [name])
