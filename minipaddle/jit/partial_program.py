"""Running a converted Program inside dynamic autograd: parameters in the Program, and the `run_program` op.

While a function is traced into a Program (`BuildContext`), the Layers it uses lend their parameters and buffers
to the Program: each is swapped for a static Variable of the same name (Paddle's param_guard), and put back when
the build ends. A Parameter that reaches an op some other way (a global, a closure) is caught by a hook on the op
door's "build" phase (core/state.op_hook), so it too becomes a Variable instead of a constant.

At each call, `PartialProgramLayer` runs the Program as one `run_program` op (ops/run_program.py) whose inputs are
the fed Tensors and then those parameters and buffers, so `loss.backward()` reaches them. A `ProgramRunner` is
the Program ready to run for one mode: training (with the backward ops appended for the inputs that want
gradients) or inference (the `for_test` clone: dropout off, batch_norm on running statistics).
"""

from __future__ import annotations

import threading

import numpy as np

from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import PER_THREAD, STATE, OpHook, no_grad, op_hook, unique_name
from minipaddle.core.tensor import Parameter, Tensor
from minipaddle.jit.error import reraise_runtime, stack_origin
from minipaddle.ops.run_program import run_program
from minipaddle.static.backward import gradients
from minipaddle.static.block_ops import BLOCK_OPS
from minipaddle.static.builder import enable_static
from minipaddle.static.executor import Step, compile_block, run_plan
from minipaddle.static.parameters import StaticParameter
from minipaddle.static.passes import fuse_fc
from minipaddle.static.program import ROLE_BACKWARD, ROLE_FORWARD, Variable, program_guard

_LOCAL = threading.local()


def current_build():
    """The BuildContext of the Program being traced on this thread, or None."""
    return getattr(_LOCAL, "build", None)


class _ParameterHook(OpHook):
    """Build phase: a dynamic Parameter given to an op becomes the Program's Variable for it."""

    phases = ("build",)

    def __init__(self, ctx) -> None:
        self.ctx = ctx

    def after(self, op, inputs, attrs, outputs):
        """Remember the user's line that built each op (by its first output), for errors when it runs."""

        frames = stack_origin()
        if frames:
            for o in outputs:
                if isinstance(o, Variable):
                    self.ctx.origins.setdefault(o.name, frames)
        return outputs

    def before(self, op, inputs, attrs):
        if any(isinstance(t, Parameter) and not isinstance(t, Variable) for t in inputs):
            return tuple(self.ctx.var_for(t) if isinstance(t, Parameter) and not isinstance(t, Variable) else t
                         for t in inputs)  # fmt: skip
        return inputs


class BuildContext:
    """What one trace into a Program borrows: the Variables standing for dynamic parameters and buffers."""

    def __init__(self, program) -> None:
        self.program = program
        self.by_id: dict[int, Variable] = {}
        self.captured: list = []  # [(dynamic Tensor, Variable)] in first-use order
        self.origins: dict = {}  # output variable name -> the user's frames that built its op
        self._restore: list = []  # [(table, key, tensor)]
        self._guarded: set = set()
        self._prev = None
        self._hook = None

    def __enter__(self):
        self._prev = current_build()
        _LOCAL.build = self
        self._hook = op_hook(_ParameterHook(self))
        self._hook.__enter__()
        return self

    def __exit__(self, *exc):
        self._hook.__exit__(*exc)
        for table, key, tensor in reversed(self._restore):
            table[key] = tensor
        _LOCAL.build = self._prev
        return False

    def var_for(self, t: Tensor) -> Variable:
        """The Variable standing for dynamic tensor `t` (a parameter or buffer) in the Program."""
        v = self.by_id.get(id(t))
        if v is not None:
            return v
        block = self.program.global_block()
        name = t.name
        if name in block.vars:
            name = unique_name(name)
        if isinstance(t, Parameter):
            v = StaticParameter(block, name, t.shape, t.dtype, t.trainable)
            for attr in ("optimize_attr", "regularizer", "need_clip", "do_model_average"):
                setattr(v, attr, getattr(t, attr, None))
            block.vars[name] = v
        else:
            v = block.create_var(name, t.shape, t.dtype, persistable=True, stop_gradient=True)
        self.by_id[id(t)] = v
        self.captured.append((t, v))
        return v

    def guard(self, layer) -> None:
        """Swap `layer`'s (and its sublayers') parameters and buffers for Variables until the build ends."""
        for sub in layer.sublayers(include_self=True):
            if id(sub) in self._guarded:
                continue
            self._guarded.add(id(sub))
            for table in (sub._parameters, sub._buffers):
                for key, t in list(table.items()):
                    if isinstance(t, Tensor) and not isinstance(t, Variable):
                        self._restore.append((table, key, t))
                        table[key] = self.var_for(t)


def guard_layer(layer) -> None:
    """Called by convert_call for each Layer the traced code calls."""
    ctx = current_build()
    if ctx is not None:
        ctx.guard(layer)


# ---- running ------------------------------------------------------------------------------------------------------


def compile_ops(program, descs) -> list:
    """The Executor's plan (static/executor.py) for a selection of block 0's ops."""

    plan = []
    for desc in descs:
        if desc.type in BLOCK_OPS:  # control flow: its sub-blocks compiled too (as Executor's compile_block)
            subs = {k: compile_block(program, b) for k, b in desc.attrs.items() if k.endswith("_block")}
            plan.append(BLOCK_OPS[desc.type].step(desc, subs))
        else:
            plan.append(Step(desc))
    return plan


class ProgramRunner:
    """A converted Program compiled for one mode and one set of inputs wanting gradients.

    `input_names`: the feeds then the parameters/buffers (run_program's inputs, in order); `output_names`: the
    function's outputs, then the buffers the Program writes (batch-norm statistics), returned to be copied back.
    """

    def __init__(self, main, input_names: list, output_names: list, written: list, training: bool,
                 wanted: tuple) -> None:  # fmt: skip

        # matmul + add (+ activation) chains as one fc op (static/passes/fuse_fc.py): fewer steps and fewer
        # intermediate arrays, in the forward and (through fc's grad rule) in the backward ops appended below
        self.program = fuse_fc(main.clone(for_test=not training), keep=list(input_names) + list(output_names))
        self.input_names, self.output_names, self.written = input_names, output_names, written
        self.wanted = wanted
        self.seed_names, self.grad_names = [], [None] * len(input_names)
        block = self.program.global_block()
        if any(wanted):
            was_static = STATE.static_mode
            enable_static()
            try:
                with program_guard(self.program):
                    targets = [block.var(n) for n in output_names if _is_float(block.var(n))]
                    seeds = []
                    with self.program.role(ROLE_BACKWARD):
                        for t in targets:
                            seeds.append(block.create_var(f"{t.name}@GRAD@SEED", t.shape, t.dtype, is_data=True,
                                                          stop_gradient=False))  # fmt: skip
                    self.seed_names = [(s.name, t.name) for s, t in zip(seeds, targets)]
                    wrt = [block.var(n) for n, w in zip(input_names, wanted) if w]
                    grads = gradients(targets, wrt, seeds) if targets else [None] * len(wrt)
                    it = iter(grads)
                    self.grad_names = [(g.name if (g := next(it)) is not None else None) if w else None for w in wanted]
            finally:
                if not was_static:
                    STATE.static_mode = False
        self.forward_plan = compile_ops(self.program, [d for d in block.ops if d.role == ROLE_FORWARD])
        self.backward_plan = compile_ops(self.program, [d for d in block.ops if d.role == ROLE_BACKWARD])
        self.keeps_values = bool(self.backward_plan) or any(wanted)
        # Which gradients run_backward returns a matmul writes (the weights'): they hold no -0.0, so autograd may
        # give their arrays to a cleared .grad as they are (Tensor._no_negative_zero)
        products = {n for step in self.backward_plan if step.desc.type == "matmul" for n in step.writes}
        returned = [g for g, w in zip(self.grad_names, wanted) if w]  # the gradients run_backward returns, in order
        self.product_grads = tuple([i for i, g in enumerate(returned) if g in products])  # (their positions)
        self.wanted_last = all(wanted[wanted.index(True) :]) if any(wanted) else False  # no gap among the wanted

    def run_forward(self, arrays) -> tuple:

        env = dict(zip(self.input_names, arrays))
        run_plan(self.forward_plan, env)
        fed = set(map(id, arrays))  # an output that IS a fed array (`return x`) is returned as a copy
        outs = []
        for n in self.output_names:
            v = env[n]
            outs.append(v.copy() if id(v) in fed else v)
        outs.extend([env[n] for n in self.written])
        return tuple(outs), (env if self.keeps_values else None)

    def run_backward(self, env: dict, out_grads, wanted) -> tuple:

        given = dict(zip(self.output_names, out_grads))
        for seed, target in self.seed_names:
            g = given.get(target)
            env[seed] = g if g is not None else np.zeros_like(env[target])
        run_plan(self.backward_plan, env)
        result = []
        for name, gname, w in zip(self.input_names, self.grad_names, wanted):
            if not w:
                continue
            # (popped: a second backward of a retained graph computes it again, and the array is the caller's alone)
            result.append(env.pop(gname) if gname is not None and gname in env else np.zeros_like(env[name]))
        return tuple(result)


def _is_float(v) -> bool:
    return v.dtype.is_floating or v.dtype.is_complex


class PartialProgramLayer:
    """Calls a ConcreteProgram from dynamic mode: `outputs = partial(input_tensors)`."""

    def __init__(self, concrete) -> None:
        self.concrete = concrete
        self.training = True
        self._runners: dict = {}
        main = concrete.main_program
        self._written = _written_names(main, {v.name for _, v in concrete.parameters})
        self._parameter_tensors = [t for t, _ in concrete.parameters]

    def runner(self, training: bool, wanted: tuple) -> ProgramRunner:
        key = (training, wanted)
        r = self._runners.get(key)
        if r is None:
            c = self.concrete
            names = [v.name for v in c.inputs] + [v.name for _, v in c.parameters]
            r = ProgramRunner(c.main_program, names, [v.name for v in c.outputs], self._written, training, wanted)
            self._runners[key] = r
        return r

    def _default_mask(self) -> tuple:
        c = self.concrete
        return tuple([False] * len(c.inputs) + [not t.stop_gradient for t, _ in c.parameters])

    def __call__(self, inputs: list) -> list:

        c = self.concrete
        tensors = [*inputs, *self._parameter_tensors]
        if PER_THREAD.__dict__["state"].grad_enabled:  # (STATE's fast path; all False: no grad node either)
            wanted = tuple([not t.stop_gradient for t in tensors])
        else:
            wanted = (False,) * len(tensors)
        runner = self.runner(self.training, wanted)
        try:
            outs = run_program(tuple(tensors), runner)
        except Exception as e:
            reraise_runtime(e, c.origins)
        n = len(runner.output_names)
        if runner.written:
            _write_back([dict(c.parameters_by_name)[name] for name in runner.written], outs[n:])
        return list(outs[:n])


def _written_names(program, names: set) -> list:
    """Which of the borrowed parameters/buffers the Program writes (in any block): they are copied back."""
    out = []
    for b in program.blocks:
        for d in b.ops:
            for n in d.output_names():
                if n in names and n not in out:
                    out.append(n)
    return out


def _write_back(tensors, values) -> None:

    with no_grad():
        for t, v in zip(tensors, values):
            apply_inplace(get_op("assign"), t, (v,))
