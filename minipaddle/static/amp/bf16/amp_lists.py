"""Static bfloat16 AMP's lists (paddle 2.6's python/paddle/static/amp/bf16/amp_lists.py)."""

from __future__ import annotations

import copy

from minipaddle.core.op import OPS
from minipaddle.ops.amp_lists import BF16_WHITE_LIST, FP16_BLACK_LIST, FP16_WHITE_LIST
from minipaddle.ops.amp_names import paddle_op_name
from minipaddle.static.passes.amp_lists import gray_list, unsupported_ops

__all__ = ["AutoMixedPrecisionListsBF16"]

bf16_list = set(BF16_WHITE_LIST)
# float32 ops: paddle's fp16 black, white and gray lists, minus what bfloat16 computes and minus the gray list
fp32_list = (FP16_BLACK_LIST | FP16_WHITE_LIST | gray_list) - bf16_list - gray_list
bf16_initializer_list = {"fill_constant", "uniform_random"}


class AutoMixedPrecisionListsBF16:
    """The bf16 (white), fp32 (black) and gray lists of static bfloat16 AMP.

    Args:
        custom_bf16_list (set, optional): Paddle op names to compute in bfloat16.
        custom_fp32_list (set, optional): Paddle op names to keep in float32.
        custom_fp32_varnames (set, optional): variables whose ops stay float32.

    Example:
        >>> lists = paddle.static.amp.bf16.AutoMixedPrecisionListsBF16(custom_fp32_list={'matmul_v2'})
    """

    def __init__(self, custom_bf16_list=None, custom_fp32_list=None, custom_fp32_varnames=None) -> None:
        self._custom_bf16_list = custom_bf16_list
        self._custom_fp32_list = custom_fp32_list
        self.bf16_list = copy.copy(bf16_list)
        self.fp32_list = copy.copy(fp32_list)
        self.gray_list = copy.copy(gray_list)
        self.bf16_initializer_list = copy.copy(bf16_initializer_list)
        self.unsupported_list = unsupported_ops()
        self.all_list = {paddle_op_name(n) for n in OPS}
        self.fp32_varnames = copy.copy(custom_fp32_varnames)
        self._update_list()

    def _update_list(self) -> None:
        bf16, fp32 = self._custom_bf16_list, self._custom_fp32_list
        if bf16 and fp32:
            for op_name in bf16:
                if op_name in fp32:
                    raise ValueError(f"Custom bf16 list overlap custom fp32 list with < {op_name} >")
        for op_name in bf16 or ():
            self.fp32_list.discard(op_name)
            self.gray_list.discard(op_name)
            self.bf16_list.add(op_name)
        for op_name in fp32 or ():
            self.bf16_list.discard(op_name)
            self.gray_list.discard(op_name)
            self.fp32_list.add(op_name)
            self.unsupported_list.add(op_name)

    # the names the shared rewrite (static/passes/amp_cast.py) reads
    @property
    def white_list(self) -> set:
        return self.bf16_list

    @property
    def black_list(self) -> set:
        return self.fp32_list

    @property
    def black_varnames(self):
        return self.fp32_varnames
