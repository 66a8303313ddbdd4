"""paddle.nn.quant: the layers of quantization.

- Stub / QuanterStub (stub.py): mark where to observe a tensor;
- qat.QuantedLinear / qat.QuantedConv2D (qat/): what paddle.quantization.QAT puts in place of Linear and Conv2D;
- format.py: LinearQuanter / LinearDequanter / LinearQuanterDequanter, the converted Q/DQ form, and
  ConvertibleQuantedLayer;
- quant_layers.py: the 2.0-era fake-quant layers of ImperativeQuantAware (FakeQuantAbsMax, ..., QuantizedConv2D);
- functional_layers.py: add, subtract, ... matmul as Layers.
"""

from minipaddle.nn.quant import format, qat, quant_layers  # noqa: A004 (Paddle's module name)
from minipaddle.nn.quant.functional_layers import (
    FloatFunctionalLayer,
    add,
    concat,
    divide,
    flatten,
    matmul,
    multiply,
    reshape,
    subtract,
    transpose,
)
from minipaddle.nn.quant.quant_layers import QuantStub
from minipaddle.nn.quant.stub import QuanterStub, Stub

__all__ = ["Stub"]
_ = (FloatFunctionalLayer, add, concat, divide, flatten, matmul, multiply, reshape, subtract, transpose, QuantStub,
     QuanterStub, format, qat, quant_layers)  # fmt: skip
