"""paddle.static.amp.bf16: static AMP in bfloat16 (paddle runs it on CPUs with oneDNN; minipaddle on any CPU).

decorate_bf16(optimizer, ...)        the optimizer wrapper (no loss scaling: bfloat16 has float32's range)
bf16_guard()                         with use_bf16_guard, only the ops built inside compute in bfloat16
AutoMixedPrecisionListsBF16          the lists
rewrite_program_bf16 / cast_model_to_bf16   the Program rewrite (O1 / pure bfloat16)
"""

from __future__ import annotations

import contextlib

import ml_dtypes
import numpy as np

from minipaddle.static.amp.bf16.amp_lists import AutoMixedPrecisionListsBF16
from minipaddle.static.amp.decorator import decorate
from minipaddle.static.amp.fp16_utils import cast_parameters
from minipaddle.static.passes.amp_cast import GUARD, rewrite_program
from minipaddle.static.program import default_main_program, name_scope

__all__ = ["AutoMixedPrecisionListsBF16", "bf16_guard", "cast_model_to_bf16", "cast_parameters_to_bf16",
           "convert_float_to_uint16", "decorate_bf16", "rewrite_program_bf16"]  # fmt: skip


@contextlib.contextmanager
def bf16_guard():
    """Mark the ops built inside: with use_bf16_guard=True, only they compute in bfloat16."""
    with name_scope(prefix=GUARD):
        yield


def _lists(amp_lists):
    return AutoMixedPrecisionListsBF16() if amp_lists is None else amp_lists


def rewrite_program_bf16(main_prog, amp_lists=None):
    """O1 in bfloat16: insert casts around bf16-list and fp32-list ops (in place)."""
    return rewrite_program(main_prog, _lists(amp_lists), "bfloat16", "O1", low_suffix="bf16")


def cast_model_to_bf16(program, startup_prog=None, amp_lists=None, use_bf16_guard=True):
    """Pure bfloat16 (O2): every op but the fp32 list's computes in bfloat16 (in place)."""
    program = program or default_main_program()
    return rewrite_program(program, _lists(amp_lists), "bfloat16", "O2", use_bf16_guard, low_suffix="bf16")


def cast_parameters_to_bf16(place, program, scope=None, to_bf16_var_names=None) -> None:
    """Convert the values of `program`'s parameters named in `to_bf16_var_names` to bfloat16 in `scope`, in place
    (None: those the pure bfloat16 rewrite computes with in bfloat16). See cast_parameters_to_fp16."""
    cast_parameters("cast_parameters_to_bf16", place, program, scope, to_bf16_var_names, "bfloat16")


def convert_float_to_uint16(in_list):
    """float32 values as the upper 16 bits of their bfloat16 rounding (paddle's uint16 view of bfloat16)."""
    return np.asarray(in_list, np.float32).astype(ml_dtypes.bfloat16).view(np.uint16)


def decorate_bf16(optimizer, amp_lists=None, use_pure_bf16=False, use_bf16_guard=None):
    """Wrap `optimizer` for static bfloat16 training: O1 casts (or pure bfloat16 with use_pure_bf16), no loss
    scaling. As paddle's, it leaves the optimizer's multi_precision as it is (default False: pure bfloat16
    parameters are updated in bfloat16; paddle's example sets multi_precision=True for float32 master weights)."""
    guard = bool(use_pure_bf16) if use_bf16_guard is None else use_bf16_guard
    opt = decorate(optimizer, amp_lists=None, level="O2" if use_pure_bf16 else "O1", dtype="bfloat16",
                   use_dynamic_loss_scaling=False, init_loss_scaling=1.0, use_fp16_guard=guard,
                   master_weight=bool(getattr(optimizer, "_multi_precision", False)))  # fmt: skip
    opt._amp_lists = _lists(amp_lists)
    opt._bf16_decorator = True
    return opt
