"""Normalizations under auto_cast: each is one Paddle op (batch_norm, layer_norm, group_norm, instance_norm) with
paddle 2.6's rule for it, not a string of small ops promoted one by one.

batch_norm and layer_norm: only x decides and only x is cast; scale, bias and statistics stay float32; the output
has x's dtype. layer_norm and group_norm are on the O1 black list. group_norm and instance_norm otherwise follow
the plain promote rule over all their inputs. Low precision computes its statistics in float32, rounded once.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F

LOW = {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


def _reference(x, axes, w=None, b=None, eps=1e-5, shape=None):
    """The fused kernel's arithmetic in numpy: float32 statistics and affine, then one rounding to x's dtype."""
    x32 = x.astype(np.float32)
    mean = np.mean(x32, axis=axes, keepdims=True)
    c = x32 - mean
    var = np.mean(c * c, axis=axes, keepdims=True)
    y = c / np.sqrt(var + np.float32(eps))
    if w is not None:
        y = y * w.astype(np.float32).reshape(shape)
    if b is not None:
        y = y + b.astype(np.float32).reshape(shape)
    return y.astype(x.dtype)


def _low_input(shape, dtype):
    paddle.seed(1)
    return paddle.to_tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32)).astype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_o1_batch_norm_keeps_the_inputs_low_dtype_with_float32_statistics(dtype):
    bn = paddle.nn.BatchNorm2D(3)
    bn.weight.set_value(np.array([0.5, 2.0, -1.0], np.float32))
    bn.bias.set_value(np.array([0.1, 0.2, 0.3], np.float32))
    x = _low_input([4, 3, 5, 5], dtype)  # e.g. the output of a conv2d without bias, white under O1
    x.stop_gradient = False
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast(dtype=dtype):
        y = bn(x)
    assert y.dtype == getattr(paddle, dtype)
    assert bn.weight.dtype == bn._mean.dtype == bn._variance.dtype == paddle.float32
    (rec,) = [r for r in log if r.paddle_op == "batch_norm"]
    assert rec.list == "gray" and rec.dtype == dtype and rec.casts == [] and rec.output_dtypes == (dtype,)
    assert len(log) == 1  # one op in the log: the composition inside is not cast op by op
    ref = _reference(x.numpy(), (0, 2, 3), bn.weight.numpy(), bn.bias.numpy(), shape=(1, 3, 1, 1))
    np.testing.assert_array_equal(y.numpy(), ref)
    batch_mean = x.numpy().astype(np.float32).mean(axis=(0, 2, 3))
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * batch_mean, rtol=1e-5)  # momentum 0.9 from zeros
    y.astype("float32").sum().backward()
    assert x.grad.dtype == getattr(paddle, dtype) and bn.weight.grad.dtype == paddle.float32


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_o1_batch_norm_of_a_float32_input_is_float32_and_layer_and_group_norm_are_black(dtype):
    x32 = paddle.rand([2, 4, 3])
    x = _low_input([2, 4, 3], dtype)
    bn, ln, gn = paddle.nn.BatchNorm1D(4), paddle.nn.LayerNorm(3), paddle.nn.GroupNorm(2, 4)
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast(dtype=dtype):
        assert bn(x32).dtype == paddle.float32
        assert ln(x).dtype == paddle.float32 and gn(x).dtype == paddle.float32
    lists = {r.paddle_op: (r.list, r.dtype, r.casts) for r in log}
    assert lists["batch_norm"] == ("gray", "float32", [])
    assert lists["layer_norm"] == ("black", "float32", [(0, dtype, "float32")])  # only x is cast
    assert lists["group_norm"] == ("black", "float32", [(0, dtype, "float32")])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_o2_norms_after_decorate(dtype):
    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 6), paddle.nn.LayerNorm(6), paddle.nn.BatchNorm1D(6))
    gn = paddle.nn.GroupNorm(3, 6)
    model, gn = paddle.amp.decorate([model, gn], level="O2", dtype=dtype)
    ln, bn = model[1], model[2]
    low = getattr(paddle, dtype)
    # decorate: BatchNorm always float32; LayerNorm float32 for float16 only; GroupNorm cast
    assert bn.weight.dtype == paddle.float32 and gn.weight.dtype == low
    assert ln.weight.dtype == (paddle.float32 if dtype == "float16" else low)
    x = paddle.rand([5, 4])
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast(level="O2", dtype=dtype):
        h = model[0](x)
        a, b = ln(h), bn(h)
        c = gn(h.reshape([5, 6, 1]))
    assert h.dtype == a.dtype == b.dtype == c.dtype == low
    recs = {r.paddle_op: r for r in log}
    assert recs["layer_norm"].casts == [] and recs["batch_norm"].casts == []
    ref = _reference(h.numpy(), (1,), ln.weight.numpy(), ln.bias.numpy(), shape=(6,))
    np.testing.assert_array_equal(a.numpy(), ref)
    np.testing.assert_array_equal(c.numpy(), _group_reference(h.numpy(), gn).astype(LOW[dtype]))


def _group_reference(h, gn):
    """group_norm of h [5, 6] as [5, 6, 1] in 3 groups: float32 statistics and affine, before the rounding."""
    g = h.astype(np.float32).reshape(5, 3, 2)
    c = g - np.mean(g, axis=2, keepdims=True)
    y = (c / np.sqrt(np.mean(c * c, axis=2, keepdims=True) + np.float32(1e-5))).reshape(5, 6, 1)
    w, b = (t.numpy().astype(np.float32).reshape(1, 6, 1) for t in (gn.weight, gn.bias))
    return y * w + b


def test_instance_and_group_norm_follow_the_plain_promote_rule():
    x = _low_input([2, 4, 3, 3], "float16")
    inorm, gn = paddle.nn.InstanceNorm2D(4), paddle.nn.GroupNorm(2, 4)  # float32 scale and bias
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast(level="O2"):
        assert inorm(x).dtype == paddle.float32  # a float32 input (the scale) promotes
        assert gn(x).dtype == paddle.float32
    assert [r.casts for r in log] == [[(0, "float16", "float32")]] * 2
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast(level="O2", use_promote=False):
        assert inorm(x).dtype == paddle.float16  # without promotion every input goes low, the scale too
        assert F.layer_norm(x, [3], paddle.ones([3]), paddle.zeros([3])).dtype == paddle.float16
    assert log[0].casts == [(1, "float32", "float16"), (2, "float32", "float16")]
    assert log[1].casts == []  # layer_norm casts x only: its float32 scale and bias stay


def test_low_precision_norm_outside_auto_cast_rounds_once():
    x = _low_input([3, 8], "float16")
    w, b = paddle.rand([8]).astype("float16"), paddle.rand([8]).astype("float16")
    y = F.layer_norm(x, [8], w, b)
    assert y.dtype == paddle.float16
    np.testing.assert_array_equal(y.numpy(), _reference(x.numpy(), (1,), w.numpy(), b.numpy(), shape=(8,)))


def test_od_runs_batch_norm_in_float32():
    x = _low_input([2, 3], "float16")
    with paddle.amp.auto_cast(level="OD"):
        assert paddle.nn.BatchNorm1D(3)(x).dtype == paddle.float32
