"""Activation layers: each holds its settings and calls its function in paddle.nn.functional.

Their reprs print as paddle 2.6 prints them (`LeakyReLU(negative_slope=0.01)`, `ReLU()`), with `name=...` added
when a name was given.
"""

from __future__ import annotations

from minipaddle.core.dtype import get_default_dtype
from minipaddle.nn import functional as F
from minipaddle.nn.initializer import Constant
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor.checks import check_float, check_tensor

__all__ = [
    "ReLU",
    "ReLU6",
    "LeakyReLU",
    "PReLU",
    "RReLU",
    "ELU",
    "SELU",
    "CELU",
    "GELU",
    "Sigmoid",
    "LogSigmoid",
    "Hardsigmoid",
    "Hardswish",
    "Hardtanh",
    "Hardshrink",
    "Softshrink",
    "Tanhshrink",
    "ThresholdedReLU",
    "Softplus",
    "Softsign",
    "Swish",
    "Silu",
    "Mish",
    "Tanh",
    "Maxout",
    "GLU",
    "Softmax",
    "Softmax2D",
    "LogSoftmax",
]


class _Activation(Layer):
    """A layer with no parameters that applies `function` with the settings listed in `settings`."""

    function = None  # the paddle.nn.functional function, called as function(x, *settings)
    settings: tuple = ()  # attribute names, in the function's argument order and the repr's

    def __init__(self, name=None) -> None:
        super().__init__()
        self._name = name

    def forward(self, x):
        return type(self).function(x, *(getattr(self, "_" + s) for s in self.settings))

    def extra_repr(self) -> str:
        parts = [f"{s}={getattr(self, '_' + s)}" for s in self.settings]
        if self._name:
            parts.append(f"name={self._name}")
        return ", ".join(parts)


class ReLU(_Activation):
    """max(x, 0). Example: `paddle.nn.ReLU()(paddle.to_tensor([-1.0, 2.0]))` -> [0., 2.]"""

    function = staticmethod(F.relu)


class ReLU6(_Activation):
    """min(max(x, 0), 6)."""

    function = staticmethod(F.relu6)


class LeakyReLU(_Activation):
    """x for x > 0, negative_slope * x otherwise."""

    function = staticmethod(F.leaky_relu)
    settings = ("negative_slope",)

    def __init__(self, negative_slope=0.01, name=None) -> None:
        super().__init__(name)
        self._negative_slope = negative_slope


class ELU(_Activation):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    function = staticmethod(F.elu)
    settings = ("alpha",)

    def __init__(self, alpha=1.0, name=None) -> None:
        super().__init__(name)
        self._alpha = alpha


class SELU(_Activation):
    """scale * elu(x, alpha), self-normalizing."""

    function = staticmethod(F.selu)

    def __init__(self, scale=1.0507009873554805, alpha=1.6732632423543772, name=None) -> None:
        super().__init__(name)
        self._scale, self._alpha = scale, alpha

    def forward(self, x):
        return F.selu(x, self._scale, self._alpha)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return f"scale={self._scale:.16f}, alpha={self._alpha:.16f}{name}"


class CELU(_Activation):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    function = staticmethod(F.celu)
    settings = ("alpha",)

    def __init__(self, alpha=1.0, name=None) -> None:
        super().__init__(name)
        self._alpha = alpha


class GELU(_Activation):
    """x * Phi(x) (Phi: the standard normal CDF), or its tanh approximation."""

    function = staticmethod(F.gelu)
    settings = ("approximate",)

    def __init__(self, approximate=False, name=None) -> None:
        super().__init__(name)
        self._approximate = approximate


class Sigmoid(_Activation):
    """1 / (1 + exp(-x))."""

    function = staticmethod(F.sigmoid)


class LogSigmoid(_Activation):
    """log(sigmoid(x))."""

    function = staticmethod(F.log_sigmoid)


class Hardsigmoid(_Activation):
    """clip(x / 6 + 0.5, 0, 1)."""

    function = staticmethod(F.hardsigmoid)


class Hardswish(_Activation):
    """x * relu6(x + 3) / 6."""

    function = staticmethod(F.hardswish)


class Hardtanh(_Activation):
    """x clipped to [min, max]."""

    function = staticmethod(F.hardtanh)
    settings = ("min", "max")

    def __init__(self, min=-1.0, max=1.0, name=None) -> None:  # noqa: A002 (Paddle's names)
        super().__init__(name)
        self._min, self._max = min, max


class Hardshrink(_Activation):
    """x where |x| > threshold, else 0."""

    function = staticmethod(F.hardshrink)
    settings = ("threshold",)

    def __init__(self, threshold=0.5, name=None) -> None:
        super().__init__(name)
        self._threshold = threshold


class Softshrink(_Activation):
    """x -+ threshold outside [-threshold, threshold], else 0."""

    function = staticmethod(F.softshrink)
    settings = ("threshold",)

    def __init__(self, threshold=0.5, name=None) -> None:
        super().__init__(name)
        self._threshold = threshold


class Tanhshrink(_Activation):
    """x - tanh(x)."""

    function = staticmethod(F.tanhshrink)


class ThresholdedReLU(_Activation):
    """x where x > threshold, else 0."""

    function = staticmethod(F.thresholded_relu)
    settings = ("threshold",)

    def __init__(self, threshold=1.0, name=None) -> None:
        super().__init__(name)
        self._threshold = threshold


class Softplus(_Activation):
    """log(1 + exp(beta * x)) / beta."""

    function = staticmethod(F.softplus)
    settings = ("beta", "threshold")

    def __init__(self, beta=1, threshold=20, name=None) -> None:
        super().__init__(name)
        self._beta, self._threshold = beta, threshold


class Softsign(_Activation):
    """x / (1 + |x|)."""

    function = staticmethod(F.softsign)


class Swish(_Activation):
    """x * sigmoid(x)."""

    function = staticmethod(F.swish)


class Silu(_Activation):
    """x * sigmoid(x)."""

    function = staticmethod(F.silu)


class Mish(_Activation):
    """x * tanh(softplus(x))."""

    function = staticmethod(F.mish)


class Tanh(_Activation):
    """tanh(x)."""

    function = staticmethod(F.tanh)


class Maxout(_Activation):
    """The maximum over groups of `groups` channels."""

    function = staticmethod(F.maxout)
    settings = ("groups", "axis")

    def __init__(self, groups, axis=1, name=None) -> None:
        super().__init__(name)
        self._groups, self._axis = groups, axis


class GLU(_Activation):
    """Gated linear unit: a * sigmoid(b) for the two halves a, b of x along `axis`."""

    function = staticmethod(F.glu)
    settings = ("axis",)

    def __init__(self, axis=-1, name=None) -> None:
        super().__init__(name)
        self._axis = axis


class Softmax(_Activation):
    """exp(x) / sum(exp(x)) along `axis`."""

    function = staticmethod(F.softmax)
    settings = ("axis",)

    def __init__(self, axis=-1, name=None) -> None:
        super().__init__(name)
        self._axis = axis


class Softmax2D(_Activation):
    """Softmax over the channels of a [N, C, H, W] or [C, H, W] input, at each position."""

    def forward(self, x):
        check_tensor(x, "Softmax2D")
        if x.ndim not in (3, 4):
            raise ValueError(f"Softmax2D: expected a 3-D or 4-D input, got {x.ndim}-D")
        return F.softmax(x, axis=-3)


class LogSoftmax(_Activation):
    """log(softmax(x)) along `axis`."""

    function = staticmethod(F.log_softmax)
    settings = ("axis",)

    def __init__(self, axis=-1, name=None) -> None:
        super().__init__(name)
        self._axis = axis


class PReLU(Layer):
    """leaky_relu with learned slopes: one shared (num_parameters=1) or one per channel, starting at `init`.

    The slopes are the parameter `_weight` (its state_dict key, as in Paddle), of shape [num_parameters].
    """

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW", name=None) -> None:
        super().__init__()
        init = check_float(init, "PReLU", "init")
        self._num_parameters, self._init = num_parameters, init
        self._data_format, self._name = data_format, name
        self._weight = self.create_parameter([num_parameters], attr=weight_attr, dtype=get_default_dtype(),
                                             default_initializer=Constant(init))  # fmt: skip

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, init={self._init}, "
                f"dtype={self._dtype}{name}")  # fmt: skip


class RReLU(Layer):
    """Randomized leaky relu: random negative slopes from U(lower, upper) while training, their mean at
    inference."""

    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None) -> None:
        super().__init__()
        self._lower, self._upper, self._name = lower, upper, name

    def forward(self, x):
        return F.rrelu(x, self._lower, self._upper, training=self.training)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return f"lower={self._lower}, upper={self._upper}, training={self.training}, dtype={self._dtype}{name}"
