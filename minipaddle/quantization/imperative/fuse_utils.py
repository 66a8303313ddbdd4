"""Folding BatchNorm into the Conv2D (or Linear) before it, for quantizing a model meant for inference.

In eval mode BatchNorm is a fixed per-channel affine map, so with a = gamma / sqrt(var + eps):

    W'[c] = W[c] * a_c        b'_c = (b_c - mean_c) * a_c + beta_c

The folded conv computes exactly what conv + BN computed, and its weights are what gets quantized (so the
channel-wise scales see the BN scaling). Folding is for eval only: in training BN uses batch statistics.
The BN becomes an Identity.
"""

from __future__ import annotations

import copy

from minipaddle import nn
from minipaddle.core import state
from minipaddle.nn import param_attr
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor import creation
from minipaddle.tensor import math as tmath

__all__ = ["Identity", "fuse_conv_bn", "fuse_layers"]


class Identity(Layer):
    """Returns its input: what a folded BatchNorm becomes."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


def find_parent_layer_and_sub_name(model: Layer, name: str) -> tuple:
    """(parent Layer, attribute name) of the sublayer called `name` ('features.0' -> (model.features, '0'))."""
    parent = model
    *path, last = name.split(".")
    for part in path:
        parent = getattr(parent, part)
    return parent, last


def _parent(model: Layer, name: str) -> tuple:

    return find_parent_layer_and_sub_name(model, name)


def fuse_conv_bn(model: Layer) -> None:
    """Fold every BatchNorm2D into the last Conv2D before it, in place (the model is put in eval mode for it and
    back into training mode after, if it was training)."""
    was_training = model.training
    model.eval()
    pairs, conv = [], None
    for name, layer in model.named_sublayers():
        if isinstance(layer, nn.Conv2D):
            conv = name
        if isinstance(layer, nn.BatchNorm2D) and conv is not None:
            pairs.append([conv, name])
            conv = None
    fuse_layers(model, pairs, inplace=True)
    if was_training:
        model.train()


def fuse_layers(model: Layer, layers_to_fuse, inplace=False) -> Layer:
    """Fold each [conv_name, bn_name] (or [linear_name, bn_name]) pair of `layers_to_fuse`; a copy unless inplace."""
    if not isinstance(layers_to_fuse, (list, tuple)):
        raise TypeError(f"fuse_layers: layers_to_fuse must be a list of [layer name, bn name] pairs, got "
                        f"{layers_to_fuse!r}")  # fmt: skip
    if not inplace:
        model = copy.deepcopy(model)
    for names in layers_to_fuse:
        layers = [getattr(*_parent(model, n)) for n in names]
        fused = _fuse_pair(*layers)
        for name, new in zip(names, [fused] + [Identity() for _ in names[1:]]):
            new.training = layers[0].training
            setattr(*_parent(model, name), new)
    return model


def _fuse_pair(layer, bn):
    if layer.training or bn.training:
        raise RuntimeError("fuse_layers: fusion only for eval! Call model.eval() first")
    axis = 0 if isinstance(layer, nn.Conv2D) else 1  # Linear's weight is [in, out]: outputs along axis 1
    if not isinstance(layer, (nn.Conv2D, nn.Linear)) or not isinstance(bn, (nn.BatchNorm2D, nn.BatchNorm1D,
                                                                            nn.BatchNorm)):  # fmt: skip
        raise TypeError(f"fuse_layers: can fold a BatchNorm into a Conv2D or Linear, got {type(layer).__name__} and "
                        f"{type(bn).__name__}")  # fmt: skip
    fused = copy.deepcopy(layer)
    mean, var = bn._mean, bn._variance
    gamma = bn.weight if bn.weight is not None else creation.ones_like(mean)
    beta = bn.bias if bn.bias is not None else creation.zeros_like(mean)
    bias = fused.bias if fused.bias is not None else creation.zeros_like(mean)
    a = gamma * tmath.rsqrt(var + bn._epsilon)
    shape = [-1 if i == axis else 1 for i in range(len(fused.weight.shape))]
    with state.no_grad():
        new_weight = fused.weight * a.reshape(shape)
        new_bias = (bias - mean) * a + beta
    fused.weight.set_value(new_weight.numpy())
    if fused.bias is None:
        fused.bias = param_attr.create_parameter(shape=[new_bias.shape[0]], dtype=str(bn._mean.dtype.name),
                                                 is_bias=True)  # fmt: skip
    fused.bias.set_value(new_bias.numpy())
    return fused
