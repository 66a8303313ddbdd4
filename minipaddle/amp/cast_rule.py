"""The dtype an op computes in under auto_cast: paddle 2.6's rule (C++ `egr::GetAmpDestDtype`), per op.

- white list: the low dtype (float16 or bfloat16);
- black list, and ops without a low-precision kernel: float32;
- any other op ("gray"): O1, and O2 with use_promote=True, promote: float32 if any input is float32, else the low
  dtype (for batch_norm and layer_norm only the first input, x, decides); OD: float32; O2 with
  use_promote=False: the low dtype.
batch_norm and layer_norm cast only x; their scale, bias and statistics keep their dtype (float32) and the output
has x's dtype (paddle 2.6's `AmpAutoCast`; the 2.6 rule applies this to float16 and bfloat16 alike). That part
of the rule is minipaddle/ops/amp_norms.py's, which the static rewrite applies too.
Only float32, float16 and bfloat16 inputs are ever cast; float64, integer and bool inputs are left alone.
"""

from __future__ import annotations

from minipaddle.core import dtype as dtypes
from minipaddle.ops.amp_names import UNSUPPORTED_LOW_PRECISION
from minipaddle.ops.amp_norms import cast_inputs

__all__ = ["CASTABLE", "dest_dtype", "list_of"]

CASTABLE = (dtypes.float32, dtypes.float16, dtypes.bfloat16)


def list_of(op_name: str, paddle_name: str, settings) -> str:
    """Which list decides this op at these settings: 'white', 'black', 'unsupported' or 'gray'."""
    if paddle_name in settings.white:
        return "unsupported" if op_name in UNSUPPORTED_LOW_PRECISION else "white"
    if paddle_name in settings.black:
        return "black"
    if op_name in UNSUPPORTED_LOW_PRECISION:
        return "unsupported"
    return "gray"


def dest_dtype(which: str, paddle_name: str, input_dtypes, settings):
    """The DType the op computes in, given the list that decides it and its inputs' DTypes (None when absent)."""
    low = settings.dtype
    if which == "white":
        return low
    if which in ("black", "unsupported"):
        return dtypes.float32
    if settings.level == "OD":
        return dtypes.float32
    if settings.level == "O2" and not settings.use_promote:
        return low
    deciding = [input_dtypes[i] for i in cast_inputs(paddle_name, len(input_dtypes))]  # the norms: x only
    return dtypes.float32 if any(d is dtypes.float32 for d in deciding) else low
