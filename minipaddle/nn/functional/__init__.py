"""paddle.nn.functional: the functional form of every layer."""

from minipaddle.nn.functional.activation import log_softmax, relu, sigmoid, softmax, tanh

__all__ = ["log_softmax", "relu", "sigmoid", "softmax", "tanh"]
