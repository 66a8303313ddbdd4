"""paddle.nn.utils.spectral_norm: w / sigma(w), sigma the largest singular value, by power iteration.

The parameter `weight` becomes `weight_orig`; the buffers `weight_u` and `weight_v` hold the power iteration's
vectors. A forward pre-hook recomputes `weight` before every call; in training mode it first runs
`n_power_iterations` steps that update u and v in place (no gradient flows through them).
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.norm import normalize
from minipaddle.nn.layer.conv import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose
from minipaddle.nn.layer.layers import Layer
from minipaddle.nn.layer.linear import Linear
from minipaddle.tensor.random import normal

__all__ = ["spectral_norm"]


class SpectralNorm:
    """The forward pre-hook that sets `name` to `name_orig` / sigma."""

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12):
        if n_power_iterations <= 0:
            raise ValueError(
                f"spectral_norm: n_power_iterations must be positive, got n_power_iterations={n_power_iterations}"
            )
        self.name, self.n_power_iterations, self.dim, self.eps = name, n_power_iterations, dim, eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        """weight as [weight.shape[dim], -1]: the slices along `dim` become rows."""
        if self.dim != 0:
            weight = ops.transpose(weight, (self.dim, *(d for d in range(weight.ndim) if d != self.dim)))
        return ops.reshape(weight, (weight.shape[0], -1))

    def compute_weight(self, layer: Layer, do_power_iteration: bool) -> Tensor:
        weight = getattr(layer, self.name + "_orig")
        u, v = getattr(layer, self.name + "_u"), getattr(layer, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v.set_value(normalize(ops.matmul(matrix, u, transpose_x=True), axis=0, epsilon=self.eps))
                    u.set_value(normalize(ops.matmul(matrix, v), axis=0, epsilon=self.eps))
                u, v = ops.assign(u), ops.assign(v)  # the next iteration's update must not change this graph
        sigma = ops.sum(ops.multiply(u, ops.matmul(matrix, v)))
        return ops.divide(weight, sigma)

    def __call__(self, layer: Layer, inputs) -> None:
        setattr(layer, self.name, self.compute_weight(layer, do_power_iteration=layer.training))


def spectral_norm(layer, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    r"""Divide the parameter `name` of `layer` by its spectral norm (largest singular value), estimated by power
    iteration (Miyato et al., 2018), before every forward call.

    Args:
        layer (Layer): a layer with the parameter.
        name (str): the parameter's name. Default 'weight'.
        n_power_iterations (int): power iteration steps per training call. Default 1.
        eps (float): added to norms so no division is by zero. Default 1e-12.
        dim (int|None): the dimension that becomes the rows of the matrix; None: 1 for Linear and the transposed
            convolutions (whose output features are their weights' dimension 1), 0 otherwise.

    Returns:
        Layer: `layer`, with `name_orig` (parameter), `name_u`, `name_v` (buffers) and the hook.

    Example:
        >>> linear = paddle.nn.utils.spectral_norm(paddle.nn.Linear(3, 4))
        >>> linear.weight_u.shape, linear.weight_v.shape
        ([4], [3])
    """
    fn = "spectral_norm"
    if not isinstance(layer, Layer):
        raise TypeError(f"{fn}: layer must be a paddle.nn.Layer, got {type(layer).__name__}")
    for hook in layer._forward_pre_hooks.values():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            raise RuntimeError(f"{fn}: cannot register two spectral_norm hooks on the same parameter {name!r}")
    weight = layer._parameters.get(name)
    if weight is None:
        raise ValueError(f"{fn}: {type(layer).__name__} has no parameter named {name!r}")
    if dim is None:
        dim = 1 if isinstance(layer, (Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, Linear)) else 0
    if not isinstance(dim, int) or isinstance(dim, bool) or not -weight.ndim <= dim < weight.ndim:
        raise ValueError(f"{fn}: dim must be an int in [-{weight.ndim}, {weight.ndim}) for a weight of shape "
                         f"{weight.shape}, got {dim!r}")  # fmt: skip
    hook = SpectralNorm(name, n_power_iterations, dim % weight.ndim, eps)
    with no_grad():
        h, w = hook.reshape_weight_to_matrix(weight).shape
        u = normalize(normal(0.0, 1.0, shape=[h]).astype(weight.dtype), axis=0, epsilon=eps)
        v = normalize(normal(0.0, 1.0, shape=[w]).astype(weight.dtype), axis=0, epsilon=eps)
    del layer._parameters[name]
    layer.add_parameter(name + "_orig", weight)
    setattr(layer, name, ops.scale(weight, 1.0))
    layer.register_buffer(name + "_u", u)
    layer.register_buffer(name + "_v", v)
    layer.register_forward_pre_hook(hook)
    return layer
