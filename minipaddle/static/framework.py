"""The smaller pieces of paddle.static: places, device_guard, CompiledProgram, global variables, parameters,
accuracy, and ExponentialMovingAverage."""

from __future__ import annotations

import contextlib
import os

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE, unique_name
from minipaddle.core.tensor import CPUPlace, Tensor
from minipaddle.metric import accuracy as metric_accuracy
from minipaddle.nn.param_attr import create_parameter
from minipaddle.static.executor import global_scope
from minipaddle.static.parameters import declare_persistable
from minipaddle.static.program import ROLE_OPTIMIZE, Program, default_main_program
from minipaddle.tensor.checks import check_shape

__all__ = [
    "BuildStrategy", "CompiledProgram", "ExecutionStrategy", "ExponentialMovingAverage", "accuracy", "cpu_places",
    "create_global_var", "create_parameter", "device_guard",
]  # fmt: skip


def cpu_places(device_count: int | None = None) -> list:
    """`device_count` CPU places; by default as many as the environment variable CPU_NUM says, else 1 (paddle 2.6)."""
    if device_count is None:
        text = os.environ.get("CPU_NUM", "1")
        if not text.strip().isdigit():
            raise ValueError(f"cpu_places: the environment variable CPU_NUM must be a whole number, got {text!r}")
        device_count = int(text)
    n = int(device_count)
    if n < 1:
        raise ValueError(f"cpu_places: device_count must be at least 1, got {device_count}")
    return [CPUPlace() for _ in range(n)]


@contextlib.contextmanager
def device_guard(device: str | None = None):
    """Place the ops built inside on `device`. Only 'cpu' (or None) exists in minipaddle."""
    if device is not None and not str(device).lower().startswith("cpu"):
        raise ValueError(f"device_guard: minipaddle runs on the CPU only, got device {device!r}")
    yield


class BuildStrategy:
    """Options for CompiledProgram (Paddle's graph build settings); minipaddle records them and compiles the same
    flat plan whatever they say."""

    def __init__(self) -> None:
        self.fuse_all_optimizer_ops = False
        self.fuse_elewise_add_act_ops = False
        self.enable_inplace = False
        self.memory_optimize = False


class ExecutionStrategy:
    """Options for running a CompiledProgram (thread counts); recorded, as minipaddle runs on one thread."""

    def __init__(self) -> None:
        self.num_threads = 1
        self.num_iteration_per_drop_scope = 100


class CompiledProgram:
    """A Program prepared for running: `exe.run(CompiledProgram(main), ...)` runs `main` (every Program is lowered
    to a plan of bound kernels on its first run, so compiling adds nothing else here)."""

    def __init__(self, program_or_graph, build_strategy: BuildStrategy | None = None) -> None:
        if not isinstance(program_or_graph, Program):
            raise TypeError(f"CompiledProgram: expected a Program, got {type(program_or_graph).__name__}")
        self.program = program_or_graph
        self.build_strategy = build_strategy or BuildStrategy()

    def with_data_parallel(self, loss_name=None, build_strategy=None, exec_strategy=None, share_vars_from=None,
                           places=None):  # fmt: skip
        return self


def create_global_var(shape, value, dtype, persistable: bool = False, force_cpu: bool = False, name=None):
    """A variable filled with `value` (in static mode: set by the startup Program; persistable keeps it between
    runs), e.g. a step counter."""
    shape = check_shape(shape, "create_global_var")
    d = dtypes.to_dtype(dtype)
    values = np.full(shape, value, dtype=d.np)
    if not STATE.static_mode:
        t = Tensor(values)
        t.persistable = persistable
        t.name = name or unique_name("global_var")
        return t
    v = declare_persistable(name or unique_name("global_var"), values)
    v.persistable = persistable
    return v


def accuracy(input, label, k: int = 1, correct=None, total=None):
    """Top-k accuracy of `input` scores against int `label`s [N, 1] (paddle.metric.accuracy)."""
    return metric_accuracy(input, label, k=k, correct=correct, total=total)


class ExponentialMovingAverage:
    """Keep an exponential moving average of every trainable parameter, and evaluate with it.

        ema = paddle.static.ExponentialMovingAverage(0.999)
        ema.update()                     # after optimizer.minimize: appends the averaging ops
        ...train...
        with ema.apply(exe):             # parameters hold their (bias-corrected) averages inside
            exe.run(test_program, ...)

    The average is `avg = decay * avg + (1 - decay) * param` per step; apply() divides by 1 - decay^steps, as
    Paddle does, so early averages are not pulled toward their zero start. With thres_steps, the decay is
    min(decay, (1 + steps) / (10 + steps)).
    """

    def __init__(self, decay: float = 0.999, thres_steps=None, name: str | None = None) -> None:
        if not 0.0 <= decay <= 1.0:
            raise ValueError(f"ExponentialMovingAverage: decay must be in [0, 1], got {decay}")
        self._decay = float(decay)
        self._thres_steps = thres_steps
        self._name = name or unique_name("ema")
        self._averages: dict[str, str] = {}  # parameter name -> average variable name
        self._step = None
        self._program = None

    def update(self) -> None:
        """Append the ops that fold each trainable parameter into its average (run them with the train program)."""
        program = default_main_program()
        self._program = program
        params = [p for p in program.all_parameters() if p.trainable]
        with program.role(ROLE_OPTIMIZE):
            self._step = declare_persistable(f"{self._name}.step", np.zeros((), np.float32))
            step = ops.scale(self._step, 1.0, 1.0)
            _write(self._step, step)
            decay = ops.full_like(step, self._decay)
            if self._thres_steps is not None:
                decay = ops.minimum(decay, ops.divide(ops.scale(step, 1.0, 1.0), ops.scale(step, 1.0, 10.0)))
            for p in params:
                avg = declare_persistable(f"{self._name}.{p.name}", np.zeros(p.shape, p.dtype.np))
                new = ops.add(ops.multiply(avg, decay), ops.multiply(p, ops.subtract(1.0, decay)))
                _write(avg, new)
                self._averages[p.name] = avg.name

    @contextlib.contextmanager
    def apply(self, executor=None, need_restore: bool = True):
        """Swap the bias-corrected averages into the parameters' values (in the global scope) inside the `with`."""
        if not self._averages:
            raise RuntimeError("ExponentialMovingAverage.apply: call update() and train before applying")
        scope = global_scope()
        steps = float(scope.vars[self._step.name])
        correction = 1.0 - self._decay**steps if steps > 0 and self._thres_steps is None else 1.0
        saved = {name: scope.vars[name] for name in self._averages}
        for name, avg in self._averages.items():
            scope.vars[name] = (scope.vars[avg] / correction).astype(saved[name].dtype)
        self._saved = saved
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor=None) -> None:
        """Put the parameters' own values back after apply(need_restore=False)."""
        scope = global_scope()
        for name, value in getattr(self, "_saved", {}).items():
            scope.vars[name] = value
        self._saved = {}


def _write(target, value) -> None:
    apply_inplace(get_op("assign"), target, (value,))
