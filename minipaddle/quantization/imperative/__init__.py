"""The 2.0-era dygraph quantization API: ImperativeQuantAware (QAT) and ImperativePTQ, with conv+bn folding."""

from minipaddle.quantization.imperative.ptq import ImperativePTQ
from minipaddle.quantization.imperative.ptq_config import PTQConfig, default_ptq_config
from minipaddle.quantization.imperative.ptq_quantizer import (
    SUPPORT_ACT_QUANTIZERS,
    SUPPORT_WT_QUANTIZERS,
    AbsmaxQuantizer,
    BaseQuantizer,
    HistQuantizer,
    KLQuantizer,
    PerChannelAbsmaxQuantizer,
)
from minipaddle.quantization.imperative.ptq_registry import PTQRegistry
from minipaddle.quantization.imperative.qat import ImperativeQuantAware

__all__ = [
    "ImperativeQuantAware", "ImperativePTQ", "PTQConfig", "default_ptq_config", "BaseQuantizer", "AbsmaxQuantizer",
    "PerChannelAbsmaxQuantizer", "HistQuantizer", "KLQuantizer", "SUPPORT_ACT_QUANTIZERS", "SUPPORT_WT_QUANTIZERS",
    "PTQRegistry",
]  # fmt: skip
