"""Static AMP's op lists (paddle 2.6's python/paddle/static/amp/fp16_lists.py): white, black and gray, by Paddle's
op names. A gray op follows its producers: black if one of them is black, white if one is white.

They live beside the amp_cast pass that reads them; `paddle.static.amp.fp16_lists` is this module under its
Paddle name."""

from __future__ import annotations

import copy

from minipaddle.core.op import OPS
from minipaddle.ops.amp_lists import BF16_WHITE_LIST, EXTRA_BLACK_LIST, FP16_BLACK_LIST, FP16_WHITE_LIST
from minipaddle.ops.amp_names import UNSUPPORTED_LOW_PRECISION, paddle_op_name

__all__ = ["AutoMixedPrecisionLists", "CustomOpLists", "gray_list", "black_list", "white_list"]

gray_list = {
    "elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div", "elementwise_max",
    "elementwise_min", "elementwise_pow", "elementwise_mod", "elementwise_floordiv", "batch_norm", "layer_norm",
    "tanh", "sigmoid", "top_k", "pool2d", "pool3d", "dropout", "relu", "relu6", "leaky_relu", "soft_relu",
    "flatten2", "stack", "unstack", "uniform_random", "uniform_random_batch_size_like", "gaussian_random",
    "slice", "rank", "scale", "transpose2", "reshape2", "gather", "fill_constant", "get_tensor_from_selected_rows",
    "sign", "cast", "fused_bn_add_activation", "c_identity", "c_concat", "c_allreduce_sum", "concat", "split",
    "fused_feedforward", "fused_attention", "fused_multi_transformer",
}  # fmt: skip

_only_supported_fp16_list = {"resnet_unit", "fused_bn_add_activation"}

white_list = FP16_WHITE_LIST | _only_supported_fp16_list
black_list = FP16_BLACK_LIST | EXTRA_BLACK_LIST


def _white_list(dtype: str) -> set:
    return set(white_list) if dtype == "float16" else set(BF16_WHITE_LIST)


def unsupported_ops() -> set:
    """Paddle names of minipaddle's ops that have no float16/bfloat16 kernel (paddle's op_supported_infos)."""
    return {paddle_op_name(name) for name in UNSUPPORTED_LOW_PRECISION if name in OPS}


def check_amp_dtype(dtype) -> str:
    if not isinstance(dtype, str) or dtype.lower() not in ("float16", "bfloat16"):
        raise ValueError(f"If enable AMP, dtype should be 'float16' or 'bfloat16', but got {dtype!r}")
    return dtype.lower()


class AutoMixedPrecisionLists:
    """The white, black and gray lists of static AMP, with the user's custom lists applied.

    Args:
        custom_white_list (set, optional): Paddle op names to compute in the low dtype.
        custom_black_list (set, optional): Paddle op names to keep in float32 (also made unsupported).
        custom_black_varnames (set, optional): variables whose ops stay float32.
        dtype (str): 'float16' or 'bfloat16'.

    Example:
        >>> lists = paddle.static.amp.AutoMixedPrecisionLists(custom_black_list={'elementwise_add'})
    """

    def __init__(self, custom_white_list=None, custom_black_list=None, custom_black_varnames=None,
                 dtype="float16") -> None:  # fmt: skip
        self.amp_dtype = check_amp_dtype(dtype)
        self._custom_white_list = custom_white_list
        self._custom_black_list = custom_black_list
        self.white_list = _white_list(self.amp_dtype)
        self.black_list = copy.copy(black_list)
        self.gray_list = copy.copy(gray_list)
        self.unsupported_list = unsupported_ops()
        self.all_list = {paddle_op_name(n) for n in OPS}
        self.black_varnames = copy.copy(custom_black_varnames)
        self._update_list()

    def _update_list(self) -> None:
        white, black = self._custom_white_list, self._custom_black_list
        if white and black:
            for op_name in white:
                if op_name in black:
                    raise ValueError(f"The given custom_white_list overlaps custom_black_list with < {op_name} >!")
        for op_name in white or ():
            if op_name in self.black_list:
                self.black_list.remove(op_name)
            elif op_name in self.gray_list:
                self.gray_list.remove(op_name)
            self.white_list.add(op_name)
        for op_name in black or ():
            if op_name in self.white_list:
                self.white_list.remove(op_name)
            elif op_name in self.gray_list:
                self.gray_list.remove(op_name)
            self.black_list.add(op_name)
            self.unsupported_list.add(op_name)


CustomOpLists = AutoMixedPrecisionLists  # paddle 2.0's name
