"""paddle.static.amp.decorate: an optimizer wrapper that trains a static Program in mixed precision.

`minimize(loss)`:
1. rewrites the Program with AMP's casts (the amp_cast pass: white ops low, black float32, gray as their inputs);
2. multiplies the loss by the loss scale (a persistable variable `loss_scaling_0`) and appends backward;
3. divides each gradient by the scale and checks them all for Inf/NaN (paddle's check_finite_and_unscale op). Under
   O2 without master_grad the unscaled gradient of a low-precision parameter is rounded to the low dtype, as
   paddle's float16 gradients of its float16 parameters are (small ones underflow to zero), while a parameter O2
   keeps float32 (a layer_norm's) keeps its float32 gradient (paddle's float32 group); master_grad=True keeps all
   float32 (paddle casts to float32 master gradients before unscaling);
4. with dynamic loss scaling, updates the scale in the Program with paddle's `update_loss_scaling` op: after
   `decr_every_n_nan_or_inf` bad steps it shrinks (never below 1), after `incr_every_n_steps` good ones it grows
   (if still finite); a bad step's gradients are zeroed (paddle's stop_update);
5. appends the optimizer's update ops, guarded: every persistable variable they write (parameters, moments, beta
   powers, master weights) keeps its old value on a bad step (paddle hands Adam, AdamW and Lamb `found_inf` as
   SkipUpdate; minipaddle guards every optimizer alike), so an overflow changes no parameter and no moment.
Steps 3 and 4 are paddle's two fused ops (ops/loss_scaling.py), one node each in the Program and its drawings.
Under O2 the parameters the rewrite computes with in the low dtype are declared low before step 5, so the
optimizer updates their float32 master weights (multi_precision, paddle's default for O2) and writes each back
rounded; `amp_init` (after the startup Program) converts their float32 start values, as paddle 2.6.2 does.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import unique_name
from minipaddle.static.amp.fp16_utils import cast_parameters
from minipaddle.static.backward import append_backward, rename_variable
from minipaddle.static.paddle_amp_ops import AmpLossScaling
from minipaddle.static.parameters import declare_persistable
from minipaddle.static.passes.amp_cast import low_parameters, mark_dtype, rewrite_program
from minipaddle.static.passes.amp_lists import AutoMixedPrecisionLists
from minipaddle.static.program import ROLE_OPTIMIZE, Variable
from minipaddle.tensor import creation, manipulation
from minipaddle.tensor import math as tmath

__all__ = ["decorate", "OptimizerWithMixedPrecision", "decorate_read"]

_ASSIGN = get_op("assign")


class OptimizerWithMixedPrecision:
    """What `paddle.static.amp.decorate` returns: `minimize(loss)` as the module docstring says."""

    def __init__(self, optimizer, amp_lists, level, dtype, init_loss_scaling, use_dynamic_loss_scaling,
                 incr_every_n_steps, decr_every_n_nan_or_inf, incr_ratio, decr_ratio, use_fp16_guard,
                 use_promote, master_grad=False) -> None:  # fmt: skip
        self._optimizer = optimizer
        self._amp_lists = amp_lists
        self._level = level
        self._dtype = dtype
        self._init_loss_scaling = float(init_loss_scaling)
        self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
        self._incr_every_n_steps = int(incr_every_n_steps)
        self._decr_every_n_nan_or_inf = int(decr_every_n_nan_or_inf)
        self._incr_ratio = float(incr_ratio)
        self._decr_ratio = float(decr_ratio)
        self._use_fp16_guard = use_fp16_guard
        self._use_promote = use_promote
        self._master_grad = bool(master_grad) and level == "O2"  # paddle: master gradients are O2's only
        self._loss_scaling = None
        self._scaled_loss = None
        self._found_inf = None
        self._train_program = None
        self._to_fp16_var_names = None  # O2: the parameters computed in the low dtype, for amp_init
        self._bf16_decorator = False  # set by bf16.decorate_bf16 (paddle's wrapper without loss scaling)
        self._rewrites_program = True  # False for a Program paddle wrote (its casts are in it already)

    @property
    def _cast_suffix(self) -> str:
        """How the rewrite names casts to the low dtype: paddle's decorate writes `.cast_fp16` for bfloat16 too
        (its float16 code path), decorate_bf16 `.cast_bf16`."""
        return "bf16" if self._bf16_decorator else "fp16"

    def get_loss_scaling(self) -> Variable:
        """The loss scale's variable (fetch it to watch the scale)."""
        return self._loss_scaling

    def get_scaled_loss(self) -> Variable:
        """The scaled loss's variable."""
        return self._scaled_loss

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None, callbacks=None) -> list:
        """Rewrite the Program, scale the loss and append backward; returns (param, scaled grad) pairs."""
        if not isinstance(loss, Variable):
            raise TypeError(f"OptimizerWithMixedPrecision.backward: loss must be a static Variable, got "
                            f"{type(loss).__name__}")  # fmt: skip
        self._train_program = program = loss.block.program
        if self._rewrites_program:
            rewrite_program(program, self._amp_lists, self._dtype, self._level, self._use_fp16_guard,
                            self._use_promote, self._cast_suffix)  # fmt: skip
        if self._level == "O2":
            self._to_fp16_var_names = low_parameters(program, self._dtype)
        self._loss_scaling = declare_persistable(unique_name("loss_scaling"),
                                                 np.array([self._init_loss_scaling], np.float32))  # fmt: skip
        settings = AmpLossScaling(self._level, self._dtype, self._init_loss_scaling, self._use_dynamic_loss_scaling,
                                  self._bf16_decorator)  # fmt: skip
        program.amp_loss_scaling = settings  # what the .pdmodel writer follows (static/paddle_amp_ops.py)
        loss32 = loss if loss.dtype == dtypes.float32 else _named_tmp(manipulation.cast(loss, "float32"))
        # paddle multiplies by a scale that may change or is not 1.0 only (x * 1.0 is x: the same numbers)
        scaled = settings.scales_the_loss
        self._scaled_loss = _named_tmp(tmath.multiply(loss32, self._loss_scaling)) if scaled else loss32
        return append_backward(self._scaled_loss, parameter_list=parameter_list, no_grad_set=no_grad_set)

    def apply_gradients(self, params_grads: list) -> list:
        """Unscale and check the gradients, update the loss scale, and append the optimizer's updates."""
        program = self._loss_scaling.block.program
        first = len(program.global_block().ops)
        with program.role(ROLE_OPTIMIZE):
            low_params = set(self._to_fp16_var_names or ())
            params = [p for p, _ in params_grads]
            grads = []
            for p, g in params_grads:
                # the float16 gradient paddle's float16 parameter gets; a parameter O2 keeps float32 (a norm's)
                # gets its float32 gradient, in paddle's float32 group
                if not self._master_grad and p.name in low_params and g.dtype == dtypes.float32:
                    g = manipulation.cast(g, self._dtype)
                grads.append(g)
            if not grads:
                _skip_update_on(creation.zeros([], "bool"), program.global_block(),
                                lambda: self._optimizer.apply_gradients([]))  # fmt: skip
                return program.global_block().ops[first:]
            # one op unscales every gradient (float32 math, one rounding to its dtype) and checks for Inf/NaN
            *grads, found_inf = ops.check_finite_and_unscale(grads, self._loss_scaling)
            grads = self._update_loss_scaling(grads, found_inf)  # zeroes a bad step's gradients
            if low_params:
                # paddle's O2 parameters are float16 (after amp_init): the optimizer updates their float32
                # master weights (multi_precision) and writes each back rounded, so they stay float16; without
                # master weights it updates them in float16, with their float16 gradients
                mark_dtype(program, low_params, self._dtype)
            pure_low = () if self._optimizer._multi_precision else low_params
            wanted = [p.dtype if p.name in pure_low else og.dtype for p, (_, og) in zip(params, params_grads)]
            unscaled = [(p, g if g.dtype == want else manipulation.cast(g, want))
                        for p, g, want in zip(params, grads, wanted)]  # fmt: skip
            self._found_inf = found_inf = manipulation.reshape(found_inf, [])
            _skip_update_on(found_inf, program.global_block(), lambda: self._optimizer.apply_gradients(unscaled))
        return program.global_block().ops[first:]

    def _update_loss_scaling(self, grads, found_inf) -> list:
        """paddle's update_loss_scaling op: zeroes a bad step's gradients and, with dynamic loss scaling, counts
        good and bad steps and updates the scale (persistable, so the counts carry over to the next run)."""
        if self._use_dynamic_loss_scaling:
            good = declare_persistable(unique_name("num_good_steps"), np.zeros([1], np.int32))
            bad = declare_persistable(unique_name("num_bad_steps"), np.zeros([1], np.int32))
        else:  # counters no one keeps (paddle declares none without dynamic scaling)
            good, bad = creation.zeros([1], "int32"), creation.zeros([1], "int32")
        *grads, scale, good_now, bad_now = ops.update_loss_scaling(
            grads, found_inf, self._loss_scaling, good, bad, self._incr_every_n_steps,
            self._decr_every_n_nan_or_inf, self._incr_ratio, self._decr_ratio,
            stop_update=not self._use_dynamic_loss_scaling)  # fmt: skip
        if self._use_dynamic_loss_scaling:
            apply_inplace(_ASSIGN, self._loss_scaling, (scale,))
            apply_inplace(_ASSIGN, good, (good_now,))
            apply_inplace(_ASSIGN, bad, (bad_now,))
        return grads

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None) -> tuple:
        """backward + apply_gradients. Returns (optimize ops, (param, scaled grad) pairs)."""
        params_grads = self.backward(loss, startup_program, parameter_list, no_grad_set)
        return self.apply_gradients(params_grads), params_grads

    def amp_init(self, place, scope=None, test_program=None, use_fp16_test=False,
                 rewrite_master_weight=False) -> None:  # fmt: skip
        """After the startup Program: under O2, convert the parameters the rewrite computes with in the low dtype
        to it in `scope` (cast_parameters_to_fp16; their float32 master weights keep the startup values); and
        rewrite `test_program` as the training Program was (O2), or with O1's casts if use_fp16_test."""
        if self._train_program is None:
            raise RuntimeError("OptimizerWithMixedPrecision.amp_init: call minimize (or backward) first")
        if self._level == "O2":
            cast_parameters("OptimizerWithMixedPrecision.amp_init", place, self._train_program, scope,
                            self._to_fp16_var_names, self._dtype, rewrite_master_weight,
                            self._optimizer._master_weights)  # fmt: skip
        if test_program is not None and (self._level == "O2" or use_fp16_test):
            rewrite_program(test_program, self._amp_lists, self._dtype, self._level, self._use_fp16_guard,
                            self._use_promote, self._cast_suffix)  # fmt: skip
            if self._level == "O2":  # the test Program reads the same, now float16, parameters
                mark_dtype(test_program, low_parameters(test_program, self._dtype), self._dtype)

    def __getattr__(self, name):  # get_lr, set_lr, state_dict, ... of the wrapped optimizer
        return getattr(self._optimizer, name)


def _named_tmp(var: Variable) -> Variable:
    """`var`, just made by its block's last op, renamed as paddle names what its Variable arithmetic makes
    (`loss.astype("float32")`, `loss * loss_scaling`): tmp_0, tmp_1, ..."""
    rename_variable(var.block, var.name, unique_name("tmp"))
    return var


def _skip_update_on(found_inf, block, append_update) -> None:
    """Append the optimizer's update ops (`append_update()`) so that on a bad step every persistable variable they
    write keeps its value: a copy of each is taken before them, and after them each is set to
    where(found_inf, copy, new value). The copies are taken first, so the updates read and write as before."""
    start = len(block.ops)
    append_update()
    update_ops = block.ops[start:]
    written = []
    for op in update_ops:
        for n in op.output_names():
            if n is not None and n not in written and block.has_var(n) and block.var(n).persistable:
                written.append(n)
    del block.ops[start:]
    saved = {n: apply(_ASSIGN, (block.var(n),)) for n in written}  # the copies, then the updates
    block.ops.extend(update_ops)
    for n in written:
        var = block.var(n)
        apply_inplace(_ASSIGN, var, (manipulation.where(found_inf, saved[n], var),))


def decorate(optimizer, amp_lists=None, level="O1", dtype="float16", master_weight=None, master_grad=False,
             init_loss_scaling=2**16, incr_every_n_steps=2000, decr_every_n_nan_or_inf=1, incr_ratio=2.0,
             decr_ratio=0.5, use_dynamic_loss_scaling=None, use_amp_guard=False, use_promote=False,
             use_pure_fp16=False, use_fp16_guard=None, use_bf16=False):  # fmt: skip
    """Wrap `optimizer` for static mixed-precision training (paddle.static.amp.decorate).

    Args:
        optimizer: a paddle.optimizer.Optimizer.
        amp_lists (AutoMixedPrecisionLists, optional): the lists (default: paddle 2.6's).
        level (str): 'O1' (casts by the lists), 'O2' (everything low but the black list), 'OD' (only the
            white list low). paddle 2.0's `use_pure_fp16=True` means 'O2'.
        dtype (str): 'float16' or 'bfloat16' (`use_bf16=True`).
        init_loss_scaling, incr_every_n_steps, decr_every_n_nan_or_inf, incr_ratio, decr_ratio: loss scaling.
        use_dynamic_loss_scaling (bool, optional): None means True for float16, False for bfloat16.
        use_fp16_guard (bool, optional): O2 casts only the ops inside fp16_guard (None: as use_pure_fp16 says).
        master_grad (bool): under O2, unscale and update with float32 gradients (default False: the unscaled
            gradients are rounded to the low dtype, as paddle's gradients of float16 parameters are).
        use_promote (bool): an op on neither list computes in float32 when one of its inputs is float32 (default
            False: O1's gray-list rule, O2's everything low).
        master_weight (bool, optional): under O2, update float32 master weights of the float16 parameters
            (the optimizer's multi_precision; None means True, as paddle).
        use_amp_guard: accepted as paddle's.

    Example:
        >>> opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), init_loss_scaling=1024.0)
        >>> opt.minimize(loss)
    """
    if not (hasattr(optimizer, "apply_gradients") and hasattr(optimizer, "_param_groups")):
        raise TypeError(f"decorate: optimizer must be a paddle.optimizer.Optimizer, got {type(optimizer).__name__}")
    if use_pure_fp16:
        level = "O2"
    if use_bf16:
        dtype = "bfloat16"
    if level not in ("O1", "O2", "OD"):
        raise ValueError(f"decorate: level should be 'O1', 'O2' or 'OD', got {level!r}")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError(f"decorate: dtype should be 'float16' or 'bfloat16', got {dtype!r}")
    if amp_lists is None:
        amp_lists = AutoMixedPrecisionLists(dtype=dtype)
    elif not isinstance(amp_lists, AutoMixedPrecisionLists):
        raise TypeError(f"decorate: amp_lists must be an AutoMixedPrecisionLists, got {type(amp_lists).__name__}")
    if level == "OD":  # only the white list low: everything else black
        amp_lists.black_list = amp_lists.all_list - amp_lists.white_list
        amp_lists.gray_list = set()
        level = "O1"
    if use_dynamic_loss_scaling is None:
        use_dynamic_loss_scaling = dtype == "float16"
    if use_fp16_guard is None:
        use_fp16_guard = bool(use_pure_fp16)
    # paddle: master weights unless master_weight=False (they matter for O2's float16 parameters only)
    optimizer._multi_precision = master_weight is not False
    return OptimizerWithMixedPrecision(optimizer, amp_lists, level, dtype, init_loss_scaling,
                                       bool(use_dynamic_loss_scaling), incr_every_n_steps, decr_every_n_nan_or_inf,
                                       incr_ratio, decr_ratio, use_fp16_guard, use_promote,
                                       master_grad)  # fmt: skip


def decorate_read(optimizer, **loss_scaling) -> OptimizerWithMixedPrecision:
    """The decorated optimizer of a training Program paddle 2.6 wrote (static/paddle_training.py): its forward ops
    hold paddle's casts already, so minimize does not rewrite it; `loss_scaling` are decorate's arguments read from
    paddle's ops (static/paddle_amp_ops.py). O2's low-precision gradients follow the parameters' own dtypes."""
    low = {p.dtype.name for p in optimizer._parameter_list or ()} & {"float16", "bfloat16"}
    level = "O2" if low else "O1"
    wrapped = decorate(optimizer, level=level, dtype=low.pop() if low else "float16", init_loss_scaling=2.0**15,
                       master_weight=bool(optimizer._multi_precision), **loss_scaling)  # fmt: skip
    wrapped._rewrites_program = False
    return wrapped
