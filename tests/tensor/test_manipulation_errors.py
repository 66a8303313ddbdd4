"""Bad input to the manipulation and indexing functions raises Python's own exception types, naming the
function, what was expected and what came."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle

X = paddle.to_tensor(np.arange(12.0).reshape(3, 4))
IDX = paddle.to_tensor([0, 2])

CASES = [
    (lambda: paddle.squeeze(X, axis=5), ValueError, r"squeeze: axis 5 is out of range"),
    (lambda: paddle.unsqueeze(X, axis=4), ValueError, r"unsqueeze: axis 4 is out of range"),
    (lambda: paddle.unsqueeze(X, axis=1.5), TypeError, r"unsqueeze: axis must be an int"),
    (lambda: paddle.flatten(X, 1, 0), ValueError, r"flatten: start_axis \(1\) must not come after"),
    (lambda: paddle.expand(X, [3, 5]), ValueError, r"expand: x of shape \[3, 4\] cannot be expanded to \[3, 5\]"),
    (lambda: paddle.expand(X, [4]), ValueError, r"expand: shape \[4\] has fewer dimensions"),
    (lambda: paddle.tile(X, [0, 1]), ValueError, r"tile: repeat_times must be positive"),
    (lambda: paddle.split(X, 3, axis=1), ValueError, r"split: axis 1 has size 4, which cannot be cut into 3"),
    (lambda: paddle.split(X, [1, 1], axis=1), ValueError, r"split: sections \[1, 1\] do not add up"),
    (lambda: paddle.split(X, "2"), TypeError, r"split: num_or_sections must be an int or a list"),
    (lambda: paddle.t(paddle.ones([2, 2, 2])), ValueError, r"t: input must have at most 2 dimensions"),
    (lambda: paddle.roll(X, [1, 2], axis=0), ValueError, r"roll: shifts \[1, 2\] and axis \[0\]"),
    (lambda: paddle.unstack(X, axis=0, num=2), ValueError, r"unstack: num is 2 but axis 0 has size 3"),
    (lambda: paddle.concat([X, paddle.ones([2, 3])]), ValueError, r"concat: x\[1\] has shape \[2, 3\]"),
    (lambda: paddle.stack(X), TypeError, r"stack: x must be a list or tuple of Tensors"),
    (lambda: paddle.reshape(X, [5, -1]), ValueError, r"reshape: cannot reshape a tensor of shape \[3, 4\]"),
    (lambda: paddle.reshape([1, 2], [2]), TypeError, r"reshape: x must be a Tensor, got list"),
    (lambda: paddle.gather(X, IDX.astype("float32")), TypeError, r"gather: index must be an int32 or int64 Tensor"),
    (lambda: paddle.gather(X, paddle.to_tensor([5])), IndexError, r"gather: index holds 5 but axis 0 has size 3"),
    (lambda: paddle.gather(X, [0, 1]), TypeError, r"gather: index must be an int32 or int64 Tensor, got list"),
    (lambda: paddle.index_select(X, IDX, axis=2), ValueError, r"index_select: axis 2 is out of range"),
    (lambda: paddle.gather_nd(X, paddle.to_tensor([[0, 1, 2]])), ValueError, r"gather_nd: the last dimension"),
    (lambda: paddle.index_sample(X, paddle.to_tensor([[0]])), ValueError, r"index_sample: x must be \[N, D\]"),
    (lambda: paddle.scatter(X, IDX, paddle.ones([3, 4])), ValueError, r"scatter: updates must have shape \[2, 4\]"),
    (lambda: paddle.scatter_nd(IDX.reshape([2, 1]), paddle.ones([3]), [3]), ValueError, r"scatter_nd: with index"),
    (lambda: paddle.slice(X, [0, 1], [0], [1]), ValueError, r"slice: axes, starts, ends"),
    (lambda: paddle.strided_slice(X, [0], [0], [2], [0]), ValueError, r"strided_slice: strides must not be 0"),
    (lambda: paddle.crop(X, [2, 5], [0, 0]), ValueError, r"crop: axis 1 has size 4"),
    (lambda: paddle.unfold(X, 1, 5, 1), ValueError, r"unfold: size 5 is larger than axis 1"),
    (lambda: paddle.shard_index(X, 10, 2, 0), TypeError, r"shard_index: input must be int32 or int64"),
    (lambda: X[5], IndexError, r"index_view: index 5 is out of bounds for axis 0 with size 3"),
    (lambda: X[0, 0, 0], IndexError, r"index_view: too many indices"),
    (lambda: X[1.5], TypeError, r"Tensor.__getitem__: an index must be an int, slice"),
    (lambda: X[::0], ValueError, r"index_view: slice step cannot be zero"),
    (lambda: X[[0, 9]], IndexError, r"getitem: index 9 is out of bounds"),
    (lambda: X[paddle.to_tensor([True, False])], IndexError, r"Tensor.__getitem__: a boolean mask of shape \[2\]"),
]


@pytest.mark.parametrize("call,exc,message", CASES, ids=[c[2][:40] for c in CASES])
def test_bad_input_raises_a_clear_builtin_error(call, exc, message):
    with pytest.raises(exc, match=message):
        call()
