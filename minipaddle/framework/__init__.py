"""paddle.framework: saving and loading (paddle.save / paddle.load, async_save) and runtime helpers."""

from minipaddle.framework.io import async_save, clear_async_save_task_queue, load, save
from minipaddle.framework.runtime import IrGuard, check_shape, disable_signal_handler

__all__ = [
    "save",
    "load",
    "async_save",
    "clear_async_save_task_queue",
    "IrGuard",
    "check_shape",
    "disable_signal_handler",
]

# paddle.framework.X for names that minipaddle keeps at the top level or in paddle.static (paddle 2.6 has both).
_FROM_TOP = {"CPUPlace", "CUDAPinnedPlace", "CUDAPlace", "CustomPlace", "IPUPlace", "XPUPlace", "ParamAttr",
             "Parameter", "dtype", "get_default_dtype", "set_default_dtype", "get_flags", "set_flags", "grad",
             "in_dynamic_mode", "no_grad", "seed", "enable_static", "disable_static"}  # fmt: skip
_FROM_STATIC = {"Program", "Block"}


def __getattr__(name: str):
    import minipaddle

    if name in _FROM_TOP:
        return getattr(minipaddle, name)
    if name in _FROM_STATIC:
        return getattr(minipaddle.static, name)
    raise AttributeError(f"module 'paddle.framework' has no attribute {name!r}")
