"""Tensor.numpy takes (and ignores) arguments, as paddle 2.6's does: its own tests call `t.numpy(False)`."""

import numpy as np

import minipaddle as paddle


def test_numpy_accepts_paddles_arguments():
    t = paddle.to_tensor([[1.0, 2.0]])
    for got in (t.numpy(), t.numpy(False), t.numpy(True), t.numpy(False, 1), t.numpy(force=True)):
        np.testing.assert_array_equal(got, [[1.0, 2.0]])
    assert paddle.to_tensor(3).numpy(False).shape == ()  # a 0-d tensor gives a 0-d array
