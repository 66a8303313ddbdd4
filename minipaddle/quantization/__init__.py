"""paddle.quantization: quantization-aware training (QAT) and post-training quantization (PTQ).

The 2.6 API: a QuantConfig of quanter factories (config.py, factory.py, quanters/, observers/), QAT(config) and
PTQ(config) to put quanters into a model (qat.py, ptq.py), convert() to the deployable quantize_linear /
dequantize_linear form (quantize.py, nn/quant/format.py). The 2.0-era API: ImperativeQuantAware and ImperativePTQ
(imperative/), saved with their fake ops and threshold attributes (saved_model.py). The fake-quant ops themselves
are in ops/fake_quant.py; the int8 Program pass in static/passes/int8.py.

    quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    qat = QAT(QuantConfig(activation=quanter, weight=quanter))
    model = qat.quantize(net)          # train model; then
    infer = qat.convert(model)
"""

from minipaddle.quantization import observers, quanters
from minipaddle.quantization.base_observer import BaseObserver
from minipaddle.quantization.base_quanter import BaseQuanter
from minipaddle.quantization.config import QuantConfig
from minipaddle.quantization.factory import quanter
from minipaddle.quantization.imperative import ImperativeQuantAware
from minipaddle.quantization.ptq import PTQ
from minipaddle.quantization.qat import QAT

__all__ = ["QuantConfig", "BaseQuanter", "BaseObserver", "quanter", "QAT", "PTQ"]
_ = (ImperativeQuantAware, observers, quanters)
