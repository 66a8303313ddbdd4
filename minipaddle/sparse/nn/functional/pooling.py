"""paddle.sparse.nn.functional.max_pool3d: max pooling of a COO tensor [N, D, H, W, C], as paddle 2.6's CPU kernel:
the outputs are every position a stored input reaches (the rulebook of a regular convolution), and each output is
the largest of the stored inputs in its window, channel by channel (the zeros that are not stored take no part).
The gradient goes to the input holding each maximum."""

from __future__ import annotations

import numpy as np

from minipaddle.sparse.nn.functional.conv import as_list, check_coo, spatial_padding
from minipaddle.sparse.nn.functional.rulebook import conv_rulebook, out_spatial
from minipaddle.sparse.tensor import SparseCooTensor
from minipaddle.tensor.creation import to_tensor, zeros
from minipaddle.tensor.indexing import gather, index_add
from minipaddle.tensor.manipulation import stack
from minipaddle.tensor.math import max as tensor_max

__all__ = ["max_pool3d"]


def max_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NDHWC", name=None):
    """Max pooling over windows of kernel_size (stride defaults to kernel_size), padding each spatial dimension.
    ceil_mode is accepted and, as in paddle 2.6's sparse kernel, changes nothing."""
    fn = "max_pool3d"
    check_coo(x, 3, fn)
    if data_format != "NDHWC":
        raise ValueError(f"paddle.sparse.nn.functional.{fn}: data_format must be 'NDHWC', got {data_format!r}")
    kernel = as_list(kernel_size, 3, fn, "kernel_size")
    stride = kernel if stride is None else as_list(stride, 3, fn, "stride")
    padding = spatial_padding(padding, 3, fn)
    rules = conv_rulebook(x.indices().numpy(), x.shape[0], x.shape[1:-1], kernel, stride, padding, [1, 1, 1], False)
    channels = x.shape[-1]
    # one candidate per kernel offset: the input that offset brings to each output, -inf where it brings none
    # (each output meets at most one input per offset, so the index_add only places values; the -inf is added
    # after it, as a constant, since adding a value to -inf would keep -inf)
    base = zeros([rules.n_out, channels], dtype=x.dtype)
    candidates = []
    for in_rows, out_rows in rules.pairs:
        if len(in_rows):
            absent = np.full((rules.n_out, 1), -np.inf)
            absent[out_rows] = 0.0
            placed = index_add(base, to_tensor(out_rows), 0, gather(x.values(), to_tensor(in_rows)))
            candidates.append(placed + to_tensor(absent, dtype=x.dtype))
    values = tensor_max(stack(candidates), axis=0) if candidates else base
    shape = [x.shape[0], *out_spatial(x.shape[1:-1], kernel, stride, padding, [1, 1, 1]), channels]
    return SparseCooTensor(to_tensor(rules.out_indices), values, shape)
