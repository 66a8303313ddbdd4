"""minipaddle: PaddlePaddle 2.x rebuilt in readable Python on numpy. Use it as `import minipaddle as paddle`.

Where things live (read in this order):
    core/       state, dtype, tensor, op, node, dispatch, autograd: the engine, top to bottom
    ops/        every op, defined once: numpy kernel, grad rule in minipaddle ops, shape rule
    tensor/     the public tensor functions (paddle.add, paddle.reshape, ...) and Tensor's methods
    nn/         layers and nn.functional
    testing.py  gradcheck, for checking grad rules (yours too)
"""

from minipaddle import (  # noqa: E402
    autograd,
    nn,
    ops,  # noqa: F401  (registers every op)
    testing,
)
from minipaddle.autograd import grad  # noqa: E402
from minipaddle.core.dtype import DType as dtype
from minipaddle.core.dtype import (
    bool_ as bool,  # noqa: A001
)
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
from minipaddle.core.tensor import CPUPlace, Place, Tensor
from minipaddle.device import CUDAPlace, get_device, is_compiled_with_cuda, set_device
from minipaddle.nn.functional import log_softmax, relu, sigmoid, softmax  # noqa: E402,F401
from minipaddle.tensor import methods as _methods
from minipaddle.tensor.creation import full, full_like, ones, ones_like, to_tensor, zeros, zeros_like
from minipaddle.tensor.linalg import matmul, mm
from minipaddle.tensor.logic import equal, greater_equal, greater_than, less_equal, less_than, not_equal
from minipaddle.tensor.manipulation import assign, cast, concat, reshape, stack, transpose, where
from minipaddle.tensor.math import (
    abs,  # noqa: A004
    add,
    conj,
    divide,
    exp,
    log,
    max,  # noqa: A004
    maximum,
    mean,
    min,  # noqa: A004
    minimum,
    multiply,
    neg,
    pow,  # noqa: A004
    scale,
    sign,
    sqrt,
    subtract,
    sum,  # noqa: A004
    tanh,
)
from minipaddle.tensor.to_string import set_printoptions

_methods.bind()

__version__ = "0.1.0"
