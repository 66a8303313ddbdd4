"""paddle.nn.quant.qat: the layers QAT puts in place of Linear and Conv2D (2.6 API)."""

from minipaddle.nn.quant.qat.conv import QuantedConv2D
from minipaddle.nn.quant.qat.linear import QuantedLinear

__all__ = ["QuantedConv2D", "QuantedLinear"]
