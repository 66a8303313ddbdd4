"""The grammar to_static converts: each construct gives dynamic mode's answer, on Python values and on Tensors
(where it must become ops: the Program is checked to hold them)."""

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn as nn
from minipaddle.static import InputSpec


def _t(*values, dtype="float32"):
    return paddle.to_tensor(np.array(values, dtype))


def _ops(sf):
    return [d.type for b in sf.main_program.blocks for d in b.ops]


def _same(sf, *args):
    got = sf(*args)
    want = sf.dygraph_function(*args)
    if isinstance(want, (tuple, list)):
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g.numpy() if hasattr(g, "numpy") else g), np.asarray(
                w.numpy() if hasattr(w, "numpy") else w), rtol=1e-6)  # fmt: skip
    else:
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
    return got


def test_if_elif_else_on_tensors_builds_cond():
    @paddle.jit.to_static
    def f(x):
        if x.mean() > 1:
            y = x * 2
        elif x.mean() > 0:
            y = x + 10
        else:
            y = -x
        return y

    for v in ([3.0, 4.0], [0.5, 0.2], [-1.0, -2.0]):
        _same(f, _t(*v))
    assert _ops(f).count("cond") == 2


def test_python_condition_stays_python():
    @paddle.jit.to_static
    def f(x, flag):
        if flag:
            return x + 1
        return x - 1

    _same(f, _t(1.0), True)
    _same(f, _t(1.0), False)
    assert "cond" not in _ops(f)
    assert f.get_traced_count() == 2  # the Python value is part of the cache key


def test_early_return_and_different_returns():
    @paddle.jit.to_static
    def f(x):
        if x.sum() > 0:
            return x * 10
        y = x - 1
        return y

    _same(f, _t(1.0, 2.0))
    _same(f, _t(-1.0, -2.0))

    @paddle.jit.to_static
    def g(x):
        out = None
        if x.sum() > 0:
            out = x * 2
        return out if out is not None else x

    np.testing.assert_allclose(g(_t(1.0)).numpy(), [2.0])


def test_while_on_tensor_builds_while_loop_and_python_while_unrolls():
    @paddle.jit.to_static
    def f(x, n):
        i = 0
        while i < n:
            x = x * 2
            i += 1
        return x

    n = paddle.to_tensor(np.array(3, "int64"))
    np.testing.assert_allclose(f(_t(1.0), n).numpy(), [8.0])
    assert "while" in _ops(f)
    np.testing.assert_allclose(f(_t(1.0), 2).numpy(), [4.0])


def test_for_over_range_tensor_enumerate_and_list():
    @paddle.jit.to_static
    def over_range(x, n):
        s = paddle.zeros([2])
        for i in range(n):
            s = s + x * i
        return s

    np.testing.assert_allclose(over_range(_t(1.0, 2.0), paddle.to_tensor(np.array(4, "int64"))).numpy(), [6, 12])
    assert "while" in _ops(over_range)

    @paddle.jit.to_static
    def over_rows(x):
        s = paddle.zeros([3])
        for i, row in enumerate(x):
            s = s + row * i
        return s

    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))
    _same(over_rows, x)
    c, _ = over_rows.get_concrete_program(InputSpec([None, 3]))
    assert "while" in [d.type for d in c.main_program.global_block().ops]  # unknown length: a real loop

    @paddle.jit.to_static
    def over_list(xs):
        s = 0.0
        for v in xs:
            s = s + v
        return s

    _same(over_list, [_t(1.0), _t(2.0), _t(3.0)])


def test_break_and_continue():
    @paddle.jit.to_static
    def f(x):
        s = paddle.zeros([1])
        i = 0
        while i < 10:
            i += 1
            if i % 2 == 0:
                continue
            if s.sum() > x.sum():
                break
            s = s + i
        return s

    _same(f, _t(5.0))
    _same(f, _t(100.0))

    @paddle.jit.to_static
    def g(x):
        for i in range(5):
            if i == 3:
                break
            x = x + 1
        return x

    _same(g, _t(0.0))


def test_return_inside_loop():
    @paddle.jit.to_static
    def f(x):
        for _i in range(10):
            x = x + 1
            if x.sum() > 3:
                return x * 100
        return x

    _same(f, _t(0.0))
    _same(f, _t(-100.0))


def test_and_or_not():
    @paddle.jit.to_static
    def f(x, flag):
        if (x.sum() > 0 and x.mean() < 5) or not flag:
            return x + 1
        return x - 1

    for v in (1.0, 10.0, -1.0):
        for flag in (True, False):
            _same(f, _t(v), flag)
    assert "logical_and" in _ops(f)

    @paddle.jit.to_static
    def short_circuit(x):
        a = None
        return (a is not None and a.sum() > 0) or x.sum() > 0

    assert bool(short_circuit(_t(1.0)).numpy())


def test_print_and_assert(capsys):
    @paddle.jit.to_static
    def f(x):
        print("building", 3)
        print(x)
        assert x.sum() > 0, "x must be positive"
        return x + 1

    f(_t(1.0))
    out = capsys.readouterr().out
    assert "building" in out and "data:" in out
    assert "print" in _ops(f) and "assert" in _ops(f)
    with pytest.raises(ValueError, match="x must be positive"):
        f(_t(-1.0))


def test_casts_len_isinstance_tuples_dict_pop_kwargs_lambda():
    @paddle.jit.to_static
    def f(x, scale=2.0, **kwargs):
        n = len(x)
        y = float(x.sum()) + int(n)
        a, b = x * scale, x + kwargs.get("shift", 0.0)
        b, a = a, b
        d = {"a": a, "b": b}
        first = d.pop("a")
        g = lambda v: v * 3  # noqa: E731
        assert isinstance(x, paddle.Tensor)
        return first + g(d["b"]) + y, bool(x.sum() > 0)

    out, positive = f(_t(1.0, 2.0), scale=3.0, shift=1.0)
    want_first = np.array([2.0, 3.0])
    np.testing.assert_allclose(out.numpy(), want_first + np.array([3.0, 6.0]) * 3 + 5.0)
    assert bool(positive.numpy())
    assert "cast" in _ops(f)


def test_user_functions_and_layers_convert_recursively():
    def helper(x):
        if x.mean() > 0:
            return x * 2
        return x

    class Inner(nn.Layer):
        def forward(self, x):
            while x.sum() < 10:
                x = x + 1
            return x

    class Outer(nn.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def forward(self, x):
            return self.inner(helper(x))

    net = paddle.jit.to_static(Outer())
    np.testing.assert_allclose(net(_t(1.0)).numpy(), [10.0])
    np.testing.assert_allclose(net(_t(-1.0)).numpy(), [10.0])
    ops = [d.type for b in net.forward.main_program.blocks for d in b.ops]
    assert "cond" in ops and "while" in ops


def test_not_to_static_runs_as_written():
    @paddle.jit.not_to_static
    def helper(x, n):
        for _ in range(n):
            x = x + 1
        return x

    @paddle.jit.to_static
    def f(x):
        return helper(x, 3)

    np.testing.assert_allclose(f(_t(0.0)).numpy(), [3.0])
    assert "while" not in _ops(f)
    assert "_jst.Call(helper)" in f.code


def test_nested_to_static_is_traced_inline():
    @paddle.jit.to_static
    def inner(x):
        return x * 3

    @paddle.jit.to_static
    def outer(x):
        return inner(x) + 1

    np.testing.assert_allclose(outer(_t(1.0)).numpy(), [4.0])
    assert inner.get_traced_count() == 0


def test_closures_and_globals_are_live():
    factor = paddle.to_tensor(np.array([2.0], "float32"))

    @paddle.jit.to_static
    def f(x):
        if x.sum() > 0:
            return x * factor
        return x

    np.testing.assert_allclose(f(_t(3.0)).numpy(), [6.0])


def test_return_inside_tensor_while():
    @paddle.jit.to_static
    def f(x, n):
        i = 0
        while i < n:
            x = x + 1
            if x.sum() > 3:
                return x * 100
            i += 1
        return x

    n = paddle.to_tensor(np.array(10, "int64"))
    np.testing.assert_allclose(f(_t(0.0), n).numpy(), [400.0])
    np.testing.assert_allclose(f(_t(-100.0), n).numpy(), [-90.0])


def test_list_append_in_python_loops_and_tensor_arrays_in_tensor_loops():
    @paddle.jit.to_static
    def unrolled(x):
        outs = []
        for i in range(3):
            outs.append(x * i)
        return paddle.stack(outs)

    np.testing.assert_allclose(unrolled(_t(1.0)).numpy(), [[0.0], [1.0], [2.0]])

    @paddle.jit.to_static
    def grows(x, n):
        outs = []
        i = 0
        while i < n:
            outs.append(x)
            i += 1
        return outs

    got = grows(_t(1.0), paddle.to_tensor(np.array(3, "int64")))  # a tensor array, returned as a list (see
    assert isinstance(got, list) and len(got) == 3  # tests/jit/test_tensor_array.py)
    assert "write_to_array" in _ops(grows)
