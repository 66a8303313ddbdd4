"""ParamAttr (how a parameter is made: name, initializer, learning rate, regularizer, trainable) and the one
function that makes parameters, used by `Layer.create_parameter` and `paddle.create_parameter`.

Names follow paddle 2.6: a parameter of the layer `linear_0` is `linear_0.w_0` (weights) or `linear_0.b_0`
(biases), from the global name counters in core/state.py; `paddle.create_parameter` uses `create_parameter_N`.
"""

from __future__ import annotations

import copy

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, static_mode_off, unique_name
from minipaddle.core.tensor import Parameter
from minipaddle.nn import static_hooks
from minipaddle.nn.initializer import Constant, Initializer, XavierUniform
from minipaddle.nn.initializer.initializer import global_initializer
from minipaddle.nn.initializer.lazy_init import lazy_init_helper
from minipaddle.regularizer import WeightDecayRegularizer
from minipaddle.tensor.checks import check_size

__all__ = ["ParamAttr", "create_parameter"]


class ParamAttr:
    """How to create a parameter.

    Args:
        name: the parameter's name (default: made from the layer's name, e.g. `linear_0.w_0`).
        initializer: an initializer from paddle.nn.initializer (default: XavierUniform for weights,
            Constant(0.0) for biases, unless `set_global_initializer` says otherwise).
        learning_rate: a factor on the optimizer's learning rate for this parameter (default 1.0).
        regularizer: L1Decay or L2Decay for this parameter; overrides the optimizer's weight_decay.
        trainable: False makes the parameter constant (stop_gradient=True).
        do_model_average: whether ExponentialMovingAverage averages it.
        need_clip: whether gradient clipping applies to it.

    Layers also accept `weight_attr=False` / `bias_attr=False` (no such parameter), a string (the name) or
    an initializer in place of a ParamAttr.

    Example:
        >>> attr = paddle.ParamAttr(name="fc_w", initializer=paddle.nn.initializer.Constant(0.5), learning_rate=0.1)
        >>> fc = paddle.nn.Linear(2, 3, weight_attr=attr)
        >>> fc.weight.name
        'fc_w'
    """

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None, trainable=True,
                 do_model_average=True, need_clip=True):  # fmt: skip
        _check(name, (str, type(None)), "name")
        _check(learning_rate, (float, int), "learning_rate")
        _check(trainable, bool, "trainable")
        _check(do_model_average, bool, "do_model_average")
        _check(need_clip, bool, "need_clip")
        _check(initializer, (Initializer, type(None)), "initializer")
        _check(regularizer, (WeightDecayRegularizer, type(None)), "regularizer")
        if name == "":
            raise ValueError("ParamAttr: name must not be an empty string")
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """A ParamAttr from what layers accept as `weight_attr`: None, ParamAttr, str, Initializer, a regularizer,
        or a bool (False: no parameter at all, returned as False)."""
        if arg is None or arg is True:
            return ParamAttr()
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, WeightDecayRegularizer):
            return ParamAttr(regularizer=arg)
        if arg is False:
            return False
        raise TypeError(f"ParamAttr: cannot make a parameter attribute from {type(arg).__name__}")

    def _make_parameter(self, name: str, shape, param_maker, fn: str):
        """None: make_parameter makes the plain Parameter this attribute describes. A subclass that makes its
        parameter from others (paddle.static.WeightNormParamAttr: w = g * v / ||v||) returns it, calling
        `param_maker(attr, shape)` for each parameter it needs."""
        return None


def _check(value, types, arg: str) -> None:
    if not isinstance(value, types):
        names = types.__name__ if isinstance(types, type) else " or ".join(t.__name__ for t in types)
        raise TypeError(f"ParamAttr: {arg} must be {names}, got {type(value).__name__}")


_DEFAULT_INIT_DTYPES = ("float16", "float32", "float64")


def make_parameter(
    prefix: str, shape, attr=None, dtype=None, is_bias=False, default_initializer=None, fn="create_parameter"
):
    """Create and initialize a Parameter named `<prefix>.w_N` (or `.b_N`), or return None for `attr=False`.

    The initializer is, in order: the ParamAttr's own, the global one (set_global_initializer), the caller's
    default, and last XavierUniform for weights, Constant(0.0) for biases.
    """
    attr = ParamAttr._to_attr(copy.deepcopy(attr))
    if attr is False:
        return None
    shape = _check_shape(shape, fn)
    dtype = dtypes.default_float() if dtype is None else dtypes.to_dtype(dtype)
    init = attr.initializer or global_initializer(is_bias) or default_initializer
    if init is None:
        if dtype.name not in _DEFAULT_INIT_DTYPES:
            raise TypeError(
                f"{fn}: a {dtype.name} parameter has no default initializer (only float16, float32 and float64 do);"
                " pass default_initializer or a ParamAttr with an initializer"
            )
        init = Constant(0.0) if is_bias else XavierUniform()
    name = attr.name if attr.name is not None else unique_name(f"{prefix}.{'b' if is_bias else 'w'}")
    if type(attr) is not ParamAttr:  # paddle.static.WeightNormParamAttr: w = g * v / ||v||, built in the Program
        made = attr._make_parameter(
            name, shape, lambda a, s: make_parameter(prefix, s, a, dtype, is_bias, init, fn), fn
        )
        if made is not None:
            return made
    param = Parameter(np.zeros(shape, dtype=dtype.np), name=name, trainable=attr.trainable)
    param.optimize_attr = {"learning_rate": attr.learning_rate}
    param.regularizer = attr.regularizer
    param.do_model_average = attr.do_model_average
    param.need_clip = attr.need_clip
    if STATE.static_mode:  # initialize the values now, then declare them in the Programs being built
        with static_mode_off():
            init(param)
        return static_hooks.declare_parameter(param)
    if lazy_init_helper().state:  # LazyGuard: param.initialize() runs the initializer later
        param._init_func = init
        return param
    init(param)
    return param


def _check_shape(shape, fn: str) -> tuple:
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{fn}: shape must be a list or tuple of ints, got {type(shape).__name__}")
    out = []
    for i, d in enumerate(shape):
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool):
            raise TypeError(f"{fn}: shape must contain ints, got {list(shape)}")
        if d <= 0:
            raise ValueError(f"{fn}: every dimension must be larger than 0, but dimension {i} of {list(shape)} is {d}")
        out.append(int(d))
    return check_size(tuple(out), fn)  # a size past the limit is a mistake, not a parameter (numpy's MemoryError)


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None) -> Parameter:
    """Create a trainable Parameter outside any Layer (`paddle.create_parameter`).

    Args:
        shape: a list of positive ints.
        dtype: its dtype, e.g. 'float32'.
        name: the parameter's name, unless `attr` names it (default: `create_parameter_0.w_0`, counting up).
        attr: a ParamAttr.
        is_bias: a bias gets Constant(0.0) by default, a weight XavierUniform.
        default_initializer: the initializer to use when `attr` names none.

    Example:
        >>> w = paddle.create_parameter([784, 10], "float32")
        >>> w.name, w.stop_gradient
        ('create_parameter_0.w_0', False)
    """
    if dtype is None:  # paddle 2.6 asks for it here (a Layer's create_parameter falls back to the default dtype)
        raise TypeError("create_parameter: dtype must be given, e.g. 'float32' (got None)")
    if name is None:
        return make_parameter(unique_name("create_parameter"), shape, attr, dtype, is_bias, default_initializer)
    attr = ParamAttr._to_attr(copy.deepcopy(attr))
    if attr is not False and attr.name is None:  # paddle 2.6: `name` names the parameter itself
        attr.name = name
    return make_parameter(name, shape, attr, dtype, is_bias, default_initializer)
