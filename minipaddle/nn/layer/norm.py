"""Normalization layers: BatchNorm (1D/2D/3D, the fluid-style BatchNorm, SyncBatchNorm), LayerNorm, GroupNorm,
InstanceNorm (1D/2D/3D), LocalResponseNorm and SpectralNorm.

Batch norm keeps its running statistics as the non-trainable parameters `_mean` and `_variance` (as paddle 2.6
does: they appear in `parameters()` and `state_dict()`, named `<layer>.w_1` and `<layer>.w_2`). In training mode it
normalizes with the batch's statistics and updates the running ones (momentum 0.9); in eval mode it uses the
running ones.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from minipaddle import ops
from minipaddle.core.dtype import get_default_dtype
from minipaddle.core.state import no_grad
from minipaddle.nn import functional as F
from minipaddle.nn.initializer import Constant, Normal
from minipaddle.nn.layer.layers import Layer
from minipaddle.nn.param_attr import ParamAttr
from minipaddle.tensor.checks import _int_scalar, check_dtype, check_flag, check_int, check_nonnegative, check_tensor

__all__ = [
    "BatchNorm",
    "BatchNorm1D",
    "BatchNorm2D",
    "BatchNorm3D",
    "SyncBatchNorm",
    "LayerNorm",
    "GroupNorm",
    "InstanceNorm1D",
    "InstanceNorm2D",
    "InstanceNorm3D",
    "LocalResponseNorm",
    "SpectralNorm",
]


def _running_stats(layer: Layer, channels: int, dtype, mean_name=None, variance_name=None) -> None:
    """Create `_mean` (zeros) and `_variance` (ones): parameters that are not trained."""
    for attr_name, name, value in (("_mean", mean_name, 0.0), ("_variance", variance_name, 1.0)):
        attr = ParamAttr(name=name, initializer=Constant(value), trainable=False, do_model_average=True)
        param = layer.create_parameter([channels], attr=attr, dtype=dtype)
        param.stop_gradient = True
        setattr(layer, attr_name, param)


class _BatchNormBase(Layer):
    _formats: dict = {}  # accepted data_format -> the layout it means ('NCHW' channels first, 'NHWC' last)
    _ndims: tuple = ()

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCHW", use_global_stats=None, name=None):  # fmt: skip
        super().__init__()
        self._num_features = num_features
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._use_global_stats = use_global_stats
        self._dtype = "float32" if get_default_dtype() == "float16" else get_default_dtype()
        shape = [num_features]
        self.weight = None
        self.bias = None
        if weight_attr is not False:
            self.weight = self.create_parameter(shape, attr=weight_attr, dtype=self._dtype,
                                                default_initializer=Constant(1.0))  # fmt: skip
        if bias_attr is not False:
            self.bias = self.create_parameter(shape, attr=bias_attr, dtype=self._dtype, is_bias=True)
        mean_name = None if name is None else name + "_mean"
        variance_name = None if name is None else name + "_variance"
        _running_stats(self, num_features, self._dtype, mean_name, variance_name)
        self._data_format = data_format
        self._momentum, self._epsilon, self._name = momentum, epsilon, name

    def forward(self, input):
        check_tensor(input, type(self).__name__, "input")
        if self._data_format not in self._formats:
            raise ValueError(f"{type(self).__name__}: expected data_format {' or '.join(self._formats)}, "
                             f"got {self._data_format!r}")  # fmt: skip
        self._data_format = self._formats[self._data_format]  # as Paddle, the layout name is normalized here
        if self._ndims and input.ndim not in self._ndims:
            wanted = " or ".join(f"{n}D" for n in self._ndims)
            raise ValueError(f"{type(self).__name__}: expected {wanted} input (got {input.ndim}D input)")
        if self.training:
            warnings.warn("When training, we now always track global mean and variance.", stacklevel=2)
        return F.batch_norm(input, self._mean, self._variance, weight=self.weight, bias=self.bias,
                            training=self.training, momentum=self._momentum, epsilon=self._epsilon,
                            data_format=self._data_format, use_global_stats=self._use_global_stats)  # fmt: skip

    def extra_repr(self) -> str:
        text = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format != "NCHW":
            text += f", data_format={self._data_format}"
        if self._name is not None:
            text += f", name={self._name}"
        return text


class BatchNorm1D(_BatchNormBase):
    """Batch normalization of [N, C] or [N, C, L] inputs (or 'NLC').

    Example:
        >>> bn = paddle.nn.BatchNorm1D(3)
        >>> y = bn(paddle.randn([8, 3]))     # training: batch statistics; bn.eval() switches to running ones
    """

    _formats = {"NC": "NCHW", "NCL": "NCHW", "NCHW": "NCHW", "NLC": "NHWC", "NHWC": "NHWC"}
    _ndims = (2, 3)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCL", use_global_stats=None, name=None):  # fmt: skip
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    """Batch normalization of [N, C, H, W] inputs (or 'NHWC')."""

    _formats = {"NCHW": "NCHW", "NHWC": "NHWC"}
    _ndims = (4,)


class BatchNorm3D(_BatchNormBase):
    """Batch normalization of [N, C, D, H, W] inputs (or 'NDHWC')."""

    _formats = {"NCDHW": "NCHW", "NCHW": "NCHW", "NDHWC": "NHWC", "NHWC": "NHWC"}
    _ndims = (5,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCDHW", use_global_stats=None, name=None):  # fmt: skip
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, use_global_stats, name)


class SyncBatchNorm(_BatchNormBase):
    """Batch normalization whose statistics would be shared across devices; on one CPU it is BatchNorm."""

    _formats = {f: ("NCHW" if f[1] == "C" else "NHWC") for f in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")}

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCHW", name=None):  # fmt: skip
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, None, name)

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """Replace every BatchNorm*D in `layer` by a SyncBatchNorm holding the same parameters."""
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, SyncBatchNorm):
            sync = cls(layer._num_features, layer._momentum, layer._epsilon, layer._weight_attr, layer._bias_attr,
                       layer._data_format, layer._name)  # fmt: skip
            for name in ("weight", "bias", "_mean", "_variance"):
                setattr(sync, name, getattr(layer, name))
            return sync
        for name, sub in list(layer._sub_layers.items()):
            if sub is not None:
                layer._sub_layers[name] = cls.convert_sync_batchnorm(sub)
        return layer


class BatchNorm(Layer):
    """The fluid-style batch norm: `BatchNorm(num_channels, act=None, ...)`, with an optional activation name
    ('relu', 'tanh', ...) applied after. New code uses BatchNorm1D/2D/3D."""

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
                 bias_attr=None, dtype="float32", data_layout="NCHW", in_place=False, moving_mean_name=None,
                 moving_variance_name=None, do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):  # fmt: skip
        super().__init__()
        if act is not None and not isinstance(act, str):
            raise TypeError(f"BatchNorm: act must be None or the name of an activation, got {type(act).__name__}")
        self._act = act
        check_dtype(dtype, "BatchNorm")
        self._dtype = "float32" if dtype == "float16" else dtype
        self.weight = None
        self.bias = None
        if param_attr is not False:
            self.weight = self.create_parameter([num_channels], attr=param_attr, dtype=self._dtype,
                                                default_initializer=Constant(1.0))  # fmt: skip
        if bias_attr is not False:
            self.bias = self.create_parameter([num_channels], attr=bias_attr, dtype=self._dtype, is_bias=True)
        _running_stats(self, num_channels, self._dtype, moving_mean_name, moving_variance_name)
        self._data_layout, self._momentum, self._epsilon = data_layout, momentum, epsilon
        self._is_test, self._in_place = is_test, in_place
        self._use_global_stats = check_flag(use_global_stats, "BatchNorm", "use_global_stats")
        self._trainable_statistics = check_flag(trainable_statistics, "BatchNorm", "trainable_statistics")

    def forward(self, input):
        global_stats = (self._use_global_stats or not self.training) and not self._trainable_statistics
        out = F.batch_norm(input, self._mean, self._variance, self.weight, self.bias, training=self.training,
                           momentum=self._momentum, epsilon=self._epsilon, data_format=self._data_layout,
                           use_global_stats=global_stats)  # fmt: skip
        if self._act is None:
            return out
        activation = getattr(F, self._act, None)
        if activation is None:
            raise ValueError(f"BatchNorm: unknown activation act={self._act!r}")
        return activation(out)


class LayerNorm(Layer):
    """Normalize each sample over its last axes (normalized_shape), then scale and shift elementwise.

    weight (ones) and bias (zeros) have prod(normalized_shape) elements.

    Example:
        >>> ln = paddle.nn.LayerNorm(512)
        >>> y = ln(paddle.randn([2, 10, 512]))
    """

    def __init__(self, normalized_shape, epsilon=1e-05, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = [normalized_shape]
        if not isinstance(normalized_shape, (list, tuple)) or not all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in normalized_shape
        ):
            raise TypeError(f"LayerNorm: normalized_shape must be an int or a list/tuple of ints, got "
                            f"{normalized_shape!r}")  # fmt: skip
        if not normalized_shape or any(d <= 0 for d in normalized_shape):  # (paddle 2.6 refuses [] too)
            raise ValueError(f"LayerNorm: normalized_shape must hold sizes > 0, got {list(normalized_shape)}")
        self._normalized_shape = [int(d) for d in normalized_shape]
        self._epsilon = check_nonnegative(epsilon, "LayerNorm", "epsilon")
        if self._epsilon == float("inf"):  # (every row would come out 0)
            raise ValueError("LayerNorm: epsilon must be a finite number >= 0, got inf")
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        shape = [int(np.prod(self._normalized_shape))]
        self.weight = None
        self.bias = None
        if weight_attr is not False:
            self.weight = self.create_parameter(shape, attr=weight_attr, default_initializer=Constant(1.0))
        if bias_attr is not False:
            self.bias = self.create_parameter(shape, attr=bias_attr, is_bias=True)

    def forward(self, input):
        return F.layer_norm(input, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """Split the channels into num_groups groups; normalize each group of each sample; scale and shift per
    channel. weight_attr=False / bias_attr=False keep the scale at 1 / the shift at 0, untrained."""

    def __init__(self, num_groups, num_channels, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCHW", name=None):  # fmt: skip
        super().__init__()
        if not isinstance(data_format, str):
            raise TypeError(f"GroupNorm: data_format must be 'NCHW' or 'NHWC', got {type(data_format).__name__}")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"GroupNorm: unsupported data layout: {data_format}")
        self._num_groups, self._num_channels, self._epsilon = num_groups, num_channels, epsilon
        self._weight_attr, self._bias_attr, self._data_format = weight_attr, bias_attr, data_format
        shape = [num_channels]
        self.weight = self.create_parameter(shape, attr=None if weight_attr is False else weight_attr,
                                            default_initializer=Constant(1.0))  # fmt: skip
        self.weight.stop_gradient = weight_attr is False or _zero_lr(weight_attr)
        self.bias = self.create_parameter(shape, attr=None if bias_attr is False else bias_attr, is_bias=True)
        self.bias.stop_gradient = bias_attr is False or _zero_lr(bias_attr)

    def forward(self, input):
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias, self._data_format)

    def extra_repr(self) -> str:
        return f"num_groups={self._num_groups}, num_channels={self._num_channels}, epsilon={self._epsilon}"


def _zero_lr(attr) -> bool:
    return isinstance(attr, ParamAttr) and attr.learning_rate == 0.0


class _InstanceNormBase(Layer):
    _ndims: tuple = ()

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None,
                 data_format="NCHW", name=None):  # fmt: skip
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError(f"{type(self).__name__}: weight_attr and bias_attr must be set to False together")
        self._num_features, self._epsilon, self._momentum = num_features, epsilon, momentum
        self._weight_attr, self._bias_attr, self._data_format = weight_attr, bias_attr, data_format
        self.scale = None
        self.bias = None
        if weight_attr is not False:
            self.scale = self.create_parameter([num_features], attr=weight_attr, default_initializer=Constant(1.0))
            self.bias = self.create_parameter([num_features], attr=bias_attr, is_bias=True)

    def forward(self, input):
        check_tensor(input, type(self).__name__, "input")
        if input.ndim not in self._ndims:
            wanted = " or ".join(f"{n}D" for n in self._ndims)
            raise ValueError(f"{type(self).__name__}: expected {wanted} input (got {input.ndim}D input)")
        return F.instance_norm(input, weight=self.scale, bias=self.bias, momentum=self._momentum, eps=self._epsilon,
                               data_format=self._data_format)  # fmt: skip

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalization of [N, C, L] inputs: each channel of each sample over its length."""

    _ndims = (2, 3)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None,
                 data_format="NCL", name=None):  # fmt: skip
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalization of [N, C, H, W] inputs (style transfer's normalization)."""

    _ndims = (4,)


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalization of [N, C, D, H, W] inputs."""

    _ndims = (5,)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None,
                 data_format="NCDHW", name=None):  # fmt: skip
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class LocalResponseNorm(Layer):
    """AlexNet's local response normalization across neighbouring channels."""

    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format, self.name = data_format, name

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k, self.data_format)

    def extra_repr(self) -> str:
        text = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            text += f", data_format={self.data_format}"
        if self.name is not None:
            text += f", name={self.name}"
        return text


class SpectralNorm(Layer):
    """Divide a weight by its largest singular value, estimated by power iteration (GAN discriminators).

    Called on a weight tensor of shape `weight_shape`; `dim` is the axis treated as the rows. The vectors
    `weight_u` ([rows]) and `weight_v` ([the rest]) start N(0, 1) and, as in paddle 2.6's dynamic mode, are not
    updated between calls; the gradient flows through the weight only (u and v count as constants).

    The gradient is the true derivative of W / sigma(W). Paddle 2.6's kernel instead computes
    grad * (1 - u v^T sum(W / sigma)) / sigma, which agrees with it only when the upstream gradient is uniform.
    """

    def __init__(self, weight_shape, dim=0, power_iters=1, eps=1e-12, dtype="float32"):
        super().__init__()
        fn = "SpectralNorm"
        if not isinstance(weight_shape, (list, tuple)) or not all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in weight_shape
        ):
            raise TypeError(f"{fn}: weight_shape must be a list or tuple of ints, got {weight_shape!r}")
        self._weight_shape = [int(d) for d in weight_shape]
        if not self._weight_shape or any(d <= 0 for d in self._weight_shape):
            raise ValueError(f"{fn}: weight_shape must hold sizes > 0, got {self._weight_shape}")
        dim = _int_scalar(dim, fn, "dim")
        if not 0 <= dim < len(self._weight_shape):
            raise ValueError(f"{fn}: dim ({dim}) must be in [0, {len(self._weight_shape)}), the axes of weight_shape")
        power_iters = check_int(power_iters, fn, "power_iters", 0, 2**31 - 1)  # an int32 attribute in paddle
        eps = check_nonnegative(eps, fn, "eps")
        dtype = check_dtype(dtype, fn).name
        self._power_iters, self._eps, self._dim, self._dtype = power_iters, eps, dim, dtype
        rows = self._weight_shape[dim]
        cols = int(np.prod(self._weight_shape)) // rows
        self.weight_u = self.create_parameter([rows], attr=ParamAttr(), dtype=dtype, default_initializer=Normal())
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter([cols], attr=ParamAttr(), dtype=dtype, default_initializer=Normal())
        self.weight_v.stop_gradient = True

    def forward(self, x):
        check_tensor(x, "SpectralNorm")
        if list(x.shape) != self._weight_shape:
            raise ValueError(f"SpectralNorm: the weight must have weight_shape {self._weight_shape}, got {x.shape}")
        perm = (self._dim,) + tuple(i for i in range(x.ndim) if i != self._dim)
        matrix = ops.reshape(ops.transpose(x, perm), (x.shape[self._dim], -1))
        u, v = self.weight_u, self.weight_v
        with no_grad():
            for _ in range(self._power_iters):
                v = _unit(ops.matmul(matrix, u, transpose_x=True), self._eps)
                u = _unit(ops.matmul(matrix, v), self._eps)
        sigma = ops.matmul(u, ops.matmul(matrix, v))
        return ops.divide(x, sigma)


def _unit(v, eps: float):
    return ops.divide(v, ops.scale(ops.sqrt(ops.sum(ops.multiply(v, v))), 1.0, eps))
