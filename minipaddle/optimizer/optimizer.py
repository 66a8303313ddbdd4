"""The Optimizer base class: what every optimizer does around its own update rule.

One `step()` (paddle 2.6's order), for each parameter group:
1. collect (param, grad) for the trainable parameters that have a gradient;
2. clip the gradients with `grad_clip` (paddle.nn.ClipGradBy*), if any;
3. add weight decay to each gradient: the parameter's own regularizer (from ParamAttr) if it has one, else the
   optimizer's `weight_decay` (a float means L2Decay);
4. update each parameter with the subclass's rule, `_update_param`, which applies the rule's ops from
   minipaddle/ops/optimizer_ops.py in place (core/inplace.apply_inplace), under no_grad; with multi_precision a
   float16/bfloat16 parameter's float32 master weight is updated, and the same op writes the parameter rounded
   from it (`_write_param`).

The learning rate of a parameter is the optimizer's (a float, or the current value of an LRScheduler) times the
parameter's factor: `ParamAttr(learning_rate=...)`, or a parameter group's 'learning_rate'.

State an optimizer keeps between steps (Adam's moments, Momentum's velocity) lives in accumulators: Tensors
created at a parameter's first update and named like paddle's, `<param name>_<accumulator>_<n>` (e.g.
`linear_0.w_0_moment1_0`). `state_dict()` returns them (plus the scheduler's state under 'LR_Scheduler').

Parameter groups: `parameters` may be a list of dicts, each with 'params' and its own options ('learning_rate'
as a factor of the optimizer's, 'weight_decay', 'grad_clip', and the subclass's hyperparameters such as 'beta1').
As in paddle 2.6, a group's weight_decay and learning_rate replace those from the parameters' ParamAttr.
"""

from __future__ import annotations

import re
import warnings
from collections import defaultdict

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace, apply_inplace_pair
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE, no_grad, unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.nn.clip import ClipGradBase
from minipaddle.ops.kinds import as_tensor
from minipaddle.ops.optimizer_ops import ParamUpdateOp
from minipaddle.optimizer.lr import LRScheduler
from minipaddle.profiler.events import RECORDING, optimizer_span
from minipaddle.regularizer import L2Decay, WeightDecayRegularizer
from minipaddle.static.optimize import accumulator, learning_rate, master_weight, minimize
from minipaddle.tensor.creation import full, to_tensor

__all__ = ["Optimizer"]

_ASSIGN = get_op("assign")
_SCALE = get_op("scale")


class Optimizer:
    """The base of every optimizer. Use a subclass (SGD, Momentum, Adam, ...).

    Args:
        learning_rate: a float, or an LRScheduler from paddle.optimizer.lr (an int is refused, as in Paddle).
        parameters: the Tensors to optimize (`model.parameters()`), or a list of parameter-group dicts.
        weight_decay: a float (L2 decay coefficient), paddle.regularizer.L1Decay/L2Decay, or None.
        grad_clip: paddle.nn.ClipGradByValue / ClipGradByNorm / ClipGradByGlobalNorm, or None.
        name: a prefix for the accumulators' names.

    Example:
        >>> linear = paddle.nn.Linear(10, 10)
        >>> adam = paddle.optimizer.Adam(learning_rate=0.1, parameters=linear.parameters())
        >>> loss = linear(paddle.rand([4, 10])).mean()
        >>> loss.backward()
        >>> adam.step()
        >>> adam.clear_grad()
    """

    _multi_precision = False  # subclasses that accept multi_precision set it in __init__
    _decoupled_decay = False  # AdamW: weight_decay is a coefficient on the parameter, not a gradient regularizer

    def __init__(self, learning_rate, parameters=None, weight_decay=None, grad_clip=None, name=None) -> None:
        cls = type(self).__name__
        self._parameter_list = _check_parameters(parameters, cls)
        if not isinstance(learning_rate, (float, LRScheduler)):
            raise TypeError(
                f"{cls}: learning_rate must be a float or an LRScheduler, got {type(learning_rate).__name__}"
            )
        if grad_clip is not None and not isinstance(grad_clip, ClipGradBase):
            raise TypeError(
                f"{cls}: grad_clip must be paddle.nn.ClipGradByValue, ClipGradByNorm or ClipGradByGlobalNorm, "
                f"got {type(grad_clip).__name__}"
            )
        self._learning_rate = learning_rate
        self.regularization = _as_regularizer(weight_decay, cls)
        self._grad_clip = grad_clip
        self._name = name
        # The options every parameter group starts from; subclasses add their hyperparameters (beta1, ...).
        self._default_dict = {"weight_decay": self.regularization, "grad_clip": grad_clip}
        self._grouped = bool(self._parameter_list) and isinstance(self._parameter_list[0], dict)
        self._param_groups = []
        if self._grouped:
            for group in self._parameter_list:
                self._add_param_group(dict(group))
        else:
            self._param_groups = [{"params": self._parameter_list}]
        self._accumulators = defaultdict(dict)  # accumulator name -> {parameter name: Tensor}
        self._accumulators_holder = {}  # values from set_state_dict for accumulators not created yet
        self._master_weights = {}  # parameter name -> float32 copy (multi_precision with float16 parameters)

    def _add_param_group(self, group: dict) -> None:
        """Check a parameter group and add it (its options stay as given; defaults fill in at each step)."""
        cls = type(self).__name__
        if "params" not in group:
            raise ValueError(f"{cls}: every parameter group needs a 'params' entry, got keys {sorted(group)}")
        params = group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, (set, frozenset)):
            raise TypeError(f"{cls}: a group's params must be an ordered collection (a list), not a set")
        group["params"] = list(params)
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError(f"{cls}: some parameters appear in more than one parameter group")
        if "weight_decay" in group and not self._decoupled_decay:
            group["weight_decay"] = _as_regularizer(group["weight_decay"], cls)
        self._param_groups.append(group)

    # ---- the learning rate ----

    def get_lr(self) -> float:
        """The current learning rate: the float given, or the scheduler's current value."""
        if isinstance(self._learning_rate, LRScheduler):
            return self._learning_rate()
        return self._learning_rate

    def set_lr(self, value: float) -> None:
        """Set a new learning rate (not allowed when the learning rate is an LRScheduler)."""
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"{type(self).__name__}.set_lr: value must be a float, got {type(value).__name__}")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError(
                f"{type(self).__name__}.set_lr: the learning rate is an LRScheduler, which decides it; "
                "step the scheduler instead, or use set_lr_scheduler"
            )
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler: LRScheduler) -> None:
        """Replace the learning rate (float or scheduler) by `scheduler`."""
        if not isinstance(scheduler, LRScheduler):
            raise TypeError(
                f"{type(self).__name__}.set_lr_scheduler: expected an LRScheduler, got {type(scheduler).__name__}"
            )
        self._learning_rate = scheduler

    # ---- one step ----

    @no_grad()
    def step(self) -> None:
        """Update every trainable parameter that has a gradient, once."""
        if RECORDING.recorder is not None:  # a paddle.profiler.Profiler records: time the step as one event
            with optimizer_span():
                return self._step()
        self._step()

    def _step(self) -> None:
        for group in self._param_groups:
            params_grads = [(p, g) for p in group["params"] if not p.stop_gradient and (g := p.grad) is not None]
            self._apply_optimize(params_grads, group)

    def _apply_optimize(self, params_grads: list, group: dict) -> list:
        """Clip, add weight decay, update: steps 2-4 of the module docstring, for one group."""
        options = {**self._default_dict, **{k: v for k, v in group.items() if k != "params"}}
        if options["grad_clip"] is not None:
            params_grads = options["grad_clip"](params_grads)
        lr_tensors = {}  # (factor, dtype) -> the 0-d learning-rate Tensor: one per step, not one per parameter
        for param, grad in params_grads:
            target = param
            if self._multi_precision and param.dtype in _LOW:  # update a float32 copy (_write_param rounds it back)
                target = self._master_weight(param)
                grad = ops.cast(grad, dtypes.float32)
            regularizer = self._regularizer_of(param, options)
            if regularizer is not None:  # (None adds nothing, in every optimizer's _regularized_grad)
                grad = self._regularized_grad(target, grad, regularizer)
            key = (self._lr_factor(param, group), target._data.dtype)  # (numpy's dtype: no DType lookup)
            lr = lr_tensors.get(key)
            if lr is None:
                lr = lr_tensors[key] = self._lr_tensor(key[0], target)
            # This parameter's entries, written into the group's dict (which this call made) rather than a copy.
            options["regularizer"], options["param"] = regularizer, param
            self._update_param(target, grad, lr, options)
        return params_grads

    def _lr_tensor(self, factor: float, like: Tensor) -> Tensor:
        """This parameter's learning rate as a 0-d Tensor (in static mode: a Variable the Executor refreshes)."""
        if STATE.static_mode:
            lr = learning_rate(self, like.dtype)
            return lr if factor == 1.0 else ops.scale(lr, factor)
        return as_tensor(self.get_lr() * factor, like)

    def _update_param(self, param: Tensor, grad: Tensor, lr: Tensor, options: dict) -> None:
        """The update rule: change `param` (and accumulators) in place. Each subclass writes its own.

        `lr` is this parameter's learning rate as a 0-d Tensor; `options` its group's hyperparameters (the
        subclass's `_default_dict` updated by the group) plus 'regularizer', this parameter's weight decay (which
        `_regularized_grad` has already added to `grad`), and 'param', the parameter as the user sees it (`param`
        is its float32 master copy under multi_precision)."""
        raise TypeError(f"{type(self).__name__} is not an optimizer by itself; use SGD, Adam, ...")

    def _write_param(self, op, param: Tensor, inputs: tuple, attrs: dict, options: dict) -> None:
        """Write the parameter's update `op(*inputs, **attrs)` (a ParamUpdateOp) into `param`, in place. Under
        multi_precision `param` is the float32 master weight of options['param'], and the one op writes both, the
        parameter rounded from the master (paddle's MasterParamOut and ParamOut)."""
        shown = options["param"]
        if param is shown:
            apply_inplace(op, param, inputs, attrs)
        elif isinstance(op, ParamUpdateOp):
            apply_inplace_pair(op, (param, shown), inputs, {**attrs, "param_dtype": shown.dtype.np})
        else:
            raise TypeError(f"{type(self).__name__}: multi_precision writes a parameter with an update op that "
                            f"also rounds it from its master weight (a ParamUpdateOp), not with {op.name}")  # fmt: skip

    def _regularizer_of(self, param, options: dict):
        """The weight decay for `param`: the group's (group mode), else the ParamAttr's, else the optimizer's."""
        if self._grouped and not self._decoupled_decay:
            return options["weight_decay"]
        own = getattr(param, "regularizer", None)
        return own if own is not None else self.regularization

    def append_regularization_ops(self, parameters_and_grads: list, regularization=None) -> list:
        """(param, grad + weight decay) pairs: each parameter's own regularizer, else `regularization`."""
        out = []
        for param, grad in parameters_and_grads:
            own = getattr(param, "regularizer", None)
            regularizer = own if own is not None else _as_regularizer(regularization, type(self).__name__)
            out.append((param, grad if grad is None else self._regularized_grad(param, grad, regularizer)))
        return out

    def _regularized_grad(self, param: Tensor, grad: Tensor, regularizer) -> Tensor:
        """grad + the regularizer's term (coupled weight decay)."""
        if regularizer is None:
            return grad
        return ops.add(grad, regularizer(param, grad))

    def _lr_factor(self, param, group: dict) -> float:
        """The parameter's learning-rate factor: its group's (group mode) or its ParamAttr's."""
        if self._grouped:
            return group.get("learning_rate", 1.0)
        return getattr(param, "optimize_attr", {}).get("learning_rate", 1.0)

    # ---- minimize = collect the gradients + step ----

    def backward(self, loss, startup_program=None, parameters=None, no_grad_set=None, callbacks=None) -> list:
        """In dynamic mode: the (param, grad) pairs of the parameters that have a gradient (as paddle 2.6, this
        does NOT run backward: call `loss.backward()` first)."""
        parameter_list = parameters if parameters else self._all_params()
        skip = _names(no_grad_set)
        return [(p, p.grad) for p in parameter_list if p.grad is not None and p.name not in skip]

    def apply_gradients(self, params_grads: list) -> list:
        """Update the parameters from given (param, grad) pairs (clipping and weight decay included)."""
        params_grads = sorted(params_grads, key=lambda pg: pg[0].name)
        with no_grad():
            return self._apply_optimize(params_grads, {"params": [p for p, _ in params_grads]})

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None) -> tuple:
        """Update the parameters from the gradients that `loss.backward()` left in them.

        As in paddle 2.6's dynamic mode, minimize does not run backward itself: write `loss.backward()` then
        `opt.minimize(loss)` (or simply `opt.step()`). Returns ([], [(param, grad), ...]): no ops are appended
        to a Program in dynamic mode.
        """
        if not isinstance(loss, Tensor):
            raise TypeError(f"{type(self).__name__}.minimize: loss must be a Tensor, got {type(loss).__name__}")
        if STATE.static_mode:  # append backward and the update ops to loss's Program
            return minimize(self, loss, parameters, no_grad_set)
        params_grads = self.backward(loss, startup_program, parameters, no_grad_set)
        trainable = [(p, g) for p, g in params_grads if not p.stop_gradient]
        with no_grad():
            if self._grouped:
                for group in self._param_groups:
                    members = {id(p) for p in group["params"]}
                    self._apply_optimize([(p, g) for p, g in trainable if id(p) in members], group)
            else:
                self._apply_optimize(trainable, self._param_groups[0])
        return [], params_grads

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Clear the gradients of the trainable parameters: to zeros (default, as paddle 2.6) or to None."""
        for p in self._all_params():
            if not p.stop_gradient:
                p.clear_grad(set_to_zero)

    clear_gradients = clear_grad

    def _all_params(self) -> list:
        return [p for group in self._param_groups for p in group["params"]]

    # ---- accumulators (the optimizer's state) ----

    def _add_accumulator(self, name: str, param: Tensor, fill_value: float = 0.0, shape=None, dtype=None) -> Tensor:
        """The accumulator `name` of `param`, created (filled with fill_value) on first use."""
        if self._name is not None:
            name = f"{self._name}_{name}"
        found = self._accumulators[name].get(param.name)
        if found is not None:
            return found
        dtype = param.dtype if dtype is None else dtypes.to_dtype(dtype)
        if STATE.static_mode:  # a persistable Variable, started by the startup Program
            acc = accumulator(f"{param.name}_{name}", list(param.shape) if shape is None else shape, fill_value, dtype)
            self._accumulators[name][param.name] = acc
            return acc
        acc = full(list(param.shape) if shape is None else shape, fill_value, dtype)
        acc.name = unique_name(f"{param.name}_{name}")
        acc.persistable = True
        if self._accumulators_holder:  # set_state_dict came before this accumulator existed
            value = self._accumulators_holder.pop(_saved_key(acc.name, self._accumulators_holder, param.name, name))
            _load_into(acc, value, type(self).__name__)
        self._accumulators[name][param.name] = acc
        return acc

    def _master_weight(self, param: Tensor) -> Tensor:
        """The float32 copy of a float16/bfloat16 parameter that multi_precision updates (created on first use)."""
        master = self._master_weights.get(param.name)
        if STATE.static_mode:  # a persistable copy (a cast in the Program would lose the copy every step)
            if master is None:  # (the loads that write the parameter restart it: static/master_weights.py)
                master = self._master_weights[param.name] = master_weight(param)
            return master
        if master is None:
            master = ops.cast(param, dtypes.float32)
            master.name = unique_name(f"{param.name}_fp32_master")
            master.persistable = True
            self._master_weights[param.name] = master
        return master

    def state_dict(self) -> dict:
        """The optimizer's state: {accumulator name: Tensor} plus 'LR_Scheduler' (the scheduler's state) and
        'master_weights' when there are any. Empty before the first step (accumulators are made then)."""
        state = {acc.name: acc for per_param in self._accumulators.values() for acc in per_param.values()}
        if self._master_weights:
            state["master_weights"] = dict(self._master_weights)
        if isinstance(self._learning_rate, LRScheduler):
            state["LR_Scheduler"] = self._learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict: dict) -> None:
        """Load a state saved by `state_dict()` (Tensors or numpy arrays); the next step continues from it.

        Accumulators that exist get their values now; the others when they are created at the next step.
        """
        cls = type(self).__name__
        if not isinstance(state_dict, dict):
            raise TypeError(f"{cls}.set_state_dict: expected a dict, got {type(state_dict).__name__}")
        state = dict(state_dict)
        scheduler_state = state.pop("LR_Scheduler", None)
        if isinstance(self._learning_rate, LRScheduler):
            if scheduler_state is None:
                raise KeyError(
                    f"{cls}.set_state_dict: the learning rate is a scheduler but the state has no 'LR_Scheduler'"
                )
            self._learning_rate.set_state_dict(scheduler_state)
        masters = state.pop("master_weights", None)
        if masters:
            for pname, value in masters.items():
                if pname in self._master_weights:
                    _load_into(self._master_weights[pname], value, cls)
                else:  # named as _master_weight names it: the accumulators on it take their names from it
                    master = _as_state_tensor(value, None, cls)
                    master.name = unique_name(f"{pname}_fp32_master")
                    master.persistable = True
                    self._master_weights[pname] = master
        for name, per_param in self._accumulators.items():
            for pname, acc in per_param.items():
                _load_into(acc, state.pop(_saved_key(acc.name, state, pname, name)), cls)
        self._accumulators_holder = state  # what is left waits for accumulators made at the next step

    set_dict = set_state_dict

    def get_opti_var_name_list(self) -> list:
        """The names of the accumulators created so far."""
        return [acc.name for per_param in self._accumulators.values() for acc in per_param.values()]

    def _scale_in_place(self, t: Tensor, factor: float) -> None:
        """t *= factor (the beta powers' update)."""
        apply_inplace(_SCALE, t, (t,), {"scale": factor, "bias": 0.0})

    def _warn_low_precision(self, param: Tensor) -> None:
        if param.dtype in _LOW and not self._multi_precision:
            warnings.warn(
                f"{type(self).__name__}: accumulating in {param.dtype.name} can lose accuracy or slow convergence; "
                "consider multi_precision=True",
                stacklevel=3,
            )


_LOW = (dtypes.float16, dtypes.bfloat16)  # the dtypes multi_precision keeps float32 master weights for


def _saved_key(acc_name: str, state: dict, param_name: str, name: str) -> str:
    """The key of an accumulator in a saved state dict: its own name, or else the one saved for the same parameter
    and accumulator under another counter (`..._moment1_0` for `..._moment1_3`), so that a state saved by one
    optimizer loads into a new one in the same process. (Paddle insists on the exact name, whose counter only
    matches in a fresh process.)"""
    if acc_name in state:
        return acc_name
    # A master weight's own counter may differ too (`w_fp32_master_0_moment1_0` for `w_fp32_master_2_...`).
    master = re.fullmatch(r"(.*)_fp32_master_\d+", param_name)
    owner = re.escape(master.group(1)) + r"_fp32_master_\d+" if master else re.escape(param_name)
    pattern = re.compile(owner + re.escape(f"_{name}") + r"_\d+$")
    matches = [k for k in state if pattern.match(k)]
    if len(matches) != 1:
        raise RuntimeError(
            f"set_state_dict: the state dict has no value for the accumulator '{acc_name}' "
            f"(looked for '{param_name}_{name}_<n>', found {matches or 'none'})"
        )
    return matches[0]


def _check_parameters(parameters, cls: str) -> list:
    if parameters is None and STATE.static_mode:  # static mode: minimize takes the Program's parameters
        return []
    if parameters is None:
        raise AttributeError(
            f"{cls}: parameters must be given in dynamic mode, e.g. {cls}(parameters=model.parameters())"
        )
    if isinstance(parameters, Tensor):
        raise TypeError(
            f"{cls}: parameters must be an iterable of Tensors (e.g. model.parameters() or [w]), got a single Tensor"
        )
    if isinstance(parameters, dict):
        raise TypeError(f"{cls}: parameters must not be a dict; for parameter groups pass a list of dicts")
    params = list(parameters)
    for p in params:
        if not isinstance(p, (Tensor, dict)):
            raise TypeError(f"{cls}: parameters must hold Tensors (or group dicts), got {type(p).__name__}")
    if params and any(isinstance(p, dict) for p in params) and not all(isinstance(p, dict) for p in params):
        raise TypeError(f"{cls}: parameters must be all Tensors or all parameter-group dicts, not a mixture")
    return params


def _as_regularizer(weight_decay, cls: str):
    """A float becomes L2Decay(float); L1Decay/L2Decay and None pass."""
    if weight_decay is None or isinstance(weight_decay, WeightDecayRegularizer):
        return weight_decay
    if isinstance(weight_decay, float):
        return L2Decay(weight_decay)
    raise TypeError(
        f"{cls}: weight_decay must be a float, paddle.regularizer.L1Decay or L2Decay, or None, "
        f"got {type(weight_decay).__name__}"
    )


def _names(no_grad_set) -> set:
    if not no_grad_set:
        return set()
    return {t if isinstance(t, str) else t.name for t in no_grad_set}


def _as_state_tensor(value, dtype, cls: str) -> Tensor:
    if isinstance(value, (Tensor, np.ndarray)):
        return to_tensor(value, dtype=dtype)
    raise TypeError(f"{cls}.set_state_dict: state values must be Tensors or numpy arrays, got {type(value).__name__}")


def _load_into(acc: Tensor, value, cls: str) -> None:
    """Write a saved value into an accumulator, in place, after checking its shape."""
    value = _as_state_tensor(value, acc.dtype, cls)
    if value.shape != acc.shape:
        raise ValueError(
            f"{cls}.set_state_dict: '{acc.name}' has shape {acc.shape} but the saved value has shape {value.shape}"
        )
    apply_inplace(_ASSIGN, acc, (value,))
