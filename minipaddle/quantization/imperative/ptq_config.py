"""PTQConfig: the activation and weight quantizers of ImperativePTQ (each layer gets its own copies)."""

from __future__ import annotations

import copy

from minipaddle.quantization.imperative.ptq_quantizer import (
    SUPPORT_ACT_QUANTIZERS,
    SUPPORT_WT_QUANTIZERS,
    KLQuantizer,
    PerChannelAbsmaxQuantizer,
)

__all__ = ["PTQConfig", "default_ptq_config"]


class PTQConfig:
    """Args:
    activation_quantizer: AbsmaxQuantizer, HistQuantizer or KLQuantizer (for inputs and outputs).
    weight_quantizer: AbsmaxQuantizer or PerChannelAbsmaxQuantizer.
    """

    def __init__(self, activation_quantizer, weight_quantizer):
        for arg, value, allowed in (("activation_quantizer", activation_quantizer, SUPPORT_ACT_QUANTIZERS),
                                    ("weight_quantizer", weight_quantizer, SUPPORT_WT_QUANTIZERS)):  # fmt: skip
            if not isinstance(value, tuple(allowed)):
                names = [c.__name__ for c in allowed]
                raise TypeError(f"PTQConfig: {arg} must be one of {names}, got {type(value).__name__}")
        self.in_act_quantizer = copy.deepcopy(activation_quantizer)
        self.out_act_quantizer = copy.deepcopy(activation_quantizer)
        self.wt_quantizer = copy.deepcopy(weight_quantizer)
        self.quant_hook_handle = None
        self.enable_in_act_quantizer = False


default_ptq_config = PTQConfig(KLQuantizer(), PerChannelAbsmaxQuantizer())
