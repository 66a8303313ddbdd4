"""User-written quantize and preprocess functions in the static transform passes (Paddle 2.6's
QuantizationTransformPass._insert_func, shared by QuantizationTransformPassV2 and quant_aware).

A function takes a Variable and returns one, written in paddle ops (so a student can try a quantizer, or a
preprocessing such as PACT's learned clipping, without writing an op):

    def pact(x):                                          # Paddle's own test of these hooks
        alpha = paddle.static.create_parameter([1], "float32", name=x.name + "_pact",
                                               default_initializer=paddle.nn.initializer.Constant(20.0))
        x = x - F.relu(x - alpha)
        return x + F.relu(-alpha - x)

    quant_aware(main, place, act_preprocess_func=pact, optimizer_func=lambda: paddle.optimizer.SGD(0.1),
                executor=exe)

As Paddle, the pass builds the function's own Program on a stand-in input `{var}_tmp_input` (shaped like the
variable, float32) with every generated name led by `{var}_`, runs its startup Program in the pass's scope
(the function's parameters start there), and copies its ops in before the op being quantized, reading the
variable itself; the op reads the function's output. A preprocess function's output is then quantized with the
pass's own ops (named after the variable, as Paddle's); a quantize function replaces them (it returns the
dequantized value itself).

Training: Paddle also copies in the function's backward and the updates `optimizer_func()` makes for the
function's parameters, rewired into the main backward. minipaddle builds gradients from the grad rules, so
the pass records (optimizer, parameter names) on the graph (`graph.user_parameters`) and quant_aware gives the
function's parameters that optimizer's updates, the other parameters the Program's own optimizer's (the
gradients are the same: they flow through the function's ops). Paddle requires a parameter in a training
function (without one its rewiring finds no gradient and asserts); minipaddle accepts one without.
"""

from __future__ import annotations

import contextlib

from minipaddle.core.state import STATE, name_guard
from minipaddle.static.builder import disable_static, enable_static
from minipaddle.static.executor import Executor
from minipaddle.static.input import data
from minipaddle.static.program import ROLE_FORWARD, Program, Variable, program_guard

__all__ = ["UserFunctions", "insert_user_functions", "static_mode"]


@contextlib.contextmanager
def static_mode():
    """Static mode inside (the function's ops must build a Program, whatever mode the pass is called in)."""
    was_static = STATE.static_mode
    if not was_static:
        enable_static()
    try:
        yield
    finally:
        if not was_static:
            disable_static()


class UserFunctions:
    """The four function hooks of a transform pass, checked, and what inserting them needs.

    Args: those of QuantizationTransformPass (weight_quantize_func, act_quantize_func, weight_preprocess_func,
    act_preprocess_func, optimizer_func, executor) and the pass's scope; `who` names the pass in errors.
    """

    def __init__(self, who: str, scope, weight_quantize_func=None, act_quantize_func=None,
                 weight_preprocess_func=None, act_preprocess_func=None, optimizer_func=None,
                 executor=None) -> None:  # fmt: skip
        funcs = {"weight_quantize_func": weight_quantize_func, "act_quantize_func": act_quantize_func,
                 "weight_preprocess_func": weight_preprocess_func, "act_preprocess_func": act_preprocess_func,
                 "optimizer_func": optimizer_func}  # fmt: skip
        for key, f in funcs.items():
            if f is not None and not callable(f):
                raise TypeError(f"{who}: {key} must be a function, got {type(f).__name__}")
        if executor is not None and not isinstance(executor, Executor):
            raise TypeError(f"{who}: executor must be a paddle.static.Executor, got {type(executor).__name__}")
        self._who, self._scope = who, scope
        self.weight_quantize, self.act_quantize = weight_quantize_func, act_quantize_func
        self.weight_preprocess, self.act_preprocess = weight_preprocess_func, act_preprocess_func
        self._optimizer_func, self._executor = optimizer_func, executor
        self.processed: set = set()  # variables a quantize function took (Paddle's processed_vars)

    def any(self) -> bool:
        return any(f is not None for f in (self.weight_quantize, self.act_quantize, self.weight_preprocess,
                                           self.act_preprocess))  # fmt: skip

    def preprocess(self, is_weight: bool):
        return self.weight_preprocess if is_weight else self.act_preprocess

    def quantize(self, is_weight: bool):
        return self.weight_quantize if is_weight else self.act_quantize

    def insert(self, graph, func, source: str, op, is_test: bool) -> str:
        """Copy `func`'s Program in before `op`, reading `source` (an input of `op`, or what a preprocess
        function made of it), and point `op` at its output; returns the output's name."""
        who = self._who
        if self._executor is None:
            raise ValueError(f"{who}: a user function needs executor= (its startup Program, which starts the "
                             "function's parameters, runs with it, as in Paddle)")  # fmt: skip
        if not is_test and self._optimizer_func is None:
            raise ValueError(f"{who}: a user function in a training graph needs optimizer_func= (it makes the "
                             "optimizer of the function's parameters, as in Paddle)")  # fmt: skip
        var = graph.var(source)
        tmp, startup = Program(), Program()
        with static_mode(), program_guard(tmp, startup), name_guard(f"{source}_"):
            stand_in = data(f"{source}_tmp_input", list(var.shape), "float32")
            out = func(stand_in)
            if not isinstance(out, Variable) or out.name not in tmp.global_block().vars:
                raise TypeError(f"{who}: {getattr(func, '__name__', 'the function')} must return the Variable "
                                f"it computes from its input, got {type(out).__name__}")  # fmt: skip
            optimizer = None if is_test else self._optimizer_func()
        self._executor.run(startup, scope=self._scope)
        block = tmp.global_block()
        clash = sorted(n for n in block.vars if n != stand_in.name and graph.has_var(n))
        if clash:
            raise ValueError(f"{who}: the function's variables {clash} already exist in the Program")
        for n, v in block.vars.items():
            if n != stand_in.name:
                graph.block.vars[n] = v.copy_to(graph.block)
        for fop in block.ops:
            for slot, names in fop.inputs.items():
                fop.inputs[slot] = [source if n == stand_in.name else n for n in names]
            fop.role, fop.scope = ROLE_FORWARD, op.scope
            graph.insert_before(op, fop)
        graph.update_input_link(source, out.name, op)
        graph.out_node_mapping_table[out.name] = source  # (Paddle's table, read by the freeze pass)
        params = [p.name for p in tmp.all_parameters()]
        if optimizer is not None and params:
            graph.user_parameters.append((optimizer, params))
        return out.name


def insert_user_functions(user: UserFunctions, graph, op, name: str, is_weight: bool, is_test: bool):
    """The user's preprocess function, then their quantize function, on input `name` of `op` (Paddle's order):
    the variable the pass's own quantize ops must read (`name`, or the preprocessed value), or None when a
    quantize function took it (then later readers of `name` are left as they are, as Paddle's)."""
    source = name
    preprocess, quantize = user.preprocess(is_weight), user.quantize(is_weight)
    if preprocess is not None:
        source = user.insert(graph, preprocess, source, op, is_test)
    if quantize is None:
        return source
    user.insert(graph, quantize, source, op, is_test)
    user.processed.add(name)
    return None
