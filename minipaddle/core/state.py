"""All of minipaddle's global state, in one place (DESIGN.md, wall 6).

Mode (dynamic or static), whether gradients are recorded, the default dtype, the random generator, the name
counters, the current Layer scope, the AMP state and the print options live here and nowhere else. Each piece
has a context manager or a setter, so code never reaches into another module's globals.

Reading state is on the hot path of every op, so the values are plain attributes of one object, `STATE`.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
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


class _State:
    """The one bag of global state. Use the functions below rather than writing to it directly."""

    def __init__(self) -> None:
        self.static_mode = False  # False: run ops now (dygraph). True: append them to a Program.
        self.grad_enabled = True  # False inside `no_grad`: ops record no GradNode.
        self.default_dtype = "float32"  # a dtype name; core/dtype.py turns it into a DType
        self.rng = np.random.default_rng()  # replaced by paddle.seed(n)
        self.seed = None
        self.name_counters: dict[str, itertools.count] = defaultdict(itertools.count)
        self.scope_stack: list[str] = []  # Layer paths, outermost first
        self.scope = ""  # the current Layer path, e.g. "features.0.conv"; "" outside any Layer
        self.amp = None  # filled by minipaddle.amp: the active auto_cast settings, or None
        self.worker_info = None  # inside a DataLoader worker process: its WorkerInfo (paddle.io.get_worker_info)
        self.async_saves = []  # paddle.async_save's running writes: (thread, [its error]); emptied by
        # paddle.clear_async_save_task_queue
        self.image_backend = "cv2"  # how vision datasets give images: 'cv2' (numpy HWC), 'pil' or 'tensor'
        self.main_program = None  # static mode's current Programs (minipaddle.static makes them on first use)
        self.startup_program = None
        self.py_funcs: dict[int, object] = {}  # static.py_func's Python functions, by the id in the op's attrs
        self.in_train_switch = False  # building one side of a static train/eval switch (static/train_switch.py)
        self.global_initializer = (None, None)  # (weight, bias) from paddle.nn.initializer.set_global_initializer
        self.flags = dict(KNOWN_FLAGS)  # paddle.get_flags / set_flags
        self.check_nan_inf = False  # FLAGS_check_nan_inf as a plain attribute: the door reads it on every op
        self.print_options = {
            "precision": 8,
            "threshold": 1000,
            "edgeitems": 3,
            "sci_mode": False,
            "linewidth": 80,
        }


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
        STATE.scope_stack.append(self.name)
        self.prev = STATE.scope
        STATE.scope = self.name

    def __exit__(self, *exc) -> None:
        STATE.scope_stack.pop()
        STATE.scope = self.prev


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
