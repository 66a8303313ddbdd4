"""The Viterbi decoding of a linear-chain CRF: the highest-scoring tag sequence under emission and transition
scores, as paddle.text.viterbi_decode and paddle.text.ViterbiDecoder (the op is in minipaddle/ops/sequence_ops.py).
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor.checks import check_bool, check_tensor

__all__ = ["viterbi_decode", "ViterbiDecoder"]

_FLOATS = (dtypes.float32, dtypes.float64)


def viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True, name=None) -> tuple:
    """Decode the highest-scoring tag sequence of each batch entry (the Viterbi path).

    Args:
        potentials (Tensor): the emission scores, [batch_size, sequence_length, num_tags], float32 or float64.
        transition_params (Tensor): the transition scores, [num_tags, num_tags] (row: from tag, column: to tag),
            of potentials' dtype.
        lengths (Tensor): each sequence's length, [batch_size], int64, at most sequence_length.
        include_bos_eos_tag (bool): if True (default), the last row of transition_params scores starting a
            sequence and the second-to-last row ending it.
        name (str, optional): unused, as in Paddle.

    Returns:
        (scores, paths): scores [batch_size] of potentials' dtype, the best path's score; paths
        [batch_size, max(lengths)], int64, the tags (0 after a sequence's end).

    Example:
        >>> emission = paddle.rand([2, 4, 3])
        >>> transition = paddle.rand([3, 3])
        >>> scores, path = paddle.text.viterbi_decode(emission, transition, paddle.to_tensor([4, 2]), False)
        >>> path.shape
        [2, 4]
    """
    fn = "viterbi_decode"
    check_tensor(potentials, fn, "potentials")
    check_tensor(transition_params, fn, "transition_params")
    check_tensor(lengths, fn, "lengths")
    include_bos_eos_tag = check_bool(include_bos_eos_tag, fn, "include_bos_eos_tag")
    if potentials.dtype not in _FLOATS:
        raise TypeError(f"{fn}: potentials must be float32 or float64, got {potentials.dtype.name}")
    if transition_params.dtype != potentials.dtype:
        raise TypeError(
            f"{fn}: transition_params must have potentials' dtype {potentials.dtype.name}, "
            f"got {transition_params.dtype.name}"
        )
    if lengths.dtype != dtypes.int64:
        raise TypeError(f"{fn}: lengths must be int64, got {lengths.dtype.name}")
    if potentials.ndim != 3:
        raise ValueError(
            f"{fn}: potentials must be 3-D [batch_size, sequence_length, num_tags], got shape {potentials.shape}"
        )
    batch, seq_len, num_tags = potentials.shape
    if transition_params.shape != [num_tags, num_tags]:
        raise ValueError(
            f"{fn}: transition_params must have shape [{num_tags}, {num_tags}] (num_tags of potentials), "
            f"got {transition_params.shape}"
        )
    if lengths.shape != [batch]:
        raise ValueError(f"{fn}: lengths must have shape [{batch}] (one per batch entry), got {lengths.shape}")
    if include_bos_eos_tag and num_tags < 2:
        raise ValueError(f"{fn}: include_bos_eos_tag needs at least 2 tags (the start and stop tags), got {num_tags}")
    if batch:
        longest, shortest = int(lengths.max()), int(lengths.min())
        if longest > seq_len or shortest < 0:
            raise ValueError(f"{fn}: lengths must be in [0, {seq_len}] (the sequence length), got {lengths.tolist()}")
    return ops.viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag)


class ViterbiDecoder(Layer):
    """The Viterbi decoding of `viterbi_decode` as a Layer holding the transition scores.

    Args:
        transitions (Tensor): the transition scores, [num_tags, num_tags].
        include_bos_eos_tag (bool): if True (default), the last row of transitions scores starting a sequence and
            the second-to-last row ending it.
        name (str, optional): unused, as in Paddle.

    Shape:
        potentials: [batch_size, sequence_length, num_tags], float32 or float64; lengths: [batch_size], int64.
        Returns (scores [batch_size], paths [batch_size, max(lengths)] int64).

    Example:
        >>> decoder = paddle.text.ViterbiDecoder(paddle.rand([3, 3]), include_bos_eos_tag=False)
        >>> scores, path = decoder(paddle.rand([2, 4, 3]), paddle.to_tensor([4, 2]))
    """

    def __init__(self, transitions, include_bos_eos_tag=True, name=None) -> None:
        super().__init__()
        self.transitions = check_tensor(transitions, "ViterbiDecoder", "transitions")
        self.include_bos_eos_tag = check_bool(include_bos_eos_tag, "ViterbiDecoder", "include_bos_eos_tag")
        self.name = name

    def forward(self, potentials, lengths) -> tuple:
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag, self.name)
