"""Static AMP's Program rewrites (paddle 2.6's python/paddle/static/amp/fp16_utils.py), on the amp_cast pass."""

from __future__ import annotations

import contextlib
import warnings

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.place import Place
from minipaddle.static.executor import Scope, global_scope
from minipaddle.static.passes.amp_cast import GUARD, amp_cast, low_parameters, mark_dtype, rewrite_program
from minipaddle.static.program import Program, default_main_program, name_scope

__all__ = ["fp16_guard", "cast_model_to_fp16", "cast_parameters_to_fp16", "rewrite_program", "amp_cast"]


@contextlib.contextmanager
def fp16_guard():
    """Mark the ops built inside: with `use_fp16_guard=True` (O2), only they compute in float16.

    Example:
        >>> with paddle.static.amp.fp16_guard():
        ...     y = paddle.static.nn.fc(x, 10)
    """
    with name_scope(prefix=GUARD):
        yield


def cast_model_to_fp16(program=None, amp_lists=None, use_fp16_guard=True, dest_type="float16", level="O2",
                       use_promote=False):  # fmt: skip
    """Rewrite `program` (default: the main Program) in place for pure low precision (O2) or O1 casts.

    Returns the set of the parameters' names it computes with in `dest_type`: what to hand to
    cast_parameters_to_fp16 (paddle's set also names the other variables it made float16)."""
    program = default_main_program() if program is None else program
    if not isinstance(program, Program):
        raise TypeError(f"cast_model_to_fp16: program must be a Program, got {type(program).__name__}")
    rewrite_program(program, amp_lists, dest_type, level, use_fp16_guard, use_promote)
    return set(low_parameters(program, dest_type))


def cast_parameters_to_fp16(place, program, scope=None, to_fp16_var_names=None, dest_type="float16",
                            rewrite_master_weight=False, master_weights=None) -> None:  # fmt: skip
    """Convert the values of `program`'s parameters named in `to_fp16_var_names` to float16 in `scope`, in place
    (after the startup Program has run, before pure float16 training: `OptimizerWithMixedPrecision.amp_init`
    calls it).

    Args:
        place (Place): where the values live (minipaddle keeps them on the CPU).
        program (Program): the Program whose parameters to convert.
        scope (Scope, optional): where the values are (default: the global scope).
        to_fp16_var_names (set|list, optional): the names to convert; a name that is no parameter of `program`
            is passed over, as paddle does. None: the parameters the O2 rewrite computes with in float16
            (paddle 2.6.2 converts nothing for None; its O2 rewrite hands back the names instead).
        dest_type (str): 'float16' or 'bfloat16'.
        rewrite_master_weight (bool): also set the float32 master weights in `master_weights` (a dict from a
            parameter's name to its master Variable) to the converted values.

    Example:
        >>> opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), use_pure_fp16=True)
        >>> opt.minimize(loss)
        >>> exe.run(startup)
        >>> paddle.static.amp.cast_parameters_to_fp16(paddle.CPUPlace(), main)
    """
    cast_parameters("cast_parameters_to_fp16", place, program, scope, to_fp16_var_names, dest_type,
                    rewrite_master_weight, master_weights)  # fmt: skip


def cast_parameters(caller: str, place, program, scope, names, dtype: str, rewrite_master_weight=False,
                    master_weights=None) -> list:  # fmt: skip
    """cast_parameters_to_fp16 and cast_parameters_to_bf16: convert the named parameters' values in `scope` to
    `dtype` and declare them `dtype` in `program` (so the Program says what the scope holds). Returns the names
    converted."""
    if not isinstance(place, Place):
        raise TypeError(f"{caller}: place must be a Place such as paddle.CPUPlace(), got {type(place).__name__}")
    if not isinstance(program, Program):
        raise TypeError(f"{caller}: program must be a Program, got {type(program).__name__}")
    if scope is not None and not isinstance(scope, Scope):
        raise TypeError(f"{caller}: scope must be a Scope, got {type(scope).__name__}")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError(f"{caller}: dest_type must be 'float16' or 'bfloat16', got {dtype!r}")
    if names is None:
        names = low_parameters(program, dtype)
    elif isinstance(names, str) or not isinstance(names, (set, frozenset, list, tuple)):
        raise TypeError(f"{caller}: the names must be a set or list of parameter names, got {type(names).__name__}")
    elif not all(isinstance(n, str) for n in names):
        raise TypeError(f"{caller}: the names must be strings, got {sorted({type(n).__name__ for n in names})}")
    master_weights = {} if master_weights is None else master_weights
    scope = global_scope() if scope is None else scope
    low = dtypes.to_dtype(dtype).np
    wanted = set(names)
    done = []
    for block in program.blocks:
        for param in block.all_parameters():
            if param.name not in wanted or param.name in done:
                continue
            if param.name not in scope.vars:  # paddle warns and goes on
                warnings.warn(f"{caller}: cannot find {param.name} in the scope; run the startup Program first",
                              stacklevel=3)  # fmt: skip
                continue
            value = scope.vars[param.name].astype(low)
            scope.vars[param.name] = value
            master = master_weights.get(param.name)
            if rewrite_master_weight and master is not None:
                scope.vars[master.name] = value.astype(np.float32)
            done.append(param.name)
    mark_dtype(program, done, dtype)
    return done
