"""Tensor arrays in converted code: a list appended to (or popped from) inside a loop on a Tensor condition
becomes a tensor array, as in Paddle 2.6; the answers, gradients and training equal dynamic mode's. Also the public
paddle.tensor array functions in both modes."""

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn as nn
from minipaddle.tensor.array import TensorArray


def _t(a, dtype="float32", stop_gradient=True):
    return paddle.to_tensor(np.asarray(a, dtype), stop_gradient=stop_gradient)


def _n(k):
    return paddle.to_tensor(np.asarray(k, "int64"))


def _ops(sf):
    return [d.type for b in sf.main_program.blocks for d in b.ops]


def _leaves(x):
    if isinstance(x, (list, tuple)):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def _same(fn, *args):
    """The converted function's answer equals the plain function's (dynamic mode)."""
    sf = paddle.jit.to_static(fn)
    got, want = sf(*args), fn(*args)
    assert type(got) is type(want) or isinstance(want, paddle.Tensor)
    for g, w in zip(_leaves(got), _leaves(want), strict=True):
        np.testing.assert_allclose(np.asarray(g.numpy() if hasattr(g, "numpy") else g),
                                   np.asarray(w.numpy() if hasattr(w, "numpy") else w), rtol=1e-6)  # fmt: skip
    return sf


X = np.arange(8, dtype="float32").reshape(2, 4) / 10


def stack_in_for_range(x, n):
    outs = []
    for i in range(n):
        outs.append(x * i)
    return paddle.stack(outs)


def concat_in_while(x, n):
    outs = []
    i = paddle.zeros([1], "int64")
    while i < n:
        outs.append(x + i.astype("float32"))
        i += 1
    return paddle.concat(outs, axis=1)


def starts_with_values(x, n):
    outs = [x, x + 1]
    for _i in range(n):
        outs.append(outs[-1] * 2)
    return paddle.stack(outs, axis=1)


def length_and_last(x, n):
    outs = []
    for i in range(n):
        outs.append(x * i)
    return len(outs), outs[-1], outs[0]


def pops_after_the_loop(x, n):
    outs = []
    for i in range(n):
        outs.append(x * (i + 1))
    last = outs.pop()
    first = outs.pop(0)
    return last, first, paddle.stack(outs)


def pops_inside_the_loop(x, n):
    outs = [x, x * 2, x * 3, x * 4]
    for _i in range(n):
        outs.pop()
    return paddle.stack(outs)


def loop_over_the_array(x, n):
    outs = []
    for i in range(n):
        outs.append(x * i)
    s = paddle.zeros_like(x)
    for o in outs:
        s = s + o
    return s


def nested_loops(x, n):
    outs = []
    for i in range(n):
        for j in range(n):
            outs.append(x * i + j)
    return paddle.stack(outs)


def appends_until_a_break(x, n):
    outs = []
    i = paddle.zeros([1], "int64")
    while i < n:
        if x.sum() + i.astype("float32") > 4:
            break
        outs.append(x + i.astype("float32"))
        i += 1
    return paddle.stack(outs)


def appends_in_one_branch_of_a_loop(x, n):
    outs = [x]
    for j in range(n):
        if x.sum() > j:
            outs.append(x + j)
    return paddle.stack(outs)


def returns_the_list(x, n):
    outs = []
    for i in range(n):
        outs.append(x * i)
    return outs


@pytest.mark.parametrize(
    "fn",
    [stack_in_for_range, concat_in_while, starts_with_values, length_and_last, pops_after_the_loop,
     pops_inside_the_loop, loop_over_the_array, nested_loops, appends_until_a_break, appends_in_one_branch_of_a_loop,
     returns_the_list],
)  # fmt: skip
def test_a_list_grown_in_a_tensor_loop_equals_dynamic_mode(fn):
    sf = _same(fn, _t(X), _n(3))
    assert "while" in _ops(sf)
    assert {"write_to_array", "lod_array_length"} <= set(_ops(sf)) or fn is pops_inside_the_loop
    _same(fn, _t(X), _n(1 if fn is pops_inside_the_loop else 4))  # the same Program, another length


def test_an_unknown_batch_size_gives_the_elements_shape_at_run_time():
    spec = [paddle.static.InputSpec([None, 4], "float32"), paddle.static.InputSpec([], "int64")]
    sf = paddle.jit.to_static(stack_in_for_range, input_spec=spec)
    for batch in (2, 5):
        x = _t(np.ones((batch, 4)))
        np.testing.assert_allclose(sf(x, _n(3)).numpy(), stack_in_for_range(x, _n(3)).numpy())
    assert sf.get_traced_count() == 1


def test_the_code_names_the_lists_as_push_pop_names():
    sf = paddle.jit.to_static(stack_in_for_range)
    assert "push_pop_names=('outs',)" in sf.code
    assert "push_pop_names=None" in paddle.jit.to_static(lambda_free_loop).code


def lambda_free_loop(x, n):
    for _i in range(n):
        x = x + 1
    return x


def test_gradients_flow_through_array_writes_and_reads():
    paddle.seed(1)
    cell = nn.Linear(4, 4)

    def rnn(x, n):
        h = x
        outs = []
        for _i in range(n):
            h = paddle.tanh(cell(h))
            outs.append(h)
        return (paddle.stack(outs) * paddle.arange(1, 5, dtype="float32")).sum() + outs[1].sum()

    grads = []
    for fn in (rnn, paddle.jit.to_static(rnn)):
        x = _t(X, stop_gradient=False)
        fn(x, _n(3)).backward()
        grads.append([x.grad.numpy().copy(), cell.weight.grad.numpy().copy(), cell.bias.grad.numpy().copy()])
        cell.clear_gradients()
    for got, want in zip(grads[1], grads[0]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        assert np.abs(want).sum() > 0


class TinyRNN(nn.Layer):
    """A loop over time steps whose count is a Tensor; the hidden states collected in a list and stacked."""

    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(3, 8)
        self.rec = nn.Linear(8, 8)
        self.out = nn.Linear(8, 2)

    def forward(self, x, steps):
        h = paddle.zeros([x.shape[0], 8], dtype=x.dtype)
        hs = []
        for t in range(steps):
            x_t = paddle.gather(x, paddle.reshape(paddle.assign(t), [1]), axis=1).squeeze(1)  # x[:, t], t a Tensor
            h = paddle.tanh(self.inp(x_t) + self.rec(h))
            hs.append(h)
        return self.out(paddle.stack(hs, axis=1)).mean(axis=1)


@pytest.mark.parametrize("dtype,tol", [("float64", 1e-6), ("float32", 1e-5)])
def test_an_rnn_with_a_tensor_length_trains_as_in_dynamic_mode(dtype, tol):
    rng = np.random.default_rng(0)
    xs, ys = rng.normal(size=(4, 5, 3)).astype(dtype), rng.normal(size=(4, 2)).astype(dtype)
    losses = []
    for convert in (False, True):
        paddle.seed(3)
        paddle.set_default_dtype(dtype)
        try:
            model = TinyRNN()
        finally:
            paddle.set_default_dtype("float32")
        if convert:
            model = paddle.jit.to_static(model)
        opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
        run = []
        for step in range(10):
            steps = _n(3 + step % 3)  # another sequence length each step: the same Program
            loss = paddle.nn.functional.mse_loss(model(paddle.to_tensor(xs), steps), paddle.to_tensor(ys))
            loss.backward()
            opt.step()
            opt.clear_grad()
            run.append(float(loss))
        losses.append(run)
        if convert:
            assert model.forward.get_traced_count() == 1
    np.testing.assert_allclose(losses[1], losses[0], rtol=tol, atol=tol)
    assert losses[0][-1] < losses[0][0]


def test_lists_appended_in_the_branches_of_a_tensor_if():
    def same_length(x):
        outs = [x]
        if x.mean() > 0:
            outs.append(x * 2)
        else:
            outs.append(x * 3)
        return paddle.stack(outs)

    def different_length(x, n):
        outs = [x]
        if x.mean() > 0:
            outs.append(x * 2)
            outs.append(x * 4)
        for i in range(n):
            outs.append(x - i)
        return paddle.stack(outs)

    for sign in (1, -1):
        sf = _same(same_length, _t(X * sign))
        assert "cond" in _ops(sf)
        sf = _same(different_length, _t(X * sign), _n(2))
        assert "cond" in _ops(sf) and "write_to_array" in _ops(sf)


def test_extend_in_a_tensor_loop_appends_each_item():
    """`outs.extend([a, b])` in a loop on a Tensor: the list becomes a tensor array that gets a and b appended
    (paddle 2.6.2 crashes here); values, length and gradients equal dynamic mode for two lengths, one Program."""

    def extends(x, n):
        outs = []
        for i in range(n):
            outs.extend([x * (i + 1), x + i])
        return paddle.stack(outs).sum(0), len(outs)

    converted = paddle.jit.to_static(extends)
    for steps in (1, 3):
        x1, x2 = _t(X), _t(X)
        x1.stop_gradient = x2.stop_gradient = False
        got, length = converted(x1, _n(steps))
        want, want_length = extends(x2, steps)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
        assert int(length) == want_length == 2 * steps
        got.sum().backward()
        want.sum().backward()
        np.testing.assert_allclose(x1.grad.numpy(), x2.grad.numpy(), rtol=1e-6)
    assert converted.get_traced_count() == 1
    assert "push_pop_names=('outs',)" in converted.code


def test_other_list_changes_in_a_tensor_loop_are_refused_clearly():
    def inserts(x, n):
        outs = [x]
        for _i in range(n):
            outs.insert(0, x)
        return outs

    with pytest.raises(NotImplementedError, match="the list 'outs' changes inside a `while` on a Tensor condition"):
        paddle.jit.to_static(inserts)(_t(X), _n(2))

    def nested(x, n):
        outs = [[x]]
        for _i in range(n):
            outs.append([x])
        return outs

    with pytest.raises(TypeError, match="cannot become a tensor array"):
        paddle.jit.to_static(nested)(_t(X), _n(2))

    def rebinds(x, n):
        outs = []
        for _i in range(n):
            outs.append(x)
            outs = x
        return outs

    with pytest.raises(TypeError, match="keep it a list of Tensors"):
        paddle.jit.to_static(rebinds)(_t(X), _n(2))


def test_elements_of_another_shape_or_dtype_are_refused():
    def shapes(x, n):
        outs = [x]
        for _i in range(n):
            outs.append(x[0])
        return outs

    with pytest.raises(ValueError, match="hold elements of one shape"):
        paddle.jit.to_static(shapes)(_t(X), _n(2))

    def dtypes(x, n):
        outs = [x]
        for _i in range(n):
            outs.append(x.astype("float64"))
        return outs

    with pytest.raises(TypeError, match="holds float32 elements but x is float64"):
        paddle.jit.to_static(dtypes)(_t(X), _n(2))


def test_dict_and_list_pop_on_python_containers_stay_python():
    def pops(x):
        d = {"a": x, "b": x * 2}
        items = [x, x * 3, x * 4]
        y = d.pop("a") + d.pop("c", x * 5) + items.pop() + items.pop(0)
        return y, len(d), len(items)

    sf = _same(pops, _t(X))
    assert sf(_t(X))[1:] == (1, 1)


def test_pop_of_a_tensor_array_takes_a_python_int():
    def bad(x, n):
        outs = []
        for _i in range(n):
            outs.append(x)
        return outs.pop(n - 1)

    with pytest.raises(TypeError, match="must be a Python int"):
        paddle.jit.to_static(bad)(_t(X), _n(2))


# ---- the public functions --------------------------------------------------------------------------------------


def test_the_array_functions_in_dynamic_mode_are_list_operations():
    arr = paddle.tensor.create_array("float32")
    assert arr == []
    arr = paddle.tensor.array_write(_t([1.0, 2.0]), _n([0]), arr)
    paddle.tensor.array_write(_t([3.0, 4.0]), _n([1]), arr)
    paddle.tensor.array_write(_t([5.0, 6.0]), _n([0]), arr)
    assert paddle.tensor.array_length(arr) == 2
    np.testing.assert_array_equal(paddle.tensor.array_read(arr, _n([0])).numpy(), [5.0, 6.0])
    from minipaddle.tensor.manipulation import tensor_array_to_tensor

    out, index = tensor_array_to_tensor(arr, axis=0)
    np.testing.assert_array_equal(out.numpy(), [5.0, 6.0, 3.0, 4.0])
    np.testing.assert_array_equal(index.numpy(), [2, 2])
    with pytest.raises(IndexError, match="array_write: index 5"):
        paddle.tensor.array_write(_t([1.0, 2.0]), _n([5]), arr)
    with pytest.raises(TypeError, match="array_read: in dynamic mode the array is a Python list"):
        paddle.tensor.array_read("nope", _n([0]))
    with pytest.raises(TypeError, match="initialized_list must be a list"):
        paddle.tensor.create_array("float32", initialized_list=3)


def test_the_array_functions_build_a_program_in_static_mode():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [-1, 3], "float32")
            i = paddle.zeros([1], "int64")
            arr = paddle.tensor.create_array("float32")
            paddle.tensor.array_write(x, i, arr)
            paddle.tensor.array_write(x * 2, i + 1, arr)
            arr.append(x * 3)
            n = paddle.tensor.array_length(arr)
            second = paddle.tensor.array_read(arr, i + 1)
            stacked = paddle.stack(arr, axis=1)
            joined = paddle.concat(arr, axis=0)
            first = arr.pop(0)
            rest = paddle.stack(arr)
            with pytest.raises(TypeError, match="array_length"):
                len(arr)
            with pytest.raises(TypeError, match="holds float32 elements but x is int64"):
                arr.append(i)
        exe = paddle.static.Executor()
        feed = np.arange(6, dtype="float32").reshape(2, 3)
        got = exe.run(main, feed={"x": feed}, fetch_list=[n, second, stacked, joined, first, rest])
    finally:
        paddle.disable_static()
    parts = [feed, feed * 2, feed * 3]
    for g, w in zip(got, [[3], feed * 2, np.stack(parts, 1), np.concatenate(parts, 0), feed, np.stack(parts[1:])]):
        np.testing.assert_allclose(g, w)


def test_static_while_loop_carries_a_tensor_array_with_gradients():
    """paddle.static.nn.while_loop with a tensor array among its loop variables (user static code, as Paddle's)."""
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [2], "float32")
            x.stop_gradient = False
            n = paddle.static.data("n", [1], "int64")
            arr = paddle.tensor.create_array("float32", initialized_list=[x])

            def body(i, a):
                paddle.tensor.array_write(paddle.tensor.array_read(a, i) * 2, i + 1, a)
                return [i + 1, a]

            _, out = paddle.static.nn.while_loop(lambda i, a: i < n, body, [paddle.zeros([1], "int64"), arr])
            assert out is arr  # updated in place, as Paddle's LoDTensorArray variable
            stacked = paddle.stack(arr)
            (grad,) = paddle.static.gradients([stacked.sum()], [x])
            with pytest.raises(ValueError, match="empty tensor array that the body never writes to"):
                paddle.static.nn.while_loop(lambda a: n > 0, lambda a: [a], [paddle.tensor.create_array("float32")])
        feed = {"x": np.array([1.0, 3.0], "float32"), "n": np.array([3])}
        got, g = paddle.static.Executor().run(main, feed=feed, fetch_list=[stacked, grad])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, [[1, 3], [2, 6], [4, 12], [8, 24]])
    np.testing.assert_allclose(g, [15.0, 15.0])


def _run_static(build, feed):
    """Build a Program with `build()` (returning the Variables to fetch) and run it with `feed`."""
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            fetch = build()
        return paddle.static.Executor().run(main, feed=feed, fetch_list=fetch)
    finally:
        paddle.disable_static()


def test_static_while_loop_starts_from_an_empty_tensor_array():
    """create_array() then written inside the loop (as Paddle 2.6 allows): a trial trace of the body gives the
    element shape; values and the gradient equal the loop written out by hand."""

    def build():
        x = paddle.static.data("x", [3], "float32")
        x.stop_gradient = False
        n = paddle.static.data("n", [1], "int64")
        arr = paddle.tensor.create_array("float32")

        def body(i, a):
            paddle.tensor.array_write(x * i.astype("float32") + 1.0, i, a)
            return [i + 1, a]

        _, out = paddle.static.nn.while_loop(lambda i, a: i < n, body, [paddle.zeros([1], "int64"), arr])
        assert out is arr and arr.element_shape == [3]
        stacked, _ = paddle.tensor.manipulation.tensor_array_to_tensor(arr, axis=0, use_stack=True)
        (grad,) = paddle.static.gradients([(stacked * stacked).sum()], [x])
        return [stacked, grad]

    xs = np.array([1.0, 2.0, 3.0], "float32")
    for steps in (1, 4):
        got, g = _run_static(build, {"x": xs, "n": np.array([steps])})
        ks = np.arange(steps, dtype="float32")[:, None]
        np.testing.assert_allclose(got, xs * ks + 1.0)
        np.testing.assert_allclose(g, (2 * (xs * ks + 1.0) * ks).sum(0), rtol=1e-6)


@pytest.mark.parametrize("take", [True, False])
def test_static_cond_returns_a_tensor_array(take):
    """paddle.static.nn.cond whose branches return tensor arrays (one of them empty before its write): the result
    is a tensor array; values and gradients equal dynamic mode, where the arrays are lists."""

    def branches(x):
        def true_fn():
            a = paddle.tensor.create_array("float32", initialized_list=[x * 2.0])
            a.append(x + 1.0)
            return a

        def false_fn():
            a = paddle.tensor.create_array("float32")
            i = paddle.zeros([1], "int64")
            return paddle.tensor.array_write(x * x, i, a)

        return true_fn, false_fn

    xs = np.array([1.0, -2.0], "float32")

    def build():
        x = paddle.static.data("x", [2], "float32")
        x.stop_gradient = False
        p = paddle.static.data("p", [1], "bool")
        out = paddle.static.nn.cond(p, *branches(x))
        assert isinstance(out, TensorArray)
        total = paddle.stack(out).sum()
        first = paddle.tensor.array_read(out, paddle.zeros([1], "int64"))
        (grad,) = paddle.static.gradients([total], [x])
        return [total, first, grad]

    total, first, grad = _run_static(build, {"x": xs, "p": np.array([take])})
    x = paddle.to_tensor(xs, stop_gradient=False)
    dynamic = paddle.static.nn.cond(paddle.to_tensor([take]), *branches(x))
    assert isinstance(dynamic, list)
    want = paddle.stack(dynamic).sum()
    want.backward()
    np.testing.assert_allclose(total, want.numpy(), rtol=1e-6)
    np.testing.assert_allclose(first, dynamic[0].numpy(), rtol=1e-6)
    np.testing.assert_allclose(grad, x.grad.numpy(), rtol=1e-6)


def test_static_cond_tensor_array_errors():
    def build():
        x = paddle.static.data("x", [2], "float32")
        p = paddle.static.data("p", [1], "bool")
        empty = paddle.tensor.create_array
        with pytest.raises(ValueError, match="output 0 is an empty tensor array in both branches"):
            paddle.static.nn.cond(p, lambda: empty("float32"), lambda: empty("float32"))
        with pytest.raises(TypeError, match="output 0 is a TensorArray in true_fn but a Variable in false_fn"):
            paddle.static.nn.cond(p, lambda: empty("float32", initialized_list=[x]), lambda: x)
        return [x]

    _run_static(build, {"x": np.ones(2, "float32"), "p": np.array([True])})


def test_a_layer_with_a_tensor_array_loop_saves_and_loads(tmp_path):
    import warnings

    paddle.seed(2)
    net = TinyRNN()
    net.eval()
    spec = [paddle.static.InputSpec([2, 5, 3], "float32", "x"), paddle.static.InputSpec([], "int64", "steps")]
    path = str(tmp_path / "rnn")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (a Program with control flow is written in minipaddle's JSON form)
        paddle.jit.save(net, path, input_spec=spec)
    loaded = paddle.jit.load(path)
    x = paddle.to_tensor(np.random.default_rng(0).normal(size=(2, 5, 3)).astype("float32"))
    for steps in (2, 4):
        np.testing.assert_allclose(loaded(x, _n(steps)).numpy(), net(x, _n(steps)).numpy(), rtol=1e-5, atol=1e-6)
    assert "write_to_array" in [d.type for b in loaded.program().blocks for d in b.ops]
