"""The static-graph layer functions of paddle.static.nn: each makes its parameters (named `fc_0.w_0`,
`conv2d_0.w_0`, ... as Paddle names them) and applies the matching nn.functional op.

They are written once, on the same public functions as dynamic mode, so they also work outside a Program.
"""

from __future__ import annotations

import numpy as np

import minipaddle.nn.functional as F
from minipaddle import ops
from minipaddle.core.state import unique_name
from minipaddle.nn.functional.deform_conv import deform_conv2d as deform
from minipaddle.nn.initializer import Constant, Normal
from minipaddle.nn.param_attr import ParamAttr, make_parameter
from minipaddle.tensor.checks import check_tensor
from minipaddle.tensor.manipulation import reshape

__all__ = [
    "batch_norm", "conv2d", "conv2d_transpose", "conv3d", "conv3d_transpose", "embedding", "fc", "group_norm",
    "instance_norm", "layer_norm", "prelu",
]  # fmt: skip
__all__ += ["deform_conv2d"]

_ACTIVATIONS = ("relu", "sigmoid", "tanh", "softmax", "leaky_relu", "gelu", "relu6", "elu", "swish", "hardswish")


def _act(x, act, fn: str):
    if act is None:
        return x
    if act not in _ACTIVATIONS:
        raise ValueError(f"{fn}: act must be None or one of {', '.join(_ACTIVATIONS)}, got {act!r}")
    return getattr(F, act)(x)


def _param(prefix, shape, attr, dtype, is_bias=False, default=None, fn=""):
    return make_parameter(prefix, shape, attr, dtype, is_bias, default, fn=fn)


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None, name=None):
    """A fully connected layer: flatten x's dimensions after `num_flatten_dims` into one, multiply by a
    [in, size] weight, add a bias, apply `activation`. A list of inputs gets one weight each, summed.

    Example:
        >>> y = paddle.static.nn.fc(x, size=10, activation="relu")    # x: [-1, 784]
    """
    if not isinstance(size, int) or size <= 0:
        raise ValueError(f"fc: size must be a positive int, got {size!r}")
    xs = list(x) if isinstance(x, (list, tuple)) else [x]
    prefix = name or unique_name("fc")
    total = None
    for t in xs:
        check_tensor(t, "fc", "x")
        if not 1 <= num_flatten_dims < max(t.ndim, 2):
            raise ValueError(f"fc: num_flatten_dims must be in [1, {t.ndim - 1}] for x of shape {list(t.shape)}")
        in_features = int(np.prod(t.shape[num_flatten_dims:]))
        if in_features < 0:
            raise ValueError(f"fc: the dimensions after num_flatten_dims must be known, got {list(t.shape)}")
        flat = reshape(t, list(t.shape[:num_flatten_dims]) + [in_features]) if t.ndim != num_flatten_dims + 1 else t
        w = _param(prefix, [in_features, size], weight_attr, t.dtype, fn="fc")
        out = ops.matmul(flat, w)
        total = out if total is None else ops.add(total, out)
    b = _param(prefix, [size], bias_attr, xs[0].dtype, is_bias=True, fn="fc")
    if b is not None:
        total = ops.add(total, b)
    return _act(total, activation, "fc")


def _conv(nd, transpose, input, num_filters, filter_size, stride, padding, dilation, groups, param_attr, bias_attr,
          act, name, data_format, output_size=None):  # fmt: skip
    fn = f"conv{nd}d" + ("_transpose" if transpose else "")
    check_tensor(input, fn, "input")
    channel_last = data_format in ("NHWC", "NDHWC")
    in_c = input.shape[-1 if channel_last else 1]
    groups = 1 if groups is None else groups
    if in_c < 0 or in_c % groups:
        raise ValueError(f"{fn}: the input's channels ({in_c}) must be known and divisible by groups ({groups})")
    if filter_size is None:
        raise ValueError(f"{fn}: filter_size is required")
    k = [filter_size] * nd if isinstance(filter_size, int) else list(filter_size)
    prefix = name or unique_name(fn)
    if transpose:
        shape = [in_c, num_filters // groups, *k]
        default = None
    else:
        shape = [num_filters, in_c // groups, *k]
        default = Normal(0.0, float(np.sqrt(2.0 / (int(np.prod(k)) * in_c))))  # Paddle's default for conv weights
    w = _param(prefix, shape, param_attr, input.dtype, default=default, fn=fn)
    b = _param(prefix, [num_filters], bias_attr, input.dtype, is_bias=True, fn=fn)
    if transpose:
        out = getattr(F, fn)(input, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups,
                             output_size=output_size, data_format=data_format)  # fmt: skip
    else:
        out = getattr(F, fn)(input, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups,
                             data_format=data_format)  # fmt: skip
    return _act(out, act, fn)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,
           bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCHW"):  # fmt: skip
    """A 2-D convolution layer with its own weight [num_filters, C/groups, kh, kw] and bias."""
    return _conv(2, False, input, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
                 bias_attr, act, name, data_format)  # fmt: skip


def deform_conv2d(x, offset, mask, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=1,
                  deformable_groups=1, im2col_step=1, weight_attr=None, bias_attr=None, name=None):  # fmt: skip
    """A deformable convolution layer (v2 with a mask, v1 with mask=None) with its own weight
    [num_filters, C/groups, kh, kw] (Normal(0, sqrt(2 / (kh * kw * C))) by default) and bias: see
    paddle.vision.ops.deform_conv2d. im2col_step (a GPU batching knob) does not change the result.

    Example:
        >>> out = paddle.static.nn.deform_conv2d(x, offset, None, num_filters=2, filter_size=3, padding=1)
    """
    fn = "deform_conv2d"
    check_tensor(x, fn, "x")
    groups = 1 if groups is None else groups
    in_c = x.shape[1]
    if not isinstance(groups, int) or groups <= 0 or in_c < 0 or in_c % groups:
        raise ValueError(f"{fn}: x's channels ({in_c}) must be known and divisible by groups, got {groups!r}")
    k = [filter_size] * 2 if isinstance(filter_size, int) else list(filter_size)
    prefix = name or unique_name("deformable_conv")
    default = Normal(0.0, float(np.sqrt(2.0 / (int(np.prod(k)) * in_c))))
    w = _param(prefix, [num_filters, in_c // groups, *k], weight_attr, x.dtype, default=default, fn=fn)
    b = _param(prefix, [num_filters], bias_attr, x.dtype, is_bias=True, fn=fn)
    return deform(x, offset, w, b, stride, padding, dilation, deformable_groups, groups, mask)


def conv3d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,
           bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCDHW"):  # fmt: skip
    """A 3-D convolution layer with its own weight and bias."""
    return _conv(3, False, input, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
                 bias_attr, act, name, data_format)  # fmt: skip


def conv2d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0, stride=1, dilation=1,
                     groups=None, param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
                     data_format="NCHW"):  # fmt: skip
    """A 2-D transposed convolution layer with its own weight [C, num_filters/groups, kh, kw] and bias."""
    return _conv(2, True, input, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
                 bias_attr, act, name, data_format, output_size)  # fmt: skip


def conv3d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0, stride=1, dilation=1,
                     groups=None, param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
                     data_format="NCDHW"):  # fmt: skip
    """A 3-D transposed convolution layer with its own weight and bias."""
    return _conv(3, True, input, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
                 bias_attr, act, name, data_format, output_size)  # fmt: skip


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None, bias_attr=None,
               data_layout="NCHW", in_place=False, name=None, moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, use_global_stats=False):  # fmt: skip
    """Batch normalization with its own scale, shift and running statistics (named as `moving_*_name`)."""
    check_tensor(input, "batch_norm", "input")
    channels = input.shape[-1 if data_layout in ("NHWC", "NLC", "NDHWC") else 1]
    prefix = name or unique_name("batch_norm")
    w = _param(prefix, [channels], param_attr, input.dtype, default=Constant(1.0), fn="batch_norm")
    b = _param(prefix, [channels], bias_attr, input.dtype, is_bias=True, fn="batch_norm")
    mean = _param(prefix, [channels], ParamAttr(name=moving_mean_name, initializer=Constant(0.0), trainable=False),
                  input.dtype, fn="batch_norm")  # fmt: skip
    var = _param(prefix, [channels], ParamAttr(name=moving_variance_name, initializer=Constant(1.0), trainable=False),
                 input.dtype, fn="batch_norm")  # fmt: skip
    out = F.batch_norm(input, mean, var, w, b, training=not is_test, momentum=momentum, epsilon=epsilon,
                       data_format=data_layout, use_global_stats=use_global_stats or None)  # fmt: skip
    return _act(out, act, "batch_norm")


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None, param_attr=None,
              dtype="float32"):  # fmt: skip
    """An embedding table of shape `size` = [vocabulary, dim], looked up at the int ids in `input`."""
    if not (isinstance(size, (list, tuple)) and len(size) == 2):
        raise ValueError(f"embedding: size must be [num_embeddings, embedding_dim], got {size!r}")
    w = _param(unique_name("embedding"), list(size), param_attr, dtype, fn="embedding")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += size[0]
    return F.embedding(input, w, padding_idx=padding_idx, sparse=is_sparse)


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05, param_attr=None, bias_attr=None,
               act=None, name=None):  # fmt: skip
    """Layer normalization over the axes from `begin_norm_axis` on, with optional learned scale and shift."""
    check_tensor(input, "layer_norm", "input")
    normalized = list(input.shape[begin_norm_axis:])
    prefix = name or unique_name("layer_norm")
    n = int(np.prod(normalized))
    w = _param(prefix, [n], param_attr, input.dtype, default=Constant(1.0), fn="layer_norm") if scale else None
    b = _param(prefix, [n], bias_attr, input.dtype, is_bias=True, fn="layer_norm") if shift else None
    # the flat [n] parameters go into the one layer_norm op as paddle's do (it reshapes them itself), so AMP's
    # rewrite sees them as the op's scale and bias and keeps them float32
    return _act(F.layer_norm(input, normalized, w, b, epsilon), act, "layer_norm")


def group_norm(input, groups, epsilon=1e-05, param_attr=None, bias_attr=None, act=None, data_layout="NCHW",
               name=None):  # fmt: skip
    """Group normalization with a learned scale and shift per channel."""
    check_tensor(input, "group_norm", "input")
    channels = input.shape[-1 if data_layout == "NHWC" else 1]
    prefix = name or unique_name("group_norm")
    w = _param(prefix, [channels], param_attr, input.dtype, default=Constant(1.0), fn="group_norm")
    b = _param(prefix, [channels], bias_attr, input.dtype, is_bias=True, fn="group_norm")
    return _act(F.group_norm(input, groups, epsilon, w, b, data_format=data_layout), act, "group_norm")


def instance_norm(input, epsilon=1e-05, param_attr=None, bias_attr=None, name=None):
    """Instance normalization with a learned scale and shift per channel."""
    check_tensor(input, "instance_norm", "input")
    prefix = name or unique_name("instance_norm")
    w = _param(prefix, [input.shape[1]], param_attr, input.dtype, default=Constant(1.0), fn="instance_norm")
    b = _param(prefix, [input.shape[1]], bias_attr, input.dtype, is_bias=True, fn="instance_norm")
    return F.instance_norm(input, weight=w, bias=b, eps=epsilon)


def prelu(x, mode, param_attr=None, data_format="NCHW", name=None):
    """PReLU with a learned slope: one for all ('all'), one per channel ('channel') or one per element ('element')."""
    check_tensor(x, "prelu", "x")
    if mode == "all":
        shape = [1]
    elif mode == "channel":
        shape = [x.shape[1 if data_format == "NCHW" else -1]]
    elif mode == "element":
        shape = list(x.shape[1:])
    else:
        raise ValueError(f"prelu: mode must be 'all', 'channel' or 'element', got {mode!r}")
    alpha = _param(name or unique_name("prelu"), shape, param_attr, x.dtype, default=Constant(0.25), fn="prelu")
    if mode == "element":
        return ops.where(ops.greater_than(x, 0.0), x, ops.multiply(x, alpha))
    return F.prelu(x, alpha, data_format=data_format)
