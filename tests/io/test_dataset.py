"""paddle.io datasets: Dataset, IterableDataset, TensorDataset, ComposeDataset, ChainDataset, ConcatDataset,
Subset, random_split."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.io import (
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)


class Numbers(Dataset):
    def __init__(self, values):
        self.values = list(values)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]


class Pairs(Dataset):
    def __len__(self):
        return 3

    def __getitem__(self, i):
        return np.array([i]), i * 10


class Count(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))


def test_a_dataset_without_getitem_or_len_says_so():
    class Empty(Dataset):
        pass

    with pytest.raises(TypeError, match="__getitem__"):
        Empty()[0]
    with pytest.raises(TypeError, match="__len__"):
        len(Empty())


def test_an_iterable_dataset_has_no_index_or_length():
    with pytest.raises(RuntimeError, match="iter"):
        Count(3)[0]
    with pytest.raises(TypeError, match="len"):
        len(Count(3))
    assert list(Count(3)) == [0, 1, 2]


def test_tensor_dataset_gives_rows_of_each_tensor():
    x = paddle.to_tensor(np.arange(12.0).reshape(4, 3))
    y = paddle.to_tensor([10, 11, 12, 13])
    ds = TensorDataset([x, y])
    assert len(ds) == 4
    row, label = ds[2]
    np.testing.assert_array_equal(row.numpy(), [6.0, 7.0, 8.0])
    assert label.item() == 12


def test_tensor_dataset_checks_its_tensors():
    with pytest.raises(ValueError, match="first dimension"):
        TensorDataset([paddle.zeros([3, 2]), paddle.zeros([4])])
    with pytest.raises(TypeError, match="Tensors"):
        TensorDataset([np.zeros(3)])


def test_compose_dataset_joins_fields_side_by_side():
    ds = ComposeDataset([Pairs(), Numbers([7, 8, 9])])
    assert len(ds) == 3
    image, label, extra = ds[1]
    assert image.tolist() == [1] and label == 10 and extra == 8
    with pytest.raises(ValueError, match="same length"):
        ComposeDataset([Pairs(), Numbers([1])])
    with pytest.raises(TypeError, match="IterableDataset"):
        ComposeDataset([Pairs(), Count(3)])


def test_chain_dataset_reads_one_stream_after_another():
    assert list(ChainDataset([Count(2), Count(3)])) == [0, 1, 0, 1, 2]
    with pytest.raises(TypeError, match="IterableDataset"):
        ChainDataset([Numbers([1])])


def test_concat_dataset_indexes_across_datasets():
    ds = ConcatDataset([Numbers("ab"), Numbers("cde")])
    assert len(ds) == 5
    assert [ds[i] for i in range(5)] == list("abcde")
    assert ds[-1] == "e"
    with pytest.raises(IndexError):
        ds[5]


def test_subset_reads_the_chosen_indices_in_order():
    sub = Subset(Numbers("abcdef"), [4, 0, 2])
    assert len(sub) == 3
    assert [sub[i] for i in range(3)] == ["e", "a", "c"]


def test_random_split_partitions_the_dataset_repeatably():
    ds = Numbers(range(10))
    paddle.seed(3)
    a, b = random_split(ds, [7, 3])
    got = sorted([a[i] for i in range(7)] + [b[i] for i in range(3)])
    assert got == list(range(10)) and len(a) == 7 and len(b) == 3
    paddle.seed(3)
    a2, _ = random_split(ds, [7, 3])
    assert [a[i] for i in range(7)] == [a2[i] for i in range(7)]
    with pytest.raises(ValueError, match="add up"):
        random_split(ds, [5, 3])
