"""Paddle 2.6's AMP op lists, by Paddle's own op names (python/paddle/amp/amp_lists.py), and the custom-list rule.

The lists name ops as Paddle's tracer does (`matmul_v2`, `elementwise_add`, `reduce_sum`): users' custom lists are
written in those names. `amp_names.py` maps minipaddle's ops onto them. They stand on the ops floor, below every
user of them: the AMP hook (minipaddle/amp/), static AMP (minipaddle/static/amp/) and the op table.
"""

from __future__ import annotations

import copy

__all__ = ["white_list", "black_list"]

WHITE_LIST = {"conv2d", "einsum", "matmul", "matmul_v2", "max_pool2d_with_index", "mul", "fused_gemm_epilogue"}

ONLY_FP16_WHITE_LIST = {
    "fake_quantize_dequantize_abs_max",
    "fake_quantize_dequantize_moving_average_abs_max",
    "fused_attention",
    "fused_feedforward",
}

FP16_WHITE_LIST = WHITE_LIST | ONLY_FP16_WHITE_LIST

# Ops whose float16 results lose too much (exp, log, reductions, softmax, losses): float32 under O1.
FP16_BLACK_LIST = {
    "tan", "acos", "asin", "sinh", "cosh", "atanh", "tanh_shrink", "erfinv", "exp", "expm1", "log", "log10", "log2",
    "reciprocal", "rsqrt", "pow", "square", "reduce_sum", "mean", "reduce_mean", "reduce_prod", "cumprod", "cumsum",
    "dist", "pnorm", "frobenius_norm", "renorm", "group_norm", "layer_norm", "softmax", "softmin", "softplus",
    "log_softmax", "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits", "c_softmax_with_cross_entropy",
    "cross_entropy", "cross_entropy2", "nll_loss", "huber_loss", "triplet_margin_loss", "log_loss", "hsigmoid_loss",
    "margin_cross_entropy",
}  # fmt: skip

# Ops with no low-precision kernel in Paddle: float32 under O1 and O2.
EXTRA_BLACK_LIST = {
    "linear_interp_v2", "nearest_interp_v2", "bilinear_interp_v2", "bicubic_interp_v2", "trilinear_interp_v2",
    "lookup_table", "lookup_table_v2", "scatter",
}  # fmt: skip

BF16_WHITE_LIST = WHITE_LIST
BF16_BLACK_LIST = FP16_BLACK_LIST

LEVELS = ("O0", "OD", "O1", "O2")
AMP_DTYPES = ("float16", "bfloat16")


def white_list() -> dict:
    """The ops that run in the low dtype, as `{dtype: {level: set of Paddle op names}}` (paddle 2.6's answer).

    Example:
        >>> 'matmul_v2' in paddle.amp.white_list()['float16']['O1']
        True
    """
    return {
        "float16": {"OD": FP16_WHITE_LIST, "O1": FP16_WHITE_LIST, "O2": FP16_WHITE_LIST},
        "bfloat16": {"OD": BF16_WHITE_LIST, "O1": BF16_WHITE_LIST, "O2": BF16_WHITE_LIST},
    }


def black_list() -> dict:
    """The ops kept in float32, as `{dtype: {level: set of Paddle op names}}` (paddle 2.6's answer): O1 keeps the
    numerically delicate ops and the ops without low-precision kernels, O2 only the latter, OD none.

    Example:
        >>> 'softmax' in paddle.amp.black_list()['float16']['O1']
        True
    """
    return {
        "float16": {"OD": set(), "O1": FP16_BLACK_LIST | EXTRA_BLACK_LIST, "O2": EXTRA_BLACK_LIST},
        "bfloat16": {"OD": set(), "O1": BF16_BLACK_LIST | EXTRA_BLACK_LIST, "O2": EXTRA_BLACK_LIST},
    }


def _names(custom, fn: str, arg: str) -> set:
    """A custom list as a set of op names (any iterable of str; None is empty)."""
    if custom is None:
        return set()
    if isinstance(custom, str) or not all(isinstance(n, str) for n in custom):
        raise TypeError(f"{fn}: {arg} must be a list or set of op names (str), got {custom!r}")
    return set(custom)


def update_list(custom_white_list, custom_black_list, level: str = "O1", dtype: str = "float16") -> tuple:
    """The (white, black) sets for a level and dtype with the user's custom lists applied, as paddle 2.6's
    `_update_list`: a custom white op leaves the black list, a custom black op leaves the white list, and naming
    an op in both is a ValueError."""
    if level == "O0":
        return set(), set()
    white = copy.copy(white_list()[dtype][level])
    black = copy.copy(black_list()[dtype][level])
    custom_white = _names(custom_white_list, "auto_cast", "custom_white_list")
    custom_black = _names(custom_black_list, "auto_cast", "custom_black_list")
    if custom_white & custom_black:
        raise ValueError("Custom white list overlap custom black list")
    white = (white | custom_white) - custom_black
    black = (black - custom_white) | custom_black
    return white, black
