"""minipaddle: PaddlePaddle 2.x rebuilt in readable Python on numpy. Use it as `import minipaddle as paddle`.

Where things live (read in this order):
    core/       state, dtype, tensor, op, node, dispatch, autograd: the engine, top to bottom
    ops/        every op, defined once: numpy kernel, grad rule in minipaddle ops, shape rule
    tensor/     the public tensor functions (paddle.add, paddle.reshape, ...) and Tensor's methods
    nn/         layers, nn.functional, initializers, gradient clipping
    optimizer/  optimizers and learning-rate schedulers
    static/     Programs, the Executor, static backward, control flow, saving, passes
    io/ metric/ vision/ hapi/   data loading, metrics, vision data and models, paddle.Model
    testing.py  gradcheck, for checking grad rules (yours too)

The `paddle.*` names below come from each module's `__all__`, as Paddle's own `paddle/__init__.py` gathers them.
"""

from minipaddle import (
    audio,
    autograd,
    callbacks,
    device,
    distribution,
    fft,
    geometric,
    hapi,
    hub,
    incubate,
    io,
    linalg,
    metric,
    nn,
    ops,  # noqa: F401  (registers every op)
    optimizer,
    profiler,
    quantization,
    reader,
    regularizer,
    signal,
    sparse,
    static,
    testing,
    text,
    utils,
    version,
    vision,
)
from minipaddle import tensor_methods as _methods
from minipaddle.autograd import grad
from minipaddle.batch import batch  # (the module paddle.batch first, then the function under its name)
from minipaddle.core.dtype import DType as dtype
from minipaddle.core.dtype import (
    bfloat16,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)
from minipaddle.core.dtype import bool_ as bool  # noqa: A004
from minipaddle.core.state import enable_grad, in_dynamic_mode, is_grad_enabled, no_grad, set_grad_enabled
from minipaddle.core.tensor import CPUPlace, Parameter, Place, Tensor
from minipaddle.device import (
    CUDAPinnedPlace,
    CUDAPlace,
    CustomPlace,
    IPUPlace,
    XPUPlace,
    get_cudnn_version,
    get_device,
    is_compiled_with_cinn,
    is_compiled_with_cuda,
    is_compiled_with_custom_device,
    is_compiled_with_distribute,
    is_compiled_with_ipu,
    is_compiled_with_rocm,
    is_compiled_with_xpu,
    set_device,
)
from minipaddle.framework.flags import get_flags, set_flags
from minipaddle.framework.io import async_save, clear_async_save_task_queue, load, save
from minipaddle.framework.runtime import IrGuard, check_shape, disable_signal_handler
from minipaddle.hapi import Model, flops, summary
from minipaddle.nn.initializer.lazy_init import LazyGuard
from minipaddle.nn.param_attr import ParamAttr, create_parameter
from minipaddle.static import disable_static, enable_static
from minipaddle.tensor.attribute import *  # noqa: F403
from minipaddle.tensor.creation import *  # noqa: F403
from minipaddle.tensor.cumulative import *  # noqa: F403
from minipaddle.tensor.decompositions import eigvalsh  # the one of them Paddle 2.6 has at the top level
from minipaddle.tensor.differences import *  # noqa: F403
from minipaddle.tensor.dtype_info import *  # noqa: F403
from minipaddle.tensor.einsum import *  # noqa: F403
from minipaddle.tensor.indexing import *  # noqa: F403
from minipaddle.tensor.inplace import *  # noqa: F403
from minipaddle.tensor.linalg import *  # noqa: F403
from minipaddle.tensor.logic import *  # noqa: F403
from minipaddle.tensor.manipulation import *  # noqa: F403
from minipaddle.tensor.math import *  # noqa: F403
from minipaddle.tensor.random import *  # noqa: F403
from minipaddle.tensor.search import *  # noqa: F403
from minipaddle.tensor.special_math import *  # noqa: F403
from minipaddle.tensor.stat import *  # noqa: F403
from minipaddle.tensor.to_string import set_printoptions

_methods.bind()

from minipaddle import jit  # noqa: E402  (paddle.jit stands on everything above: nn, static, optimizer)

__version__ = version.full_version

# Deployment reads Programs: imported last, once everything it builds on is bound.
from minipaddle import (  # noqa: E402
    amp,  # noqa: E402,F401  (after bind: amp's GradScaler uses Tensor methods)
    inference,
    onnx,
)


def __getattr__(name: str):
    """paddle.distributed (and paddle.DataParallel) load on first use: they need MPI, which a process that never
    trains in parallel should not have to load (and importing them says what to install when it is missing)."""
    if name == "distributed":
        import minipaddle.distributed

        return minipaddle.distributed
    if name == "DataParallel":
        from minipaddle.distributed import DataParallel

        return DataParallel
    raise AttributeError(f"module 'minipaddle' has no attribute {name!r}")
