"""paddle.batch: the old reader decorator."""

from __future__ import annotations

import pytest

import minipaddle as paddle


def reader():
    yield from range(7)


def test_batches_and_the_last_partial_one():
    assert list(paddle.batch(reader, batch_size=3)()) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(paddle.batch(reader, 3, drop_last=True)()) == [[0, 1, 2], [3, 4, 5]]
    assert list(paddle.batch(reader, 7, drop_last=True)()) == [list(range(7))]


def test_a_batched_reader_can_be_read_again():
    batched = paddle.batch(reader, 4)
    assert list(batched()) == list(batched()) == [[0, 1, 2, 3], [4, 5, 6]]


@pytest.mark.parametrize(
    "args,error,message",
    [
        ((reader, 0), ValueError, "batch: batch_size must be a positive integer, got 0"),
        ((reader, 2.5), TypeError, "batch_size must be an int, got float"),
        ((range(3), 2), TypeError, "reader must be a function"),
    ],
)
def test_errors(args, error, message):
    with pytest.raises(error, match=message):
        paddle.batch(*args)
