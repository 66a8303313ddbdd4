"""The 2.0-era dygraph quantization API: ImperativeQuantAware (QAT) and ImperativePTQ, with conv+bn folding."""

from minipaddle.quantization.imperative.qat import ImperativeQuantAware

__all__ = ["ImperativeQuantAware"]
