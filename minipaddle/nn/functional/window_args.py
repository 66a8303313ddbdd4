"""Reading the window arguments of convolution and pooling the way Paddle does, in one place.

kernel_size / stride / dilation: an int, or a list/tuple of one int per spatial axis.
padding: an int; one int per axis; [before, after] per axis flattened ([top, bottom, left, right]); a pair per
axis including the batch and channel axes ([[0, 0], [0, 0], [top, bottom], [left, right]]); or the strings
'same' / 'valid' (any case). The result is always ((before, after), ...) per spatial axis.
data_format: channels first (NCL, NCHW, NCDHW) or last (NLC, NHWC, NDHWC).
"""

from __future__ import annotations

import numbers

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import PreconditionNotMetError
from minipaddle.tensor.dtype_support import check_accepted

CHANNELS_FIRST = {1: "NCL", 2: "NCHW", 3: "NCDHW"}
CHANNELS_LAST = {1: "NLC", 2: "NHWC", 3: "NDHWC"}
INT32_MAX = 2**31 - 1


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def ntuple(value, nd: int, fn: str, arg: str, minimum: int = 1) -> tuple:
    """An int or nd ints as a tuple of nd ints, each >= minimum."""
    if isinstance(value, Tensor):
        value = value.tolist()
    if _is_int(value):
        out = (int(value),) * nd
    elif isinstance(value, (list, tuple)) and len(value) == nd and all(_is_int(v) for v in value):
        out = tuple(int(v) for v in value)
    else:
        raise TypeError(f"{fn}: {arg} must be an int or a list of {nd} ints, got {value!r}")
    # (paddle 2.6's kernels refuse these as PreconditionNotMet: an error that is both a ValueError and a RuntimeError)
    if any(v < minimum for v in out):
        raise PreconditionNotMetError(f"{fn}: every {arg} must be >= {minimum}, got {list(out)}")
    if any(v > INT32_MAX for v in out):  # paddle's window attributes are int32
        raise PreconditionNotMetError(f"{fn}: every {arg} must be <= {INT32_MAX} (an int32), got {list(out)}")
    return out


def channel_last(data_format: str, nd: int, fn: str) -> bool:
    """True for NLC/NHWC/NDHWC, False for NCL/NCHW/NCDHW; ValueError otherwise."""
    if data_format == CHANNELS_FIRST[nd]:
        return False
    if data_format == CHANNELS_LAST[nd]:
        return True
    raise ValueError(f"{fn}: data_format must be '{CHANNELS_FIRST[nd]}' or '{CHANNELS_LAST[nd]}', got {data_format!r}")


def padding_pairs(padding, nd: int, last: bool, fn: str):
    """((before, after), ...) per spatial axis, or the string 'SAME' / 'VALID' (sizes are needed to resolve SAME)."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode not in ("SAME", "VALID"):
            raise ValueError(f"{fn}: padding must be 'same' or 'valid' when it is a string, got {padding!r}")
        return mode
    if isinstance(padding, Tensor):
        padding = padding.tolist()
    if _is_int(padding):
        pairs = ((int(padding), int(padding)),) * nd
    elif (
        isinstance(padding, (list, tuple))
        and len(padding) == nd + 2
        and all(isinstance(p, (list, tuple)) for p in padding)
    ):
        batch_channel = (padding[0], padding[-1]) if last else (padding[0], padding[1])
        if any(list(p) != [0, 0] for p in batch_channel):
            raise ValueError(f"{fn}: padding on the batch or channel axis is not supported, got {padding}")
        spatial = padding[1:-1] if last else padding[2:]
        pairs = tuple((int(b), int(a)) for b, a in spatial)
    elif isinstance(padding, (list, tuple)) and len(padding) == 2 * nd and all(_is_int(p) for p in padding):
        pairs = tuple((int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(nd))
    elif isinstance(padding, (list, tuple)) and len(padding) == nd and all(_is_int(p) for p in padding):
        pairs = tuple((int(p), int(p)) for p in padding)
    else:
        raise ValueError(
            f"{fn}: padding must be 'same', 'valid', an int, {nd} ints, {2 * nd} ints or {nd + 2} pairs, "
            f"got {padding!r}"
        )
    if any(b < 0 or a < 0 for b, a in pairs):
        raise PreconditionNotMetError(f"{fn}: padding must be >= 0, got {padding}")
    if any(b > INT32_MAX or a > INT32_MAX for b, a in pairs):
        raise PreconditionNotMetError(f"{fn}: padding must be <= {INT32_MAX} (an int32), got {padding}")
    return pairs


def same_pairs(sizes, kernel, strides) -> tuple:
    """Paddle's 'same' padding: out = ceil(in / stride); the padding it needs is split with the extra one after."""
    pairs = []
    for d, k, s in zip(sizes, kernel, strides):
        total = max((-(-d // s) - 1) * s + k - d, 0)
        pairs.append((total // 2, total - total // 2))
    return tuple(pairs)


def resolve_padding(padding, sizes, kernel, strides, dilations=None):
    """Pairs for a parsed padding (pairs, 'SAME' or 'VALID'), and the dilations to use (Paddle sets them to 1 for
    'same')."""
    nd = len(sizes)
    if padding == "VALID":
        return ((0, 0),) * nd, dilations
    if padding == "SAME":
        return same_pairs(sizes, kernel, strides), (1,) * nd if dilations is not None else None
    return padding, dilations


def to_channels_first(x: Tensor, last: bool) -> Tensor:
    """[N, *spatial, C] -> [N, C, *spatial] when `last`; x itself otherwise."""
    return ops.transpose(x, (0, x.ndim - 1, *range(1, x.ndim - 1))) if last else x


def to_channels_last(x: Tensor, last: bool) -> Tensor:
    """The inverse of to_channels_first."""
    return ops.transpose(x, (0, *range(2, x.ndim), 1)) if last else x


def check_input(x, nd: int, fn: str, arg: str = "x", ints: bool = False) -> Tensor:
    """x must be a floating Tensor (or an int32/int64 one, with `ints`) with a batch axis, a channel axis and nd
    spatial axes."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}: {arg} must be a Tensor, got {type(x).__name__}")
    if x.ndim != nd + 2:
        raise ValueError(
            f"{fn}: {arg} must be a {nd + 2}-D tensor (batch, channels, {nd} spatial), got shape {x.shape}"
        )
    if not (x.dtype.is_floating or (ints and x.dtype.name in ("int32", "int64"))):
        kinds = "a float, int32 or int64" if ints else "a float"
        raise TypeError(f"{fn}: {arg} must be {kinds} tensor, got {x.dtype.name}")
    check_accepted(x, fn, arg)  # paddle 2.6's narrower lists (max pooling: float32/float64)
    return x
