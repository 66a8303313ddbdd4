"""paddle.nn: layers, losses and their functional forms."""

from minipaddle.nn import functional

__all__ = ["functional"]
