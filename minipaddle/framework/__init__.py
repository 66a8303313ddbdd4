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
