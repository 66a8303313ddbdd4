"""paddle.amp: automatic mixed precision (float16 and bfloat16) on the CPU.

- `auto_cast` / `amp_guard`: the block's ops compute in the dtype paddle 2.6's lists and levels pick
  (`white_list()`, `black_list()`); a hook on the op door inserts the casts (cast_hook.py).
- `decorate`: O2 casts a model's parameters to the low dtype; optimizers keep float32 master weights.
- `GradScaler` / `AmpScaler`: dynamic loss scaling; a step whose gradients overflow is skipped.
- `cast_log()`: every decision auto_cast made (op, dtype, inputs, casts), for reading and for viz.
- `debugging`: operator statistics, numerics checks.

Paddle 2.6 switches AMP off on a CPU; minipaddle applies the GPU rules on the CPU, which is its purpose: see
docs/feature_map.md. `is_float16_supported()` and `is_bfloat16_supported()` therefore answer True.
"""

from minipaddle.amp import debugging, grad_scaler  # noqa: F401
from minipaddle.amp.auto_cast import amp_guard, amp_state, auto_cast
from minipaddle.amp.cast_log import CastLog, CastRecord, cast_log, is_amp_cast, list_of_op
from minipaddle.amp.decorate import amp_decorate, decorate
from minipaddle.amp.grad_scaler import AmpScaler, GradScaler, OptimizerState
from minipaddle.ops.amp_lists import black_list, white_list
from minipaddle.ops.amp_names import paddle_op_name

__all__ = ["auto_cast", "GradScaler", "decorate", "is_float16_supported", "is_bfloat16_supported"]

_DEVICES = ("cpu", "gpu", "xpu")


def _check_device(device, fn: str) -> None:
    if device is None:
        return
    if not isinstance(device, str) or device.split(":")[0].lower() not in _DEVICES:
        raise ValueError(f"{fn}: device must be None, 'cpu', 'gpu', 'gpu:x', 'xpu' or 'xpu:x', got {device!r}")


def is_float16_supported(device=None) -> bool:
    """Whether AMP can use float16 on `device`: always True in minipaddle, which runs float16 on the CPU with numpy
    (paddle 2.6 answers False on a CPU, where it turns AMP off).

    Example:
        >>> paddle.amp.is_float16_supported()
        True
    """
    _check_device(device, "is_float16_supported")
    return True


def is_bfloat16_supported(device=None) -> bool:
    """Whether AMP can use bfloat16 on `device`: always True in minipaddle (bfloat16 from ml_dtypes on the CPU;
    paddle 2.6 answers True on a CPU only with oneDNN and AVX-512 bf16).

    Example:
        >>> paddle.amp.is_bfloat16_supported()
        True
    """
    _check_device(device, "is_bfloat16_supported")
    return True
