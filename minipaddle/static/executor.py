"""Running a Program: Scope holds the persistable values, Executor runs the ops with the same kernels as
dynamic mode.

Before the first run, a Program is lowered once into a flat plan: a list of steps, each the op's kernel bound
with its attributes and the names it reads and writes. Running is then one tight loop over the plan with a
dict of arrays, no shape inference and no dispatch: that is why a compiled Program runs faster than the same
model in dynamic mode. Ops with sub-blocks (cond, while) carry their own compiled plans.
"""

from __future__ import annotations

import contextlib
import operator
import warnings

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.kernel import run_kernel
from minipaddle.core.place import require_cpu
from minipaddle.core.state import PER_THREAD, run_after_hooks, run_before_hooks, static_mode_off
from minipaddle.core.tensor import Place, Tensor
from minipaddle.static.block_ops import BLOCK_OPS
from minipaddle.static.builder import flat_inputs, op_of
from minipaddle.static.optimize import refresh_learning_rates
from minipaddle.static.program import Program, Variable, default_main_program


class Scope:
    """Where persistable variables (parameters, optimizer state, running statistics) keep their values
    between runs: a dict from variable name to numpy array."""

    def __init__(self) -> None:
        self.vars: dict[str, np.ndarray] = {}

    def find_var(self, name: str):
        """The value as a Tensor-like holder with `get_tensor()`, or None (Paddle's Scope API)."""
        return _ScopeVar(self, name) if name in self.vars else None

    def var(self, name: str):
        self.vars.setdefault(name, np.zeros(0, np.float32))
        return _ScopeVar(self, name)

    def __contains__(self, name: str) -> bool:
        return name in self.vars

    def __repr__(self) -> str:
        return f"<Scope: {len(self.vars)} variables>"


class _ScopeVar:
    def __init__(self, scope: Scope, name: str) -> None:
        self.scope, self.name = scope, name

    def get_tensor(self):
        return _LoDTensor(self.scope, self.name)


class _LoDTensor:
    """What `scope.find_var(name).get_tensor()` returns in Paddle: np.array(t) reads it, t.set(array) writes it."""

    def __init__(self, scope: Scope, name: str) -> None:
        self.scope, self.name = scope, name

    def __array__(self, dtype=None, copy=None):
        a = self.scope.vars[self.name]
        return a if dtype is None else a.astype(dtype)

    def set(self, value, place=None) -> None:
        self.scope.vars[self.name] = np.array(value)

    def shape(self):
        return list(self.scope.vars[self.name].shape)


_GLOBAL_SCOPE = Scope()
_scope_stack: list[Scope] = []


def global_scope() -> Scope:
    """The Scope used when `Executor.run` gets none (or the one set by `scope_guard`)."""
    return _scope_stack[-1] if _scope_stack else _GLOBAL_SCOPE


@contextlib.contextmanager
def scope_guard(scope: Scope):
    """Make `scope` the global scope inside the `with`."""
    if not isinstance(scope, Scope):
        raise TypeError(f"scope_guard: scope must be a paddle.static.Scope, got {type(scope).__name__}")
    _scope_stack.append(scope)
    try:
        yield
    finally:
        _scope_stack.pop()


# ---- the compiled plan -------------------------------------------------------------------------------------------


class Step:
    """One op, ready to run: its OpDef, the names it reads (None for an absent input), the names it writes, and
    the name errors give it (the op type, and the Layer it was built in)."""

    __slots__ = ("op", "reads", "fetch", "writes", "attrs", "desc", "sub_plans", "where")

    def __init__(self, desc, sub_plans=None) -> None:
        self.op = op_of(desc)
        self.reads = flat_inputs(desc)
        # the arrays of two or more names, none absent, in one C call instead of a list comprehension's frame
        self.fetch = operator.itemgetter(*self.reads) if len(self.reads) > 1 and None not in self.reads else None
        self.writes = desc.outputs.get("Out", [])
        self.attrs = desc.attrs
        self.desc = desc
        self.sub_plans = sub_plans
        self.where = f"{desc.type} (built in {desc.scope})" if desc.scope else desc.type


def compile_block(program: Program, idx: int = 0) -> list:
    """Lower one block into a flat list of Steps (control-flow ops compile their sub-blocks too)."""
    plan = []
    for desc in program.blocks[idx].ops:
        if desc.type in BLOCK_OPS:
            subs = {key: compile_block(program, b) for key, b in desc.attrs.items() if key.endswith("_block")}
            plan.append(BLOCK_OPS[desc.type].step(desc, subs))
        else:
            plan.append(Step(desc))
    return plan


def run_plan(plan: list, env: dict) -> None:
    """Run the steps in order, reading and writing arrays in `env` (a dict name -> array). The kernel call is the
    door's own (core/kernel.py: the same errors and FLAGS_check_nan_inf), and the hooks of the "run" phase see
    every op when some are installed."""
    hooks = PER_THREAD.__dict__["state"].run_hooks  # once per run, not per op (thread_state()'s lookup inlined)
    for step in plan:
        if step.sub_plans is not None:
            step.run(env)
            continue
        fetch = step.fetch
        try:
            args = fetch(env) if fetch is not None else [None if n is None else env[n] for n in step.reads]
        except KeyError as e:
            raise RuntimeError(
                f"Executor: op '{step.desc.type}' reads variable {e.args[0]!r}, which has no value: feed it, or run "
                "the startup program first if it is a parameter"
            ) from None
        if hooks:
            out = _run_with_hooks(hooks, step, args)
        else:
            out = run_kernel(step.op, args, step.attrs, step.where)
        if type(out) is tuple:
            for name, value in zip(step.writes, out):
                env[name] = value
        else:
            env[step.writes[0]] = out


def _run_with_hooks(hooks: tuple, step: Step, args: list):
    """One step with the "run" hooks around it: they see (and may replace) Tensors wrapping the arrays, and ops
    they call on them run now (dynamic mode), even while static mode is on for building Programs."""
    with static_mode_off():
        inputs = tuple(None if a is None else Tensor(a) for a in args)
        inputs = run_before_hooks(hooks, step.op, inputs, step.attrs)
        out = run_kernel(step.op, [None if t is None else t._data for t in inputs], step.attrs, step.where)
        many = type(out) is tuple
        outputs = tuple(Tensor(o) for o in (out if many else (out,)))
        outputs = run_after_hooks(hooks, step.op, inputs, step.attrs, outputs)
    return tuple(o._data for o in outputs) if many else outputs[0]._data


class Executor:
    """Runs Programs on the CPU: `exe.run(program, feed={'x': array}, fetch_list=[loss])` -> [arrays]."""

    def __init__(self, place=None) -> None:
        if place is not None and not (isinstance(place, Place) or str(place).lower().startswith("cpu")):
            raise ValueError(f"Executor: place must be a paddle Place (e.g. paddle.CPUPlace()), got {place!r}")
        self.place = place
        self._plans: dict = {}
        self._closed = False

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed", fetch_var_name="fetch",
            scope=None, return_numpy=True, use_program_cache=False, use_prune=False):  # fmt: skip
        """Run `program` once.

        Args:
            program: the Program (default: the default main program).
            feed: {data variable name: numpy array, Tensor or list}, or a list of one such dict (one per place,
                as paddle takes it; minipaddle has one place).
            fetch_list: Variables or names whose values to return.
            scope: where persistable values live between runs (default: the global scope).
            return_numpy: return numpy arrays (default) or Tensors.

        Returns:
            A list with one value per entry of fetch_list.
        """
        require_cpu(self.place, "Executor.run")
        if self._closed:
            raise RuntimeError("Executor.run: attempted to use a closed Executor (close() was called)")
        feed = _one_feed(feed)
        program = default_main_program() if program is None else program
        if not isinstance(program, Program):
            program = getattr(program, "program", program)  # a CompiledProgram wraps its Program
        if not isinstance(program, Program):
            raise TypeError(f"Executor.run: program must be a paddle.static.Program, got {type(program).__name__}")
        scope = global_scope() if scope is None else scope
        block = program.global_block()

        if program.lr_feeds or hasattr(program, "lr_scheduler"):  # learning rates (a schedule may have stepped)
            refresh_learning_rates(program, scope)
        env = dict(scope.vars)
        for name, value in feed.items():
            if not block.has_var(name):  # paddle 2.6 warns and runs without it
                warnings.warn(f"The variable {name} is not found in program. It is not declared or is pruned.",
                              UserWarning, stacklevel=2)  # fmt: skip
                continue
            env[name] = _check_feed(block, name, value)
        run_plan(self._plan(program), env)

        for name, v in block.vars.items():  # persistable results (updated parameters, statistics) outlive the run
            if v.persistable and name in env:
                scope.vars[name] = env[name]
        results = []
        for f in _flat_fetch_list(fetch_list):
            name = f.name if isinstance(f, Variable) else f
            if name not in env:
                raise ValueError(
                    f"Executor.run: cannot fetch {name!r}: no op of the program computes it and it was not fed"
                )
            results.append(env[name] if return_numpy else Tensor(env[name]))
        return results

    def _plan(self, program: Program) -> list:
        key = id(program)
        version = program._version
        cached = self._plans.get(key)
        if cached is None or cached[0] != version or cached[2] is not program:
            cached = (version, compile_block(program, 0), program)
            self._plans[key] = cached
        return cached[1]

    def close(self) -> None:
        """Release the run plans; the Executor cannot run afterwards (as paddle 2.6's)."""
        self._plans.clear()
        self._closed = True


def _one_feed(feed) -> dict:
    """feed as one dict: paddle 2.6 also takes a list of dicts, one per place; minipaddle runs on one place."""
    if feed is None or isinstance(feed, dict):
        return feed or {}
    if isinstance(feed, (list, tuple)) and all(isinstance(f, dict) for f in feed):
        if len(feed) != 1:
            raise ValueError(f"Executor.run: feed is a list of {len(feed)} dicts (one per place), but there is 1 place")
        return feed[0]
    raise TypeError(f"Executor.run: feed must be a dict of data variable name -> value, got {type(feed).__name__}")


def _flat_fetch_list(fetch_list) -> list:
    """fetch_list as paddle 2.6 reads it: one Variable or name, or a list/tuple of them in which a list/tuple is
    flattened one level (`[loss, [acc, pred]]`)."""
    if fetch_list is None:
        return []
    if isinstance(fetch_list, (Variable, str)):
        return [fetch_list]
    if not isinstance(fetch_list, (list, tuple)):
        raise TypeError(
            f"Executor.run: fetch_list must be a Variable, a name or a list of them, got {type(fetch_list).__name__}"
        )
    flat = []
    for i, item in enumerate(fetch_list):
        for f in item if isinstance(item, (list, tuple)) else (item,):
            if not isinstance(f, (Variable, str)):
                raise TypeError(
                    f"Executor.run: fetch_list[{i}] must be a Variable or a name (or a list of them), got "
                    f"{type(f).__name__}"
                )
            flat.append(f)
    return flat


def _check_feed(block, name: str, value) -> np.ndarray:
    """A fed value checked against its data variable, as paddle 2.6 checks it: an array or Tensor must have the
    variable's dtype (paddle refuses a float64 array for a float32 variable, the usual slip with np.random), a
    Python list or number is converted to it; the known dimensions must match."""
    v = block.var(name)
    want = v.dtype.np
    if isinstance(value, (Tensor, np.ndarray, np.generic)):
        arr = value.numpy() if isinstance(value, Tensor) else np.asarray(value)
        if arr.dtype != want:
            raise ValueError(
                f"Executor.run: the data type of fed variable {name!r} must be {dtypes.from_numpy(want).name}, but "
                f"received {dtypes.from_numpy(arr.dtype).name if arr.dtype.kind in 'biufc' else arr.dtype}"
            )
    else:
        try:
            arr = np.asarray(value, dtype=want)
        except (TypeError, ValueError):
            raise TypeError(
                f"Executor.run: fed {name!r} must be a numpy array, a Tensor or a (nested) list of numbers, "
                f"got {type(value).__name__}"
            ) from None
    shape = v.shape
    if len(shape) != arr.ndim or any(s not in (-1, a) for s, a in zip(shape, arr.shape)):
        raise ValueError(
            f"Executor.run: fed {name!r} with shape {list(arr.shape)}, but the variable has shape {list(shape)}"
        )
    return arr
