"""paddle.amp.debugging: find where mixed precision goes wrong.

- Operator statistics: `collect_operator_stats()` (or enable/disable_operator_stats_collection) counts the calls of
  every op per dtype it computed in, and prints paddle 2.6's table (Paddle's op names) at the end.
  `operator_stats()` returns the counts of the last collection, for reading or drawing (viz.amp_stats).
- Numerics: `check_numerics(tensor, op_type, var_name, debug_mode)` counts NaN, Inf and zeros and gives the max,
  min and mean, printing Paddle's `[PRECISION]` line; `enable_tensor_checker(TensorCheckerConfig(...))` checks
  every op's outputs the same way (a hook on the op door), printing or writing the lines to `output_dir`;
  `compare_accuracy` compares two such directories (a float32 run and a float16 run) op by op.
"""

from __future__ import annotations

import contextlib
import csv
import os
import random
import threading
from enum import Enum

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, OpHook, add_op_hook, seed, set_flag
from minipaddle.core.tensor import Tensor
from minipaddle.ops.amp_names import paddle_op_name

__all__ = [
    "DebugMode",
    "TensorCheckerConfig",
    "check_numerics",
    "enable_operator_stats_collection",
    "disable_operator_stats_collection",
    "collect_operator_stats",
    "enable_tensor_checker",
    "disable_tensor_checker",
    "compare_accuracy",
    "check_layer_numerics",
]


class DebugMode(Enum):
    """What the tensor checker looks for: NaN/Inf and stop (0), NaN/Inf and go on (1), also float32 values
    outside float16's range (2), every output (3)."""

    CHECK_NAN_INF_AND_ABORT = 0
    CHECK_NAN_INF = 1
    CHECK_ALL_FOR_OVERFLOW = 2
    CHECK_ALL = 3


_SHORT = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64"}
_FP16_MAX = 65504.0


# ---- check_numerics -----------------------------------------------------------------------------------------------


def _numerics(array: np.ndarray) -> tuple:
    """(num_nan, num_inf, num_zero, max, min, mean) of an array, in float32 as Paddle reports them."""
    a = np.asarray(array, dtype=np.float32) if array.dtype.kind != "f" or array.itemsize < 4 else array
    with np.errstate(all="ignore"):
        num_nan, num_inf = int(np.isnan(a).sum()), int(np.isinf(a).sum())
        num_zero = int((a == 0).sum())
        if a.size == 0:
            return num_nan, num_inf, num_zero, np.float32(0), np.float32(0), np.float32(0)
        # as Paddle: max and min skip NaN, the mean does not
        mx, mn = (np.float32(np.nan),) * 2 if num_nan == a.size else (np.nanmax(a), np.nanmin(a))
        return num_nan, num_inf, num_zero, np.float32(mx), np.float32(mn), np.float32(np.mean(a))


def _precision_line(op_type: str, var_name: str, dtype_name: str, numel: int, stats: tuple) -> str:
    num_nan, num_inf, num_zero, mx, mn, mean = stats
    where = f"in [device=cpu, op={op_type}, tensor={var_name}, dtype={_SHORT.get(dtype_name, dtype_name)}]"
    if num_nan or num_inf:
        return (f"[PRECISION] [ERROR] {where}, numel={numel}, num_nan={num_nan}, num_inf={num_inf}, "
                f"num_zero={num_zero}, max={mx:e}, min={mn:e}, mean={mean:e}")  # fmt: skip
    return f"[PRECISION] {where}, numel={numel}, num_zero={num_zero}, max={mx:e}, min={mn:e}, mean={mean:e}"


def _check_array(array, dtype_name: str, op_type: str, var_name: str, level: int, output_dir=None) -> tuple:
    """Check one array at a debug level: print (or write) Paddle's line when the level asks, raise at level 0."""
    stats = _numerics(array)
    num_nan, num_inf, num_zero, mx, mn, _ = stats
    bad = num_nan > 0 or num_inf > 0
    show = bad or level == 3 or (level == 2 and dtype_name == "float32" and (mx > _FP16_MAX or mn < -_FP16_MAX))
    if show:
        line = _precision_line(op_type, var_name, dtype_name, int(np.size(array)), stats)
        if output_dir is None:
            print(line)
        else:
            os.makedirs(output_dir, exist_ok=True)
            with open(os.path.join(output_dir, "worker_cpu.0.log"), "a") as f:
                f.write(line + "\n")
    if bad and level == 0:
        raise RuntimeError(
            f"(PreconditionNotMet) There are NAN or INF (num_nan={num_nan}, num_inf={num_inf}, num_zero={num_zero}) "
            f"in [device=cpu, op={op_type}, tensor={var_name}, dtype={_SHORT.get(dtype_name, dtype_name)}]."
        )
    return stats


def check_numerics(tensor, op_type, var_name, debug_mode=DebugMode.CHECK_NAN_INF_AND_ABORT) -> tuple:
    """Count the NaNs, Infs and zeros of `tensor` and give its max, min and mean.

    Prints Paddle's `[PRECISION] ...` line when the tensor holds NaN/Inf (and for every tensor in CHECK_ALL, for
    float32 values beyond float16's range in CHECK_ALL_FOR_OVERFLOW); in CHECK_NAN_INF_AND_ABORT a NaN/Inf
    raises RuntimeError.

    Args:
        tensor (Tensor): a floating tensor. op_type (str), var_name (str): names for the report.
        debug_mode (DebugMode): as above.

    Returns:
        (Tensor, Tensor): stats (int64 [3]: num_nan, num_inf, num_zero) and values (float32 [3]: max, min, mean).

    Example:
        >>> stats, values = paddle.amp.debugging.check_numerics(x, 'my_op', 'x', DebugMode.CHECK_NAN_INF)
    """
    if not isinstance(tensor, Tensor):
        raise TypeError(f"check_numerics: tensor must be a Tensor, got {type(tensor).__name__}")
    if not (tensor.dtype.is_floating or tensor.dtype.is_complex):
        raise TypeError(
            f"check_numerics: the kernel is registered for float16, bfloat16, float32, float64, complex64 and "
            f"complex128, got a {tensor.dtype.name} tensor"
        )
    if not isinstance(debug_mode, DebugMode):
        raise TypeError(f"check_numerics: debug_mode must be a paddle.amp.debugging.DebugMode, got {debug_mode!r}")
    data = tensor.numpy()
    if tensor.dtype.is_complex:
        data = np.abs(data)
    stats = _check_array(data, tensor.dtype.name, str(op_type), str(var_name), debug_mode.value)
    return (Tensor(np.array(stats[:3], np.int64)), Tensor(np.array(stats[3:], np.float32)))


# ---- operator statistics ------------------------------------------------------------------------------------------


class _Collection(threading.local):
    def __init__(self) -> None:
        self.handle = None
        self.counts: dict[str, list] = {}


_STATS = _Collection()
_COLUMN = {dtypes.float16: 0, dtypes.bfloat16: 1, dtypes.float32: 2}


class OperatorStatsHook(OpHook):
    """Counts each op by Paddle's name and the dtype it computed in (its first floating input's dtype after AMP's
    casts, else its first output's): [float16, bfloat16, float32, other] calls."""

    phases = ("dynamic",)

    def __init__(self, counts: dict) -> None:
        self.counts = counts

    def after(self, op, inputs, attrs, outputs):
        dtype = next((t.dtype for t in inputs if t is not None and (t.dtype.is_floating)), None)
        if dtype is None:
            dtype = outputs[0].dtype if outputs else None
        row = self.counts.setdefault(paddle_op_name(op.name, attrs), [0, 0, 0, 0])
        row[_COLUMN.get(dtype, 3)] += 1
        return outputs


def _print_operator_stats(op_count_dict: dict) -> None:
    """Paddle's table: one row per op (sorted), the calls in float16, bfloat16, float32 and other dtypes."""
    print("<{:-^120}>".format(" op list "))
    print("<{:-^40}".format(" Op Name "), "|", "{:-^17}".format(" FP16 Calls "), "|", "{:-^17}".format(" BF16 Calls "),
          "|", "{:-^17}".format(" FP32 Calls"), "|", "{:-^17}>".format(" Other Calls "))  # fmt: skip
    for op_type in sorted(op_count_dict):
        called = op_count_dict[op_type]
        print("  " + "|  ".join(f"{v!s:<{w}}" for v, w in zip((op_type, *called[:4]), (40, 17, 17, 17, 17))))
    print("<{:-^120}>\n".format(" op count: " + str(len(op_count_dict)) + " "))


def _check_dynamic(fn: str) -> None:
    if STATE.static_mode:
        raise RuntimeError(f"{fn}: only supported in dynamic mode (call paddle.disable_static() first)")


def enable_operator_stats_collection() -> None:
    """Start counting the calls of every op per dtype (the previous counts are cleared).

    Example:
        >>> paddle.amp.debugging.enable_operator_stats_collection()
        >>> with paddle.amp.auto_cast():
        ...     y = model(x)
        >>> paddle.amp.debugging.disable_operator_stats_collection()   # prints the table
    """
    _check_dynamic("enable_operator_stats_collection")
    if _STATS.handle is not None:
        _STATS.handle.remove()
    _STATS.counts = {}
    _STATS.handle = add_op_hook(OperatorStatsHook(_STATS.counts))


def disable_operator_stats_collection() -> None:
    """Stop counting and print the table of calls per op and dtype (nothing when no collection is on)."""
    _check_dynamic("disable_operator_stats_collection")
    if _STATS.handle is None:
        return
    _STATS.handle.remove()
    _STATS.handle = None
    _print_operator_stats(_STATS.counts)


@contextlib.contextmanager
def collect_operator_stats():
    """Count the calls of every op per dtype inside the block, and print the table at its end.

    Example:
        >>> with paddle.amp.debugging.collect_operator_stats():
        ...     with paddle.amp.auto_cast():
        ...         y = model(x)
    """
    enable_operator_stats_collection()
    try:
        yield
    finally:
        disable_operator_stats_collection()


def operator_stats() -> dict:
    """The counts of this thread's last (or current) collection: {Paddle op name: [fp16, bf16, fp32, other]}
    (what paddle's C++ `get_low_precision_op_list` holds; viz.amp_stats draws it)."""
    return {k: list(v) for k, v in _STATS.counts.items()}


# ---- the tensor checker -------------------------------------------------------------------------------------------


class TensorCheckerConfig:
    """How `enable_tensor_checker` checks every op's outputs.

    Args:
        enable (bool): check at all.
        debug_mode (DebugMode): what to look for (default: NaN/Inf, and stop at the first).
        output_dir (str, optional): write the report lines to `output_dir/worker_cpu.0.log` instead of printing
            (the directories `compare_accuracy` reads).
        checked_op_list (list|tuple, optional): check only these ops (Paddle names). skipped_op_list: skip these.
        debug_step (list|tuple, optional): [start, end): check only in these calls of enable_tensor_checker.
        stack_height_limit (int): accepted for compatibility (there is no C++ stack to print).

    Example:
        >>> cfg = paddle.amp.debugging.TensorCheckerConfig(True, DebugMode.CHECK_NAN_INF)
        >>> paddle.amp.debugging.enable_tensor_checker(cfg)
        >>> loss = model(x).mean()
        >>> paddle.amp.debugging.disable_tensor_checker()
    """

    current_step_id = 0

    def __init__(self, enable, debug_mode=DebugMode.CHECK_NAN_INF_AND_ABORT, output_dir=None, checked_op_list=None,
                 skipped_op_list=None, debug_step=None, stack_height_limit=1) -> None:  # fmt: skip
        self.enable = enable
        self.debug_mode = debug_mode
        self.output_dir = output_dir
        self.checked_op_list = checked_op_list
        self.skipped_op_list = skipped_op_list
        self.debug_step = debug_step
        self.stack_height_limit = stack_height_limit
        self.start_step = self.end_step = None
        self.seed = self.initial_seed = 123
        if debug_step is not None:
            if not isinstance(debug_step, (tuple, list)):
                raise ValueError("debug_step must be list or tuple")
            if not (len(debug_step) == 2 and debug_step[1] > debug_step[0]):
                raise AssertionError("TensorCheckerConfig: debug_step must be [start, end) with end > start")
            self.start_step, self.end_step = max(debug_step[0], 0), debug_step[1]
        if not isinstance(debug_mode, DebugMode):
            raise ValueError("debug_mode in DebugMode", debug_mode, DebugMode.__members__)
        for name, value in (("checked_op_list", checked_op_list), ("skipped_op_list", skipped_op_list)):
            if value is not None and not isinstance(value, (list, tuple)):
                raise ValueError(f"{name} must be list or tuple")
        if not isinstance(stack_height_limit, int):
            raise ValueError("stack_height_limit must be int")
        if self.enable:
            self._set_seed(True)

    def _set_seed(self, flag: bool) -> None:
        """Fix every random generator, as paddle does, so two runs to compare see the same numbers."""
        seed(self.seed)
        np.random.seed(self.seed)
        random.seed(self.seed)
        print("AMP Debugging TensorCheckerConfig: seed ", self.seed)
        STATE.flags["FLAGS_cpu_deterministic"] = flag
        print("AMP Debugging TensorCheckerConfig: FLAGS_cpu_deterministic is ", flag)

    def update_and_check_step_id(self) -> bool:
        """Whether this call of enable_tensor_checker lies in debug_step (counting the calls)."""
        if not self.enable:
            return False
        if self.start_step is not None and self.end_step is not None:
            if not self.start_step <= TensorCheckerConfig.current_step_id < self.end_step:
                return False
            TensorCheckerConfig.current_step_id += 1
        return True

    def _wants(self, paddle_name: str) -> bool:
        if self.checked_op_list is not None and paddle_name not in self.checked_op_list:
            return False
        return not (self.skipped_op_list is not None and paddle_name in self.skipped_op_list)


class TensorCheckHook(OpHook):
    """Checks each op's floating outputs as check_numerics does, at the config's debug level."""

    phases = ("dynamic", "run")

    def __init__(self, config: TensorCheckerConfig) -> None:
        self.config = config

    def after(self, op, inputs, attrs, outputs):
        name = paddle_op_name(op.name, attrs)
        if not self.config._wants(name):
            return outputs
        for i, out in enumerate(outputs):
            if out.dtype.is_floating:
                var = f"{name}.out_{i}"  # the same in two runs, so compare_accuracy can pair them
                _check_array(out._data, out.dtype.name, name, var, self.config.debug_mode.value, self.config.output_dir)
        return outputs


class _Checker(threading.local):
    def __init__(self) -> None:
        self.handle = None


_CHECKER = _Checker()


def enable_tensor_checker(checker_config: TensorCheckerConfig) -> None:
    """Check the outputs of every op from here on (until disable_tensor_checker), as the config says."""
    if not isinstance(checker_config, TensorCheckerConfig):
        raise TypeError(f"enable_tensor_checker: expected a TensorCheckerConfig, got {type(checker_config).__name__}")
    if not checker_config.update_and_check_step_id():
        return
    disable_tensor_checker()
    set_flag("FLAGS_check_nan_inf_level", checker_config.debug_mode.value)
    _CHECKER.handle = add_op_hook(TensorCheckHook(checker_config))


def disable_tensor_checker() -> None:
    """Stop the checks enable_tensor_checker started."""
    if _CHECKER.handle is not None:
        _CHECKER.handle.remove()
        _CHECKER.handle = None


def check_layer_numerics(func):
    """Decorate a Layer's forward: its first input and its outputs are checked for NaN/Inf (printed, not fatal).

    Example:
        >>> class Net(paddle.nn.Layer):
        ...     @paddle.amp.debugging.check_layer_numerics
        ...     def forward(self, x): return x * 2
    """

    def wrapper(self, *args, **kwargs):
        if not args:
            raise RuntimeError("No elements found in args.")
        if not isinstance(args[0], Tensor):
            raise RuntimeError("First input of this layer must be tensor.")
        name = type(self).__name__
        check_numerics(args[0], name, "input", DebugMode.CHECK_NAN_INF)
        out = func(self, *args, **kwargs)
        for i, o in enumerate(out if isinstance(out, (tuple, list)) else (out,)):
            if isinstance(o, Tensor) and o.dtype.is_floating:
                check_numerics(o, name, f"output_{i}", DebugMode.CHECK_NAN_INF)
        return out

    return wrapper


# ---- compare_accuracy ---------------------------------------------------------------------------------------------


def _parse_log(path: str) -> list:
    """The `[PRECISION]` lines of a tensor-checker log as dicts (op, tensor, dtype, numel, max, min, mean, ...)."""
    infos = []
    with open(path) as f:
        for line in f:
            if "[PRECISION]" not in line:
                continue
            info = {}
            for frag in line.strip().split(" "):
                words = frag.replace("[", "").replace("]", "").replace(",", "").split("=")
                if len(words) == 2:
                    info[words[0]] = words[1]
            infos.append(info)
    return infos


_COLUMNS = ["op", "tensor", "fp32 dtype", "fp16 dtype", "numel", "fp32 max", "fp16 max", "fp32 min", "fp16 min",
            "fp32 mean", "fp16 mean", "fp32 num_nan", "fp16 num_nan", "fp32 num_inf", "fp16 num_inf",
            "fp16 overflow", "fp32/fp16 max ratio"]  # fmt: skip


def compare_accuracy(dump_path, another_dump_path, output_filename, loss_scale=1, dump_all_tensors=False) -> list:
    """Compare two tensor-checker directories (a float32 run and a low-precision run) op by op.

    Paddle writes an Excel workbook; minipaddle writes the same comparison as a CSV file (`output_filename`)
    and returns its rows (dicts), one per tensor of the second run matched with the first run's (by op, tensor
    name and occurrence), flagging float16 overflow.

    Args:
        dump_path (str), another_dump_path (str): `output_dir`s of two TensorCheckerConfigs.
        output_filename (str): the CSV file to write.
        loss_scale (float): the loss scale of the low-precision run (its gradients are divided by it).
        dump_all_tensors (bool): not supported (as in paddle 2.6).
    """
    if dump_all_tensors:
        raise AssertionError("It is currently not supported.")
    for path in (dump_path, another_dump_path):
        if not os.path.isdir(path):
            raise FileNotFoundError(f"compare_accuracy: {path!r} is not a directory of tensor checker logs")
    rows = []
    for filename in sorted(n for n in os.listdir(dump_path) if "worker_" in n):
        fp32 = _parse_log(os.path.join(dump_path, filename))
        other = os.path.join(another_dump_path, filename)
        low = _parse_log(other) if os.path.exists(other) else []
        by_key: dict = {}
        for info in fp32:
            by_key.setdefault((info.get("op"), info.get("tensor")), []).append(info)
        seen: dict = {}
        for info in low:
            key = (info.get("op"), (info.get("tensor") or "").replace(".cast_fp16", "").replace(".cast_fp32", ""))
            n = seen.get(key, 0)
            seen[key] = n + 1
            ref = by_key.get(key, [])
            ref = ref[n] if n < len(ref) else {}
            fmax = float(info.get("max", "nan"))
            rmax = float(ref.get("max", "nan"))
            rows.append({
                "op": key[0], "tensor": key[1], "fp32 dtype": ref.get("dtype", ""), "fp16 dtype": info.get("dtype"),
                "numel": info.get("numel"), "fp32 max": ref.get("max", ""), "fp16 max": info.get("max"),
                "fp32 min": ref.get("min", ""), "fp16 min": info.get("min"), "fp32 mean": ref.get("mean", ""),
                "fp16 mean": info.get("mean"), "fp32 num_nan": ref.get("num_nan", "0"),
                "fp16 num_nan": info.get("num_nan", "0"), "fp32 num_inf": ref.get("num_inf", "0"),
                "fp16 num_inf": info.get("num_inf", "0"),
                "fp16 overflow": bool(np.isfinite(rmax) and abs(rmax) > _FP16_MAX),
                "fp32/fp16 max ratio": rmax / (fmax / loss_scale) if fmax not in (0.0,) and np.isfinite(fmax) else "",
            })  # fmt: skip
    with open(output_filename, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return rows
