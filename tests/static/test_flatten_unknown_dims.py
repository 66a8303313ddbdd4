"""paddle.flatten in a Program over a dimension of unknown size (None, -1): the merged size is unknown too, and the
Program runs for any batch (it was the product, -4 for [None, 4], which no batch fits; paddle's `mul` reader with
x_num_col_dims=2 flattens so)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle


def test_flatten_over_an_unknown_size_runs_for_any_batch(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [None, 4, 3], "float32")
        y, z = paddle.flatten(x, 0, 1), paddle.flatten(x, 1, 2)
    assert y.shape == [-1, 3] and z.shape == [-1, 12]
    exe = paddle.static.Executor()
    for batch in (1, 5):
        feed = np.arange(batch * 12, dtype="float32").reshape(batch, 4, 3)
        got_y, got_z = exe.run(main, feed={"x": feed}, fetch_list=[y, z])
        assert got_y.tolist() == feed.reshape(-1, 3).tolist() and got_z.tolist() == feed.reshape(batch, 12).tolist()
