"""paddle.nn.utils.weight_norm / remove_weight_norm: w = g * v / ||v||.

weight_norm replaces a layer's parameter `weight` by two parameters, `weight_g` (the norms, one per slice along
`dim`) and `weight_v` (the direction), and registers a forward pre-hook that rebuilds `weight` from them before
each call, so gradients reach g and v. remove_weight_norm folds them back into one parameter.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.norm import normalize
from minipaddle.nn.layer.layers import Layer

__all__ = ["weight_norm", "remove_weight_norm"]

_EPS = 1e-12


def _as_rows(w: Tensor, dim: int) -> Tensor:
    """w as a matrix whose rows are its slices along `dim`."""
    perm = (dim, *(i for i in range(w.ndim) if i != dim))
    return ops.reshape(ops.transpose(w, perm), (w.shape[dim], -1))


def norm_except_dim(w: Tensor, dim: int) -> Tensor:
    """The L2 norm of each slice of w along `dim` (shape [w.shape[dim]]), or of all of w (0-d) for dim -1;
    as paddle's, sqrt(sum(w^2) + 1e-12)."""
    if dim == -1:
        return ops.sqrt(ops.scale(ops.sum(ops.square(w)), 1.0, _EPS))
    return ops.sqrt(ops.scale(ops.sum(ops.square(_as_rows(w, dim)), axis=(1,)), 1.0, _EPS))


def _weight(v: Tensor, g: Tensor, dim: int) -> Tensor:
    """g * v / ||v||, the norms taken per slice along `dim` (all of v for dim -1)."""
    if dim == -1:
        return ops.multiply(ops.divide(v, ops.scale(ops.sqrt(ops.sum(ops.square(v))), 1.0, _EPS)), g)
    unit = ops.multiply(normalize(_as_rows(v, dim), axis=1, epsilon=_EPS), ops.reshape(g, (-1, 1)))
    perm = (dim, *(i for i in range(v.ndim) if i != dim))
    moved = ops.reshape(unit, tuple(v.shape[i] for i in perm))
    return ops.transpose(moved, tuple(perm.index(i) for i in range(v.ndim)))


class WeightNorm:
    """The forward pre-hook that rebuilds `name` from `name_g` and `name_v` before each call."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def compute_weight(self, layer: Layer) -> Tensor:
        return _weight(getattr(layer, self.name + "_v"), getattr(layer, self.name + "_g"), self.dim)

    def __call__(self, layer: Layer, inputs) -> None:
        setattr(layer, self.name, self.compute_weight(layer))


def _find(layer: Layer, name: str):
    for key, hook in layer._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            return key, hook
    return None, None


def weight_norm(layer, name="weight", dim=0):
    r"""Reparameterize the parameter `name` of `layer` as w = g * v / ||v|| (Salimans & Kingma, 2016).

    The parameter is replaced by `name_g` (the norm of each slice along `dim`; 0-d when dim is None) and `name_v`
    (w's values); `name` becomes a plain tensor recomputed from them before every forward call.

    Args:
        layer (Layer): a layer with the parameter.
        name (str): the parameter's name. Default 'weight'.
        dim (int|None): the dimension whose slices get one norm each, in [-R, R) for a weight of rank R; None (or
            -1, as in paddle) takes one norm over all of the weight. Default 0.

    Returns:
        Layer: `layer` itself, with the hook.

    Example:
        >>> conv = paddle.nn.Conv2D(3, 5, 3)
        >>> paddle.nn.utils.weight_norm(conv)
        >>> conv.weight_g.shape, conv.weight_v.shape
        ([5], [5, 3, 3, 3])
    """
    fn = "weight_norm"
    if not isinstance(layer, Layer):
        raise TypeError(f"{fn}: layer must be a paddle.nn.Layer, got {type(layer).__name__}")
    if _find(layer, name)[1] is not None:
        raise RuntimeError(f"{fn}: cannot register two weight_norm hooks on the same parameter {name!r}")
    w = layer._parameters.get(name)
    if w is None:
        raise ValueError(f"{fn}: {type(layer).__name__} has no parameter named {name!r}")
    dim = -1 if dim is None else dim
    if not isinstance(dim, int) or isinstance(dim, bool) or not -w.ndim <= dim < w.ndim:
        raise ValueError(f"{fn}: dim must be None or an int in [-{w.ndim}, {w.ndim}) for a weight of shape "
                         f"{w.shape}, got {dim!r}")  # fmt: skip
    if dim != -1:
        dim %= w.ndim
    hook = WeightNorm(name, dim)
    del layer._parameters[name]
    with no_grad():
        g_value = norm_except_dim(w, dim)
        v = layer.create_parameter(w.shape, dtype=w.dtype)
        layer.add_parameter(name + "_v", v)
        g = layer.create_parameter(g_value.shape, dtype=g_value.dtype)
        layer.add_parameter(name + "_g", g)
        v.set_value(w)
        g.set_value(g_value)
    setattr(layer, name, hook.compute_weight(layer))
    layer.register_forward_pre_hook(hook)
    return layer


def remove_weight_norm(layer, name="weight"):
    """Undo weight_norm: fold `name_g` and `name_v` back into one parameter `name` and drop the hook.

    Returns:
        Layer: `layer` itself.

    Example:
        >>> conv = paddle.nn.utils.weight_norm(paddle.nn.Conv2D(3, 5, 3))
        >>> paddle.nn.utils.remove_weight_norm(conv)
        >>> [n for n, _ in conv.named_parameters()]
        ['bias', 'weight']
    """
    key, hook = _find(layer, name)
    if hook is None:
        raise ValueError(f"remove_weight_norm: weight_norm of {name!r} not found in {layer}")
    with no_grad():
        w_value = hook.compute_weight(layer)
    delattr(layer, name)
    del layer._parameters[name + "_g"]
    del layer._parameters[name + "_v"]
    w = layer.create_parameter(w_value.shape, dtype=w_value.dtype)
    layer.add_parameter(name, w)
    w.set_value(w_value)
    del layer._forward_pre_hooks[key]
    return layer
