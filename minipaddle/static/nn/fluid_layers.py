"""Fluid-era layer functions paddle 2.6 keeps in paddle.static.nn: bilinear_tensor_product, row_conv, spectral_norm and
sparse_embedding, each making its parameters with Paddle's names (`row_conv_0.w_0`, ...).

Like the layers in common.py they are written on the public functions, so they also run outside a Program.
"""

from __future__ import annotations

import numpy as np

import minipaddle.nn.functional as F
from minipaddle import ops
from minipaddle.core.state import unique_name
from minipaddle.nn.initializer import Normal
from minipaddle.nn.param_attr import make_parameter
from minipaddle.static.nn.common import _act
from minipaddle.tensor.checks import check_tensor
from minipaddle.tensor.indexing import slice  # noqa: A004 (Paddle's name)
from minipaddle.tensor.manipulation import squeeze

__all__ = ["bilinear_tensor_product", "row_conv", "sparse_embedding", "spectral_norm"]


def _check_dtype(x, fn: str, arg: str, allowed: tuple) -> None:
    check_tensor(x, fn, arg)
    if x.dtype.name not in allowed:
        raise TypeError(f"{fn}: {arg} must be {' or '.join(allowed)}, got {x.dtype.name}")


def bilinear_tensor_product(x, y, size, act=None, name=None, param_attr=None, bias_attr=None):
    """out[n, k] = x[n] W[k] y[n]^T + b[k], with its own weight [size, x's width, y's width] and bias [1, size].

    Example:
        >>> out = paddle.static.nn.bilinear_tensor_product(x, y, size=5)    # x: [-1, 3], y: [-1, 4] -> [-1, 5]
    """
    fn = "bilinear_tensor_product"
    check_tensor(x, fn, "x")
    check_tensor(y, fn, "y")
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"{fn}: x and y must be 2-D, got shapes {x.shape} and {y.shape}")
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ValueError(f"{fn}: size must be a positive int, got {size!r}")
    prefix = name or unique_name(fn)
    w = make_parameter(prefix, [size, x.shape[1], y.shape[1]], param_attr, x.dtype, fn=fn)
    b = make_parameter(prefix, [1, size], bias_attr, x.dtype, is_bias=True, fn=fn)
    return _act(F.bilinear(x, y, w, b), act, fn)


def row_conv(input, future_context_size, param_attr=None, act=None):  # noqa: A002
    """Lookahead convolution (DeepSpeech 2): each step mixes itself and the next `future_context_size` steps,
    feature by feature: out[b, t, d] = sum_j input[b, t + j, d] * w[j, d] (steps past the end count as zero).

    `input` is [batch, time, features] (minipaddle has no LoD tensors, so every sequence of the batch has the full
    length); the weight is [future_context_size + 1, features].

    Example:
        >>> out = paddle.static.nn.row_conv(x, future_context_size=2)    # x: [4, 10, 16]
    """
    fn = "row_conv"
    _check_dtype(input, fn, "input", ("float32",))
    if not isinstance(future_context_size, int) or isinstance(future_context_size, bool) or future_context_size < 0:
        raise ValueError(f"{fn}: future_context_size must be a non-negative int, got {future_context_size!r}")
    if input.ndim < 2 or input.shape[-1] < 0:
        raise ValueError(f"{fn}: input must be [batch, time, features] with known features, got {input.shape}")
    k = future_context_size + 1
    w = make_parameter(unique_name(fn), [k, input.shape[-1]], param_attr, input.dtype, fn=fn)
    time_axis = input.ndim - 2
    steps = input.shape[time_axis]
    if steps < 0:
        raise ValueError(f"{fn}: the time dimension of input must be known, got {input.shape}")
    padding = [(0, 0)] * input.ndim
    padding[time_axis] = (0, future_context_size)
    padded = ops.pad(input, padding)  # zeros after the last step
    out = None
    for j in range(k):  # one shifted view per context offset (k is small), each over the whole batch at once
        term = ops.multiply(slice(padded, [time_axis], [j], [j + steps]), slice(w, [0], [j], [j + 1]))
        out = term if out is None else ops.add(out, term)
    return _act(out, act, fn)


def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    """The weight divided by its largest singular value sigma, estimated with `power_iters` rounds of power
    iteration from the vectors u ([weight.shape[dim]]) and v ([the rest]), two parameters drawn from N(0, 1)
    (`spectral_norm_0.w_0`, `spectral_norm_0.w_1`) that are read and not updated, as Paddle's op.

    The gradient is the true derivative of W / sigma with u and v held fixed (Paddle's kernel uses a shortcut that
    agrees with it only when the incoming gradient is uniform).

    Example:
        >>> w = paddle.static.data("w", [4, 3, 2], "float32")
        >>> out = paddle.static.nn.spectral_norm(w, dim=1, power_iters=2)
    """
    fn = "spectral_norm"
    _check_dtype(weight, fn, "weight", ("float32", "float64"))
    for arg, value, kind in (("dim", dim, int), ("power_iters", power_iters, int), ("eps", eps, float)):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise TypeError(f"{fn}: {arg} must be {kind.__name__}, got {type(value).__name__}")
    if dim not in (0, 1):
        raise ValueError(f"{fn}: dim must be 0 (the weight of fc) or 1 (of conv), got {dim}")
    if weight.ndim <= dim or any(s <= 0 for s in weight.shape):
        raise ValueError(f"{fn}: weight's shape must be known with no 0 dimension and rank > dim, got {weight.shape}")
    rows = weight.shape[dim]
    cols = int(np.prod(weight.shape)) // rows
    prefix = name or unique_name(fn)
    u = make_parameter(prefix, [rows], None, weight.dtype, default_initializer=Normal(0.0, 1.0), fn=fn)
    v = make_parameter(prefix, [cols], None, weight.dtype, default_initializer=Normal(0.0, 1.0), fn=fn)
    u.stop_gradient = v.stop_gradient = True
    return ops.spectral_norm(weight, u, v, dim, power_iters, eps)[0]


_TABLE_CLASSES = ("CommonSparseTable", "SSDSparseTable", "MemorySparseTable")


def sparse_embedding(input, size, padding_idx=None, is_test=False, entry=None, table_class="MemorySparseTable",  # noqa: A002
                     param_attr=None, dtype="float32", slot=None):  # fmt: skip
    """An embedding table of shape `size` = [vocabulary, dim] looked up at the int64 ids in `input`, whose last
    dimension must be 1 and is replaced by dim (Paddle's lookup_table): [N, 1] -> [N, dim].

    Paddle keeps this table in a parameter server as sparse rows; minipaddle keeps it as a dense parameter
    (`sparse_embedding_0.w_0`) with dense gradients, so the values are the same. `entry`, `table_class`,
    `is_test` and `slot` only steer the parameter server and are checked, not used.

    Example:
        >>> ids = paddle.static.data("ids", [-1, 1], "int64")
        >>> emb = paddle.static.nn.sparse_embedding(ids, [1000, 8])    # [-1, 8]
    """
    fn = "sparse_embedding"
    _check_dtype(input, fn, "input", ("int64",))
    if str(dtype).replace("paddle.", "") not in ("float32", "float64"):
        raise TypeError(f"{fn}: dtype must be float32 or float64, got {dtype}")
    if not (isinstance(size, (list, tuple)) and len(size) == 2):
        raise ValueError(f"{fn}: size must be [num_embeddings, embedding_dim], got {size!r}")
    if input.ndim == 0 or input.shape[-1] != 1:
        raise ValueError(f"{fn}: input's last dimension must be 1 (ids of shape [..., 1]), got shape {input.shape}")
    if table_class not in _TABLE_CLASSES:
        raise ValueError(f"{fn}: table_class must be one of {', '.join(_TABLE_CLASSES)}, got {table_class!r}")
    if entry is not None and type(entry).__name__ not in ("ProbabilityEntry", "CountFilterEntry", "ShowClickEntry"):
        raise ValueError(f"{fn}: entry must be a ProbabilityEntry, CountFilterEntry or ShowClickEntry, got {entry!r}")
    w = make_parameter(unique_name(fn), list(size), param_attr, dtype, fn=fn)
    if padding_idx is not None and padding_idx < 0:
        padding_idx += size[0]
    return F.embedding(squeeze(input, -1), w, padding_idx=padding_idx)
