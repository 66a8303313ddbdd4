"""Segment reductions (paddle.geometric.segment_sum/mean/max/min): fold the rows of data that share a segment id.

Each is one `graph_reduce` op (minipaddle/ops/graph_ops.py) with the ids as the index: output row i reduces the
rows of data whose id is i, and has max(segment_ids) + 1 rows; a segment no row names is 0.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_tensor

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min"]

_FEATURE_DTYPES = ("float16", "float32", "float64", "int32", "int64")
_INDEX_DTYPES = ("int32", "int64")


def check_features(x, fn: str, arg: str) -> Tensor:
    """Node or edge features: a Tensor of at least one dimension, of a dtype Paddle's graph kernels take."""
    check_tensor(x, fn, arg)
    if x.dtype.name not in _FEATURE_DTYPES:
        raise TypeError(f"{fn}: {arg} must be one of {', '.join(_FEATURE_DTYPES)}, got {x.dtype.name}")
    if len(x.shape) == 0:
        raise ValueError(f"{fn}: {arg} must have at least one dimension (one row per node or edge), got a 0-d tensor")
    return x


def check_ids(index, fn: str, arg: str, length=None) -> Tensor:
    """A 1-D int32/int64 Tensor of node ids, of `length` entries when given."""
    check_tensor(index, fn, arg)
    if index.dtype.name not in _INDEX_DTYPES:
        raise TypeError(f"{fn}: {arg} must be int32 or int64, got {index.dtype.name}")
    if len(index.shape) != 1:
        raise ValueError(f"{fn}: {arg} must be a 1-D tensor, got shape {list(index.shape)}")
    if length not in (None, -1) and index.shape[0] not in (length, -1):
        raise ValueError(f"{fn}: {arg} must have {length} entries, got {index.shape[0]}")
    return index


def _segment(data, segment_ids, reduce: str, fn: str) -> Tensor:
    check_features(data, fn, "data")
    check_ids(segment_ids, fn, "segment_ids", data.shape[0])
    return ops.graph_reduce(data, segment_ids, reduce, None, sorted_index=True)


def segment_sum(data, segment_ids, name=None) -> Tensor:
    """
    Segment sum: out[i] = the sum of the rows data[j] with segment_ids[j] == i.

    Args:
        data (Tensor): float16, float32, float64, int32 or int64, of any shape with at least one dimension.
        segment_ids (Tensor): 1-D int32 or int64, sorted, one id per row of data (len(segment_ids) == data.shape[0]).
        name (str, optional): unused, kept for Paddle compatibility.

    Returns:
        Tensor of data's dtype, shape [max(segment_ids) + 1, *data.shape[1:]]; a segment with no rows is 0.

    Examples:
        >>> import minipaddle as paddle
        >>> data = paddle.to_tensor([[1., 2, 3], [3, 2, 1], [4, 5, 6]])
        >>> paddle.geometric.segment_sum(data, paddle.to_tensor([0, 0, 1])).numpy()
        array([[4., 4., 4.],
               [4., 5., 6.]], dtype=float32)
    """
    return _segment(data, segment_ids, "sum", "segment_sum")


def segment_mean(data, segment_ids, name=None) -> Tensor:
    """
    Segment mean: out[i] = the mean of the rows data[j] with segment_ids[j] == i (integers divide truncating).

    Args and Returns as in `segment_sum`.

    Examples:
        >>> data = paddle.to_tensor([[1., 2, 3], [3, 2, 1], [4, 5, 6]])
        >>> paddle.geometric.segment_mean(data, paddle.to_tensor([0, 0, 1])).numpy()
        array([[2., 2., 2.],
               [4., 5., 6.]], dtype=float32)
    """
    return _segment(data, segment_ids, "mean", "segment_mean")


def segment_max(data, segment_ids, name=None) -> Tensor:
    """
    Segment max: out[i] = the elementwise maximum of the rows data[j] with segment_ids[j] == i.

    The gradient goes to every row equal to the maximum (ties each get the whole gradient, as in Paddle 2.6).
    Args and Returns as in `segment_sum`.

    Examples:
        >>> data = paddle.to_tensor([[1., 2, 3], [3, 2, 1], [4, 5, 6]])
        >>> paddle.geometric.segment_max(data, paddle.to_tensor([0, 0, 1])).numpy()
        array([[3., 2., 3.],
               [4., 5., 6.]], dtype=float32)
    """
    return _segment(data, segment_ids, "max", "segment_max")


def segment_min(data, segment_ids, name=None) -> Tensor:
    """
    Segment min: out[i] = the elementwise minimum of the rows data[j] with segment_ids[j] == i.

    The gradient goes to every row equal to the minimum. Args and Returns as in `segment_sum`.

    Examples:
        >>> data = paddle.to_tensor([[1., 2, 3], [3, 2, 1], [4, 5, 6]])
        >>> paddle.geometric.segment_min(data, paddle.to_tensor([0, 0, 1])).numpy()
        array([[1., 2., 1.],
               [4., 5., 6.]], dtype=float32)
    """
    return _segment(data, segment_ids, "min", "segment_min")
