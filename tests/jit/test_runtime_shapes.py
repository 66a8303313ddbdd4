"""Slices and sizes that a Program computes (`x[:n]`, `paddle.arange(n)` with n = paddle.shape(x)[0]) under
to_static with a None batch: one Program serves batch 4 and 6, with paddle 2.6.2's shapes, dtypes, values and
gradients (tests/golden/jit/runtime_shapes.json, from make_runtime_shapes.py; random outputs by shape and dtype).
runtime_slice's double backward is checked by the op table (gradgradcheck)."""

import importlib.util
import json
import os
import subprocess
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import InputSpec
from minipaddle.static.pdmodel import is_pdmodel, read_pdmodel

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden", "jit")


def _functions():
    spec = importlib.util.spec_from_file_location("runtime_shapes", os.path.join(GOLDEN, "runtime_shapes.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.BATCHES, *module.functions(paddle), module.python_readings(paddle), module.numpy_writes(paddle)


BATCHES, SLICING, CREATION, PYTHON_READINGS, NUMPY_WRITES = _functions()
with open(os.path.join(GOLDEN, "runtime_shapes.json")) as f:
    RECORDED = json.load(f)["functions"]


def _as_list(outs) -> list:
    return list(outs) if isinstance(outs, (tuple, list)) else [outs]


def _x(batch: int, grad: bool) -> paddle.Tensor:
    return paddle.to_tensor(np.arange(batch * 5, dtype="float32").reshape(batch, 5), stop_gradient=not grad)


def _check(fn, grad: bool, values: bool) -> None:
    converted = paddle.jit.to_static(fn, input_spec=[InputSpec([None, 5], "float32")])
    for batch in BATCHES:
        want = RECORDED[fn.__name__][str(batch)]
        x = _x(batch, grad)
        outs = _as_list(converted(x))
        assert [o.shape for o in outs] == want["shapes"]
        assert [o.dtype.name for o in outs] == want["dtypes"]
        if values:
            for o, v in zip(outs, want["values"]):
                np.testing.assert_allclose(o.numpy(), np.asarray(v), rtol=1e-6, atol=1e-6)
        if grad:
            paddle.add_n([o.sum() for o in outs]).backward()
            np.testing.assert_allclose(x.grad.numpy(), np.asarray(want["grad"]), rtol=0, atol=0)
    assert len(converted.program_cache) == 1, "one Program serves every batch size"


@pytest.mark.parametrize("fn", SLICING, ids=lambda f: f.__name__)
def test_slicing_with_tensor_bounds_equals_paddle_at_two_batch_sizes(fn):
    _check(fn, grad=True, values=True)


@pytest.mark.parametrize("fn", SLICING, ids=lambda f: f.__name__)
def test_slicing_with_tensor_bounds_equals_dynamic(fn):
    converted = paddle.jit.to_static(fn, input_spec=[InputSpec([None, 5], "float32")])
    for batch in BATCHES:
        for got, want in zip(_as_list(converted(_x(batch, False))), _as_list(fn(_x(batch, False)))):
            np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_a_tensor_slice_bound_is_read_when_the_program_runs():
    def head(x, n):
        return x[:n]

    converted = paddle.jit.to_static(head, input_spec=[InputSpec([None, 5], "float32"), InputSpec([], "int64")])
    x = _x(6, False)
    for n in (1, 4, -2, 9):
        np.testing.assert_array_equal(converted(x, paddle.to_tensor(n)).numpy(), x.numpy()[:n])
    assert len(converted.program_cache) == 1


def test_a_float_tensor_bound_is_refused_with_the_function_named():
    def bad(x):
        return x[: paddle.shape(x)[0].astype("float32")]

    with pytest.raises(TypeError, match="Tensor.__getitem__: a slice bound given as a Tensor must hold one int"):
        paddle.jit.to_static(bad, input_spec=[InputSpec([None, 5], "float32")])(_x(4, False))


@pytest.mark.parametrize("fn", CREATION, ids=lambda f: f.__name__)
def test_creation_with_tensor_sizes_equals_paddle_at_two_batch_sizes(fn):
    _check(fn, grad=False, values=fn.__name__ != "creation_random")


def test_random_draws_with_tensor_sizes_repeat_the_dynamic_draws_after_seed():
    def draws(x):
        n = paddle.shape(x)[0]
        return paddle.rand([n, 2]), paddle.randn([n]), paddle.uniform([n], min=2.0, max=3.0, seed=5)

    converted = paddle.jit.to_static(draws, input_spec=[InputSpec([None, 5], "float32")])
    for batch in BATCHES:
        paddle.seed(11)
        got = converted(_x(batch, False))
        paddle.seed(11)
        want = (paddle.rand([batch, 2]), paddle.randn([batch]), paddle.uniform([batch], min=2.0, max=3.0, seed=5))
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w.numpy())


def test_the_program_keeps_the_sizes_known_when_it_is_built():
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [-1, 5], "float32")
            n = paddle.shape(x)[0]
            # paddle 2.6.2 says (-1, -1) and (-1, -1); the 2 and 5 are known, so minipaddle keeps them
            assert paddle.rand([n, 2]).shape == [-1, 2]
            assert paddle.eye(n, 5).shape == [-1, 5]
            assert paddle.linspace(0, 1, 7).shape == [7]
    finally:
        paddle.disable_static()


def test_a_float_size_tensor_is_refused_with_the_function_named():
    def bad(x):
        return paddle.eye(paddle.shape(x)[0].astype("float32"))

    with pytest.raises(TypeError, match="eye: num_rows given as a Tensor must be int32 or int64"):
        paddle.jit.to_static(bad, input_spec=[InputSpec([None, 5], "float32")])(_x(4, False))


class Positional(paddle.nn.Layer):
    """A batch-agnostic model using both: a position embedding of paddle.arange(batch), and the batch's first
    rows but one, x[: n - 1] with n = x.shape[0] (a Tensor under a None batch)."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(5, 4)
        self.pos = paddle.nn.Embedding(16, 4)

    def forward(self, x):
        n = x.shape[0]
        h = self.fc(x) + self.pos(paddle.arange(n))
        return h[: n - 1] * h[1:n]


def _nets():
    paddle.seed(2)
    dynamic, converted = Positional(), Positional()
    converted.set_state_dict(dynamic.state_dict())
    return dynamic, paddle.jit.to_static(converted, input_spec=[InputSpec([None, 5], "float32", "x")])


def test_jit_save_and_load_serve_two_batch_sizes(tmp_path):
    dynamic, converted = _nets()
    dynamic.eval()
    converted.eval()  # jit.save traces in eval mode: the calls below then use the same Program
    prefix = str(tmp_path / "positional")
    paddle.jit.save(converted, prefix)
    loaded = paddle.jit.load(prefix)
    for batch in BATCHES:
        x = paddle.to_tensor(np.random.default_rng(batch).standard_normal((batch, 5)).astype("float32"))
        want = dynamic(x).numpy()
        assert want.shape == (batch - 1, 4)
        np.testing.assert_allclose(converted(x).numpy(), want, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(loaded(x).numpy(), want, rtol=1e-6, atol=1e-6)
    assert converted.forward.get_traced_count() == 1
    types = {op.type for op in loaded.program().global_block().ops}
    assert {"runtime_slice", "runtime_source"} <= types


def test_training_through_tensor_bound_slices_at_two_batch_sizes_equals_dynamic():
    def train(net):
        opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=net.parameters())
        losses = []
        for step in range(6):
            batch = BATCHES[step % 2]
            x = paddle.to_tensor(np.random.default_rng(step).standard_normal((batch, 5)).astype("float32"))
            loss = (net(x) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return np.array(losses)

    dynamic, converted = _nets()
    np.testing.assert_allclose(train(converted), train(dynamic), rtol=1e-5, atol=1e-6)
    for a, b in zip(dynamic.parameters(), converted.parameters()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)


PADDLE_PYTHON = "/work/paddle-venv/bin/python"


def test_jit_save_writes_paddles_ops_for_run_time_sizes(tmp_path):
    dynamic, converted = _nets()
    converted.eval()
    paddle.jit.save(converted, str(tmp_path / "positional"))
    model = (tmp_path / "positional.pdmodel").read_bytes()
    assert is_pdmodel(model), "Paddle's ProgramDesc, not minipaddle's JSON"
    program, _, _ = read_pdmodel(model)
    types = [op.type for op in program.global_block().ops]
    assert {"shape", "runtime_slice", "runtime_source"} <= set(types)  # read back as minipaddle's run-time ops


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_runs_the_saved_model_at_two_batch_sizes_with_load_inference_model_and_jit_load(tmp_path):
    dynamic, converted = _nets()
    dynamic.eval()
    converted.eval()
    paddle.jit.save(converted, str(tmp_path / "positional"))
    for batch in BATCHES:
        x = np.random.default_rng(batch).standard_normal((batch, 5)).astype("float32")
        np.save(tmp_path / f"x{batch}.npy", x)
        np.save(tmp_path / f"y{batch}.npy", dynamic(paddle.to_tensor(x)).numpy())
    code = (
        "import numpy.random, numpy as np, paddle\n"
        "paddle.enable_static()\n"
        "exe = paddle.static.Executor()\n"
        "prog, feeds, fetches = paddle.static.load_inference_model('positional', exe)\n"
        "print(sorted({op.type for op in prog.global_block().ops}))\n"
        f"for b in {BATCHES}:\n"
        "    out, = exe.run(prog, feed={feeds[0]: np.load(f'x{b}.npy')}, fetch_list=fetches)\n"
        "    np.testing.assert_allclose(out, np.load(f'y{b}.npy'), rtol=1e-5, atol=1e-6)\n"
        "paddle.disable_static()\n"
        "layer = paddle.jit.load('positional')\n"  # its .pdiparams.info is Paddle's pickle
        "layer.eval()\n"
        f"for b in {BATCHES}:\n"
        "    out = layer(paddle.to_tensor(np.load(f'x{b}.npy'))).numpy()\n"
        "    np.testing.assert_allclose(out, np.load(f'y{b}.npy'), rtol=1e-5, atol=1e-6)\n"
        "print('ok')\n"
    )
    result = subprocess.run([PADDLE_PYTHON, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines()[-1] == "ok"
    assert "'range'" in result.stdout and "'slice'" in result.stdout and "'shape'" in result.stdout


def test_a_written_slice_gets_no_gradient_from_after_the_write_under_to_static():
    def write(x):
        y = x * 1
        y[:3] = x[1:4] * 2  # constant bounds: the static backward of an in-place op, as for a Tensor bound
        return y

    x = _x(4, True)
    paddle.jit.to_static(write)(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy()[:, 0], [0.0, 2.0, 2.0, 3.0])  # paddle 2.6.2's (and dynamic's)


def test_a_negative_tensor_step_beside_an_open_bound_is_refused_when_it_runs_as_paddle_does():
    def backward(x):
        n = paddle.shape(x)[0]
        return x[:: 3 - n]  # paddle 2.6.2 writes the open bounds as 0 and the end: a positive step's

    converted = paddle.jit.to_static(backward, input_spec=[InputSpec([None, 5], "float32")])
    np.testing.assert_array_equal(converted(_x(2, False)).numpy(), _x(2, False).numpy())  # a step of 1 runs
    with pytest.raises(ValueError, match="runtime_slice: a step given as a Tensor is -1 when the Program runs"):
        converted(_x(4, False))


@pytest.mark.parametrize("fn", PYTHON_READINGS, ids=lambda f: f.__name__)
def test_a_backward_slice_to_minus_one_is_empty_as_in_python_and_saves_as_paddles_ops(fn, tmp_path):
    """x[i:-1:-1] is empty in Python and in minipaddle's dynamic mode (paddle reads "through index 0"); the
    converted function and its saved file (the empty 0:0 in Paddle's ops) agree with dynamic mode."""
    converted = paddle.jit.to_static(fn, input_spec=[InputSpec([None, 5], "float32", "x")])
    _save_function(fn, str(tmp_path / fn.__name__))
    loaded = paddle.jit.load(str(tmp_path / fn.__name__))
    for batch in BATCHES:
        want = [w.numpy() for w in fn(_x(batch, False))]
        assert [w.shape[0] for w in want] == [0, batch, 0, 0]
        for run in (converted, loaded):
            for got, w in zip(run(_x(batch, False)), want):
                np.testing.assert_array_equal(got.numpy(), w)
        x = _x(batch, True)
        converted(x)[1].sum().backward()  # the write wrote nothing: every element keeps its gradient
        np.testing.assert_array_equal(x.grad.numpy(), np.ones((batch, 5)))


@pytest.mark.parametrize("fn", NUMPY_WRITES, ids=lambda f: f.__name__)
def test_a_write_with_lists_follows_numpy_under_to_static(fn):
    """Where paddle 2.6.2 reads x[index] = v with lists otherwise (numpy_writes' docstring), the converted function
    writes what dynamic mode (numpy) writes, and gives its gradients."""
    converted = paddle.jit.to_static(fn, input_spec=[InputSpec([None, 5], "float32", "x")])
    for batch in BATCHES:
        x, x_dynamic = _x(batch, True), _x(batch, True)
        got, want = _as_list(converted(x)), _as_list(fn(x_dynamic))
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
        paddle.add_n([o.sum() for o in got]).backward()
        paddle.add_n([o.sum() for o in want]).backward()
        np.testing.assert_array_equal(x.grad.numpy(), x_dynamic.grad.numpy())
    y, z = _as_list(fn(_x(4, False)))
    np.testing.assert_array_equal(y.numpy()[:3, [0, 2]], [[7.0, 8.0]] * 3)
    np.testing.assert_array_equal(z.numpy()[0, 0, [1, 3]], [1.0, 2.0])


SAVED = ("sized_reshape_expand_tile", "creation_full", "set_head", "set_box", "set_with_ints", "creation_values",
         "creation_random", "creation_eye", "slice_negative_step", "slice_tensor_step", "set_negative_step",
         "slice_bounds", "set_with_none", "set_beside_advanced", "set_lists_and_masks")  # fmt: skip
RANDOM = "creation_random"  # its draws are compared by shape and dtype (the generators differ from paddle's)
SIZED = [f for f in SLICING + CREATION if f.__name__ in SAVED] + list(PYTHON_READINGS) + list(NUMPY_WRITES)
PADDLE_SAVES = [f for f in SIZED if f not in PYTHON_READINGS + NUMPY_WRITES]  # paddle 2.6.2 reads those otherwise


def _save_function(fn, prefix: str) -> None:
    converted = paddle.jit.to_static(fn, input_spec=[InputSpec([None, 5], "float32", "x")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the JSON fallback warns: these must be written as Paddle's ops
        paddle.jit.save(converted, prefix)


@pytest.mark.parametrize("fn", SIZED, ids=lambda f: f.__name__)
def test_tensor_sizes_and_bounds_save_as_paddles_ops_and_load_back(fn, tmp_path):
    prefix = str(tmp_path / fn.__name__)
    _save_function(fn, prefix)
    program, _, _ = read_pdmodel((tmp_path / f"{fn.__name__}.pdmodel").read_bytes())
    types = {op.type for op in program.global_block().ops}
    want = {"sized_reshape_expand_tile": {"reshape_with_shape", "expand_with_shape", "tile_with_repeats"},
            "creation_full": {"full_with_shape"}, "creation_values": {"runtime_source"},
            "creation_random": {"runtime_random_source"}, "creation_eye": {"runtime_source"},
            "slice_negative_step": {"runtime_slice"}, "slice_tensor_step": {"runtime_slice"},
            "slice_bounds": {"runtime_slice"}, "backward_to_last_index": {"set_value"},
            "set_beside_advanced": {"runtime_set_value", "index_put"},
            "set_lists_and_masks": {"runtime_set_value", "index_put", "set_value"},
            "set_beside_kept_axes": {"runtime_set_value", "index_put"}}  # fmt: skip
    assert want.get(fn.__name__, {"runtime_set_value"}) <= types
    loaded = paddle.jit.load(prefix)
    for batch in BATCHES:
        for got, want in zip(_as_list(loaded(_x(batch, False))), _as_list(fn(_x(batch, False)))):
            assert (got.shape, got.dtype) == (want.shape, want.dtype)
            if fn.__name__ != RANDOM:
                np.testing.assert_array_equal(got.numpy(), want.numpy())


_PADDLE_SIDE = """
import importlib.util, json, sys, warnings
import numpy.random, numpy as np, paddle
warnings.filterwarnings("ignore")
spec = importlib.util.spec_from_file_location("runtime_shapes", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
slicing, creation = module.functions(paddle)
for fn in slicing + creation:
    if fn.__name__ in json.loads(sys.argv[2]):  # paddle's own files, for minipaddle to read
        converted = paddle.jit.to_static(fn, input_spec=[paddle.static.InputSpec([None, 5], "float32", "x")],
                                         full_graph=True)
        paddle.jit.save(converted, "paddle_" + fn.__name__)
paddle.enable_static()
exe = paddle.static.Executor()
for name in json.loads(sys.argv[2]):  # minipaddle's files, run by paddle at each batch size
    prog, feeds, fetches = paddle.static.load_inference_model(name, exe)
    for b in module.BATCHES:
        x = np.arange(b * 5, dtype="float32").reshape(b, 5)
        outs = exe.run(prog, feed={feeds[0]: x}, fetch_list=fetches)
        want = np.load(f"{name}_{b}.npz")
        for i, out in enumerate(outs):
            assert (out.shape, out.dtype) == (want[f"out{i}"].shape, want[f"out{i}"].dtype), (name, i, out.dtype)
            if name != sys.argv[3]:  # random draws: shape and dtype only
                np.testing.assert_allclose(out, want[f"out{i}"], rtol=1e-6, atol=1e-6)
print("ok")
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_runs_saved_tensor_sizes_and_bounds_and_minipaddle_reads_paddles(tmp_path):
    names = []
    for fn in SIZED:
        _save_function(fn, str(tmp_path / fn.__name__))
        names.append(fn.__name__)
        for batch in BATCHES:
            outs = {f"out{i}": o.numpy() for i, o in enumerate(_as_list(fn(_x(batch, False))))}
            np.savez(tmp_path / f"{fn.__name__}_{batch}.npz", **outs)
    script = os.path.join(GOLDEN, "runtime_shapes.py")
    result = subprocess.run([PADDLE_PYTHON, "-c", _PADDLE_SIDE, script, json.dumps(names), RANDOM], cwd=tmp_path,
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines()[-1] == "ok"
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        for fn in PADDLE_SAVES:
            prog, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / f"paddle_{fn.__name__}"), exe)
            for batch in BATCHES:
                x = _x(batch, False).numpy()
                outs = exe.run(prog, feed={feeds[0]: x}, fetch_list=fetches)
                paddle.disable_static()
                wants = [w.numpy() for w in _as_list(fn(paddle.to_tensor(x)))]
                paddle.enable_static()
                for got, want in zip(outs, wants):
                    assert (got.shape, got.dtype) == (want.shape, want.dtype)
                    if fn.__name__ != RANDOM:
                        np.testing.assert_array_equal(got, want)
    finally:
        paddle.disable_static()
