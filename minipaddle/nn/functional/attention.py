"""paddle.nn.functional.scaled_dot_product_attention: softmax(q k^T / sqrt(d) + mask) v, with dropout on the
weights, for inputs laid out [batch, seq_len, num_heads, head_dim] as Paddle's.

A composition of ops (transpose, matmul, softmax, dropout), so its gradient comes from those ops.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.dropout import dropout
from minipaddle.tensor.checks import check_bool, check_float, check_float_tensor, check_tensor

__all__ = [
    "scaled_dot_product_attention",
]


# ---- attention --------------------------------------------------------------------------------------------------


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, training=True,
                                 name=None) -> Tensor:  # fmt: skip
    r"""Attention of every query to every key: softmax(Q K^T / sqrt(d) + mask) V, per batch and head.

    The layout is paddle's flash-attention one, heads third: [batch_size, seq_len, num_heads, head_dim].

    Args:
        query (Tensor): [batch_size, seq_len_q, num_heads, head_dim].
        key (Tensor): [batch_size, seq_len_k, num_heads, head_dim].
        value (Tensor): [batch_size, seq_len_k, num_heads, head_dim_v].
        attn_mask (Tensor, optional): a float mask added to the scores, broadcastable to
            [batch_size, num_heads, seq_len_q, seq_len_k] (-inf hides a key). Default None.
        dropout_p (float): the probability of dropping an attention weight while training. Default 0.
        is_causal (bool): hide the keys after each query's own position (key j > query i). Default False.
        training (bool): whether dropout is applied. Default True.

    Returns:
        Tensor: [batch_size, seq_len_q, num_heads, head_dim_v], the dtype of query.

    Note: paddle 2.6 on CPU supports only attn_mask=None and is_causal=False (the mask and the causal mode run
    only on GPU kernels); minipaddle computes both, as those kernels do.

    Example:
        >>> q = paddle.rand([1, 8, 2, 16])
        >>> F.scaled_dot_product_attention(q, q, q).shape
        [1, 8, 2, 16]
    """
    dropout_p = check_float(dropout_p, "scaled_dot_product_attention", "dropout_p")
    fn = "scaled_dot_product_attention"
    for arg, t in (("query", query), ("key", key), ("value", value)):
        check_float_tensor(t, fn, arg)
        if t.ndim != 4:
            raise ValueError(f"{fn}: {arg} must be 4-D [batch_size, seq_len, num_heads, head_dim], got shape {t.shape}")
    if query.dtype != key.dtype or query.dtype != value.dtype:
        raise TypeError(f"{fn}: query, key and value must have one dtype, got {query.dtype.name}, "
                        f"{key.dtype.name} and {value.dtype.name}")  # fmt: skip
    if query.shape[-1] != key.shape[-1] or key.shape[1] != value.shape[1]:
        raise ValueError(f"{fn}: query {query.shape}, key {key.shape} and value {value.shape} do not fit: query "
                         "and key need the same head_dim, key and value the same seq_len")  # fmt: skip
    check_bool(is_causal, fn, "is_causal")
    q = ops.transpose(query, (0, 2, 1, 3))  # [batch, heads, seq, dim]
    k = ops.transpose(key, (0, 2, 1, 3))
    v = ops.transpose(value, (0, 2, 1, 3))
    scores = ops.matmul(ops.scale(q, query.shape[-1] ** -0.5), k, transpose_y=True)
    if attn_mask is not None:
        check_tensor(attn_mask, fn, "attn_mask")
        if attn_mask.dtype != query.dtype:
            raise TypeError(f"{fn}: attn_mask must be a float mask of query's dtype ({query.dtype.name}), "
                            f"got {attn_mask.dtype.name}")  # fmt: skip
        scores = ops.add(scores, attn_mask)
    if is_causal:
        future = np.triu(np.ones(scores.shape[-2:], dtype=bool), 1)
        scores = ops.where(ops.assign_value(future), ops.full_like(scores, -np.inf), scores)
    weights = ops.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=training, mode="upscale_in_train")
    return ops.transpose(ops.matmul(weights, v), (0, 2, 1, 3))
