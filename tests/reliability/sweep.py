"""The bad-input sweep's machinery (issue 18): what to call, which bad values to put in, how to judge the outcome.

A target is one public callable with one valid call: a function of the op table (called with its first sample), the
same function as a Tensor method, or a Layer of LAYERS (constructor arguments, then forward inputs). `bad_calls`
replaces each argument in turn (given ones, and the keyword arguments left at a simple default) with bad values of
its kind; `judge` runs one call under a time alarm and an address-space limit and says which class its outcome is:

- "accepted": it returned (whatever paddle 2.6 would say; the sweep cannot tell without paddle);
- "clean": TypeError, ValueError, IndexError or RuntimeError whose message names the public callable;
- one of the NEVER classes: "raw <Type>" (AttributeError, KeyError, ZeroDivisionError, OverflowError,
  RecursionError, MemoryError, ...), "unnamed" (an allowed type whose message does not name the callable: numpy's
  text alone), "hang" (over the alarm), "nan" (a NaN or Inf made silently from an argument that was not NaN/Inf).
"""

from __future__ import annotations

import inspect
import math
import re
import resource
import signal
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import minipaddle as paddle
import minipaddle.nn.functional as F
from minipaddle.core.dispatch import tracing
from minipaddle.core.tensor import Tensor
from tests.op_table import OP_TABLE

ALARM_SECONDS = 5.0  # one call's time; a valid call here takes milliseconds
MEMORY_HEADROOM = 2 * 2**30  # the address space a call may add before numpy's allocation fails (a raw MemoryError)
ALLOWED = (TypeError, ValueError, IndexError, RuntimeError)
NEVER_EVEN_IF_ALLOWED = (RecursionError,)  # a RuntimeError subclass, but a crash, not an answer
NAMESPACES = ["", "nn.functional", "linalg", "fft", "signal", "geometric", "vision.ops", "incubate"]
SKIPPED_PARAMS = {"name", "out"}  # a name any string may be; an output buffer


class Hang(BaseException):
    """Raised by the alarm: a BaseException so that no `except Exception` inside minipaddle swallows it."""


@dataclass
class Target:
    id: str  # how the sweep names it: "paddle.add", "Tensor.add", "nn.Conv2D"
    names: tuple  # the names an error message may use for it (function name, class name)
    invoke: Callable  # (args: list, kwargs: dict) -> result
    args: list  # the valid positional arguments
    kwargs: dict  # the valid keyword arguments
    arg_names: list  # a label per positional argument
    defaults: dict = field(default_factory=dict)  # keyword arguments left at a default the sweep may replace
    op_names: tuple = ()  # the ops the valid call runs: a message may name the op that refused (set by `prepare`)
    # How to make the same call in another library (tests/golden/reliability: paddle 2.6's verdicts): a public
    # path under paddle ("nn.functional.relu") called with args; a Tensor method called on `receiver`; or a Layer
    # of paddle.nn built with the first `n_ctor` args and called on the rest.
    kind: str = "function"  # "function" | "method" | "layer"
    path: str = ""
    receiver: object = None
    n_ctor: int = 0


# ---- bad values ------------------------------------------------------------------------------------------------

AXIS_WORDS = ("axis", "axes", "dim", "perm", "start_axis", "stop_axis")
HUGE = 10**20


def _is_axis(name: str) -> bool:
    return any(w in name for w in AXIS_WORDS)


def _tensor_bads(t: Tensor) -> list:
    a = t.numpy()
    out = [
        ("empty tensor", lambda: paddle.zeros([0], dtype=t.dtype)),
        ("0-d tensor", lambda: paddle.to_tensor(np.asarray(a.reshape(-1)[0] if a.size else 0, a.dtype))),
        ("rank+1", lambda: paddle.to_tensor(np.stack([a, a]))),
        ("ragged list", lambda: [[1.0, 2.0], [3.0]]),
    ]
    if a.ndim:
        out.append(("rank-1", lambda: paddle.to_tensor(np.ascontiguousarray(a.reshape(-1)[:1].reshape(())))))
    if a.dtype.kind == "f":
        out += [
            (
                "int64 tensor",
                lambda: paddle.to_tensor(np.arange(1, a.size + 1, dtype="int64").reshape(a.shape)),
            ),  # no 0 to divide by
            ("bool tensor", lambda: paddle.to_tensor(a > 0)),
            ("NaN tensor", lambda: paddle.to_tensor(np.full(a.shape, np.nan, a.dtype))),
            ("Inf tensor", lambda: paddle.to_tensor(np.full(a.shape, np.inf, a.dtype))),
        ]
    elif a.dtype.kind in "iu":
        out += [("float tensor", lambda: paddle.to_tensor(a.astype("float32")))]
    return out


def bad_values(name: str, value) -> list:
    """(label, make) pairs: the bad values for an argument called `name` whose valid value is `value`."""
    common = [("None", lambda: None), ("str", lambda: "zzz"), ("dict", lambda: {})]
    if value is None:  # a default of None: the sweep knows no kind, only values no argument takes
        return common[1:]
    if isinstance(value, Tensor):
        return [c for c in common] + _tensor_bads(value)
    if isinstance(value, list) and value and all(isinstance(v, Tensor) for v in value):
        return common + [("empty list", lambda: []), ("[None]", lambda: [None]), ("ragged list", lambda: [[1.0], []])]
    if isinstance(value, (bool, np.bool_)):
        return common
    if isinstance(value, (int, np.integer)):
        ints = [("99", lambda: 99), ("-99", lambda: -99)] if _is_axis(name) else [("-3", lambda: -3)]
        return common + ints + [("1.5", lambda: 1.5), ("10**20", lambda: HUGE), ("-10**20", lambda: -HUGE)]
    if isinstance(value, float):
        return common + [("NaN", lambda: float("nan")), ("Inf", lambda: float("inf")), ("-1.0", lambda: -1.0)]
    if isinstance(value, str):
        return [("None", lambda: None), ("unknown str", lambda: "zzz_unknown"), ("int", lambda: 3)]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (int, np.integer)) for v in value):
        kind = type(value)
        out = common + [("empty", lambda: kind()), ("float item", lambda: kind([1.5] * len(value)))]
        out += [("ragged", lambda: [[1], [2, 3]])]
        if _is_axis(name):
            out += [("repeated axis", lambda: kind([value[0]] * max(2, len(value)))), ("axis 99", lambda: kind([99]))]
        else:
            out += [
                ("negative size", lambda: kind([-3] * len(value))),
                ("huge size", lambda: kind([HUGE] * len(value))),
            ]
        return out
    return common


def bad_calls(target: Target) -> list:
    """(argument label, bad value label, args, kwargs) for every argument of `target` and bad value of its kind."""
    calls = []
    for i, (label, value) in enumerate(zip(target.arg_names, target.args)):
        for bad, make in bad_values(label, value):
            calls.append((label, bad, i, make))
    for key, value in list(target.kwargs.items()) + list(target.defaults.items()):
        for bad, make in bad_values(key, value):
            calls.append((key, bad, key, make))
    return calls


def build(target: Target, where, make):
    args, kwargs = list(target.args), dict(target.kwargs)
    if isinstance(where, int):
        args[where] = make()
    else:
        kwargs[where] = make()
    return args, kwargs


# ---- judging one call ------------------------------------------------------------------------------------------


def _on_alarm(signum, frame):
    raise Hang()


def has_nan(out) -> bool:
    """Whether a result holds a NaN (an Inf may be the true value of a huge argument: logspace(0, 10**20))."""
    if isinstance(out, Tensor):
        a = out.numpy()
        return a.dtype.kind in "fc" and bool(np.isnan(a).any())
    if isinstance(out, (list, tuple)):
        return any(has_nan(o) for o in out)
    return False


def run_guarded(fn: Callable):
    """fn() under the alarm and the address-space limit; returns ("ok", result) or ("error", exception)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = _address_space()
    limit = used + MEMORY_HEADROOM if used else resource.RLIM_INFINITY
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    old = signal.signal(signal.SIGALRM, _on_alarm)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    signal.setitimer(signal.ITIMER_REAL, ALARM_SECONDS)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return "ok", fn()
    except Hang as e:
        return "error", e
    except Exception as e:  # noqa: BLE001 (judged by the caller)
        return "error", e
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except OSError:
        return 0


# Python's and numpy's own words for a failure inside the code: behind an op's name they still say nothing about
# the argument (the "numpy's text behind the op's name").
RAW_TEXT = (
    "operands could not be broadcast",
    "setting an array element with a sequence",
    "not supported between instances",
    "unsupported operand type",
    "object is not callable",
    "object is not subscriptable",
    "object is not iterable",
    "has no attribute",
    "could not convert string to float",
    "invalid literal for int()",
    "argument must be a string",
    "cannot be interpreted as an integer",
    "tuple index out of range",
    "list index out of range",
    "list assignment index out of range",
    "invalid index to scalar variable",
    "is out of bounds for array of dimension",
    "maximum allowed dimension exceeded",
    "maximum allowed size exceeded",
    "negative dimensions are not allowed",
    "cannot reshape array of size",
    "boolean index did not match",
    "arrays used as indices must be",
    "numpy boolean subtract",
    "math domain error",
    "can't multiply sequence",
    "must be real number, not",
    "only integer scalar arrays",
    "did not contain a loop with signature",
    "cannot cast ufunc",
    "unhashable type",
    "truth value of an array",
    "zero-size array to reduction operation",
    "invalid number of fft data points",
    "object too deep for desired array",
)
# The kernel door's own words for a bad size (core/kernel.py), and its bracket quoting numpy after its own reason.
KERNEL_WORDS = ("an argument is too large", "an argument is zero or empty")
QUOTED = re.compile(r"\(inside the kernel: .*\)$", re.DOTALL)


def raw_text(message: str) -> bool:
    m = QUOTED.sub("", message.lower())
    return any(t in m for t in RAW_TEXT) and not any(w in m for w in KERNEL_WORDS)


def classify(target: Target, status: str, result, nan_before: bool, value_is_nan: bool) -> str:
    if status == "ok":
        return "nan" if has_nan(result) and not nan_before and not value_is_nan else "accepted"
    e = result
    if isinstance(e, Hang):
        return "hang"
    if isinstance(e, NEVER_EVEN_IF_ALLOWED) or not isinstance(e, ALLOWED):
        return f"raw {type(e).__name__}"
    message = str(e)
    if raw_text(message):
        return "raw text"
    if not any(named(message, n) for n in target.names + target.op_names):
        return "unnamed"
    return "clean"


def named(message: str, name: str) -> bool:
    """Whether the message names `name` as a word (`var` in "var: ...", not in "variance")."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message, re.IGNORECASE) is not None


def judge(target: Target, where, bad: str, make, nan_before: bool) -> tuple:
    """(class, detail) of one bad call."""
    args, kwargs = build(target, where, make)
    value = args[where] if isinstance(where, int) else kwargs[where]
    # A NaN from a tensor's values is arithmetic (asin(2), the variance of one sample), as in paddle; a NaN from an
    # argument that is not a tensor (full(None), epsilon=-1) is the silent kind.
    value_is_nan = bad in ("NaN", "Inf") or isinstance(value, Tensor)
    status, result = run_guarded(lambda: target.invoke(args, kwargs))
    verdict = classify(target, status, result, nan_before, value_is_nan)
    detail = "" if status == "ok" else f"{type(result).__name__}: {str(result)[:200]}"
    return verdict, detail


NEVER = ("raw", "unnamed", "hang", "nan")  # "raw <Type>" and "raw text" both start with "raw"


def is_never(verdict: str) -> bool:
    return verdict.split()[0] in NEVER


# ---- the targets -----------------------------------------------------------------------------------------------


def _public_codes() -> dict:
    """code object -> name, for every public function of the NAMESPACES (to see which ones a call goes through)."""
    codes = {}
    for ns in NAMESPACES:
        mod = paddle
        for part in ns.split(".") if ns else []:
            mod = getattr(mod, part, None)
        for name in dir(mod):
            code = getattr(getattr(mod, name, None), "__code__", None)
            if not name.startswith("_") and code is not None:
                codes.setdefault(code, name)
    for mod in (paddle, paddle.nn, paddle.nn.initializer):  # the public classes a Layer builds on
        for name in dir(mod):
            cls = getattr(mod, name, None)
            if isinstance(cls, type) and not name.startswith("_"):
                for attr in ("__init__", "__call__", "forward"):
                    code = getattr(cls.__dict__.get(attr), "__code__", None)
                    if code is not None:
                        codes.setdefault(code, name)
    return codes


_CODES: dict = {}


def prepare(target: Target) -> bool:
    """Run the valid call once (it must work), noting the public functions and ops it goes through, whose names a
    clean error may give (std's errors name var, which std is; AvgPool2D's name avg_pool2d). Returns whether the
    valid result already holds a NaN."""
    if not _CODES:
        _CODES.update(_public_codes())
    seen_fns, seen_ops = set(), set()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in _CODES:
            seen_fns.add(_CODES[frame.f_code])

    sys.setprofile(profile)
    try:
        with tracing(lambda op, inputs, attrs, outputs: seen_ops.add(op.name)):
            status, result = run_guarded(lambda: target.invoke(list(target.args), dict(target.kwargs)))
    finally:
        sys.setprofile(None)
    if status != "ok":
        raise AssertionError(f"{target.id}: the sweep's valid call fails: {type(result).__name__}: {result}")
    target.op_names = tuple(sorted(seen_fns | seen_ops))
    return has_nan(result)


def public_path(fn):
    for ns in NAMESPACES:
        mod = paddle
        for part in ns.split(".") if ns else []:
            mod = getattr(mod, part, None)
        name = getattr(fn, "__name__", "")
        if mod is not None and name and not name.startswith("_") and getattr(mod, name, None) is fn:
            return f"{ns}.{name}" if ns else name
    return None


def _tensorize(a):
    if isinstance(a, np.ndarray) and a.dtype != object:
        return paddle.to_tensor(a.astype("float32") if a.dtype == np.float64 else a)
    if isinstance(a, list) and a and all(isinstance(e, np.ndarray) for e in a):
        return [_tensorize(e) for e in a]
    return a


def _simple_default(p: inspect.Parameter) -> bool:
    d = p.default
    return d is None or isinstance(d, (bool, int, float, str)) or (isinstance(d, (list, tuple)) and d != ())


def _defaults(fn, given_positional: int, given: dict) -> dict:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return {}
    out = {}
    for p in params[given_positional:]:
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) or p.default is p.empty:
            continue
        if p.name in given or p.name in SKIPPED_PARAMS or not _simple_default(p):
            continue
        out[p.name] = p.default
    return out


def _arg_names(fn, n: int) -> list:
    try:
        names = [p.name for p in inspect.signature(fn).parameters.values() if p.kind != p.VAR_KEYWORD]
    except (TypeError, ValueError):
        names = []
    return [names[i] if i < len(names) and not names[i].startswith("*") else f"arg{i}" for i in range(n)]


def function_targets() -> list:
    seen, out = set(), []
    for info in OP_TABLE:
        path = public_path(info.fn)
        if path is None or path in seen:
            continue
        seen.add(path)
        sample = info.samples(np.random.default_rng(0))[0]
        args = [_tensorize(a) for a in sample.args]
        kwargs = {k: _tensorize(v) for k, v in sample.kwargs.items()}
        names = _arg_names(info.fn, len(args))
        fn = info.fn
        out.append(
            Target(
                id=f"paddle.{path}",
                names=(info.fn.__name__,),
                invoke=lambda a, k, fn=fn: fn(*a, **k),
                args=args,
                kwargs=kwargs,
                arg_names=names,
                defaults=_defaults(info.fn, len(args), kwargs),
                path=path,
            )
        )
        method = getattr(Tensor, info.fn.__name__, None)
        if "." not in path and method is not None and args and isinstance(args[0], Tensor) and callable(method):
            name = info.fn.__name__
            out.append(
                Target(
                    id=f"Tensor.{name}",
                    names=(name,),
                    invoke=lambda a, k, x=args[0], name=name: getattr(x, name)(*a, **k),
                    args=args[1:],
                    kwargs=kwargs,
                    arg_names=names[1:],
                    defaults=_defaults(info.fn, len(args), kwargs),
                    kind="method",
                    path=name,
                    receiver=args[0],
                )
            )
    return out


def _x(*shape, dtype="float32", low=-1.0, high=1.0):
    rng = np.random.default_rng(sum(shape) + len(shape))
    return paddle.to_tensor(rng.uniform(low, high, size=shape).astype(dtype))


def _labels(n, classes):
    return paddle.to_tensor(np.arange(n, dtype="int64") % classes)


def _ints(values, dtype="int32"):
    return paddle.to_tensor(np.array(values, dtype))


def _pm_ones(*shape, dtype="float32"):
    """Labels of +1 and -1 (the embedding and soft-margin losses)."""
    return paddle.to_tensor(np.where(np.arange(math.prod(shape)) % 2, -1, 1).reshape(shape).astype(dtype))


# The Layers: (class name, constructor args, constructor kwargs, forward inputs). Each is a valid call of paddle 2.6.
LAYERS = [
    ("Linear", (4, 3), {}, lambda: (_x(2, 4),)),
    ("Bilinear", (3, 4, 2), {}, lambda: (_x(2, 3), _x(2, 4))),
    ("Conv1D", (3, 4, 3), {"padding": 1}, lambda: (_x(1, 3, 8),)),
    ("Conv2D", (3, 4, 3), {"stride": 1, "padding": 1}, lambda: (_x(1, 3, 6, 6),)),
    ("Conv3D", (2, 3, 3), {}, lambda: (_x(1, 2, 4, 4, 4),)),
    ("Conv1DTranspose", (3, 2, 3), {}, lambda: (_x(1, 3, 5),)),
    ("Conv2DTranspose", (3, 2, 3), {"stride": 2}, lambda: (_x(1, 3, 4, 4),)),
    ("Conv3DTranspose", (2, 2, 3), {}, lambda: (_x(1, 2, 3, 3, 3),)),
    ("BatchNorm1D", (3,), {}, lambda: (_x(4, 3),)),
    ("BatchNorm2D", (3,), {"momentum": 0.9, "epsilon": 1e-5}, lambda: (_x(2, 3, 4, 4),)),
    ("BatchNorm3D", (2,), {}, lambda: (_x(2, 2, 3, 3, 3),)),
    ("BatchNorm", (3,), {}, lambda: (_x(2, 3, 4, 4),)),
    ("InstanceNorm1D", (3,), {}, lambda: (_x(2, 3, 5),)),
    ("InstanceNorm2D", (3,), {}, lambda: (_x(2, 3, 4, 4),)),
    ("InstanceNorm3D", (2,), {}, lambda: (_x(2, 2, 3, 3, 3),)),
    ("LayerNorm", ([4],), {"epsilon": 1e-5}, lambda: (_x(3, 4),)),
    ("GroupNorm", (2, 4), {"epsilon": 1e-5}, lambda: (_x(2, 4, 3, 3),)),
    ("LocalResponseNorm", (3,), {}, lambda: (_x(1, 4, 3, 3),)),
    ("Embedding", (10, 4), {}, lambda: (paddle.to_tensor(np.array([[1, 2], [3, 9]], "int64")),)),
    ("Dropout", (0.5,), {}, lambda: (_x(3, 4),)),
    ("Dropout2D", (0.5,), {}, lambda: (_x(2, 3, 4, 4),)),
    ("Dropout3D", (0.5,), {}, lambda: (_x(2, 2, 3, 3, 3),)),
    ("AlphaDropout", (0.5,), {}, lambda: (_x(3, 4),)),
    ("MaxPool1D", (2,), {"stride": 2}, lambda: (_x(1, 3, 8),)),
    ("MaxPool2D", (2,), {"stride": 2, "padding": 0}, lambda: (_x(1, 3, 6, 6),)),
    ("MaxPool3D", (2,), {}, lambda: (_x(1, 2, 4, 4, 4),)),
    ("AvgPool1D", (2,), {"stride": 2}, lambda: (_x(1, 3, 8),)),
    ("AvgPool2D", (2,), {"stride": 2, "padding": 0}, lambda: (_x(1, 3, 6, 6),)),
    ("AvgPool3D", (2,), {}, lambda: (_x(1, 2, 4, 4, 4),)),
    ("AdaptiveAvgPool1D", (2,), {}, lambda: (_x(1, 3, 8),)),
    ("AdaptiveAvgPool2D", (2,), {}, lambda: (_x(1, 3, 6, 6),)),
    ("AdaptiveAvgPool3D", (2,), {}, lambda: (_x(1, 2, 4, 4, 4),)),
    ("AdaptiveMaxPool1D", (2,), {}, lambda: (_x(1, 3, 8),)),
    ("AdaptiveMaxPool2D", (2,), {}, lambda: (_x(1, 3, 6, 6),)),
    ("AdaptiveMaxPool3D", (2,), {}, lambda: (_x(1, 2, 4, 4, 4),)),
    ("Pad1D", ([1, 2],), {"mode": "constant", "value": 0.0}, lambda: (_x(1, 2, 4),)),
    ("Pad2D", ([1, 1, 2, 0],), {"mode": "reflect"}, lambda: (_x(1, 2, 4, 4),)),
    ("Pad3D", ([1, 1, 1, 1, 1, 1],), {}, lambda: (_x(1, 2, 3, 3, 3),)),
    ("PixelShuffle", (2,), {}, lambda: (_x(1, 8, 3, 3),)),
    ("Upsample", (), {"scale_factor": 2.0, "mode": "nearest"}, lambda: (_x(1, 2, 3, 3),)),
    ("UpsamplingNearest2D", (), {"size": [6, 6]}, lambda: (_x(1, 2, 3, 3),)),
    ("UpsamplingBilinear2D", (), {"scale_factor": 2.0}, lambda: (_x(1, 2, 3, 3),)),
    ("Flatten", (), {"start_axis": 1, "stop_axis": -1}, lambda: (_x(2, 3, 4),)),
    ("ReLU", (), {}, lambda: (_x(3, 4),)),
    ("ReLU6", (), {}, lambda: (_x(3, 4),)),
    ("ELU", (1.0,), {}, lambda: (_x(3, 4),)),
    ("SELU", (), {}, lambda: (_x(3, 4),)),
    ("GELU", (), {"approximate": False}, lambda: (_x(3, 4),)),
    ("LeakyReLU", (0.01,), {}, lambda: (_x(3, 4),)),
    ("PReLU", (1, 0.25), {}, lambda: (_x(2, 3),)),
    ("Hardshrink", (0.5,), {}, lambda: (_x(3, 4),)),
    ("Hardsigmoid", (), {}, lambda: (_x(3, 4),)),
    ("Hardswish", (), {}, lambda: (_x(3, 4),)),
    ("Hardtanh", (-1.0, 1.0), {}, lambda: (_x(3, 4),)),
    ("LogSigmoid", (), {}, lambda: (_x(3, 4),)),
    ("LogSoftmax", (-1,), {}, lambda: (_x(3, 4),)),
    ("Softmax", (-1,), {}, lambda: (_x(3, 4),)),
    ("Sigmoid", (), {}, lambda: (_x(3, 4),)),
    ("Softplus", (1.0, 20.0), {}, lambda: (_x(3, 4),)),
    ("Softshrink", (0.5,), {}, lambda: (_x(3, 4),)),
    ("Softsign", (), {}, lambda: (_x(3, 4),)),
    ("Swish", (), {}, lambda: (_x(3, 4),)),
    ("Tanh", (), {}, lambda: (_x(3, 4),)),
    ("Tanhshrink", (), {}, lambda: (_x(3, 4),)),
    ("ThresholdedReLU", (1.0,), {}, lambda: (_x(3, 4),)),
    ("Maxout", (2,), {"axis": 1}, lambda: (_x(1, 4, 3, 3),)),
    ("CosineSimilarity", (), {"axis": 1, "eps": 1e-8}, lambda: (_x(2, 3), _x(2, 3))),
    ("PairwiseDistance", (2.0,), {"epsilon": 1e-6}, lambda: (_x(2, 3), _x(2, 3))),
    ("MSELoss", (), {"reduction": "mean"}, lambda: (_x(3, 4), _x(3, 4))),
    ("L1Loss", (), {"reduction": "sum"}, lambda: (_x(3, 4), _x(3, 4))),
    ("SmoothL1Loss", (), {"reduction": "mean", "delta": 1.0}, lambda: (_x(3, 4), _x(3, 4))),
    ("BCELoss", (), {"reduction": "mean"}, lambda: (_x(3, 4, low=0.1, high=0.9), _x(3, 4, low=0.0, high=1.0))),
    ("BCEWithLogitsLoss", (), {"reduction": "mean"}, lambda: (_x(3, 4), _x(3, 4, low=0.0, high=1.0))),
    ("CrossEntropyLoss", (), {"reduction": "mean", "axis": -1}, lambda: (_x(4, 3), _labels(4, 3))),
    ("NLLLoss", (), {"reduction": "mean"}, lambda: (_x(4, 3), _labels(4, 3))),
    ("KLDivLoss", (), {"reduction": "mean"}, lambda: (_x(3, 4), _x(3, 4, low=0.1, high=0.9))),
    ("MarginRankingLoss", (), {"margin": 0.1}, lambda: (_x(4), _x(4), _x(4))),
    ("SimpleRNNCell", (3, 4), {}, lambda: (_x(2, 3),)),
    ("LSTMCell", (3, 4), {}, lambda: (_x(2, 3),)),
    ("GRUCell", (3, 4), {}, lambda: (_x(2, 3),)),
    ("SimpleRNN", (3, 4), {"num_layers": 1}, lambda: (_x(2, 5, 3),)),
    ("LSTM", (3, 4), {"num_layers": 1, "direction": "forward"}, lambda: (_x(2, 5, 3),)),
    ("GRU", (3, 4), {"num_layers": 1}, lambda: (_x(2, 5, 3),)),
    ("MultiHeadAttention", (4, 2), {"dropout": 0.0}, lambda: (_x(2, 3, 4),)),
    ("TransformerEncoderLayer", (4, 2, 8), {"dropout": 0.0}, lambda: (_x(2, 3, 4),)),
    # The rest of paddle 2.6's paddle.nn Layers (constructor arguments that are Layers are made when swept).
    ("CELU", (1.0,), {}, lambda: (_x(3, 4),)),
    ("GLU", (), {"axis": -1}, lambda: (_x(3, 4),)),
    ("Mish", (), {}, lambda: (_x(3, 4),)),
    ("Silu", (), {}, lambda: (_x(3, 4),)),
    ("RReLU", (0.1, 0.3), {}, lambda: (_x(3, 4),)),
    ("Softmax2D", (), {}, lambda: (_x(1, 2, 3, 3),)),
    ("Identity", (), {}, lambda: (_x(3, 4),)),
    ("ChannelShuffle", (2,), {}, lambda: (_x(1, 4, 3, 3),)),
    ("PixelUnshuffle", (2,), {}, lambda: (_x(1, 2, 4, 4),)),
    ("ZeroPad2D", ([1, 1, 1, 1],), {}, lambda: (_x(1, 2, 3, 3),)),
    ("Unflatten", (1, [2, 2]), {}, lambda: (_x(3, 4),)),
    ("Fold", ([4, 4], 2), {}, lambda: (_x(1, 12, 9),)),
    ("Unfold", (2,), {"strides": 1}, lambda: (_x(1, 2, 3, 3),)),
    ("MaxUnPool1D", (2,), {}, lambda: F.max_pool1d(_x(1, 2, 4), 2, return_mask=True)),
    ("MaxUnPool2D", (2,), {}, lambda: F.max_pool2d(_x(1, 2, 4, 4), 2, return_mask=True)),
    ("MaxUnPool3D", (2,), {}, lambda: F.max_pool3d(_x(1, 1, 4, 4, 4), 2, return_mask=True)),
    ("SyncBatchNorm", (3,), {}, lambda: (_x(2, 3, 4, 4),)),
    ("SpectralNorm", ([3, 4],), {"dim": 0, "power_iters": 1}, lambda: (_x(3, 4),)),
    ("CosineEmbeddingLoss", (), {"margin": 0.0}, lambda: (_x(3, 4), _x(3, 4), _pm_ones(3, dtype="int64"))),
    ("GaussianNLLLoss", (), {}, lambda: (_x(3, 4), _x(3, 4), _x(3, 4, low=0.1, high=1.0))),
    ("HingeEmbeddingLoss", (), {"margin": 1.0}, lambda: (_x(3, 4), _pm_ones(3, 4))),
    ("SoftMarginLoss", (), {}, lambda: (_x(3, 4), _pm_ones(3, 4))),
    ("MultiLabelSoftMarginLoss", (), {}, lambda: (_x(3, 4), paddle.to_tensor(np.eye(3, 4, dtype="float32")))),
    ("MultiMarginLoss", (), {"p": 1, "margin": 1.0}, lambda: (_x(3, 4), _labels(3, 4))),
    ("PoissonNLLLoss", (), {}, lambda: (_x(3, 4), _x(3, 4, low=0.0, high=2.0))),
    ("TripletMarginLoss", (), {"margin": 1.0, "p": 2.0}, lambda: (_x(3, 4), _x(3, 4, low=0.5), _x(3, 4, high=0.5))),
    ("TripletMarginWithDistanceLoss", (), {"margin": 1.0}, lambda: (_x(3, 4), _x(3, 4, low=0.5), _x(3, 4, high=0.5))),
    ("HSigmoidLoss", (3, 4), {}, lambda: (_x(2, 3), _labels(2, 4))),
    (
        "CTCLoss",
        (),
        {"blank": 0},
        lambda: (_x(5, 2, 4), _ints([[1, 2, 3], [2, 1, 0]]), _ints([5, 5], "int64"), _ints([3, 2], "int64")),
    ),
    ("RNNTLoss", (), {"blank": 0}, lambda: (_x(1, 3, 3, 4), _ints([[1, 2]]), _ints([3]), _ints([2]))),
    ("RNN", lambda: (_layer("SimpleRNNCell", 3, 4),), {}, lambda: (_x(2, 5, 3),)),
    ("BiRNN", lambda: (_layer("SimpleRNNCell", 3, 4), _layer("GRUCell", 3, 4)), {}, lambda: (_x(2, 5, 3),)),
    ("Sequential", lambda: (_layer("Linear", 4, 3), _layer("ReLU")), {}, lambda: (_x(2, 4),)),
    ("Transformer", (4, 2, 1, 1, 8), {"dropout": 0.0}, lambda: (_x(2, 3, 4), _x(2, 2, 4))),
    ("TransformerEncoder", lambda: (_layer("TransformerEncoderLayer", 4, 2, 8, 0.0), 1), {}, lambda: (_x(2, 3, 4),)),
    ("TransformerDecoderLayer", (4, 2, 8), {"dropout": 0.0}, lambda: (_x(2, 3, 4), _x(2, 2, 4))),
    (
        "TransformerDecoder",
        lambda: (_layer("TransformerDecoderLayer", 4, 2, 8, 0.0), 1),
        {},
        lambda: (_x(2, 3, 4), _x(2, 2, 4)),
    ),
]
# The paddle.nn Layers the sweep does not call, each with why: every other Layer of paddle 2.6's paddle.nn is in
# LAYERS (test_bad_input_sweep.py checks it against the recorded API list).
NOT_SWEPT = {
    "Layer": "the base class: its forward is for subclasses to define",
    "RNNCellBase": "an abstract base of the RNN cells (its forward is for subclasses to define)",
    "LayerList": "a container without a forward",
    "LayerDict": "a container without a forward",
    "ParameterList": "a container without a forward",
}


def _layer(name: str, *args):
    """A Layer that is another Layer's argument, remembering how it was built: export_calls.py writes the recipe,
    so paddle 2.6 builds its own and the target gets paddle's verdicts too."""
    layer = getattr(paddle.nn, name)(*args)
    layer._sweep_recipe = (name, args)
    return layer


def layer_targets() -> list:
    out = []
    for name, ctor_args, ctor_kwargs, inputs in LAYERS:
        cls = getattr(paddle.nn, name)
        ctor_args = ctor_args() if callable(ctor_args) else ctor_args
        ins = list(inputs())
        n_ctor = len(ctor_args)

        def invoke(a, k, cls=cls, n_ctor=n_ctor):
            layer = cls(*a[:n_ctor], **k)
            return layer(*a[n_ctor:])

        ctor_names = _arg_names(cls.__init__, n_ctor + 1)[1:]
        out.append(
            Target(
                id=f"nn.{name}",
                names=(name,),
                invoke=invoke,
                args=list(ctor_args) + ins,
                kwargs=dict(ctor_kwargs),
                arg_names=ctor_names + [f"input{i}" for i in range(len(ins))],
                defaults=_defaults(cls.__init__, n_ctor + 1, ctor_kwargs),
                kind="layer",
                path=name,
                n_ctor=n_ctor,
            )
        )
    return out


def all_targets() -> list:
    return function_targets() + layer_targets()


__all__ = ["F", "Target", "all_targets", "bad_calls", "is_never", "judge", "run_guarded"]
