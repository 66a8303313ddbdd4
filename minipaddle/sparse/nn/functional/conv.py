"""paddle.sparse.nn.functional conv2d, conv3d, subm_conv2d, subm_conv3d: convolutions of a COO tensor laid out
channels-last ([N, H, W, C] or [N, D, H, W, C], the last dimension dense), as paddle 2.6 computes them on the CPU.

Each kernel offset's pairs (rulebook.py) gather their input rows, multiply by that offset's [C_in, C_out] slice of
the weight, and add into their output rows; the sum over offsets is the output's values. Only stored points take
part, so a regular convolution equals the dense one at every output it stores, and a submanifold one keeps its
input's pattern. The weight is [*kernel, C_in, C_out], as paddle's.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.sparse.nn.functional.rulebook import conv_rulebook, out_spatial
from minipaddle.sparse.tensor import SparseCooTensor
from minipaddle.tensor.creation import to_tensor, zeros
from minipaddle.tensor.indexing import gather, index_add
from minipaddle.tensor.linalg import matmul
from minipaddle.tensor.manipulation import reshape

__all__ = ["conv2d", "conv3d", "subm_conv2d", "subm_conv3d"]

FORMATS = {2: "NHWC", 3: "NDHWC"}


def as_list(value, dims: int, fn: str, what: str) -> list[int]:
    """An int or `dims` ints, as paddle's convert_to_list takes them."""
    items = [value] * dims if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else value
    if (not isinstance(items, (list, tuple)) or len(items) != dims
            or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in items)):  # fmt: skip
        raise TypeError(f"paddle.sparse.nn.functional.{fn}: {what} must be an int or {dims} ints, got {value!r}")
    return [int(v) for v in items]


def spatial_padding(padding, dims: int, fn: str) -> list[int]:
    """The zero padding of each spatial dimension. A string ('SAME' or 'VALID') pads nothing: paddle 2.6's sparse
    kernels take the padding list, which its string forms leave at zeros (recorded: 'SAME' shrinks as 'VALID')."""
    if isinstance(padding, str):
        if padding.upper() not in ("SAME", "VALID"):
            raise ValueError(f"paddle.sparse.nn.functional.{fn}: padding must be 'SAME' or 'VALID', got {padding!r}")
        return [0] * dims
    return as_list(padding, dims, fn, "padding")


def check_coo(x, dims: int, fn: str) -> None:
    if not isinstance(x, SparseCooTensor):
        raise TypeError(f"paddle.sparse.nn.functional.{fn}: x must be a SparseCooTensor, got {type(x).__name__}")
    if x.ndim != dims + 2 or x.sparse_dim() != dims + 1:
        raise ValueError(
            f"paddle.sparse.nn.functional.{fn}: x must be a {dims + 2}-D COO tensor with its last dimension dense "
            f"({FORMATS[dims]}), got shape {x.shape} with sparse_dim {x.sparse_dim()}"
        )


def _conv(x, weight, bias, stride, padding, dilation, groups, subm, data_format, dims, fn):
    check_coo(x, dims, fn)
    if groups != 1:
        raise ValueError(f"paddle.sparse.nn.functional.{fn}: only groups=1 is supported (as paddle 2.6), got {groups}")
    if data_format != FORMATS[dims]:
        raise ValueError(
            f"paddle.sparse.nn.functional.{fn}: data_format must be '{FORMATS[dims]}', got {data_format!r}"
        )
    if not isinstance(weight, Tensor) or weight.ndim != dims + 2:
        raise ValueError(f"paddle.sparse.nn.functional.{fn}: weight must be a {dims + 2}-D Tensor [*kernel, C_in, "
                         f"C_out], got {getattr(weight, 'shape', type(weight).__name__)}")  # fmt: skip
    kernel, c_in, c_out = list(weight.shape[:dims]), weight.shape[dims], weight.shape[dims + 1]
    if c_in != x.shape[-1]:
        raise ValueError(f"paddle.sparse.nn.functional.{fn}: weight's C_in ({c_in}) must equal x's channels "
                         f"({x.shape[-1]})")  # fmt: skip
    if weight.dtype != x.dtype or (bias is not None and bias.dtype != x.dtype):
        raise ValueError(f"paddle.sparse.nn.functional.{fn}: x ({x.dtype}), weight ({weight.dtype}) and bias must "
                         "have the same dtype")  # fmt: skip
    stride = as_list(stride, dims, fn, "stride")
    dilation = as_list(dilation, dims, fn, "dilation")
    padding = spatial_padding(padding, dims, fn)
    if subm and any(k % 2 == 0 for k in kernel) or subm and dilation != [1] * dims:
        # paddle 2.6.2's CPU kernel answers these with shapes that are neither the input's nor a convolution's
        # (recorded: a 2x2 kernel on [5, 4] gives [6, 5] with fewer points); refused rather than guessed
        raise ValueError(f"paddle.sparse.nn.functional.{fn}: a submanifold convolution needs odd kernel sizes and "
                         f"dilation 1, got kernel {kernel}, dilation {dilation}")  # fmt: skip
    rules = conv_rulebook(x.indices().numpy(), x.shape[0], x.shape[1:-1], kernel, stride, padding, dilation, subm)
    taps = reshape(weight, [-1, c_in, c_out])
    out = zeros([rules.n_out, c_out], dtype=x.dtype)
    for k, (in_rows, out_rows) in enumerate(rules.pairs):
        if len(in_rows):
            part = matmul(gather(x.values(), to_tensor(in_rows)), taps[k])
            out = index_add(out, to_tensor(out_rows), 0, part)
    if bias is not None:
        out = out + bias
    spatial = x.shape[1:-1] if subm else out_spatial(x.shape[1:-1], kernel, stride, padding, dilation)
    return SparseCooTensor(to_tensor(rules.out_indices), out, [x.shape[0], *spatial, c_out])


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC", name=None):
    """The 3-D sparse convolution of x [N, D, H, W, C_in] (COO) with weight [kD, kH, kW, C_in, C_out]: outputs at
    every position a stored input reaches, in sorted order."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, False, data_format, 3, "conv3d")


def subm_conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC", key=None,
                name=None):  # fmt: skip
    """The 3-D submanifold convolution: outputs exactly at x's stored positions (x's spatial shape), each the sum
    over the kernel of its stored neighbours; stride and padding do not apply (as in paddle). `key` names a
    rulebook paddle caches on the GPU; it changes nothing here."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, True, data_format, 3, "subm_conv3d")


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC", name=None):
    """The 2-D sparse convolution of x [N, H, W, C_in] (COO) with weight [kH, kW, C_in, C_out]."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, False, data_format, 2, "conv2d")


def subm_conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC", key=None,
                name=None):  # fmt: skip
    """The 2-D submanifold convolution (see subm_conv3d)."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, True, data_format, 2, "subm_conv2d")
