"""Training Programs with BatchNorm and Dropout are Paddle's, both ways: minipaddle's train/eval switch of each is
written as Paddle's one batch_norm / dropout op (is_test False) with the batch_norm_grad / dropout_grad op paddle
2.6.2's append_backward writes (static/paddle_train_switches.py), and Paddle's training ops read back as
minipaddle's switches.

BatchNorm is deterministic: paddle trains on minipaddle's files with minipaddle's losses and moving statistics,
and minipaddle trains on paddle's. Dropout's masks come from two random streams (paddle's and minipaddle's), so
what is compared is what does not depend on the mask drawn: the ops, slots and attributes, Paddle's kernels on
minipaddle's file (Out = X * Mask / (1 - p) and X@GRAD = Mask * Out@GRAD / (1 - p) for the Mask paddle drew), the
same identities for minipaddle's kernels on paddle's file, and that both train on for several steps.
"""

from __future__ import annotations

import json
import os
import subprocess
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from tests.static import test_paddle_training_files as files_tests
from tests.static.test_paddle_training_files import OPTIMIZERS, PADDLE_PYTHON, STEPS, _attrs, _ops, _shape_of

fresh_scope = files_tests.fresh_scope  # the fixture: each test in a Scope of its own

needs_paddle = pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")


def _xy(rng) -> dict:
    return {"x": rng.standard_normal((6, 4)).astype("float32"), "y": rng.standard_normal((6, 1)).astype("float32")}


# Nets written once as source that minipaddle and paddle 2.6.2 both build (`paddle` and `F` in scope, `loss` the
# result): {name: (source, its feed, the Paddle op types compared with paddle's append_backward, the moving
# statistics)}.
NETS = {
    "BatchNorm1D": (  # its input also read after it: X@GRAD in two shares
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = paddle.nn.Linear(4, 8)(x)
n = F.relu(paddle.nn.BatchNorm1D(8, momentum=0.8)(h))
loss = paddle.mean((paddle.nn.Linear(8, 1)(n + h) - y) ** 2)
""",
        _xy,
        ("batch_norm_grad", "sum"),
        ("batch_norm1d_0.w_1", "batch_norm1d_0.w_2"),
    ),
    "BatchNorm2D": (  # after a conv without bias (whose gradient would be rounding noise that Adam scales up),
        # with its own epsilon; two of them in a row
        """
x = paddle.static.data("x", [None, 2, 5, 5], "float32")
y = paddle.static.data("y", [None, 1], "float32")
c = paddle.nn.Conv2D(2, 3, 3, padding=1, bias_attr=False)(x)  # (a bias before it has no gradient)
h = F.relu(paddle.nn.BatchNorm2D(3, epsilon=1e-3)(c))
h = paddle.nn.BatchNorm2D(3)(h)
loss = paddle.mean((paddle.nn.Linear(75, 1)(paddle.flatten(h, 1)) - y) ** 2)
""",
        lambda rng: {
            "x": rng.standard_normal((4, 2, 5, 5)).astype("float32"),
            "y": rng.standard_normal((4, 1)).astype("float32"),
        },  # fmt: skip
        ("batch_norm_grad",),
        ("batch_norm2d_0.w_1", "batch_norm2d_0.w_2", "batch_norm2d_1.w_1", "batch_norm2d_1.w_2"),
    ),
    "BatchNorm2D_NHWC": (  # channels last
        """
x = paddle.static.data("x", [None, 4, 4, 2], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = paddle.nn.BatchNorm2D(2, momentum=0.5, data_format="NHWC")(paddle.tanh(x) * 2.0 + 1.0)
loss = paddle.mean((paddle.nn.Linear(32, 1)(paddle.flatten(h, 1)) - y) ** 2)
""",
        lambda rng: {
            "x": rng.standard_normal((3, 4, 4, 2)).astype("float32"),
            "y": rng.standard_normal((3, 1)).astype("float32"),
        },
        ("batch_norm_grad",),
        ("batch_norm2d_0.w_1", "batch_norm2d_0.w_2"),
    ),
    "Dropout": (  # both modes
        """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = F.relu(paddle.nn.Linear(4, 16)(x))
d = paddle.nn.Dropout(0.3)(h)
e = F.dropout(paddle.tanh(paddle.nn.Linear(16, 16)(d)), 0.25, mode="downscale_in_infer")
loss = paddle.mean((paddle.nn.Linear(16, 1)(e) - y) ** 2)
""",
        lambda rng: {
            "x": rng.standard_normal((32, 4)).astype("float32"),
            "y": rng.standard_normal((32, 1)).astype("float32"),
        },  # fmt: skip
        ("dropout_grad",),
        (),
    ),
}


def _build(name: str, kind: str):
    """minipaddle builds NETS[name] with optimizer `kind`: (main, startup, loss, feed)."""
    source, feed, _, _ = NETS[name]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        scope = {"paddle": paddle, "F": paddle.nn.functional}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # BatchNorm's "we now always track global mean and variance"
            exec(source, scope)
        OPTIMIZERS[kind][0]().minimize(scope["loss"])
    return main, startup, scope["loss"], feed(np.random.default_rng(7))


def _moving(names) -> list:
    scope = paddle.static.global_scope()
    return [np.array(scope.find_var(n).get_tensor()).tolist() for n in names]


def _saved(name: str, kind: str, tmp_path) -> tuple:
    """NETS[name] trained one step with `kind`, static.saved, then trained STEPS more: (prefix, feed, loss name,
    the losses, the moving statistics after)."""
    main, startup, loss, feed = _build(name, kind)
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=feed, fetch_list=[loss])
    prefix = str(tmp_path / f"{name}_{kind}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no JSON fallback: the whole training Program is Paddle's
        paddle.static.save(main, prefix)
    losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(STEPS)]
    return prefix, feed, loss.name, losses, _moving(NETS[name][3])


def _slots(vs) -> dict:
    return {v.parameter: list(v.arguments) for v in vs}


@pytest.mark.parametrize("name", ["BatchNorm1D", "BatchNorm2D"])
def test_batch_norm_is_written_as_paddles_training_op_and_grad(static_mode, fresh_scope, tmp_path, name):
    ops = _ops(_saved(name, "sgd", tmp_path)[0])
    types = [op.type for op in ops]
    assert "conditional_block" not in types and types.count("batch_norm") == types.count("batch_norm_grad") >= 1
    bn = next(op for op in ops if op.type == "batch_norm")
    ins, outs = _slots(bn.inputs), _slots(bn.outputs)
    assert _attrs(bn)["is_test"] is False and _attrs(bn)["use_global_stats"] is False
    assert outs["MeanOut"] == ins["Mean"] and outs["VarianceOut"] == ins["Variance"]  # updated in place
    assert {"SavedMean", "SavedVariance", "ReserveSpace"} <= set(outs)
    (grad,) = [op for op in ops if op.type == "batch_norm_grad" and _slots(op.inputs)["X"] == ins["X"]]
    assert sorted(_slots(grad.inputs)) == ["Bias", "MeanOut", "ReserveSpace", "SavedMean", "SavedVariance", "Scale",
                                           "VarianceOut", "X", "Y@GRAD"]  # fmt: skip
    assert _slots(grad.inputs)["Y@GRAD"] == [outs["Y"][0] + "@GRAD"]
    grads = _slots(grad.outputs)
    assert grads["Bias@GRAD"] == [ins["Bias"][0] + "@GRAD"] and grads["Scale@GRAD"] == [ins["Scale"][0] + "@GRAD"]
    (gx,) = grads["X@GRAD"]  # the whole gradient, or one share of it (BatchNorm1D's input is read twice)
    assert gx.startswith(ins["X"][0] + "@GRAD")
    if name == "BatchNorm2D":
        assert [_attrs(op)["epsilon"] for op in ops if op.type == "batch_norm"] == pytest.approx([1e-3, 1e-5])
    else:
        assert _attrs(bn)["momentum"] == pytest.approx(0.8)


def _forward_in_training_mode(tmp_path) -> tuple:
    """A Program built in training mode, with no backward: Linear, BatchNorm1D, dropout; run once, static.saved,
    run again: (prefix, feed, [the batch norm's output, its moving mean], the values of those in the second run)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # BatchNorm's "we now always track global mean and variance"
        x = paddle.static.data("x", [None, 4], "float32")
        bn = paddle.nn.BatchNorm1D(6)
        h = bn(paddle.nn.Linear(4, 6)(x))
        paddle.nn.functional.dropout(h, 0.5)
    exe = paddle.static.Executor()
    exe.run(startup)
    feed = {"x": np.random.default_rng(3).standard_normal((5, 4)).astype("float32")}
    names = [h.name, bn._mean.name]
    exe.run(main, feed=feed, fetch_list=names)
    prefix = str(tmp_path / "forward")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.static.save(main, prefix)
    return prefix, feed, names, [a.tolist() for a in exe.run(main, feed=feed, fetch_list=names)]


def test_a_program_built_in_training_mode_without_backward_has_paddles_training_ops(static_mode, fresh_scope, tmp_path):
    prefix, feed, names, values = _forward_in_training_mode(tmp_path)
    ops = _ops(prefix)
    assert [op.type for op in ops] == ["matmul_v2", "elementwise_add", "batch_norm", "dropout"]  # no flag's op
    assert all(_attrs(op)["is_test"] is False for op in ops[2:])
    with paddle.static.scope_guard(paddle.static.Scope()):
        program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        again = exe.run(program, feed=feed, fetch_list=names)  # the batch's statistics, the moving mean updated
        np.testing.assert_allclose(again[0], values[0], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(again[1], values[1], rtol=1e-6, atol=1e-7)


@pytest.mark.slow
@needs_paddle
def test_paddle_runs_a_program_built_in_training_mode_equal(static_mode, fresh_scope, tmp_path):
    prefix, feed, names, values = _forward_in_training_mode(tmp_path)
    out = _paddle_trains(prefix, feed, names[0], each_step=names[1:])
    for theirs, ours in zip(out["runs"][0], values):  # the output and moving mean of paddle's first run and our second
        np.testing.assert_allclose(theirs, ours, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(NETS))
def test_minipaddle_reads_its_training_files_back_and_trains_on_equal(static_mode, fresh_scope, tmp_path, name):
    prefix, feed, loss, losses, moving = _saved(name, "adam", tmp_path)
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as"):
            program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        again = [float(exe.run(program, feed=feed, fetch_list=[loss])[0]) for _ in range(STEPS)]
        if name == "Dropout":  # other masks: it trains on, from the same parameters
            assert np.isfinite(again).all() and again != losses
            return
        np.testing.assert_allclose(again, losses, rtol=1e-6)
        np.testing.assert_allclose(_moving(NETS[name][3]), moving, rtol=1e-6, atol=1e-7)


PADDLE_TRAINS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
prefix, loss, steps, fetch = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
program = paddle.static.Program.parse_from_string(open(prefix + ".pdmodel", "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
paddle.static.load(program, prefix, exe)
feed = dict(np.load(prefix + ".feed.npz"))
runs = [[np.asarray(v).tolist() for v in exe.run(program, feed=feed, fetch_list=[loss, *fetch["each_step"]])]
        for _ in range(steps)]
scope = paddle.static.global_scope()
print(json.dumps({"runs": runs, "after": [np.array(scope.find_var(n).get_tensor()).tolist() for n in fetch["after"]]}))
"""


def _paddle_trains(prefix: str, feed: dict, loss: str, each_step=(), after=()) -> dict:
    """paddle 2.6.2 loads minipaddle's three files and trains STEPS steps: {"runs": per step [loss, *each_step],
    "after": the values of `after` then}."""
    np.savez(prefix + ".feed.npz", **feed)
    fetch = json.dumps({"each_step": list(each_step), "after": list(after)})
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_TRAINS, prefix, loss, str(STEPS), fetch], capture_output=True,
                            text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@needs_paddle
@pytest.mark.parametrize(
    "name, kind",
    [("BatchNorm1D", "sgd"), ("BatchNorm1D", "momentum"), ("BatchNorm2D", "adam"), ("BatchNorm2D_NHWC", "sgd")],
)
def test_paddle_trains_on_from_minipaddles_batch_norm_files_equal(static_mode, fresh_scope, tmp_path, name, kind):
    prefix, feed, loss, losses, moving = _saved(name, kind, tmp_path)
    out = _paddle_trains(prefix, feed, loss, after=NETS[name][3])
    np.testing.assert_allclose([run[0] for run in out["runs"]], losses, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(out["after"], moving, rtol=1e-6, atol=1e-7)


@pytest.mark.slow
@needs_paddle
def test_paddles_dropout_kernels_on_minipaddles_file_keep_the_mask_identities(static_mode, fresh_scope, tmp_path):
    """Whatever mask paddle draws: Out = X * Mask / (1 - p) (upscale_in_train) or X * Mask (downgrade_in_infer),
    X@GRAD = Mask * Out@GRAD scaled alike, and training runs on."""
    prefix, feed, loss, _, _ = _saved("Dropout", "adam", tmp_path)
    drops = [op for op in _ops(prefix) if op.type == "dropout"]
    names = []
    for op in drops:
        ins, outs = _slots(op.inputs), _slots(op.outputs)
        names += [ins["X"][0], outs["Out"][0], outs["Mask"][0], outs["Out"][0] + "@GRAD", ins["X"][0] + "@GRAD"]
    out = _paddle_trains(prefix, feed, loss, each_step=names)
    assert np.isfinite([run[0] for run in out["runs"]]).all()
    for run in out["runs"]:
        for k, op in enumerate(drops):
            x, y, mask, gy, gx = (np.array(a) for a in run[1 + 5 * k : 6 + 5 * k])
            p = _attrs(op)["dropout_prob"]
            scale = 1 / (1 - p) if _attrs(op)["dropout_implementation"] == "upscale_in_train" else 1.0
            assert set(np.unique(mask)) == {0, 1}  # some kept, some dropped
            np.testing.assert_allclose(y, x * mask * scale, rtol=1e-6, atol=1e-7)
            np.testing.assert_allclose(gx, gy * mask * scale, rtol=1e-6, atol=1e-7)


PADDLE_BUILDS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
paddle.seed(3)
source, feed, prefix = open(sys.argv[1]).read(), dict(np.load(sys.argv[2])), sys.argv[3]
kinds, moving = json.loads(sys.argv[4]), json.loads(sys.argv[5])
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    scope = {"paddle": paddle, "F": paddle.nn.functional}
    exec(source, scope)
    loss = scope["loss"]
    test = main.clone(for_test=True)
    paddle.optimizer.Adam(0.01).minimize(loss)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
exe.run(main, feed=feed, fetch_list=[loss])
paddle.static.save(main, prefix)
eval_loss = float(exe.run(test, feed=feed, fetch_list=[loss])[0])
losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(3)]
after = [np.array(paddle.static.global_scope().find_var(n).get_tensor()).tolist() for n in moving]
ops = [[op.type, {k: op.input(k) for k in op.input_names}, {k: op.output(k) for k in op.output_names},
        {k: op.attr(k) for k in op.attr_names if k not in ("op_callstack", "op_namescope")}]
       for op in main.global_block().ops if op.type in kinds]
print(json.dumps({"loss": loss.name, "losses": losses, "after": after, "eval_loss": eval_loss, "ops": ops}))
"""


def _paddle_builds(name: str, tmp_path) -> dict:
    """paddle 2.6.2 builds NETS[name] with Adam, trains a step, static.saves it to tmp_path/paddle_<name> and
    trains 3 more: {"loss", "losses", "after": the moving statistics then, "eval_loss": the loss of its for_test
    clone right after the save, "ops": its forward batch_norm and dropout ops and backward ops of the compared
    types, as [type, inputs, outputs, attrs]}."""
    source, feed, kinds, moving = NETS[name]
    (tmp_path / "net.py").write_text(source)
    np.savez(tmp_path / "feed.npz", **feed(np.random.default_rng(7)))
    kinds = json.dumps(["batch_norm", "dropout", *kinds])
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_BUILDS, str(tmp_path / "net.py"), str(tmp_path / "feed.npz"),
                             str(tmp_path / f"paddle_{name}"), kinds, json.dumps(moving)],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@needs_paddle
@pytest.mark.parametrize("name", sorted(NETS))
def test_the_ops_are_those_paddle_writes(static_mode, fresh_scope, tmp_path, name):
    """minipaddle's saved batch_norm / dropout and their grad ops are paddle 2.6.2's, in its order: slots, which
    arguments are gradients or shares, and every attribute with its value."""
    theirs = _paddle_builds(name, tmp_path)["ops"]
    kinds = {"batch_norm", "dropout", *NETS[name][2]}
    ours = [[od.type, _slots(od.inputs), _slots(od.outputs), _attrs(od)]
            for od in _ops(_saved(name, "adam", tmp_path)[0]) if od.type in kinds]  # fmt: skip
    ours = [op for op in ours if op[0] != "sum" or op[3]["op_role"] == 1]
    theirs = [op for op in theirs if op[0] != "sum" or op[3]["op_role"] == 1]
    assert theirs and [_shape_of(op) for op in ours] == [_shape_of(op) for op in theirs]


@pytest.mark.slow
@needs_paddle
@pytest.mark.parametrize("name", sorted(NETS))
def test_a_training_program_paddle_saved_trains_on_here(static_mode, fresh_scope, tmp_path, name):
    """paddle 2.6.2's own training Program reads as minipaddle's switches plus its backward and Adam: with batch
    norm, paddle's losses and moving statistics; with dropout (other masks), it trains on, each step's dropout
    output being X * mask / (1 - p) and the gradient reaching X mask / (1 - p) for the mask minipaddle drew."""
    out = _paddle_builds(name, tmp_path)
    prefix = str(tmp_path / f"paddle_{name}")
    with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and Adam"):
        program = paddle.load(prefix + ".pdmodel")
    exe = paddle.static.Executor()
    paddle.static.load(program, prefix, exe)
    with warnings.catch_warnings():  # saved again, it is Paddle's Program again: the same ops as paddle's
        warnings.simplefilter("error")
        paddle.static.save(program, str(tmp_path / "again"))
    kinds = {"batch_norm", "dropout", *NETS[name][2]}
    again = [[od.type, _slots(od.inputs), _slots(od.outputs), _attrs(od)] for od in _ops(str(tmp_path / "again"))]
    again = [op for op in again if op[0] in kinds and (op[0] != "sum" or op[3]["op_role"] == 1)]
    theirs = [op for op in out["ops"] if op[0] != "sum" or op[3]["op_role"] == 1]
    assert [_shape_of(op) for op in again] == [_shape_of(op) for op in theirs]
    feed = NETS[name][1](np.random.default_rng(7))
    test = program.clone(for_test=True)  # the switches in inference: the moving statistics, no dropout
    np.testing.assert_allclose(
        float(exe.run(test, feed=feed, fetch_list=[out["loss"]])[0]), out["eval_loss"], rtol=1e-6
    )
    if name != "Dropout":
        losses = [float(exe.run(program, feed=feed, fetch_list=[out["loss"]])[0]) for _ in range(3)]
        np.testing.assert_allclose(losses, out["losses"], rtol=1e-6)
        np.testing.assert_allclose(_moving(NETS[name][3]), out["after"], rtol=1e-6, atol=1e-7)
        return
    (drop,) = [op for op in out["ops"] if op[0] == "dropout" and op[3]["dropout_implementation"] == "upscale_in_train"]
    x, y, p = drop[1]["X"][0], drop[2]["Out"][0], drop[3]["dropout_prob"]
    block = program.global_block()
    with paddle.static.program_guard(program):
        (gx,) = paddle.static.gradients([block.var(y)], [block.var(x)])  # d sum(Out) / dX: the mask / (1 - p)
    for _ in range(3):
        step_loss, xv, yv, gv = exe.run(program, feed=feed, fetch_list=[out["loss"], x, y, gx])
        seen = xv != 0  # (where relu gave 0, Out is 0 whether kept or not)
        kept = yv[seen] != 0
        assert np.isfinite(step_loss) and 0 < kept.mean() < 1
        np.testing.assert_allclose(yv[seen], xv[seen] * kept / (1 - p), rtol=1e-6)
        np.testing.assert_allclose(gv[seen], kept / (1 - p), rtol=1e-6)
