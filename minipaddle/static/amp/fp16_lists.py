"""paddle.static.amp.fp16_lists: the lists of static AMP (defined beside the amp_cast pass that reads them)."""

from minipaddle.static.passes.amp_lists import (  # noqa: F401
    AutoMixedPrecisionLists,
    CustomOpLists,
    black_list,
    check_amp_dtype,
    gray_list,
    unsupported_ops,
    white_list,
)

__all__ = ["AutoMixedPrecisionLists", "CustomOpLists", "gray_list", "black_list", "white_list"]
