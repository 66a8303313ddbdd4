"""paddle.io samplers: Sequence, Random, WeightedRandom, SubsetRandom, Batch and DistributedBatch."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.io import (
    BatchSampler,
    DistributedBatchSampler,
    RandomSampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

DATA = list(range(10))


def test_sequence_sampler_counts_up():
    assert list(SequenceSampler(DATA)) == DATA
    assert len(SequenceSampler(DATA)) == 10


def test_random_sampler_is_a_permutation_repeatable_with_seed():
    paddle.seed(0)
    first = list(RandomSampler(DATA))
    paddle.seed(0)
    again = list(RandomSampler(DATA))
    assert sorted(first) == DATA and first == again and first != DATA


def test_random_sampler_with_replacement_draws_num_samples():
    s = RandomSampler(DATA, replacement=True, num_samples=50)
    draws = list(s)
    assert len(s) == 50 and len(draws) == 50 and set(draws) <= set(DATA)
    assert len(set(draws)) < 50  # with replacement, repeats are certain among 50 draws of 10


def test_random_sampler_takes_indices_from_a_generator():
    assert list(RandomSampler(DATA, generator=iter([3, 1, 4]))) == [3, 1, 4]


def test_random_sampler_checks_its_arguments():
    with pytest.raises(ValueError, match="replacement=True"):
        RandomSampler(DATA, num_samples=3)
    with pytest.raises(TypeError, match="bool"):
        RandomSampler(DATA, replacement=1)
    with pytest.raises(ValueError, match="positive"):
        RandomSampler([], replacement=False)


def test_weighted_sampler_follows_the_weights():
    paddle.seed(1)
    draws = list(WeightedRandomSampler([0.0, 1.0, 3.0], num_samples=4000))
    counts = np.bincount(draws, minlength=3)
    assert counts[0] == 0  # weight 0 is never drawn
    assert 2.5 < counts[2] / counts[1] < 3.5


def test_weighted_sampler_without_replacement_and_2d_weights():
    draws = list(WeightedRandomSampler(np.array([1.0, 1.0, 1.0]), num_samples=3, replacement=False))
    assert sorted(draws) == [0, 1, 2]
    s = WeightedRandomSampler(np.ones((2, 4)), num_samples=3)
    assert len(s) == 6 and len(list(s)) == 6


def test_weighted_sampler_checks_its_arguments():
    with pytest.raises(ValueError, match="positive int"):
        WeightedRandomSampler([1.0], num_samples=0)
    with pytest.raises(ValueError, match="non-negative"):
        WeightedRandomSampler([1.0, -1.0], num_samples=1)
    with pytest.raises(ValueError, match="exceed"):
        WeightedRandomSampler([1.0, 0.0], num_samples=2, replacement=False)


def test_subset_random_sampler_shuffles_the_given_indices():
    assert sorted(SubsetRandomSampler([5, 7, 9])) == [5, 7, 9]
    with pytest.raises(ValueError):
        SubsetRandomSampler([])


def test_batch_sampler_groups_indices():
    assert list(BatchSampler(dataset=DATA, batch_size=4)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert len(BatchSampler(dataset=DATA, batch_size=4)) == 3
    dropped = BatchSampler(dataset=DATA, batch_size=4, drop_last=True)
    assert list(dropped) == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(dropped) == 2
    shuffled = [i for b in BatchSampler(dataset=DATA, batch_size=3, shuffle=True) for i in b]
    assert sorted(shuffled) == DATA
    from_sampler = BatchSampler(sampler=SequenceSampler(DATA[:5]), batch_size=2)
    assert list(from_sampler) == [[0, 1], [2, 3], [4]]


def test_batch_sampler_checks_its_arguments():
    with pytest.raises(ValueError, match="either"):
        BatchSampler()
    with pytest.raises(ValueError, match="not both"):
        BatchSampler(dataset=DATA, sampler=SequenceSampler(DATA))
    with pytest.raises(ValueError, match="batch_size"):
        BatchSampler(dataset=DATA, batch_size=0)
    with pytest.raises(ValueError, match="shuffle"):
        BatchSampler(sampler=SequenceSampler(DATA), shuffle=True)


# Recorded from paddle 2.6.2: DistributedBatchSampler(range(10), batch_size=2, num_replicas=3, rank=r, shuffle=...)
PADDLE_DISTRIBUTED = {
    False: [[[0, 1], [6, 7]], [[2, 3], [8, 9]], [[4, 5], [0, 1]]],
    True: [[[6, 1], [1, 7]], [[4, 0], [9, 3]], [[2, 8], [0, 5]]],
}


@pytest.mark.parametrize("shuffle", [False, True])
def test_distributed_batch_sampler_matches_paddle(shuffle):
    for rank in range(3):
        s = DistributedBatchSampler(DATA, batch_size=2, num_replicas=3, rank=rank, shuffle=shuffle)
        assert list(s) == PADDLE_DISTRIBUTED[shuffle][rank] and len(s) == 2


def test_distributed_batch_sampler_set_epoch_changes_the_order():
    s = DistributedBatchSampler(DATA, batch_size=4, num_replicas=1, rank=0, shuffle=True)
    s.set_epoch(5)
    assert list(s) == [[9, 5, 2, 4], [7, 1, 0, 8], [6, 3]]  # paddle 2.6.2's order for epoch 5


def test_distributed_batch_sampler_ranks_agree_on_each_epoch_and_split_it():
    """Each rank builds its own sampler: with the same set_epoch they cut one permutation into disjoint shares
    that cover the data, and the next epoch's permutation differs (what a data-parallel job relies on)."""
    data = list(range(12))

    def shares(epoch):
        out = []
        for rank in range(2):
            s = DistributedBatchSampler(data, batch_size=3, num_replicas=2, rank=rank, shuffle=True)
            s.set_epoch(epoch)
            out.append([i for batch in s for i in batch])
        return out

    for epoch in (0, 1):
        zero, one = shares(epoch)
        assert not set(zero) & set(one) and sorted(zero + one) == data
        assert shares(epoch) == [zero, one]  # the same epoch gives the same shares again
    assert shares(0) != shares(1)


def test_distributed_batch_sampler_checks_rank():
    with pytest.raises(ValueError, match="rank"):
        DistributedBatchSampler(DATA, batch_size=2, num_replicas=2, rank=2)
