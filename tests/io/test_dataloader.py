"""paddle.io.DataLoader in the main process (num_workers=0): batch structure and dtypes as paddle 2.6 gives them,
len, drop_last, shuffle, batch_size=None, batch_sampler, collate_fn, IterableDataset."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.io import BatchSampler, DataLoader, Dataset, IterableDataset, TensorDataset, default_collate_fn
from tests.io.workloads import Squares, Stream


class Kinds(Dataset):
    """Samples of one kind each, as in the paddle 2.6 runs the expectations below were recorded from."""

    def __init__(self, kind):
        self.kind = kind

    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {
            "array": lambda: np.full([2], i, "float32"),
            "dict": lambda: {"x": np.full([2], i, "float32"), "y": float(i), "name": f"n{i}"},
            "nested": lambda: (np.float32(i), [i, np.int32(i)], {"a": np.ones(1)}),
            "tensor": lambda: (paddle.to_tensor([i, i]), np.array([i])),
            "int": lambda: i,
        }[self.kind]()


def first_batch(kind, **kw):
    return next(iter(DataLoader(Kinds(kind), batch_size=2, **kw)))


def test_a_single_array_sample_gives_a_tensor_batch():
    b = first_batch("array")
    assert isinstance(b, paddle.Tensor) and b.shape == [2, 2] and b.dtype == paddle.float32
    assert b.stop_gradient


def test_tuple_samples_give_a_list_of_tensors():
    x, y = next(iter(DataLoader(Squares(5), batch_size=2)))
    assert x.shape == [2, 3] and x.dtype == paddle.float32
    assert y.shape == [2] and y.dtype == paddle.int64  # Python ints stack to int64
    np.testing.assert_array_equal(y.numpy(), [0, 1])


def test_dict_samples_keep_keys_and_gather_strings():
    b = first_batch("dict")
    assert set(b) == {"x", "y", "name"}
    assert b["x"].shape == [2, 2] and b["y"].dtype == paddle.float64  # Python floats stack to float64
    assert b["name"] == ["n0", "n1"]


def test_nested_samples_keep_their_structure_and_numpy_dtypes():
    b = first_batch("nested")
    assert isinstance(b, list) and len(b) == 3
    assert b[0].dtype == paddle.float32
    assert b[1][0].dtype == paddle.int64 and b[1][1].dtype == paddle.int32
    assert b[2]["a"].shape == [2, 1] and b[2]["a"].dtype == paddle.float64


def test_tensor_fields_are_stacked():
    t, a = first_batch("tensor")
    assert t.shape == [2, 2] and t.dtype == paddle.int64 and a.shape == [2, 1]


def test_number_samples_give_one_tensor():
    b = first_batch("int")
    assert b.shape == [2] and b.dtype == paddle.int64


def test_len_and_drop_last():
    assert len(DataLoader(Squares(10), batch_size=3)) == 4
    loader = DataLoader(Squares(10), batch_size=3, drop_last=True)
    assert len(loader) == 3
    assert [len(y.numpy()) for _, y in loader] == [3, 3, 3]


def test_shuffle_follows_paddle_seed():
    def order():
        paddle.seed(7)
        return [int(v) for _, y in DataLoader(Squares(10), batch_size=4, shuffle=True) for v in np.sqrt(y.numpy())]

    first, again = order(), order()
    assert sorted(first) == list(range(10)) and first == again and first != list(range(10))


def test_batch_size_none_returns_samples_one_by_one():
    loader = DataLoader(Squares(3), batch_size=None)
    assert len(loader) == 3
    x, y = list(loader)[2]
    assert isinstance(x, paddle.Tensor) and x.shape == [3] and y == 4  # numbers stay Python numbers


def test_batch_sampler_replaces_batch_size():
    loader = DataLoader(Squares(5), batch_sampler=BatchSampler(dataset=Squares(5), batch_size=2, drop_last=True))
    assert [y.numpy().tolist() for _, y in loader] == [[0, 1], [4, 9]]
    with pytest.raises(ValueError, match="batch_sampler"):
        DataLoader(Squares(5), batch_sampler=BatchSampler(dataset=Squares(5)), batch_size=2)


def test_collate_fn_is_used():
    loader = DataLoader(Squares(4), batch_size=2, collate_fn=lambda samples: np.array([s[1] for s in samples]) + 1)
    assert [b.numpy().tolist() for b in loader] == [[1, 2], [5, 10]]


def test_tensor_dataset_through_a_loader():
    ds = TensorDataset([paddle.to_tensor(np.arange(6).reshape(3, 2)), paddle.to_tensor([1, 2, 3])])
    x, y = next(iter(DataLoader(ds, batch_size=2)))
    np.testing.assert_array_equal(x.numpy(), [[0, 1], [2, 3]])
    np.testing.assert_array_equal(y.numpy(), [1, 2])


def test_iterable_dataset_in_the_main_process():
    batches = [b.numpy().ravel().tolist() for b in DataLoader(Stream(5), batch_size=2)]
    assert batches == [[0, 1], [2, 3], [4]]
    assert [b.numpy().ravel().tolist() for b in DataLoader(Stream(5), batch_size=2, drop_last=True)] == [[0, 1], [2, 3]]
    with pytest.raises(TypeError, match="length"):
        len(DataLoader(Stream(5), batch_size=2))
    with pytest.raises(ValueError, match="shuffle"):
        DataLoader(Stream(5), batch_size=2, shuffle=True)


def test_loader_is_callable_and_restartable():
    loader = DataLoader(Squares(4), batch_size=2)
    assert len(list(loader())) == 2 and len(list(loader)) == 2


def test_default_collate_reports_mismatches():
    with pytest.raises(RuntimeError, match="fields"):
        default_collate_fn([(1, 2), (1,)])
    with pytest.raises(ValueError, match="shape"):
        default_collate_fn([np.zeros(2), np.zeros(3)])
    with pytest.raises(TypeError, match="sample"):
        default_collate_fn([object(), object()])


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="num_workers"):
        DataLoader(Squares(3), num_workers=-1)
    with pytest.raises(ValueError, match="timeout"):
        DataLoader(Squares(3), timeout=-1)
    with pytest.raises(ValueError, match="batch_size"):
        DataLoader(Squares(3), batch_size=0)


class Empty(IterableDataset):
    def __iter__(self):
        return iter(())


def test_an_empty_stream_gives_no_batch():
    assert list(DataLoader(Empty(), batch_size=2)) == []
