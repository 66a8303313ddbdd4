"""minipaddle: PaddlePaddle 2.x rebuilt in readable Python on numpy. Use it as `import minipaddle as paddle`.

Where things live (read in this order):
    core/       state, dtype, tensor, op, node, dispatch, autograd: the engine, top to bottom
    ops/        every op, defined once: numpy kernel, grad rule in minipaddle ops, shape rule
    tensor/     the public tensor functions (paddle.add, paddle.reshape, ...) and Tensor's methods
    nn/         layers and nn.functional
    testing.py  gradcheck, for checking grad rules (yours too)

The `paddle.*` names below come from each module's `__all__`, as Paddle's own `paddle/__init__.py` gathers them.
"""

from minipaddle import (  # noqa: E402, I001
    autograd,
    nn,
    ops,  # noqa: F401  (registers every op)
    static,
    testing,
)
from minipaddle.autograd import grad  # noqa: E402
from minipaddle.static import disable_static, enable_static  # noqa: E402
from minipaddle.core.dtype import DType as dtype
from minipaddle.core.dtype import bool_ as bool  # noqa: A004
from minipaddle.core.dtype import (
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
from minipaddle.core.state import (
    enable_grad,
    get_rng_state,
    in_dynamic_mode,
    is_grad_enabled,
    no_grad,
    seed,
    set_grad_enabled,
    set_rng_state,
)
from minipaddle.core.tensor import CPUPlace, Parameter, Place, Tensor
from minipaddle.device import CUDAPlace, get_device, is_compiled_with_cuda, set_device
from minipaddle.tensor import methods as _methods  # noqa: E402
from minipaddle.tensor.creation import *  # noqa: F403
from minipaddle.tensor.linalg import *  # noqa: F403
from minipaddle.tensor.logic import *  # noqa: F403
from minipaddle.tensor.manipulation import *  # noqa: F403
from minipaddle.tensor.math import *  # noqa: F403
from minipaddle.tensor.to_string import set_printoptions

_methods.bind()

__version__ = "0.1.0"
