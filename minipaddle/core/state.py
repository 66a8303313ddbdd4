"""minipaddle's global state, in one place (DESIGN.md, wall 6).

Two kinds of state, as in Paddle and PyTorch:
- per thread: the mode (dynamic or static), whether gradients are recorded, the current Layer scope, the AMP
  settings, the hooks on the op door, the name counters and static mode's current Programs. Two threads that each
  train their own model never see each other's `no_grad`, `enable_static` or hooks. A new thread starts from the
  defaults (dynamic mode, gradients on, no hooks), not from the state of the thread that started it.
- process-wide: the default dtype, the random generator and its seed, the FLAGS and the print options.

Each piece has a context manager or a setter, so code never reaches into another module's globals. Everything is
read and set through one object, `STATE` (`STATE.grad_enabled`, `STATE.default_dtype`). A thread's own values live
in its `ThreadState`, an object with slots that a `threading.local` keeps one of per thread; the door, which reads
several of them on every op, fetches the ThreadState once (`thread_state()`) and reads its slots directly.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import threading
from collections import defaultdict

import numpy as np

# Paddle's public FLAGS_* that minipaddle knows (paddle.get_flags / paddle.set_flags), with paddle 2.6's defaults.
# Only FLAGS_check_nan_inf has an effect here (see `set_flag`); the others are kept so that scripts setting them run.
KNOWN_FLAGS = {
    "FLAGS_check_nan_inf": False,
    "FLAGS_check_nan_inf_level": 0,
    "FLAGS_call_stack_level": 1,
    "FLAGS_benchmark": False,
    "FLAGS_cpu_deterministic": False,
    "FLAGS_use_mkldnn": False,
    "FLAGS_paddle_num_threads": 1,
    "FLAGS_eager_delete_tensor_gb": 0.0,
    "FLAGS_fraction_of_gpu_memory_to_use": 0.92,
    "FLAGS_allocator_strategy": "auto_growth",
}


class _ProcessState:
    """What every thread shares: one default dtype, one random generator, one set of flags (as in Paddle)."""

    def __init__(self) -> None:
        self.default_dtype = "float32"  # a dtype name; core/dtype.py turns it into a DType
        self.rng = np.random.default_rng()  # replaced by paddle.seed(n)
        self.seed = None
        self.flags = dict(KNOWN_FLAGS)  # paddle.get_flags / set_flags
        self.check_nan_inf = False  # FLAGS_check_nan_inf as a plain attribute: the kernel call reads it on every op
        self.print_options = {"precision": 8, "threshold": 1000, "edgeitems": 3, "sci_mode": False, "linewidth": 80}


PROCESS = _ProcessState()


class ThreadState:
    """One thread's own state. Its fields are slots: the door reads several of them on every op, and a slot is the
    cheapest read Python has (a key of the thread's dict costs twice as much)."""

    __slots__ = (
        "static_mode",
        "grad_enabled",
        "in_backward",
        "saved_tensors_hooks",
        "name_counters",
        "scope_stack",
        "scope",
        "amp",
        "main_program",
        "startup_program",
        "hooks",
        "dynamic_hooks",
        "build_hooks",
        "run_hooks",
    )

    def __init__(self) -> None:
        self.static_mode = False  # False: run ops now (dygraph). True: append them to a Program.
        self.grad_enabled = True  # False inside `no_grad`: ops record no GradNode.
        self.in_backward = False  # True while autograd walks the graph (grad rules run), read by the AMP hook
        self.saved_tensors_hooks = None  # the active pack/unpack pair (core/saved_hooks.py), or None
        self.name_counters: dict[str, itertools.count] = defaultdict(itertools.count)
        self.scope_stack: list[str] = []  # Layer paths, outermost first
        self.scope = ""  # the current Layer path, e.g. "features.0.conv"; "" outside any Layer
        self.amp = None  # filled by minipaddle.amp: the active auto_cast settings, or None
        self.main_program = None  # static mode's current Programs (minipaddle.static makes them on first use)
        self.startup_program = None
        # The hooks on the op door, in order (see "hooks on the op door" below). `hooks` is every hook installed;
        # the door reads the one tuple for its phase, which is empty (one falsy test) when no hook is installed.
        self.hooks: tuple = ()
        self.dynamic_hooks: tuple = ()
        self.build_hooks: tuple = ()
        self.run_hooks: tuple = ()


class _PerThread(threading.local):
    """`threading.local` runs __init__ once in every thread that touches it, so each thread starts from a fresh
    ThreadState (the defaults), not from the state of the thread that started it."""

    def __init__(self) -> None:
        self.state = ThreadState()


PER_THREAD = _PerThread()


def thread_state() -> ThreadState:
    """This thread's ThreadState. The door and backward inline the lookup, `PER_THREAD.__dict__["state"]`: the
    thread's dict and then a key is the quickest way to it (`PER_THREAD.state` goes the slow way round, through
    threading.local's attribute lookup)."""
    return PER_THREAD.__dict__["state"]


def _own(name: str) -> property:
    """An attribute of STATE that reads and writes this thread's own value."""

    def get(self):
        return getattr(PER_THREAD.__dict__["state"], name)

    def put(self, value) -> None:
        setattr(PER_THREAD.__dict__["state"], name, value)

    return property(get, put, doc=f"this thread's `{name}`")


def _shared(name: str) -> property:
    """An attribute of STATE that reads and writes the process-wide value, the same for every thread."""
    return property(lambda self: getattr(PROCESS, name), lambda self, value: setattr(PROCESS, name, value))


class _State:
    """The one place to read and set state: `STATE.grad_enabled`, `STATE.default_dtype`, ... Each attribute is this
    thread's own (a field of its ThreadState) or the process-wide value, as the two lists below say. Use the
    functions below rather than writing to it directly."""

    __slots__ = ()


for _name in ThreadState.__slots__:
    setattr(_State, _name, _own(_name))
for _name in ("default_dtype", "rng", "seed", "flags", "check_nan_inf", "print_options"):
    setattr(_State, _name, _shared(_name))
del _name

STATE = _State()


# ---- mode ---------------------------------------------------------------------------------------------------


def in_dynamic_mode() -> bool:
    """True when ops run eagerly (the default), False after `paddle.enable_static()`."""
    return not STATE.static_mode


def set_static_mode(flag: bool) -> None:
    STATE.static_mode = bool(flag)


@contextlib.contextmanager
def static_mode_off():
    """Run ops eagerly inside the block even while a Program is being built (e.g. to compute initial values)."""
    prev, STATE.static_mode = STATE.static_mode, False
    try:
        yield
    finally:
        STATE.static_mode = prev


# ---- gradient recording -------------------------------------------------------------------------------------


def is_grad_enabled() -> bool:
    """Whether ops run now record a GradNode for backward."""
    return STATE.grad_enabled


class set_grad_enabled:
    """Turn gradient recording on or off; works as a plain call, a context manager and a decorator.

    >>> with paddle.set_grad_enabled(False):
    ...     y = x * 2          # y.stop_gradient is True
    """

    def __init__(self, mode: bool) -> None:
        self.prev = STATE.grad_enabled
        self.mode = bool(mode)
        STATE.grad_enabled = self.mode

    def __enter__(self) -> None:
        STATE.grad_enabled = self.mode

    def __exit__(self, *exc) -> None:
        STATE.grad_enabled = self.prev

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(self.mode):
                return fn(*args, **kwargs)

        return wrapper


class no_grad:
    """Run code without recording gradients: `with paddle.no_grad():` or `@paddle.no_grad()`.

    Like Paddle, the decorator form is also accepted without parentheses (`@paddle.no_grad`).
    """

    def __new__(cls, func=None):
        self = super().__new__(cls)
        if callable(func):  # used as @no_grad without parentheses
            return self(func)
        return self

    def __enter__(self) -> None:
        self.prev = STATE.grad_enabled
        STATE.grad_enabled = False

    def __exit__(self, *exc) -> None:
        STATE.grad_enabled = self.prev

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with no_grad():
                return fn(*args, **kwargs)

        return wrapper


class enable_grad:
    """Turn gradient recording back on inside a `no_grad` region."""

    def __enter__(self) -> None:
        self.prev = STATE.grad_enabled
        STATE.grad_enabled = True

    def __exit__(self, *exc) -> None:
        STATE.grad_enabled = self.prev

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with enable_grad():
                return fn(*args, **kwargs)

        return wrapper


# ---- flags ----------------------------------------------------------------------------------------------------


def set_flag(name: str, value) -> None:
    """Set one of KNOWN_FLAGS (paddle.set_flags checks the name and the value's type first). With
    FLAGS_check_nan_inf on, the door checks every op's outputs and raises at the first NaN or Inf."""
    STATE.flags[name] = value
    STATE.check_nan_inf = bool(STATE.flags["FLAGS_check_nan_inf"])


# ---- names ----------------------------------------------------------------------------------------------------


def unique_name(prefix: str) -> str:
    """`prefix_0`, `prefix_1`, ...: Paddle's names for tensors, layers and parameters."""
    return f"{prefix}_{next(STATE.name_counters[prefix])}"


@contextlib.contextmanager
def name_guard():
    """Start the name counters afresh inside the block (Paddle's `paddle.utils.unique_name.guard()`)."""
    saved = STATE.name_counters
    STATE.name_counters = defaultdict(itertools.count)
    try:
        yield
    finally:
        STATE.name_counters = saved


# ---- Layer scope ----------------------------------------------------------------------------------------------


class layer_scope:
    """Record `name` as the Layer path of every op run inside the block. Layers call this around `forward`.

    A class rather than a @contextmanager generator: Layer.__call__ enters one for every layer of every batch,
    and a plain __enter__/__exit__ pair costs a fraction of a generator's setup."""

    __slots__ = ("name", "prev")

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        state = PER_THREAD.__dict__["state"]  # (thread_state(), inlined: this runs for every layer call)
        state.scope_stack.append(self.name)
        self.prev = state.scope
        state.scope = self.name

    def __exit__(self, *exc) -> None:
        state = PER_THREAD.__dict__["state"]
        state.scope_stack.pop()
        state.scope = self.prev


# ---- random numbers -------------------------------------------------------------------------------------------


def seed(value: int) -> None:
    """Make every random op deterministic from here on (`paddle.seed`)."""
    STATE.seed = int(value)
    STATE.rng = np.random.default_rng(int(value))


def get_rng_state():
    """A copy of the generator's state, for `set_rng_state`."""
    return STATE.rng.bit_generator.state


def set_rng_state(state) -> None:
    STATE.rng.bit_generator.state = state


# ---- hooks on the op door -------------------------------------------------------------------------------------
# One ordered list per thread. Every subsystem that must see or change ops plugs in here: AMP casts inputs before
# the kernel, quantization fakes quantization, tracers and profilers watch, to_static records. The door calls
#   inputs = hook.before(op, inputs, attrs)             before the kernel runs (or the op is appended)
#   outputs = hook.after(op, inputs, attrs, outputs)    after, with the outputs as a tuple
# for each hook in order, in the phases the hook names:
#   "dynamic": dispatch.apply / apply_inplace in dynamic mode (inputs and outputs are Tensors);
#   "build":   static mode appending an op to a Program (inputs and outputs are static Variables);
#   "run":     the Executor running a Program's op (Tensors wrapping the arrays, stop_gradient=True).
# While a hook runs, the ops it calls go through the door without hooks (a cast made by the AMP hook is not cast again).


class OpHook:
    """Base class of a hook on the op door: override `before`, `after` or both (each is a no-op here).

    >>> class CountOps(OpHook):
    ...     def __init__(self): self.calls = {}
    ...     def after(self, op, inputs, attrs, outputs):
    ...         self.calls[op.name] = self.calls.get(op.name, 0) + 1
    ...         return outputs
    >>> with op_hook(CountOps()) as counter:
    ...     y = paddle.ones([2]) + 1
    >>> counter.calls
    {'full': 1, 'add': 1}
    """

    phases = ("dynamic", "build", "run")

    def before(self, op, inputs: tuple, attrs: dict) -> tuple:
        return inputs

    def after(self, op, inputs: tuple, attrs: dict, outputs: tuple) -> tuple:
        return outputs


class HookHandle:
    """What `add_op_hook` returns: `handle.remove()` takes the hook off the list again (later calls do nothing)."""

    __slots__ = ("hook", "_state")

    def __init__(self, hook, thread_state) -> None:
        self.hook = hook
        self._state = thread_state

    def remove(self) -> None:
        if self._state is not thread_state():
            raise RuntimeError("HookHandle.remove: a hook must be removed by the thread that added it")
        if self.hook in STATE.hooks:
            _set_hooks(tuple(h for h in STATE.hooks if h is not self.hook))


_PHASES = ("dynamic", "build", "run")


def _set_hooks(hooks: tuple) -> None:
    STATE.hooks = hooks
    STATE.dynamic_hooks = tuple(h for h in hooks if "dynamic" in h.phases)
    STATE.build_hooks = tuple(h for h in hooks if "build" in h.phases)
    STATE.run_hooks = tuple(h for h in hooks if "run" in h.phases)


def add_op_hook(hook) -> HookHandle:
    """Append `hook` (an OpHook, or any object with `before`/`after` and `phases`) to this thread's hook list."""
    phases = getattr(hook, "phases", None)
    if not (hasattr(hook, "before") or hasattr(hook, "after")) or phases is None:
        raise TypeError(
            f"add_op_hook: a hook needs a before(op, inputs, attrs) or after(op, inputs, attrs, outputs) method and "
            f"a `phases` tuple (subclass minipaddle.core.state.OpHook), got {type(hook).__name__}"
        )
    unknown = [p for p in phases if p not in _PHASES]
    if unknown:
        raise ValueError(f"add_op_hook: unknown phase(s) {unknown}; a hook's phases are among {list(_PHASES)}")
    if hook in STATE.hooks:
        raise ValueError(f"add_op_hook: this {type(hook).__name__} is installed already")
    if not hasattr(hook, "before"):
        hook.before = OpHook.before.__get__(hook)
    if not hasattr(hook, "after"):
        hook.after = OpHook.after.__get__(hook)
    _set_hooks(STATE.hooks + (hook,))
    return HookHandle(hook, thread_state())


@contextlib.contextmanager
def op_hook(hook):
    """Install `hook` on this thread's op door inside the block: `with op_hook(MyProfiler()) as prof: ...`."""
    handle = add_op_hook(hook)
    try:
        yield hook
    finally:
        handle.remove()


@contextlib.contextmanager
def hooks_suspended():
    """Run the block with no hooks (the door uses this while a hook runs, so hooks are not re-entered)."""
    saved = STATE.hooks
    _set_hooks(())
    try:
        yield
    finally:
        _set_hooks(saved)


def run_before_hooks(hooks: tuple, op, inputs: tuple, attrs: dict) -> tuple:
    """Give each hook in turn the chance to replace the inputs (called by the door; hooks suspended meanwhile)."""
    with hooks_suspended():
        for hook in hooks:
            inputs = hook.before(op, inputs, attrs)
    return inputs


def run_after_hooks(hooks: tuple, op, inputs: tuple, attrs: dict, outputs: tuple) -> tuple:
    """Give each hook in turn the op's outputs (a tuple); each returns them, possibly replaced."""
    with hooks_suspended():
        for hook in hooks:
            outputs = hook.after(op, inputs, attrs, outputs)
    return outputs
