"""`paddle.flops`: how many floating-point operations one forward pass of a network costs, layer by layer.

Each leaf layer (one with no sublayers) gets forward post-hooks that count its operations by Paddle's rules, then
the network runs once on a random input of `input_size`. The rules (per output element unless said otherwise):

    Conv1D/2D/3D and their Transpose   in_channels / groups * kernel elements (+1 with a bias)
    Linear                             in_features
    BatchNorm2D, BatchNorm             2 per input element (in eval mode, where the statistics are fixed)
    AvgPool1D/2D/3D                    1
    AdaptiveAvgPool1D/2D/3D            the kernel's elements + 1 (one division)
    LeakyReLU                          1 per input element
    ReLU, ReLU6, Dropout               0
    anything else                      0 (said once per class), unless custom_ops gives a rule for it

A multiply-add counts as one operation, as Paddle counts it. A static Program is counted op by op instead
(hapi/static_flops.py).
"""

from __future__ import annotations

import math
import warnings

from minipaddle import nn
from minipaddle.core.state import no_grad
from minipaddle.hapi.static_flops import Table, static_flops
from minipaddle.static.program import Program
from minipaddle.tensor.random import randn

__all__ = ["flops"]


def _numel(t) -> int:
    return math.prod(t.shape)


def count_convNd(m, x, y) -> None:
    x = x[0]
    kernel_ops = math.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    total_ops = _numel(y) * (x.shape[1] / m._groups * kernel_ops + bias_ops)
    m.total_ops += abs(int(total_ops))


def count_leaky_relu(m, x, y) -> None:
    m.total_ops += _numel(x[0])


def count_bn(m, x, y) -> None:
    if not m.training:  # training-mode batch norm also computes the statistics; Paddle counts eval mode only
        m.total_ops += abs(2 * _numel(x[0]))


def count_linear(m, x, y) -> None:
    m.total_ops += abs(m.weight.shape[0] * _numel(y))


def count_avgpool(m, x, y) -> None:
    m.total_ops += _numel(y)


def count_adap_avgpool(m, x, y) -> None:
    kernel = [i // o for i, o in zip(x[0].shape[2:], y.shape[2:])]
    m.total_ops += abs((math.prod(kernel) + 1) * _numel(y))


def count_zero_ops(m, x, y) -> None:
    m.total_ops += 0


REGISTER_HOOKS = {
    nn.Conv1D: count_convNd,
    nn.Conv2D: count_convNd,
    nn.Conv3D: count_convNd,
    nn.Conv1DTranspose: count_convNd,
    nn.Conv2DTranspose: count_convNd,
    nn.Conv3DTranspose: count_convNd,
    nn.BatchNorm2D: count_bn,
    nn.BatchNorm: count_bn,
    nn.ReLU: count_zero_ops,
    nn.ReLU6: count_zero_ops,
    nn.LeakyReLU: count_leaky_relu,
    nn.Linear: count_linear,
    nn.Dropout: count_zero_ops,
    nn.AvgPool1D: count_avgpool,
    nn.AvgPool2D: count_avgpool,
    nn.AvgPool3D: count_avgpool,
    nn.AdaptiveAvgPool1D: count_adap_avgpool,
    nn.AdaptiveAvgPool2D: count_adap_avgpool,
    nn.AdaptiveAvgPool3D: count_adap_avgpool,
}


def flops(net, input_size, custom_ops=None, print_detail: bool = False) -> int:
    """Count the FLOPs of one forward pass of `net` on a random input of shape `input_size`.

    Args:
        net: a paddle.nn.Layer, or a static Program (counted from its ops, per sample: see static_flops.py).
        input_size: the input's shape, batch included, e.g. [1, 1, 28, 28] (not used for a Program).
        custom_ops: {Layer class: fn(layer, inputs, output)} rules for other layers; fn adds to `layer.total_ops`.
        print_detail: print the per-layer table (name, input and output shapes, parameters, FLOPs).

    Returns:
        int: the total FLOPs (-1, with a warning, when net is not a Layer).

    Example:
        >>> paddle.flops(paddle.vision.models.LeNet(), [1, 1, 28, 28])
        Total Flops: 347560     Total Params: 61610
        347560
    """
    if isinstance(net, Program):
        return static_flops(net, print_detail=print_detail)
    if not isinstance(net, nn.Layer):
        warnings.warn("Your model must be an instance of paddle.nn.Layer or paddle.static.Program.", stacklevel=2)
        return -1
    return dynamic_flops(net, randn(input_size), custom_ops=custom_ops, print_detail=print_detail)


def _is_leaf(m) -> bool:
    return not any(True for _ in m.children())


def dynamic_flops(model, inputs, custom_ops=None, print_detail: bool = False) -> int:
    """Count the FLOPs of `model(inputs)` with the rules above (see `flops`)."""
    custom_ops = custom_ops or {}
    handles, seen_types = [], set()
    shapes = {}  # id(layer) -> (input shape, output shape) of its last call

    def count_parameters(m, x, y):
        m.total_params = sum(_numel(p) for p in m.parameters())

    def count_io_info(m, x, y):
        shapes[id(m)] = (list(x[0].shape), list((y[0] if isinstance(y, (list, tuple)) else y).shape))

    def add_hooks(m):
        if not _is_leaf(m):
            return
        m.total_ops, m.total_params = 0, 0
        m_type = type(m)
        flops_fn = None
        if m_type in custom_ops:
            flops_fn = custom_ops[m_type]
            if m_type not in seen_types:
                print(f"Customize Function has been applied to {m_type}")
        elif m_type in REGISTER_HOOKS:
            flops_fn = REGISTER_HOOKS[m_type]
            if m_type not in seen_types:
                print(f"{m_type}'s flops has been counted")
        elif m_type not in seen_types:
            print(f"Cannot find suitable count function for {m_type}. Treat it as zero FLOPs.")
        if flops_fn is not None:
            handles.append(m.register_forward_post_hook(flops_fn))
        handles.append(m.register_forward_post_hook(count_parameters))
        handles.append(m.register_forward_post_hook(count_io_info))
        seen_types.add(m_type)

    training = model.training
    model.eval()
    model.apply(add_hooks)
    try:
        with no_grad():
            model(inputs)
    finally:
        for handle in handles:
            handle.remove()
        if training:
            model.train()

    table = Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    total_ops = total_params = 0
    for layer in model.sublayers(include_self=True):
        if not _is_leaf(layer) or not hasattr(layer, "total_ops"):
            continue
        if layer is not model and id(layer) in shapes:  # Paddle counts sublayers only
            total_ops += int(layer.total_ops)
            total_params += int(layer.total_params)
            table.add_row([layer.full_name(), *shapes[id(layer)], int(layer.total_params), int(layer.total_ops)])
        del layer.total_ops, layer.total_params
    if print_detail:
        table.print_table()
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops
