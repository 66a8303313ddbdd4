"""paddle.static.amp: mixed precision for static Programs.

decorate(optimizer, ...)            an optimizer wrapper: casts in the Program, loss scaling in the Program
AutoMixedPrecisionLists / CustomOpLists   white, black and gray lists (Paddle op names)
fp16_guard()                        with use_fp16_guard (O2), only the ops built inside compute in float16
cast_model_to_fp16(program)         the rewrite alone (the amp_cast pass: static/passes/amp_cast.py)
cast_parameters_to_fp16(place, program)   O2's parameters' values to float16 in the scope (after startup)
bf16                                the bfloat16 variants
"""

from minipaddle.static.amp import bf16, decorator, fp16_lists, fp16_utils  # noqa: F401
from minipaddle.static.amp.decorator import OptimizerWithMixedPrecision, decorate
from minipaddle.static.amp.fp16_lists import AutoMixedPrecisionLists, CustomOpLists
from minipaddle.static.amp.fp16_utils import cast_model_to_fp16, cast_parameters_to_fp16, fp16_guard

__all__ = ["decorate", "CustomOpLists", "AutoMixedPrecisionLists", "fp16_guard", "cast_model_to_fp16",
           "cast_parameters_to_fp16", "OptimizerWithMixedPrecision"]  # fmt: skip
