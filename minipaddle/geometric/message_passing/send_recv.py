"""Message passing (paddle.geometric.send_u_recv, send_ue_recv, send_uv): gather, combine, reduce.

Each edge e runs from node src_index[e] to node dst_index[e]. The functions are compositions of three kinds of op:

    message[e] = x[src_index[e]]                          gather            (send_u_recv)
    message[e] = x[src_index[e]] (op) y[e]                gather + add/mul  (send_ue_recv)
    out[e]     = x[src_index[e]] (op) y[dst_index[e]]     gather + add/mul  (send_uv, no reduction)
    out[n]     = reduce(message[e] for e with dst_index[e] == n)            graph_reduce

so their gradients come from those ops' rules. As in Paddle, 'sub' adds -y and 'div' multiplies by
1 / (y + 1e-12), and a 1-D x or y is read as one feature per row ([N] -> [N, 1]).
"""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.geometric.math import check_features, check_ids
from minipaddle.ops.kinds import broadcast_shapes

__all__ = ["send_u_recv", "send_ue_recv", "send_uv"]

_REDUCE_OPS = ("sum", "mean", "max", "min")
_MESSAGE_OPS = ("add", "sub", "mul", "div")


def _check_reduce_op(reduce_op, fn: str) -> str:
    if reduce_op not in _REDUCE_OPS:
        raise ValueError(f"{fn}: reduce_op should be `sum`, `mean`, `max` or `min`, but received {reduce_op!r}")
    return reduce_op


def _check_message_op(message_op, fn: str) -> str:
    if message_op not in _MESSAGE_OPS:
        raise ValueError(f"{fn}: message_op should be `add`, `sub`, `mul` or `div`, but received {message_op!r}")
    return message_op


def _check_edges(src_index, dst_index, fn: str) -> None:
    check_ids(src_index, fn, "src_index")
    check_ids(dst_index, fn, "dst_index", src_index.shape[0])
    if src_index.dtype != dst_index.dtype:
        raise TypeError(f"{fn}: src_index and dst_index must have the same dtype, got {src_index.dtype.name} and "
                        f"{dst_index.dtype.name}")  # fmt: skip


def _out_rows(out_size, x: Tensor, fn: str) -> int:
    """out_size as a row count: None or <= 0 means x's number of rows (as Paddle)."""
    if isinstance(out_size, Tensor):
        if out_size.dtype.name not in ("int32", "int64") or out_size.size != 1:
            raise TypeError(f"{fn}: out_size as a Tensor must hold one int32/int64 value, got {out_size.dtype.name} "
                            f"of shape {list(out_size.shape)}")  # fmt: skip
        out_size = out_size.item()
    if out_size is None:
        return x.shape[0]
    if not isinstance(out_size, (numbers.Integral, np.integer)) or isinstance(out_size, bool):
        raise TypeError(f"{fn}: out_size must be an int, a Tensor or None, got {type(out_size).__name__}")
    return int(out_size) if out_size > 0 else x.shape[0]


def _same_dtype(x: Tensor, y: Tensor, fn: str) -> None:
    if x.dtype != y.dtype:
        raise TypeError(f"{fn}: x and y must have the same dtype, got {x.dtype.name} and {y.dtype.name}")


def _rows_alike(x: Tensor, y: Tensor) -> tuple:
    """Paddle's reshape_lhs_rhs: a 1-D tensor becomes [N, 1]; the one with fewer dimensions gets 1s after dim 0."""
    if len(x.shape) == 1:
        x = ops.reshape(x, (-1, 1))
    if len(y.shape) == 1:
        y = ops.reshape(y, (-1, 1))
    ndim = max(len(x.shape), len(y.shape))
    x = ops.reshape(x, (-1,) + (1,) * (ndim - len(x.shape)) + tuple(x.shape[1:]))
    y = ops.reshape(y, (-1,) + (1,) * (ndim - len(y.shape)) + tuple(y.shape[1:]))
    return x, y


def _message(left: Tensor, right: Tensor, message_op: str, fn: str) -> Tensor:
    """left (op) right, with 'sub' as left + (-right) and 'div' as left * (1 / (right + 1e-12)), as Paddle."""
    broadcast_shapes(tuple(left.shape[1:]), tuple(right.shape[1:]), fn)  # a ValueError naming fn
    if message_op == "div" and not right.dtype.is_floating:
        raise TypeError(f"{fn}: message_op 'div' needs floating x and y (it multiplies by 1 / (y + 1e-12)), "
                        f"got {right.dtype.name}")  # fmt: skip
    if message_op == "sub":
        return ops.add(left, ops.neg(right))
    if message_op == "div":
        return ops.multiply(left, ops.divide(1.0, ops.add(right, 1e-12)))
    return ops.add(left, right) if message_op == "add" else ops.multiply(left, right)


def send_u_recv(x, src_index, dst_index, reduce_op="sum", out_size=None, name=None) -> Tensor:
    """
    Graph message passing: gather x's rows by src_index, then reduce them into the rows named by dst_index.

    out[n] = reduce_op(x[src_index[e]] for every edge e with dst_index[e] == n); a row no edge reaches is 0.

    Args:
        x (Tensor): node features, float16, float32, float64, int32 or int64, shape [N, ...].
        src_index (Tensor): 1-D int32 or int64, the source node of each edge.
        dst_index (Tensor): 1-D, of src_index's shape and dtype, the destination node of each edge.
        reduce_op (str): 'sum' (default), 'mean', 'max' or 'min'. max/min send the gradient to every message
            equal to the result.
        out_size (int|Tensor|None): the number of output rows; None or <= 0 means N. It must be at least
            max(dst_index) + 1.
        name (str, optional): unused, kept for Paddle compatibility.

    Returns:
        Tensor of x's dtype, shape [out_size, *x.shape[1:]].

    Examples:
        >>> import minipaddle as paddle
        >>> x = paddle.to_tensor([[0., 2, 3], [1, 4, 5], [2, 6, 7]])
        >>> src, dst = paddle.to_tensor([0, 1, 2, 0]), paddle.to_tensor([1, 2, 1, 0])
        >>> paddle.geometric.send_u_recv(x, src, dst, reduce_op="sum").numpy()
        array([[ 0.,  2.,  3.],
               [ 2.,  8., 10.],
               [ 1.,  4.,  5.]], dtype=float32)
    """
    fn = "send_u_recv"
    _check_reduce_op(reduce_op, fn)
    check_features(x, fn, "x")
    _check_edges(src_index, dst_index, fn)
    rows = _out_rows(out_size, x, fn)
    return ops.graph_reduce(ops.gather(x, src_index), dst_index, reduce_op, rows)


def send_ue_recv(x, y, src_index, dst_index, message_op="add", reduce_op="sum", out_size=None, name=None) -> Tensor:
    """
    Graph message passing with edge features: out[n] = reduce_op(x[src_index[e]] message_op y[e] for the edges e
    with dst_index[e] == n).

    Args:
        x (Tensor): node features, shape [N, ...]; float16, float32, float64, int32 or int64.
        y (Tensor): edge features of x's dtype, one row per edge, shape [E, ...]; the feature shapes of x and y
            broadcast together (a 1-D x or y is read as [*, 1]).
        src_index (Tensor), dst_index (Tensor): 1-D int32 or int64 of E entries each.
        message_op (str): 'add' (default), 'sub', 'mul' or 'div' ('div' multiplies by 1 / (y + 1e-12)).
        reduce_op (str): 'sum' (default), 'mean', 'max' or 'min'.
        out_size (int|Tensor|None): the number of output rows; None or <= 0 means N.
        name (str, optional): unused, kept for Paddle compatibility.

    Returns:
        Tensor of x's dtype, shape [out_size, *broadcast(x.shape[1:], y.shape[1:])].

    Examples:
        >>> x = paddle.to_tensor([[0., 2, 3], [1, 4, 5], [2, 6, 7]])
        >>> y = paddle.to_tensor([1., 1, 1, 1])
        >>> src, dst = paddle.to_tensor([0, 1, 2, 0]), paddle.to_tensor([1, 2, 1, 0])
        >>> paddle.geometric.send_ue_recv(x, y, src, dst, message_op="add", reduce_op="sum").numpy()
        array([[ 1.,  3.,  4.],
               [ 4., 10., 12.],
               [ 2.,  5.,  6.]], dtype=float32)
    """
    fn = "send_ue_recv"
    _check_message_op(message_op, fn)
    _check_reduce_op(reduce_op, fn)
    check_features(x, fn, "x")
    check_features(y, fn, "y")
    _check_edges(src_index, dst_index, fn)
    _same_dtype(x, y, fn)
    if y.shape[0] not in (src_index.shape[0], -1):
        raise ValueError(f"{fn}: y must have one row per edge ({src_index.shape[0]}), got shape {list(y.shape)}")
    rows = _out_rows(out_size, x, fn)
    x, y = _rows_alike(x, y)
    messages = _message(ops.gather(x, src_index), y, message_op, fn)
    return ops.graph_reduce(messages, dst_index, reduce_op, rows)


def send_uv(x, y, src_index, dst_index, message_op="add", name=None) -> Tensor:
    """
    Edge features from the features of both ends: out[e] = x[src_index[e]] message_op y[dst_index[e]].

    Args:
        x (Tensor): source node features, shape [N, ...]; float16, float32, float64, int32 or int64.
        y (Tensor): destination node features of x's dtype, shape [M, ...]; the feature shapes broadcast together
            (a 1-D x or y is read as [*, 1]).
        src_index (Tensor), dst_index (Tensor): 1-D int32 or int64 of E entries each.
        message_op (str): 'add' (default), 'sub', 'mul' or 'div' ('div' multiplies by 1 / (y + 1e-12)).
        name (str, optional): unused, kept for Paddle compatibility.

    Returns:
        Tensor of x's dtype, shape [E, *broadcast(x.shape[1:], y.shape[1:])].

    Examples:
        >>> x = paddle.to_tensor([[0., 2, 3], [1, 4, 5], [2, 6, 7]])
        >>> y = paddle.to_tensor([[0., 1, 2], [2, 3, 4], [4, 5, 6]])
        >>> src, dst = paddle.to_tensor([0, 1, 2, 0]), paddle.to_tensor([1, 2, 1, 0])
        >>> paddle.geometric.send_uv(x, y, src, dst, message_op="add").numpy()
        array([[ 2.,  5.,  7.],
               [ 5.,  9., 11.],
               [ 4.,  9., 11.],
               [ 0.,  3.,  5.]], dtype=float32)
    """
    fn = "send_uv"
    _check_message_op(message_op, fn)
    check_features(x, fn, "x")
    check_features(y, fn, "y")
    _check_edges(src_index, dst_index, fn)
    _same_dtype(x, y, fn)
    x, y = _rows_alike(x, y)
    return _message(ops.gather(x, src_index), ops.gather(y, dst_index), message_op, fn)
