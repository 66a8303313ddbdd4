"""paddle.quantization.quanters: quanter factories for QuantConfig."""

from minipaddle.quantization.quanters.abs_max import FakeQuanterWithAbsMaxObserver, FakeQuanterWithAbsMaxObserverLayer

__all__ = ["FakeQuanterWithAbsMaxObserver"]
_ = FakeQuanterWithAbsMaxObserverLayer
