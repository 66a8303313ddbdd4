"""Op-table section for the sequence ops (minipaddle/ops/sequence_ops.py): paddle.text.viterbi_decode.

The reference scores every possible tag sequence (brute force, so it shares nothing with the kernel's dynamic
programming). Paddle's path is the best sequence followed by zeros up to the longest length; a sequence of length
0 scores its first step alone (plus the start transition) and its path is all zeros. Values were checked against
paddle 2.6 (tests/text/test_viterbi_decode.py holds recorded ones).
"""

from __future__ import annotations

import itertools

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r


def viterbi_ref(potentials, transition, lengths, include_bos_eos_tag=True, part=0):
    batch, _, num_tags = potentials.shape
    width = int(lengths.max())
    start, stop = transition[-1], transition[-2]
    scores = np.zeros(batch, potentials.dtype)
    paths = np.zeros((batch, width), np.int64)
    for b, length in enumerate(lengths):
        if length == 0:
            scores[b] = (potentials[b, 0] + (start if include_bos_eos_tag else 0)).max()
            continue
        best = None
        for tags in itertools.product(range(num_tags), repeat=int(length)):
            score = sum(potentials[b, t, tag] for t, tag in enumerate(tags))
            score += sum(transition[a, c] for a, c in itertools.pairwise(tags))
            if include_bos_eos_tag:
                score += start[tags[0]] + stop[tags[-1]]
            if best is None or score > best[0]:
                best = (score, tags)
        scores[b] = best[0]
        paths[b, :length] = best[1]
    return (scores, paths)[part]


def viterbi_fn(potentials, transition, lengths, include_bos_eos_tag=True, part=0):
    return paddle.text.viterbi_decode(potentials, transition, lengths, include_bos_eos_tag)[part]


def viterbi_samples(rng):
    samples = []
    for part in (0, 1):
        samples += [
            Sample((r(rng, 3, 5, 3), r(rng, 3, 3), np.array([5, 3, 1])), {"part": part}, "start/stop tags"),
            Sample((r(rng, 2, 4, 3), r(rng, 3, 3), np.array([2, 3]), False), {"part": part}, "no start/stop"),
            Sample((r(rng, 3, 4, 4), r(rng, 4, 4), np.array([0, 2, 1])), {"part": part}, "a length 0"),
        ]
    return samples


ENTRIES = [
    OpInfo("viterbi_decode", viterbi_fn, viterbi_ref, viterbi_samples, grad=False),
]
