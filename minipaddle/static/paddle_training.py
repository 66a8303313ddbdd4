"""A training Program that paddle 2.6 wrote (static.save's .pdmodel, paddle.save of a main Program), made to train
in minipaddle: static/pdmodel.py reads its forward ops and leaves out the backward and optimizer ops (Paddle's fused
`*_grad` kernels are not minipaddle ops); here the optimizer is rebuilt from Paddle's optimizer ops (their type and
attributes) and `minimize` appends minipaddle's own backward and update ops for the loss Paddle's backward starts
from. The optimizer state has Paddle's names (fc_0.w_0_moment1_0, learning_rate_0, ...), so paddle's `.pdopt`
loads into it with static.load, and the learning rate is the loaded learning_rate_0 (the .pdmodel does not hold its
value, nor a schedule: as in Paddle, `program.lr_scheduler = sched` with `sched._var_name = "learning_rate_0"` has
the Executor set it from the scheduler before each run).

The optimizer is built from Paddle's optimizer op by minipaddle/optimizer/from_paddle_ops.py (sgd, momentum,
adam, adamw), a floor above, which installs it here.
"""

from __future__ import annotations

import itertools
import re

from minipaddle.core.state import STATE, name_guard
from minipaddle.static.amp.decorator import decorate_read
from minipaddle.static.paddle_amp_ops import AMP_OPS, loss_scaling_of, unscaled_loss
from minipaddle.static.paddle_clip_ops import CLIP_AND_DECAY_OPS, clip_and_decay_of

__all__ = ["rebuild_training", "count_past", "count_past_taken_names"]

_LOSS_GRAD = 0x101  # Paddle's OpRole Backward | Loss: the fill_constant of d(loss)/d(loss) = 1
_OPTIMIZERS = ("sgd", "momentum", "adam", "adamw")


def _optimizers_not_loaded(kind: str, attrs: dict):
    raise RuntimeError("rebuild_training: minipaddle.optimizer, which rebuilds Paddle's optimizer ops, is not imported")


# (Paddle optimizer op type, its attributes) -> a minipaddle optimizer. The optimizers stand a floor above static,
# so minipaddle.optimizer installs this when it is imported (optimizer/from_paddle_ops.py), as static installs its
# hooks into nn (nn/static_hooks.py).
optimizer_from_paddle_op = _optimizers_not_loaded


def install_optimizers(fn) -> None:
    """Set the function that rebuilds an optimizer from Paddle's optimizer op (from minipaddle.optimizer)."""
    global optimizer_from_paddle_op
    optimizer_from_paddle_op = fn


def rebuild_training(program, left_out: list, attrs_of) -> str | None:
    """Append minipaddle's backward and optimizer to `program` (being read, in its program_guard) for the Paddle
    ops `left_out` (op descs), when they hold one loss and one kind of the optimizer ops above, and besides those
    only the ops of a gradient clip and weight decay (static/paddle_clip_ops.py) and of static.amp's loss scaling
    (static/paddle_amp_ops.py: the optimizer is then decorated again, around the unscaled loss). Returns what was
    built, to tell the user, or None (the Program then holds its forward ops only)."""
    losses = [o for o in left_out if o.type == "fill_constant" and attrs_of(o).get("op_role") == _LOSS_GRAD]
    updating = [o for o in left_out if attrs_of(o).get("op_role", 0) & 0x2]
    amp = loss_scaling_of(updating, attrs_of)  # static.amp.decorate's loss scaling (static/paddle_amp_ops.py)
    if amp is not None:
        updating = [o for o in updating if o.type not in AMP_OPS]
    kinds = {o.type for o in updating if o.type in _OPTIMIZERS}
    if len(losses) != 1 or len(kinds) != 1 or any(o.type not in {*_OPTIMIZERS, *CLIP_AND_DECAY_OPS} for o in updating):
        return None
    slots_of = lambda o, which: {v.parameter: list(v.arguments) for v in getattr(o, which)}  # noqa: E731
    try:
        clip, decays = clip_and_decay_of(updating, attrs_of, slots_of)
    except ValueError:  # clipped in a way minipaddle's clips do not: the forward ops only
        return None
    (out,) = [list(v.arguments) for v in losses[0].outputs if v.parameter == "Out"]
    loss_name = out[0].removesuffix("@GRAD")
    if loss_name not in program.global_block().vars:
        return None
    (kind,) = kinds
    first = next(o for o in left_out if o.type == kind)
    (lr,) = [list(v.arguments) for v in first.inputs if v.parameter == "LearningRate"]
    if not lr or lr[0] not in program.global_block().vars:
        return None
    gb = program.global_block()
    params = [gb.vars[n] for o in updating if o.type == kind for n in slots_of(o, "inputs")["Param"] if n in gb.vars]
    if amp is not None:  # decorate multiplies the loss again: minimize the one paddle multiplied
        loss_name = unscaled_loss(gb, loss_name)
        if loss_name is None:
            return None
    optimizer = optimizer_from_paddle_op(kind, attrs_of(first), clip, decays, params)
    # The update ops read Paddle's learning-rate variable, whose value is in the .pdopt (not in the .pdmodel): it
    # is registered as this optimizer's before minimize, which then uses it, and taken out of the variables the
    # Executor refreshes from optimizer.get_lr() after, so the loaded value stays.
    program.lr_feeds.append((lr[0], optimizer))
    with name_guard():
        count_past_taken_names(program, with_state=False)
        minimizer = optimizer if amp is None else decorate_read(optimizer, **amp)
        minimizer.minimize(program.global_block().var(loss_name))
    program.lr_feeds[:] = [(n, o) for n, o in program.lr_feeds if o is not optimizer]
    extras = [f"{clip[0]}({', '.join(map(str, clip[1]))})"] if clip else []
    extras += sorted({f"{kind}({coeff})" for kind, coeff in decays.values()})
    if attrs_of(first).get("regularization_method") == "l2_decay":  # Momentum's own L2Decay (no ops of its own)
        extras.append(f"L2Decay({attrs_of(first)['regularization_coeff']:.7g})")
    if amp is not None:
        extras.append(
            f"static.amp.decorate ({'dynamic' if amp['use_dynamic_loss_scaling'] else 'static'} loss scaling)"
        )
    with_ = f" with {' and '.join(extras)}" if extras else ""
    return f"{type(optimizer).__name__}{with_} on loss {loss_name!r}, learning rate {lr[0]!r} (from static.load)"


_NUMBERED = re.compile(r"^(.*)_(\d+)(?:\.tmp_\d+)?$")  # what unique_name makes: prefix_N, prefix_N.tmp_K


def count_past_taken_names(program, with_state: bool = True) -> None:
    """Move the name counters past every name the Program has (with_state False: but the optimizer state's). In
    the fresh counters of the rebuild, the optimizer then names its accumulators as Paddle did
    (fc_0.w_0_moment1_0, which static.load fills) whatever the counters were before the read, and minipaddle's
    backward names no variable like a read one; after a read (static/pdmodel.py), no name the user's next ops
    get is taken."""
    count_past(v.name for v in program.list_vars() if with_state or not v.persistable or v.is_parameter)


def count_past(names) -> None:
    """Move the name counters past each of `names` that unique_name could make (embedding_1.tmp_0: embedding
    from 2 on)."""
    following: dict = {}
    for v_name in names:
        for name in (v_name, v_name.split(".")[0]):
            m = _NUMBERED.match(name)
            if m:
                following[m.group(1)] = max(following.get(m.group(1), 0), int(m.group(2)) + 1)
    for prefix, n in following.items():
        STATE.name_counters[prefix] = itertools.count(max(n, next(STATE.name_counters[prefix])))
