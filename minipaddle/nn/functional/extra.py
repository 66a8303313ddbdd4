"""paddle 2.6's further nn functions: attention, channel/pixel rearrangements, video and sequence helpers, and
the margin softmax of face recognition.

Most are compositions of existing ops (reshape, transpose, pad, matmul, softmax ...), so their gradients come
from those ops. sequence_mask, gather_tree and class_center_sample are ops of their own (ops/nn_extra.py) with
no gradient.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.dropout import dropout
from minipaddle.nn.functional.window_args import check_input
from minipaddle.tensor.checks import check_bool, check_float_tensor, check_number, check_tensor
from minipaddle.tensor.creation import diag_embed  # paddle.nn.functional.diag_embed is paddle.diag_embed

__all__ = [
    "scaled_dot_product_attention",
    "pixel_unshuffle",
    "channel_shuffle",
    "sequence_mask",
    "gather_tree",
    "temporal_shift",
    "diag_embed",
    "margin_cross_entropy",
    "class_center_sample",
]


def check_positive_int(v, fn: str, arg: str) -> int:
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    if v <= 0:
        raise ValueError(f"{fn}: {arg} must be positive, got {v}")
    return int(v)


def check_image_format(data_format, fn: str) -> bool:
    """True for 'NHWC' (channels last), False for 'NCHW'."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{fn}: data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    return data_format == "NHWC"


def _all_in_range(t: Tensor, low: int, high: int) -> bool:
    """Whether every value of the int tensor t is in [low, high); checked only in dynamic mode (a static Variable
    has no values yet)."""
    if not in_dynamic_mode() or t.size == 0:
        return True
    inside = ops.logical_and(ops.greater_equal(t, ops.full_like(t, low)), ops.less_than(t, ops.full_like(t, high)))
    return bool(ops.all(inside).item())


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


# ---- rearranging channels and pixels ----------------------------------------------------------------------------


def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None) -> Tensor:
    """The inverse of pixel_shuffle: [N, C, H, W] into [N, C*r*r, H/r, W/r] (r = downscale_factor); the pixel at
    offset (i, j) of each r x r block goes to channel c*r*r + i*r + j.

    Example:
        >>> F.pixel_unshuffle(paddle.rand([2, 1, 12, 12]), 3).shape
        [2, 9, 4, 4]
    """
    fn = "pixel_unshuffle"
    x = check_input(x, 2, fn)
    r = check_positive_int(downscale_factor, fn, "downscale_factor")
    last = check_image_format(data_format, fn)
    h, w = x.shape[1:3] if last else x.shape[2:4]
    if h % r or w % r:
        raise ValueError(f"{fn}: downscale_factor ({r}) must divide both the height ({h}) and the width ({w})")
    if last:  # [N, H, W, C] -> [N, H/r, W/r, C*r*r], channel c*r*r + i*r + j
        blocks = ops.reshape(x, (-1, h // r, r, w // r, r, x.shape[3]))
        return ops.reshape(ops.transpose(blocks, (0, 1, 3, 5, 2, 4)), (-1, h // r, w // r, x.shape[3] * r * r))
    blocks = ops.reshape(x, (-1, x.shape[1], h // r, r, w // r, r))
    return ops.reshape(ops.transpose(blocks, (0, 1, 3, 5, 2, 4)), (-1, x.shape[1] * r * r, h // r, w // r))


def channel_shuffle(x, groups, data_format="NCHW", name=None) -> Tensor:
    """ShuffleNet's channel shuffle: split the C channels into `groups` groups and interleave them, so channel
    g * (C/groups) + k moves to k * groups + g. The shape is kept.

    Example:
        >>> x = paddle.arange(6, dtype='float32').reshape([1, 6, 1, 1])
        >>> F.channel_shuffle(x, 3).flatten().tolist()
        [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]
    """
    fn = "channel_shuffle"
    x = check_input(x, 2, fn)
    groups = check_positive_int(groups, fn, "groups")
    last = check_image_format(data_format, fn)
    c = x.shape[3] if last else x.shape[1]
    if c % groups:
        raise ValueError(f"{fn}: groups ({groups}) must divide the number of channels ({c})")
    shape = tuple(x.shape)
    if last:
        split = ops.reshape(x, (*shape[:3], groups, c // groups))
        return ops.reshape(ops.transpose(split, (0, 1, 2, 4, 3)), shape)
    split = ops.reshape(x, (shape[0], groups, c // groups, *shape[2:]))
    return ops.reshape(ops.transpose(split, (0, 2, 1, 3, 4)), shape)


def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW") -> Tensor:
    """TSM's temporal shift: x holds N clips of seg_num frames ([N*seg_num, C, H, W]); the first
    C*shift_ratio channels of each frame take the previous frame's values, the next C*shift_ratio channels the
    next frame's, and the rest stay. Frames shifted in from outside a clip are zeros.

    Args:
        x (Tensor): [N*seg_num, C, H, W] (or [N*seg_num, H, W, C] with data_format 'NHWC'), float.
        seg_num (int): frames per clip. shift_ratio (float): the share of channels shifted each way, < 0.5.

    Example:
        >>> F.temporal_shift(paddle.rand([6, 4, 2, 2]), seg_num=2, shift_ratio=0.2).shape
        [6, 4, 2, 2]
    """
    fn = "temporal_shift"
    last = check_image_format(data_format, fn)
    x = check_input(x, 2, fn)
    seg_num = check_positive_int(seg_num, fn, "seg_num")
    shift_ratio = check_number(shift_ratio, fn, "shift_ratio")
    if not 0 <= shift_ratio < 0.5:
        raise ValueError(f"{fn}: shift_ratio must be in [0, 0.5), got {shift_ratio}")
    if x.shape[0] % seg_num:
        raise ValueError(f"{fn}: the batch size ({x.shape[0]}) must be divisible by seg_num ({seg_num})")
    channel_axis = 4 if last else 2  # in the [N, T, ...] view
    c = x.shape[3] if last else x.shape[1]
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    clips = ops.reshape(x, (-1, seg_num, *x.shape[1:]))
    padded = ops.pad(clips, [(0, 0), (1, 1), (0, 0), (0, 0), (0, 0)])  # a zero frame at each end of the clip

    def part(frames: slice, channels: slice) -> Tensor:
        index = [slice(None)] * 5
        index[1], index[channel_axis] = frames, channels
        return ops.index_view(padded, tuple(index))

    shifted = ops.concat(
        [
            part(slice(0, seg_num), slice(0, c1)),  # from the previous frame
            part(slice(2, seg_num + 2), slice(c1, c2)),  # from the next frame
            part(slice(1, seg_num + 1), slice(c2, c)),  # unchanged
        ],
        channel_axis,
    )
    return ops.reshape(shifted, tuple(x.shape))


# ---- sequences --------------------------------------------------------------------------------------------------


def sequence_mask(x, maxlen=None, dtype="int64", name=None) -> Tensor:
    """A mask of the valid steps of sequences of lengths x: out[..., j] = 1 where j < x[...], else 0.

    Args:
        x (Tensor): the lengths, int32/int64/float32/float64, any shape.
        maxlen (int|Tensor, optional): the mask's last dimension; None or negative: the largest length in x.
        dtype (str|paddle.dtype): of the mask. Default 'int64'.

    Returns:
        Tensor: shape x.shape + [maxlen].

    Example:
        >>> F.sequence_mask(paddle.to_tensor([1, 3]), maxlen=4).tolist()
        [[1, 0, 0, 0], [1, 1, 1, 0]]
    """
    fn = "sequence_mask"
    check_tensor(x, fn)
    if x.dtype.name not in ("int32", "int64", "float32", "float64"):
        raise TypeError(f"{fn}: x must be int32, int64, float32 or float64, got {x.dtype.name}")
    if isinstance(maxlen, Tensor):
        maxlen = maxlen.item()  # the mask's width is known before the op runs, as in paddle's dynamic mode
    if maxlen is not None:
        if not isinstance(maxlen, (int, np.integer)) or isinstance(maxlen, bool):
            raise TypeError(f"{fn}: maxlen must be an int or None, got {type(maxlen).__name__}")
        if maxlen == 0:
            raise ValueError(f"{fn}: maxlen must be negative (the largest length) or at least 1, got 0")
        maxlen = int(maxlen) if maxlen > 0 else None
    return ops.sequence_mask(x, maxlen, dtypes.to_dtype(dtype).np)


def gather_tree(ids, parents) -> Tensor:
    """Backtrack beam search: the full id sequence of each final beam, following the parent pointers back from
    the last step.

    Args:
        ids (Tensor): [max_time, batch_size, beam_size], int32 or int64: the id chosen at each step.
        parents (Tensor): like ids: the beam each step's beam came from.

    Returns:
        Tensor: like ids.

    Example:
        >>> ids = paddle.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
        >>> parents = paddle.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
        >>> F.gather_tree(ids, parents).tolist()
        [[[2, 2], [1, 6]], [[3, 3], [6, 1]], [[0, 1], [9, 0]]]
    """
    fn = "gather_tree"
    check_tensor(ids, fn, "ids")
    check_tensor(parents, fn, "parents")
    if ids.ndim != 3:
        raise ValueError(f"{fn}: ids must be 3-D [max_time, batch_size, beam_size], got shape {ids.shape}")
    if parents.shape != ids.shape:
        raise ValueError(f"{fn}: parents must have the shape of ids {ids.shape}, got {parents.shape}")
    for arg, t in (("ids", ids), ("parents", parents)):
        if t.dtype.name not in ("int32", "int64"):
            raise TypeError(f"{fn}: {arg} must be int32 or int64, got {t.dtype.name}")
    if ids.dtype != parents.dtype:
        raise TypeError(f"{fn}: ids and parents must have one dtype, got {ids.dtype.name} and {parents.dtype.name}")
    if not _all_in_range(parents, 0, ids.shape[2]):
        raise ValueError(f"{fn}: every parent must be in [0, beam_size = {ids.shape[2]})")
    return ops.gather_tree(ids, parents)


# ---- margin softmax (ArcFace, CosFace) --------------------------------------------------------------------------


def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0, group=None,
                         return_softmax=False, reduction="mean"):  # fmt: skip
    r"""The combined margin softmax loss of ArcFace / CosFace / SphereFace, on one device.

    logits are cosines (normalized features times normalized class weights). The target class's logit
    cos(theta) becomes cos(margin1 * theta + margin2) - margin3, every logit is multiplied by `scale`, and the
    loss is the softmax cross entropy of the result.

    Args:
        logits (Tensor): [N, num_classes], float, each in [-1, 1].
        label (Tensor): [N] or [N, 1], int32/int64.
        margin1, margin2, margin3 (float): m1, m2, m3 above. scale (float): s above.
        group: the model-parallel group; minipaddle runs on one device, so only None or False.
        return_softmax (bool): also return the softmax of the scaled, margined logits.
        reduction (str): 'none' ([N, 1] losses), 'mean' or 'sum'. Default 'mean'.

    Returns:
        Tensor or (Tensor, Tensor): the loss, and the softmax (the shape of logits) when return_softmax.

    Note: paddle 2.6 has only a GPU kernel for this; minipaddle computes the same formula with exact gradients.

    Example:
        >>> logits = paddle.to_tensor([[0.3, 0.8], [0.6, -0.2]])
        >>> F.margin_cross_entropy(logits, paddle.to_tensor([1, 0]), scale=4.0).shape
        []
    """
    fn = "margin_cross_entropy"
    check_float_tensor(logits, fn, "logits")
    check_tensor(label, fn, "label")
    if group not in (None, False):
        raise ValueError(f"{fn}: minipaddle runs on one device, so group must be None or False, got {group!r}")
    if label.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{fn}: label must be int32 or int64, got {label.dtype.name}")
    if logits.ndim - 1 != label.ndim and logits.ndim != label.ndim:
        raise ValueError(f"{fn}: label must have one dimension less than logits or as many, got logits "
                         f"{logits.shape} and label {label.shape}")  # fmt: skip
    if reduction not in ("none", "mean", "sum", None):
        raise ValueError(f"{fn}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    m1, m2, m3, s = (float(check_number(v, fn, a)) for v, a in
                     ((margin1, "margin1"), (margin2, "margin2"), (margin3, "margin3"), (scale, "scale")))  # fmt: skip
    if label.ndim == logits.ndim - 1:
        label = ops.reshape(label, (*label.shape, 1))
    if label.shape[-1] != 1 or tuple(label.shape[:-1]) != tuple(logits.shape[:-1]):
        raise ValueError(f"{fn}: label must be [N] or [N, 1] for logits {logits.shape}, got {label.shape}")
    num_classes = logits.shape[-1]
    if not _all_in_range(label, 0, num_classes):
        raise ValueError(f"{fn}: every label must be in [0, {num_classes})")
    label = ops.cast(label, np.int64)
    class_axis = logits.ndim - 1  # the raw op takes a non-negative axis
    target = ops.take_along_axis(logits, label, class_axis)
    margined = target
    if abs(m1 - 1.0) > 1e-8 or abs(m2) > 1e-8:  # as paddle's kernel: no acos/cos round trip without a margin
        margined = ops.cos(ops.scale(ops.acos(target), m1, m2))
    if abs(m3) > 1e-8:
        margined = ops.scale(margined, 1.0, -m3)
    is_target = ops.cast(ops.one_hot(ops.reshape(label, tuple(label.shape[:-1])), num_classes), logits.dtype.np)
    adjusted = ops.add(logits, ops.multiply(is_target, ops.subtract(margined, target)))
    log_probs = ops.log_softmax(ops.scale(adjusted, s), class_axis)
    loss = ops.neg(ops.take_along_axis(log_probs, label, class_axis))
    if reduction == "mean":
        loss = ops.mean(loss)
    elif reduction == "sum":
        loss = ops.sum(loss)
    return (loss, ops.exp(log_probs)) if return_softmax else loss


def class_center_sample(label, num_classes, num_samples, group=None) -> tuple:
    """PartialFC's class center sampling, on one device: keep every class that occurs in `label` (the positive
    centers, sorted) and fill up to `num_samples` with other classes drawn at random (from the generator
    `paddle.seed` sets); relabel the samples by their center's place in the kept list.

    Args:
        label (Tensor): [N], int32 or int64, in [0, num_classes).
        num_classes (int): the number of classes. num_samples (int): how many centers to keep, at most num_classes.
        group: the model-parallel group; minipaddle runs on one device, so only None or False.

    Returns:
        (Tensor, Tensor): the remapped labels ([N]) and the sampled class centers ([max(num_samples, positives)]),
        both of label's dtype.

    Example:
        >>> remapped, centers = F.class_center_sample(paddle.to_tensor([7, 2, 7]), 10, 4)
        >>> remapped.tolist(), centers.shape
        ([1, 0, 1], [4])
    """
    fn = "class_center_sample"
    check_tensor(label, fn, "label")
    if group not in (None, False):
        raise ValueError(f"{fn}: minipaddle runs on one device, so group must be None or False, got {group!r}")
    if label.ndim != 1:
        raise ValueError(f"{fn}: label must be 1-D [N], got shape {label.shape}")
    if label.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{fn}: label must be int32 or int64, got {label.dtype.name}")
    num_classes = check_positive_int(num_classes, fn, "num_classes")
    num_samples = check_positive_int(num_samples, fn, "num_samples")
    if num_samples > num_classes:
        raise ValueError(f"{fn}: num_samples ({num_samples}) must be at most num_classes ({num_classes})")
    return ops.class_center_sample(label, num_classes, num_samples)
