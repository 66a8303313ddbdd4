"""paddle.nn.utils: reparameterizations of a layer's weight (weight_norm, spectral_norm), parameters as one
vector, and in-place gradient clipping."""

from minipaddle.nn.utils.clip_grad_norm_ import clip_grad_norm_  # (the module first, then the function under its name)
from minipaddle.nn.utils.clip_grad_value_ import clip_grad_value_
from minipaddle.nn.utils.spectral_norm_hook import spectral_norm
from minipaddle.nn.utils.transform_parameters import parameters_to_vector, vector_to_parameters
from minipaddle.nn.utils.weight_norm_hook import remove_weight_norm, weight_norm

__all__ = [
    "weight_norm",
    "remove_weight_norm",
    "spectral_norm",
    "parameters_to_vector",
    "vector_to_parameters",
    "clip_grad_norm_",
    "clip_grad_value_",
]
