"""A training Program that minipaddle saves with static.save is Paddle's: the .pdmodel holds the forward ops, the
`*_grad` ops Paddle's append_backward generates (static/paddle_grad_ops.py) and one sgd/momentum/adam/adamw op per
parameter (static/paddle_optimizer_ops.py), beside the .pdparams and .pdopt. minipaddle reads it back and trains on
with the same losses; where paddle 2.6.2 is installed, paddle loads the three files and trains on with the same
losses too: an MLP with each of the four optimizers, a small CNN classifier (conv2d, pools, cross_entropy), and
nets through concat, stack, split, gather, embedding, layer_norm (F.layer_norm and nn.LayerNorm) and
advanced indexing's gather_nd (OP_NETS), whose backward ops are also compared with those
paddle's append_backward writes, and whose training Program paddle saved trains on here with paddle's losses."""

from __future__ import annotations

import json
import os
import subprocess
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.paddle_proto import ProgramDesc
from minipaddle.static.pdmodel import _attr_value

PADDLE_PYTHON = "/work/paddle-venv/bin/python"
OPTIMIZERS = {
    "sgd": (lambda: paddle.optimizer.SGD(0.05), "sgd"),
    "momentum": (lambda: paddle.optimizer.Momentum(0.05, 0.9, use_nesterov=True), "momentum"),
    "adam": (lambda: paddle.optimizer.Adam(0.01), "adam"),
    "adamw": (lambda: paddle.optimizer.AdamW(0.01, weight_decay=0.1), "adamw"),
}
STEPS = 3


@pytest.fixture
def fresh_scope():
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        yield scope


def _mlp(rng) -> tuple:
    """An MLP whose first layer's output is used twice (one gradient in two shares): (loss, feed)."""
    x = paddle.static.data("x", [None, 4], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    h = paddle.nn.functional.relu(paddle.static.nn.fc(x, 8))
    h2 = paddle.tanh(paddle.static.nn.fc(h, 8)) + h * 0.5
    loss = paddle.mean((paddle.static.nn.fc(h2, 1) - y) ** 2)
    feed = {"x": rng.standard_normal((5, 4)).astype("float32"), "y": rng.standard_normal((5, 1)).astype("float32")}
    return loss, feed


def _cnn(rng) -> tuple:
    """A small classifier: conv2d, max and avg pools, flatten, linear, cross_entropy (softmax_with_cross_entropy
    and the mean over the labels not ignored)."""
    F = paddle.nn.functional
    x = paddle.static.data("x", [None, 1, 8, 8], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = F.avg_pool2d(F.max_pool2d(F.relu(paddle.nn.Conv2D(1, 4, 3, padding=1)(x)), 2), 2)
    loss = F.cross_entropy(paddle.nn.Linear(16, 3)(paddle.flatten(h, 1)), y)
    return loss, {"x": rng.standard_normal((4, 1, 8, 8)).astype("float32"), "y": np.array([[0], [2], [1], [2]])}


def _xy(rng, **more) -> dict:
    """A batch of 5: x [5, 4] and y [5, 1], and `more` arrays."""
    return {"x": rng.standard_normal((5, 4)).astype("float32"), "y": rng.standard_normal((5, 1)).astype("float32"),
            **more}  # fmt: skip


# Nets that train through an op with its own Paddle grad op, written once as source that minipaddle and paddle
# 2.6.2 both build (`paddle` and `F` in scope, `loss` the result): {name: (source, its feed, the Paddle backward
# op types compared with paddle's append_backward)}. Each uses the op where Paddle's grad maker has to choose: an
# input with no gradient (@EMPTY@), an output nobody reads (fill_any_like), a gradient in several shares.
OP_NETS = {
    "concat": (
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = F.relu(paddle.nn.Linear(4, 8)(x))
loss = paddle.mean((paddle.nn.Linear(20, 1)(paddle.concat([x, h, paddle.tanh(h)], axis=1)) - y) ** 2)
""",
        _xy,
        ("concat_grad", "sum"),
    ),
    "stack": (
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = F.relu(paddle.nn.Linear(4, 4)(x))
s = paddle.flatten(paddle.stack([x, h, paddle.tanh(h)], axis=1), 1)
loss = paddle.mean((paddle.nn.Linear(12, 1)(s) - y) ** 2)
""",
        _xy,
        ("stack_grad", "sum"),
    ),
    "split": (  # in sections, one part unused (its gradient zeros), and in equal parts
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = F.relu(paddle.nn.Linear(4, 8)(x))
a, _, c = paddle.split(h, [2, 3, 3], axis=1)
p, q = paddle.split(paddle.tanh(h), 2, axis=-1)
s = paddle.nn.Linear(2, 1)(a) + paddle.nn.Linear(3, 1)(c) + paddle.nn.Linear(4, 1)(p * q)
loss = paddle.mean((s - y) ** 2)
""",
        _xy,
        ("fill_any_like", "concat", "sum"),
    ),
    "gather": (  # rows of the batch, some repeated (their gradients add up), some never taken (zeros); along axis 0
        # only: paddle 2.6.2's CPU gather_grad along another axis gives every slice before it the first one's
        # gradient (gather of [3, 4] at [0, 1, 2, 3] on axis 1: each row's gradient is row 0's), and a
        # negative axis fails in its kernel in static mode
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
rows = paddle.static.data("rows", [5], "int64")
again = paddle.static.data("again", [5], "int64")
h = F.relu(paddle.nn.Linear(4, 8)(x))
g = paddle.gather(paddle.gather(h, rows), again) + paddle.gather(paddle.tanh(h), rows, axis=0)
loss = paddle.mean((paddle.nn.Linear(8, 1)(g) - y) ** 2)
""",
        lambda rng: _xy(rng, rows=np.array([4, 0, 0, 2, 1]), again=np.array([1, 1, 3, 0, 4])),
        ("gather_grad", "sum"),
    ),
    "embedding": (  # a table with a padding row looked up twice (its gradient in two shares), one without
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
ids = paddle.static.data("ids", [None, 3], "int64")
more = paddle.static.data("more", [None, 3], "int64")
table = paddle.nn.Embedding(10, 4, padding_idx=0)
e = table(ids) * paddle.nn.Embedding(10, 1)(more) + table(more)
h = paddle.flatten(e, 1) + F.relu(paddle.nn.Linear(4, 12)(x))
loss = paddle.mean((paddle.nn.Linear(12, 1)(h) - y) ** 2)
""",
        lambda rng: _xy(
            rng,
            ids=np.array([[1, 0, 3], [3, 3, 9], [0, 0, 2], [5, 1, 1], [9, 8, 7]]),
            more=np.array([[2, 2, 0], [4, 1, 3], [0, 6, 6], [1, 1, 1], [7, 0, 9]]),
        ),
        ("lookup_table_v2_grad", "sum"),
    ),
    "layer_norm": (  # without Scale and Bias, as minipaddle's nn.LayerNorm writes it (then multiplies and adds);
        # its input also read elsewhere (two shares); Dropout(0.0) writes no op, in paddle 2.6.2 as here
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = F.relu(paddle.nn.Linear(4, 8)(x))
n = paddle.nn.Dropout(0.0)(F.layer_norm(h, [8]))
loss = paddle.mean((paddle.nn.Linear(8, 1)(n * 2.0 + h) - y) ** 2)
""",
        _xy,
        ("layer_norm_grad", "sum"),
    ),
    "LayerNorm": (  # the layer: paddle writes one layer_norm with Scale and Bias, minipaddle a multiply and an add
        # after it, so only the sum of the input's two shares is compared; each trains on the other's file
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = F.relu(paddle.nn.Linear(4, 8)(x))
loss = paddle.mean((paddle.nn.Linear(8, 1)(paddle.nn.LayerNorm(8)(h) + h) - y) ** 2)
""",
        _xy,
        ("sum",),
    ),
    "gather_nd": (  # advanced indexing, as gather_nd: columns repeated (their gradients add up), some never taken
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = F.relu(paddle.nn.Linear(4, 8)(x))
g = h[:, [1, 1, 5, 0, 7, 3, 2, 6]] + h
loss = paddle.mean((paddle.nn.Linear(8, 1)(g) - y) ** 2)
""",
        _xy,
        ("gather_nd_grad", "sum"),
    ),
}


def _from_source(name: str):
    source, feed, _ = OP_NETS[name]

    def build(rng) -> tuple:
        scope = {"paddle": paddle, "F": paddle.nn.functional}
        exec(source, scope)
        return scope["loss"], feed(rng)

    return build


NETS = {"mlp": _mlp, "cnn": _cnn, **{name: _from_source(name) for name in OP_NETS}}
TRAINED = [("mlp", kind) for kind in sorted(OPTIMIZERS)] + [("cnn", "momentum"), ("cnn", "adam")]
TRAINED += [(name, kind) for name in OP_NETS for kind in ("sgd", "adam")]


def _trained(kind: str, tmp_path, net: str = "mlp") -> tuple:
    """`net` trained one step with optimizer `kind` and saved, then trained STEPS more: (prefix, feed, loss name,
    the STEPS losses)."""
    paddle.seed(7)  # the same initial weights every run: some draws make a net whose losses jump (49 -> 636)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        loss, feed = NETS[net](np.random.default_rng(7))
        OPTIMIZERS[kind][0]().minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=feed, fetch_list=[loss])
    prefix = str(tmp_path / f"{net}_{kind}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no JSON fallback: the whole training Program is Paddle's
        paddle.static.save(main, prefix)
    losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(STEPS)]
    return prefix, feed, loss.name, losses


def _ops(prefix: str) -> list:
    desc = ProgramDesc()
    desc.ParseFromString(open(prefix + ".pdmodel", "rb").read())
    return list(desc.blocks[0].ops)


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
def test_the_training_pdmodel_holds_paddles_grad_and_optimizer_ops(static_mode, fresh_scope, tmp_path, kind):
    prefix, _, loss, _ = _trained(kind, tmp_path)
    ops = _ops(prefix)
    types = [op.type for op in ops]
    role = lambda op: next(a.i for a in op.attrs if a.name == "op_role")  # noqa: E731
    root = types.index("fill_constant")
    assert [role(op) for op in ops[:root]] == [0] * (root - 1) + [0x100]  # forward, the loss op marked Loss
    assert role(ops[root]) == 0x101 and list(ops[root].outputs[0].arguments) == [f"{loss}@GRAD"]
    grads = types[root + 1 : -6]
    assert grads == ["reduce_mean_grad", "pow_grad", "elementwise_sub_grad", "elementwise_add_grad",
                     "matmul_v2_grad", "elementwise_add_grad", "elementwise_mul_grad", "tanh_grad",
                     "elementwise_add_grad", "matmul_v2_grad", "sum", "relu_grad", "elementwise_add_grad",
                     "matmul_v2_grad"]  # fmt: skip
    assert all(role(op) == 1 for op in ops[root + 1 : -6])
    total = ops[root + 1 + grads.index("sum")]  # the relu output's two shares, added as Paddle names them
    assert list(total.inputs[0].arguments) == ["relu_0.tmp_0@GRAD@RENAME@block0@0", "relu_0.tmp_0@GRAD@RENAME@block0@1"]
    assert types[-6:] == [OPTIMIZERS[kind][1]] * 6 and all(role(op) == 2 for op in ops[-6:])
    slots = lambda vs: {v.parameter: list(v.arguments) for v in vs}  # noqa: E731
    first_layer = next(op for op in ops if op.type == "matmul_v2_grad" and slots(op.inputs)["X"] == ["x"])
    assert slots(first_layer.outputs) == {"X@GRAD": [], "Y@GRAD": ["fc_0.w_0@GRAD"]}  # none for the data


def test_a_cnn_training_pdmodel_has_paddles_conv_pool_and_loss_grads(static_mode, fresh_scope, tmp_path):
    types = [op.type for op in _ops(_trained("momentum", tmp_path, "cnn")[0])]
    assert {"softmax_with_cross_entropy_grad", "pool2d_grad", "conv2d_grad", "reshape2_grad", "relu_grad",
            "elementwise_div_grad", "reduce_sum_grad"} <= set(types)  # fmt: skip
    assert "max_pool2d_with_index" not in types  # the indices only minipaddle's backward reads: Paddle's pool2d


@pytest.mark.parametrize("net, kind", TRAINED)
def test_minipaddle_reads_its_training_files_back_and_trains_on_equal(static_mode, fresh_scope, tmp_path, net, kind):
    prefix, feed, loss, losses = _trained(kind, tmp_path, net)
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as"):
            program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        again = [float(exe.run(program, feed=feed, fetch_list=[loss])[0]) for _ in range(STEPS)]
    np.testing.assert_allclose(again, losses, rtol=1e-6)


def test_an_update_op_outside_the_four_optimizers_keeps_the_json_program(static_mode, fresh_scope, tmp_path):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        loss = paddle.mean(paddle.static.nn.fc(x, 1))
        paddle.optimizer.RMSProp(0.01).minimize(loss)
    paddle.static.Executor().run(startup)
    with pytest.warns(UserWarning, match="JSON program.*optimizer op 'ema_square' has no Paddle optimizer op"):
        paddle.static.save(main, str(tmp_path / "rms"))


def test_a_gather_outside_paddles_gather_op_keeps_the_json_program(static_mode, fresh_scope, tmp_path):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        picked = paddle.gather_nd(paddle.static.nn.fc(x, 3), paddle.to_tensor(np.array([[0, 1], [2, 2]])))
        paddle.optimizer.SGD(0.1).minimize(paddle.mean(picked))
    paddle.static.Executor().run(startup)
    with pytest.warns(UserWarning, match="JSON program.*gather in mode 'nd' with an index of shape \\[2, 2\\]"):
        paddle.static.save(main, str(tmp_path / "gather_nd"))


PADDLE_TRAINS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
prefix, loss, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
program = paddle.static.Program.parse_from_string(open(prefix + ".pdmodel", "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
paddle.static.load(program, prefix, exe)
feed = dict(np.load(prefix + ".feed.npz"))
print(json.dumps([float(exe.run(program, feed=feed, fetch_list=[loss])[0]) for _ in range(steps)]))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("net, kind", TRAINED)
def test_paddle_trains_on_from_minipaddles_files_with_equal_losses(static_mode, fresh_scope, tmp_path, net, kind):
    prefix, feed, loss, losses = _trained(kind, tmp_path, net)
    np.savez(prefix + ".feed.npz", **feed)
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_TRAINS, prefix, loss, str(STEPS)], capture_output=True,
                            text=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    np.testing.assert_allclose(json.loads(result.stdout.strip().splitlines()[-1]), losses, rtol=1e-6, atol=1e-7)


PADDLE_SAVES_A_CNN = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
F = paddle.nn.functional
paddle.seed(3)
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 1, 8, 8], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = F.avg_pool2d(F.max_pool2d(F.relu(paddle.nn.Conv2D(1, 4, 3, padding=1)(x)), 2), 2)
    loss = F.cross_entropy(paddle.nn.Linear(16, 3)(paddle.flatten(h, 1)), y)
    paddle.optimizer.Momentum(0.1, 0.9).minimize(loss)
feed = {"x": np.load(sys.argv[2]), "y": np.array([[0], [2], [1], [2]])}
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
exe.run(main, feed=feed, fetch_list=[loss])
paddle.static.save(main, sys.argv[1])
losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(3)]
print(json.dumps({"loss": loss.name, "losses": losses}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_a_cnn_training_program_paddle_saved_trains_on_here_equal(static_mode, fresh_scope, tmp_path):
    """paddle 2.6.2's own training Program of the CNN (conv2d, pool2d, flatten, softmax_with_cross_entropy, mean,
    momentum) reads as its forward ops plus minipaddle's backward and Momentum, and trains on with paddle's losses."""
    x = np.random.default_rng(7).standard_normal((4, 1, 8, 8)).astype("float32")
    np.save(tmp_path / "x.npy", x)
    prefix = str(tmp_path / "cnn")
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_SAVES_A_CNN, prefix, str(tmp_path / "x.npy")],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and Momentum"):
        program = paddle.load(prefix + ".pdmodel")
    assert "softmax_with_cross_entropy" in {op.type for op in program.global_block().ops}
    exe = paddle.static.Executor()
    paddle.static.load(program, prefix, exe)
    feed = {"x": x, "y": np.array([[0], [2], [1], [2]])}
    losses = [float(exe.run(program, feed=feed, fetch_list=[out["loss"]])[0]) for _ in range(3)]
    np.testing.assert_allclose(losses, out["losses"], rtol=1e-5)


PADDLE_BUILDS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
paddle.seed(3)
source, feed, prefix, kinds = open(sys.argv[1]).read(), dict(np.load(sys.argv[2])), sys.argv[3], sys.argv[4:]
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    scope = {"paddle": paddle, "F": paddle.nn.functional}
    exec(source, scope)
    loss = scope["loss"]
    paddle.optimizer.Adam(0.01).minimize(loss)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
exe.run(main, feed=feed, fetch_list=[loss])
paddle.static.save(main, prefix)
losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(3)]
ops = [[op.type, {k: op.input(k) for k in op.input_names}, {k: op.output(k) for k in op.output_names},
        {k: op.attr(k) for k in op.attr_names if k not in ("op_callstack", "op_namescope")}]
       for op in main.global_block().ops if op.type in kinds and op.attr("op_role") == 1]
print(json.dumps({"loss": loss.name, "losses": losses, "ops": ops}))
"""


def _paddle_builds(name: str, tmp_path) -> dict:
    """paddle 2.6.2 builds OP_NETS[name] with Adam, trains a step, static.saves it to tmp_path/paddle_<name> and
    trains 3 more: {"loss", "losses", "ops": its backward ops of the compared types as [type, inputs, outputs,
    attrs]}."""
    source, feed, kinds = OP_NETS[name]
    (tmp_path / "net.py").write_text(source)
    np.savez(tmp_path / "feed.npz", **feed(np.random.default_rng(7)))
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_BUILDS, str(tmp_path / "net.py"), str(tmp_path / "feed.npz"),
                             str(tmp_path / f"paddle_{name}"), *kinds], capture_output=True, text=True, timeout=300,
                            cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _shape_of(op: list) -> tuple:
    """A backward op as what its grad maker decided, without the variables' names (minipaddle's forward names its
    temporaries otherwise): each slot's arguments as the gradient shares, @EMPTY@ and forward variables."""

    def kind(name: str) -> str:
        if name == "@EMPTY@":
            return name
        return "share" if "@RENAME@" in name else "grad" if name.endswith("@GRAD") else "var"

    kind_of = lambda slots: {s: [kind(n) for n in ns] for s, ns in slots.items()}  # noqa: E731
    return op[0], kind_of(op[1]), kind_of(op[2]), op[3]


def _attrs(od) -> dict:
    return {a.name: _attr_value(a) for a in od.attrs if a.name not in ("op_callstack", "op_namescope")}


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("name", sorted(OP_NETS))
def test_the_grad_ops_are_those_paddles_append_backward_writes(static_mode, fresh_scope, tmp_path, name):
    """minipaddle's saved backward of the op has paddle 2.6.2's grad ops in its order: slots, which arguments are
    gradients, shares or left @EMPTY@, and every attribute with its value."""
    theirs = _paddle_builds(name, tmp_path)["ops"]
    prefix = _trained("adam", tmp_path, name)[0]
    ours = [[od.type, {v.parameter: list(v.arguments) for v in od.inputs},
             {v.parameter: list(v.arguments) for v in od.outputs}, _attrs(od)]
            for od in _ops(prefix) if od.type in OP_NETS[name][2] and _attrs(od)["op_role"] == 1]  # fmt: skip
    assert theirs and [_shape_of(op) for op in ours] == [_shape_of(op) for op in theirs]


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("name", sorted(OP_NETS))
def test_a_training_program_paddle_saved_with_the_op_trains_on_here_equal(static_mode, fresh_scope, tmp_path, name):
    out = _paddle_builds(name, tmp_path)
    prefix = str(tmp_path / f"paddle_{name}")
    with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and Adam"):
        program = paddle.load(prefix + ".pdmodel")
    exe = paddle.static.Executor()
    paddle.static.load(program, prefix, exe)
    feed = OP_NETS[name][1](np.random.default_rng(7))
    losses = [float(exe.run(program, feed=feed, fetch_list=[out["loss"]])[0]) for _ in range(3)]
    np.testing.assert_allclose(losses, out["losses"], rtol=1e-6)


def test_reading_a_training_program_leaves_no_name_to_be_taken_again(static_mode, fresh_scope, tmp_path):
    prefix, feed, loss, _ = _trained("adam", tmp_path)
    with paddle.utils.unique_name.guard():  # counters from 0, as in a fresh process: fc_0 would be taken
        with pytest.warns(UserWarning, match="rebuilt them as"):
            program = paddle.load(prefix + ".pdmodel")
        names = {v.name for v in program.list_vars()}
        with paddle.static.program_guard(program):  # the user's next ops: names none of the read or rebuilt ones
            extra = paddle.static.nn.fc(program.global_block().var("x"), 2)
    added = {v.name for v in program.list_vars()} - names
    assert extra.name in added and len(added) >= 3  # fc's weight, bias and outputs are all new variables


def test_reading_an_inference_model_leaves_no_name_to_be_taken_again(static_mode, tmp_path):
    with paddle.utils.unique_name.guard():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4], "float32")
            out = paddle.static.nn.fc(x, 3)
        exe = paddle.static.Executor()
        exe.run(startup)
        paddle.static.save_inference_model(str(tmp_path / "fc"), [x], [out], exe, program=main)
    with paddle.utils.unique_name.guard():
        program, _, _ = paddle.static.load_inference_model(str(tmp_path / "fc"), exe)
        names = {v.name for v in program.list_vars()}
        with paddle.static.program_guard(program):
            paddle.static.nn.fc(program.global_block().var("x"), 2)
        assert not {"fc_0.w_0", "fc_0.b_0"} & ({v.name for v in program.list_vars()} - names)
        assert len({v.name for v in program.list_vars()} - names) >= 3
