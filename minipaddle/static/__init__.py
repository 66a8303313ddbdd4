"""paddle.static: Programs, the Executor, static backward, saving and loading, and static.nn.

paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [-1, 4], "float32")
    loss = paddle.mean(paddle.nn.functional.relu(x))
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
(value,) = exe.run(main, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[loss])
"""

from minipaddle.core.tensor import CPUPlace
from minipaddle.static import nn, op_groups, parameters, passes, train_switch  # noqa: F401 (install nn.static_hooks)
from minipaddle.static.backward import append_backward, gradients
from minipaddle.static.builder import disable_static, enable_static, in_static_mode
from minipaddle.static.debug import Print, py_func
from minipaddle.static.executor import Executor, Scope, global_scope, scope_guard
from minipaddle.static.fluid_api import *  # noqa: F403
from minipaddle.static.fluid_api import __all__ as _extra_all
from minipaddle.static.framework import *  # noqa: F403
from minipaddle.static.framework import __all__ as _framework_all
from minipaddle.static.input import InputSpec, data
from minipaddle.static.io import *  # noqa: F403
from minipaddle.static.io import __all__ as _io_all
from minipaddle.static.program import (
    Block,
    OpDesc,
    Program,
    Variable,
    default_main_program,
    default_startup_program,
    name_scope,
    program_guard,
)

__all__ = [
    "Block", "CPUPlace", "Print", "Executor", "InputSpec", "OpDesc", "Program", "Scope", "Variable", "append_backward",
    "data", "default_main_program", "default_startup_program", "disable_static", "enable_static", "global_scope",
    "gradients", "in_static_mode", "name_scope", "nn", "program_guard", "py_func", "scope_guard",
]  # fmt: skip
__all__ += _io_all + _framework_all + ["passes"]
__all__ += _extra_all
from minipaddle.static import amp, quantization  # noqa: E402,F401  (paddle.static.amp / .quantization; after the rest)
