"""paddle.nn.utils.parameters_to_vector / vector_to_parameters: all parameters as one flat vector and back
(for second-order methods and model averaging, which treat the model as one point)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _tensor_list(parameters, fn: str) -> list:
    if isinstance(parameters, Tensor):
        raise TypeError(f"{fn}: parameters must be a list of Tensors, got a single Tensor")
    parameters = list(parameters)
    if not parameters:
        raise ValueError(f"{fn}: parameters must not be empty")
    for p in parameters:
        check_tensor(p, fn, "each parameter")
    return parameters


def parameters_to_vector(parameters, name=None) -> Tensor:
    """The parameters' values flattened and joined into one 1-D tensor (a new leaf, stop_gradient=False; not
    connected to the parameters in the autograd graph).

    Args:
        parameters (list[Tensor]): e.g. layer.parameters(); all of one dtype.

    Returns:
        Tensor: [sum of the parameters' sizes].

    Example:
        >>> linear = paddle.nn.Linear(10, 15)
        >>> paddle.nn.utils.parameters_to_vector(linear.parameters()).shape
        [165]
    """
    fn = "parameters_to_vector"
    parameters = _tensor_list(parameters, fn)
    if len({p.dtype for p in parameters}) > 1:
        raise TypeError(f"{fn}: all parameters must have one dtype, got {sorted({p.dtype.name for p in parameters})}")
    with no_grad():
        out = ops.concat([ops.reshape(p, (-1,)) for p in parameters], 0)
    out.stop_gradient = False
    return out


def vector_to_parameters(vec, parameters, name=None) -> None:
    """Copy the slices of a flat vector into the parameters, in order (the inverse of parameters_to_vector). Not
    recorded by autograd.

    Args:
        vec (Tensor): 1-D, as long as the parameters' sizes added up.
        parameters (list[Tensor]): the parameters to overwrite (each keeps its dtype).

    Example:
        >>> linear = paddle.nn.Linear(10, 15)
        >>> paddle.nn.utils.vector_to_parameters(paddle.zeros([165]), linear.parameters())
        >>> float(linear.weight.abs().sum())
        0.0
    """
    fn = "vector_to_parameters"
    check_tensor(vec, fn, "vec")
    parameters = _tensor_list(parameters, fn)
    sizes = [int(np.prod(p.shape)) for p in parameters]
    if vec.ndim != 1 or vec.shape[0] != sum(sizes):
        raise ValueError(f"{fn}: vec must be 1-D with {sum(sizes)} elements (the parameters' sizes {sizes} added "
                         f"up), got shape {vec.shape}")  # fmt: skip
    with no_grad():
        for p, piece in zip(parameters, ops.split(vec, sizes, 0) if len(sizes) > 1 else (vec,)):
            p.set_value(ops.reshape(piece, tuple(p.shape)))
