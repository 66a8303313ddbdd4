"""Ops over tag and label sequences that are not compositions of other ops: viterbi_decode (the best tag path of
a linear-chain CRF), sequence_mask (lengths to a 0/1 mask) and gather_tree (beam-search backtracking); the last
two have no gradient: their outputs are masks and indices.

The walks are sequential in time (each step needs the previous one) and vectorized over the batch and the tags.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = [
    "viterbi_decode",
    "sequence_mask",
    "gather_tree",
]


@register
class ViterbiDecode(OpDef):
    """(scores [batch], paths [batch, max(lengths)]) of the best tag sequence under emission `potentials`
    [batch, seq_len, num_tags] and `transition` [num_tags, num_tags] (transition[i, j]: from tag i to tag j).

    With include_bos_eos_tag, transition's last row scores the start of a sequence and its second-to-last row its
    end. Paddle's kernel is followed step for step, its quirks included: a sequence shorter than the longest keeps
    its score from its last step, and its path is padded at the end (see `backtrack`).
    """

    name = "viterbi_decode"
    differentiable = False
    saves_inputs = False

    def kernel(self, potentials, transition, lengths, include_bos_eos_tag=True):
        batch = potentials.shape[0]
        max_len = int(lengths.max()) if batch else 0
        left = lengths.astype(np.int64) - 1  # steps left after the current one
        stop, start = transition[-2], transition[-1]
        alpha = potentials[:, 0]
        if include_bos_eos_tag:
            alpha = alpha + start + stop * (left == 0)[:, None]
        history = []  # history[i - 1][b, k]: the best previous tag of tag k at step i
        for i in range(1, max_len):
            candidates = alpha[:, :, None] + transition  # [batch, previous tag, tag]
            history.append(candidates.argmax(axis=1))
            going_on = (left > 0)[:, None]  # finished sequences keep their alpha
            alpha = np.where(going_on, candidates.max(axis=1) + potentials[:, i], alpha)
            if include_bos_eos_tag:
                alpha = alpha + stop * (left == 1)[:, None]
            left = left - 1
        scores = alpha.max(axis=1)
        return scores, self.backtrack(alpha.argmax(axis=1), history, left, max_len)

    @staticmethod
    def backtrack(last_ids, history, left, max_len):
        """The tag path, from the last step back, as paddle's kernel writes it: `left` counts (negatively) the
        steps from each sequence's end; a sequence's path before its end follows the back-pointers, at its end
        it is its best last tag, and after its end zeros."""
        path = np.zeros((max_len, len(last_ids)), dtype=np.int64)
        if max_len == 0:
            return path.T
        path[max_len - 1] = np.where(left >= 0, last_ids, 0)
        rows = np.arange(len(last_ids))
        for t in range(max_len - 2, -1, -1):
            left = left + 1
            previous = np.where(left > 0, history[t][rows, last_ids], 0)
            previous = np.where(left == 0, last_ids, previous)
            path[t] = previous
            last_ids = previous + np.where(left < 0, last_ids, 0)
        return path.T

    def infer_meta(self, potentials: Meta, transition: Meta, lengths: Meta, include_bos_eos_tag=True) -> tuple:
        batch = potentials.shape[0]
        return Meta((batch,), potentials.dtype), Meta((batch, -1), dtypes.int64)


def viterbi_decode(potentials: Tensor, transition: Tensor, lengths: Tensor, include_bos_eos_tag: bool) -> tuple:
    return apply(ViterbiDecode, (potentials, transition, lengths), {"include_bos_eos_tag": include_bos_eos_tag})


@register
class SequenceMask(OpDef):
    """out[..., j] = j < x[...], for j in [0, maxlen); maxlen None means the largest length in x (truncated)."""

    name = "sequence_mask"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, maxlen=None, dtype=np.int64):
        if maxlen is None:
            maxlen = int(x.max()) if x.size else 0
        return (np.arange(maxlen) < x[..., None]).astype(dtype)

    def infer_meta(self, x: Meta, maxlen=None, dtype=np.int64) -> Meta:
        return Meta((*x.shape, -1 if maxlen is None else maxlen), dtypes.from_numpy(np.dtype(dtype)))


def sequence_mask(x: Tensor, maxlen, dtype) -> Tensor:
    return apply(SequenceMask, (x,), {"maxlen": maxlen, "dtype": np.dtype(dtype)})


@register
class GatherTree(OpDef):
    """The full beam paths from per-step ids and parent beams ([max_time, batch, beam] each).

    Walking back from the last step, each beam follows its parent pointers: out[t] = ids[t, parent chain]. The
    walk is sequential in time and vectorized over batch and beam.
    """

    name = "gather_tree"
    differentiable = False
    saves_inputs = False

    def kernel(self, ids, parents):
        out = np.empty_like(ids)
        if ids.shape[0] == 0:
            return out
        batch = np.arange(ids.shape[1])[:, None]
        beam = np.broadcast_to(np.arange(ids.shape[2]), ids.shape[1:])
        for t in range(ids.shape[0] - 1, -1, -1):
            out[t] = ids[t, batch, beam]
            beam = parents[t, batch, beam]
        return out

    def infer_meta(self, ids: Meta, parents: Meta) -> Meta:
        return ids


def gather_tree(ids: Tensor, parents: Tensor) -> Tensor:
    return apply(GatherTree, (ids, parents))
