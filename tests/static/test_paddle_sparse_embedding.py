"""nn.Embedding(sparse=True) in a training Program, both ways: minipaddle writes paddle 2.6.2's lookup_table_v2 with
is_sparse and a SELECTED_ROWS table gradient (its gradient is a dense array here, of the same values, marked with
the rows it holds), paddle trains on from minipaddle's files with minipaddle's losses, and paddle's own such
Programs (recorded with their parameters by tests/golden/paddle_models/make_sparse_embedding.py) read here as
sparse embeddings and train with paddle's losses. The ids change from step to step, so rows outside the gradient
have moments: Adam, with lazy_mode and without, is paddle's SelectedRows Adam (ops/optimizer_ops.py,
sparse_adam_param), in static and in dynamic mode (paddle's dynamic tables, recorded too)."""

from __future__ import annotations

import json
import os
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.paddle_proto import ProgramDesc, VarTypeEnum
from minipaddle.static.pdmodel import _attr_value
from tests.static.test_paddle_training_files import PADDLE_PYTHON, STEPS, fresh_scope  # noqa: F401
from tests.static.test_paddle_training_regularize import _EXTRA  # (oneDNN, cuDNN, quantizer switches)

pytestmark = pytest.mark.usefixtures("fresh_scope")
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "paddle_models" / "sparse_embedding"
RECORDED = json.loads((GOLDEN / "expected.json").read_text())
KINDS = sorted(RECORDED["optimizers"])
TRAINED = [k for k in KINDS if RECORDED["expected"][k]["losses"] is not None]  # (paddle aborts on the others)
SKIPPED = ("op_callstack", "op_namescope", "op_device", "with_quant_attr")


def _feed(step: int = 0) -> dict:
    return {"ids": np.array(RECORDED["ids"][step % len(RECORDED["ids"])], "int64")}


def _sparse_marks(path: str) -> tuple:
    """(is_sparse of the forward and grad lookup ops, the table gradient's variable type name)."""
    block = ProgramDesc.FromString(open(path, "rb").read()).blocks[0]
    flags = [next((_attr_value(a) for a in op.attrs if a.name == "is_sparse"), False) for op in block.ops
             if op.type in ("lookup_table_v2", "lookup_table_v2_grad")]  # fmt: skip
    (grad,) = [v for v in block.vars if v.name == "embedding_0.w_0@GRAD"]
    names = {number: name for name, number in VarTypeEnum.items()}
    return flags, names[grad.type.type]


def _saved(kind: str, tmp_path) -> tuple:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        scope = {"paddle": paddle}
        exec(RECORDED["net"], scope)
        eval(RECORDED["optimizers"][kind], {**scope, "params": None}).minimize(scope["loss"])
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=_feed(), fetch_list=[scope["loss"]])
    prefix = str(tmp_path / kind)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.static.save(main, prefix)
    losses = [float(exe.run(main, feed=_feed(step), fetch_list=[scope["loss"]])[0]) for step in range(1, 1 + STEPS)]
    return prefix, scope["loss"].name, losses


@pytest.mark.parametrize("kind", KINDS)
def test_a_sparse_embedding_is_written_as_paddle_writes_it(static_mode, tmp_path, kind):
    assert _sparse_marks(_saved(kind, tmp_path)[0] + ".pdmodel") == _sparse_marks(str(GOLDEN / kind) + ".pdmodel")
    assert _sparse_marks(str(GOLDEN / kind) + ".pdmodel") == ([True, True], "SELECTED_ROWS")


def _optimize_ops(path: str) -> tuple:
    """The optimize-role ops of a saved Program, without its variables' names (Paddle's counters count minipaddle's
    own clip variables too): ([type, {slot: [variable type]} of inputs, of outputs, attributes but the extra ones,
    with op_role_var's parameter only], the ops with names: [type, {slot: names}, {slot: names}])."""
    block = ProgramDesc.FromString(open(path, "rb").read()).blocks[0]
    names = {number: name for name, number in VarTypeEnum.items()}
    types = {v.name: names[v.type.type] for v in block.vars}
    found, named = [], []
    for op in block.ops:
        attrs = {a.name: _attr_value(a) for a in op.attrs if a.name not in (*SKIPPED, *_EXTRA)}
        if attrs.get("op_role") != 2:
            continue
        attrs["op_role_var"] = attrs["op_role_var"][:1]
        ins, outs = ({v.parameter: list(v.arguments) for v in vs if v.arguments} for vs in (op.inputs, op.outputs))
        typed = [{slot: [types[n] for n in ns] for slot, ns in table.items()} for table in (ins, outs)]
        found.append([op.type, *typed, attrs])
        named.append([op.type, ins, outs])
    return found, named


@pytest.mark.parametrize("kind", [k for k in KINDS if "_" in k and not k.endswith("lazy")])
def test_the_clip_of_a_sparse_gradient_is_written_as_paddle_writes_it(static_mode, tmp_path, kind):
    """merge_selected_rows and get_tensor_from_selected_rows before a global norm's squared_l2_norm, clip_by_norm
    into a SELECTED_ROWS variable, clip into a LOD_TENSOR one: paddle's optimize ops, slot by slot."""
    (ours, named), (paddles, _) = (
        _optimize_ops(p + ".pdmodel") for p in (_saved(kind, tmp_path)[0], str(GOLDEN / kind))
    )
    assert [op[0] for op in ours] == [op[0] for op in paddles]
    for mine, theirs in zip(ours, paddles):
        assert mine == theirs
    if kind.endswith("global_norm"):
        (merge, ins, outs), (get, ins2, outs2), (square, ins3, _) = named[:3]
        assert (merge, get, square) == ("merge_selected_rows", "get_tensor_from_selected_rows", "squared_l2_norm")
        assert ins["X"] == ["embedding_0.w_0@GRAD"] and ins2["X"] == outs["Out"] and ins3["X"] == outs2["Out"]


def test_a_dense_embedding_stays_dense(static_mode, tmp_path):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        ids = paddle.static.data("ids", [None, 3], "int64")
        loss = paddle.mean(paddle.nn.Embedding(10, 4)(ids))
        paddle.optimizer.SGD(0.1).minimize(loss)
    paddle.static.Executor().run(startup)
    paddle.static.save(main, str(tmp_path / "dense"))
    assert _sparse_marks(str(tmp_path / "dense.pdmodel")) == ([False, False], "LOD_TENSOR")


@pytest.mark.parametrize("kind", TRAINED)
def test_paddles_sparse_embedding_trains_here_with_paddles_losses(static_mode, tmp_path, kind):
    with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward"):
        program = paddle.load(str(GOLDEN / kind) + ".pdmodel")
    (lookup,) = [op for op in program.global_block().ops if op.type == "embedding"]
    assert lookup.attrs["sparse"] is True
    exe = paddle.static.Executor()
    paddle.static.load(program, str(GOLDEN / kind), exe)
    expected = RECORDED["expected"][kind]
    feeds = [_feed(step) for step in range(1, 1 + STEPS)]
    losses = [float(exe.run(program, feed=f, fetch_list=[expected["loss"]])[0]) for f in feeds]
    np.testing.assert_allclose(losses, expected["losses"], rtol=1e-6, atol=1e-7)
    with warnings.catch_warnings():  # saved again, paddle's marks stay
        warnings.simplefilter("error")
        paddle.static.save(program, str(tmp_path / "again"))
    assert _sparse_marks(str(tmp_path / "again.pdmodel")) == ([True, True], "SELECTED_ROWS")


@pytest.mark.parametrize("kind", sorted(RECORDED["dynamic"]["runs"]))
def test_dynamic_training_of_a_sparse_embedding_updates_as_paddles(kind):
    start = RECORDED["dynamic"]
    emb, lin = paddle.nn.Embedding(10, 4, sparse=True), paddle.nn.Linear(4, 1)
    for p, value in ((emb.weight, start["table"]), (lin.weight, start["weight"]), (lin.bias, start["bias"])):
        p.set_value(np.array(value, "float32"))
    opt = eval(RECORDED["optimizers"][kind], {"paddle": paddle, "params": emb.parameters() + lin.parameters()})
    for step, expected in enumerate(start["runs"][kind]["tables"]):
        paddle.mean(lin(emb(paddle.to_tensor(_feed(step)["ids"]))) ** 2).backward()
        held = emb.weight.grad._selected_rows.numpy()
        assert np.flatnonzero(held).tolist() == sorted(set(np.ravel(_feed(step)["ids"]).tolist()))
        opt.step()
        opt.clear_grad()
        assert emb.weight.grad is None  # Paddle clears a sparse gradient to None
        np.testing.assert_allclose(emb.weight.numpy(), expected, rtol=1e-6, atol=1e-7)
    assert sorted(set(start["runs"][kind]["rows"])) == sorted(set(np.ravel(_feed(0)["ids"]).tolist()))


def test_a_sparse_gradient_stays_sparse_only_when_all_of_it_is():
    emb = paddle.nn.Embedding(6, 2, sparse=True)
    (emb(paddle.to_tensor([[1, 1]])).sum() + emb(paddle.to_tensor([4])).sum()).backward()  # two lookups, one pass
    assert np.flatnonzero(emb.weight.grad._selected_rows.numpy()).tolist() == [1, 4]
    emb(paddle.to_tensor([2])).sum().backward()  # accumulated: the rows of both
    assert np.flatnonzero(emb.weight.grad._selected_rows.numpy()).tolist() == [1, 2, 4]
    emb.weight.sum().backward()  # a dense gradient added: dense
    assert emb.weight.grad._selected_rows is None
    emb.weight.clear_grad()  # a dense gradient clears to zeros, and then a sparse one is sparse (Paddle's add)
    emb(paddle.to_tensor([3])).sum().backward()
    assert np.flatnonzero(emb.weight.grad._selected_rows.numpy()).tolist() == [3]
    assert emb.weight.grad.numpy()[3].tolist() == [1.0, 1.0] and emb.weight.grad.numpy().sum() == 2.0


def test_dynamic_adam_refuses_weight_decay_on_a_sparse_gradient_as_paddle():
    emb = paddle.nn.Embedding(10, 4, sparse=True)
    opt = paddle.optimizer.Adam(0.1, parameters=emb.parameters(), weight_decay=0.01)
    emb(paddle.to_tensor([[1, 2]])).sum().backward()
    with pytest.raises(RuntimeError, match="Adam: weight_decay is not supported with a sparse gradient"):
        opt.step()
    dense = paddle.nn.Embedding(10, 4)  # a dense table decays
    opt = paddle.optimizer.Adam(0.1, parameters=dense.parameters(), weight_decay=0.01)
    dense(paddle.to_tensor([[1, 2]])).sum().backward()
    opt.step()


def test_a_sparse_embedding_trains_its_padding_row_as_paddle():
    """paddle 2.6.2's sparse gradient kernel leaves no id out, so the padding row gets its share (dense: none)."""
    grads = {}
    for sparse in (False, True):
        emb = paddle.nn.Embedding(5, 2, padding_idx=2, sparse=sparse)
        (emb(paddle.to_tensor([[1, 2, 2]])) * 3).sum().backward()
        grads[sparse] = emb.weight.grad.numpy()[:3, 0].tolist()
    assert grads == {False: [0.0, 3.0, 0.0], True: [0.0, 3.0, 6.0]}


def test_a_dynamic_sparse_embedding_has_the_dense_gradient():
    weight = paddle.create_parameter([5, 3], "float32")
    ids = paddle.to_tensor([[1, 1, 4]])
    paddle.nn.functional.embedding(ids, weight, sparse=True).sum().backward()
    sparse_grad = weight.grad.numpy().copy()
    weight.clear_grad()
    paddle.nn.functional.embedding(ids, weight).sum().backward()
    assert sparse_grad.tolist() == weight.grad.numpy().tolist() and sparse_grad[1].tolist() == [2.0, 2.0, 2.0]


PADDLE_TRAINS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
prefix, loss = sys.argv[1], sys.argv[2]
program = paddle.static.Program.parse_from_string(open(prefix + ".pdmodel", "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
paddle.static.load(program, prefix, exe)
feeds = [{"ids": np.array(ids, "int64")} for ids in json.loads(sys.argv[3])[1:4]]
grad = program.global_block().var("embedding_0.w_0@GRAD")
print(json.dumps({"losses": [float(exe.run(program, feed=feed, fetch_list=[loss])[0]) for feed in feeds],
                  "type": str(grad.type)}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("kind", TRAINED)
def test_paddle_trains_on_minipaddles_sparse_embedding_with_its_losses(static_mode, tmp_path, kind):
    prefix, loss, losses = _saved(kind, tmp_path)
    ids = json.dumps(RECORDED["ids"])
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_TRAINS, prefix, loss, ids], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["type"].endswith("SELECTED_ROWS")
    np.testing.assert_allclose(out["losses"], losses, rtol=1e-6, atol=1e-7)


TWO_LOOKUPS = """
ids = paddle.static.data("ids", [None, 3], "int64")
emb = paddle.nn.Embedding(10, 4, sparse=True)
h = emb(ids) + emb(9 - ids[:, :1])
loss = paddle.mean(paddle.static.nn.fc(h, 1, num_flatten_dims=2) ** 2)
paddle.optimizer.Adam(0.1, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.05)).minimize(loss)
"""


def _two_lookups(tmp_path) -> tuple:
    """One table looked up twice (its gradient two SELECTED_ROWS shares and their sum), clipped and trained by
    Adam: saved after a step, then STEPS more: (prefix, loss name, losses)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        scope = {"paddle": paddle}
        exec(TWO_LOOKUPS, scope)
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=_feed(0), fetch_list=[scope["loss"]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.static.save(main, str(tmp_path / "two"))
    losses = [float(exe.run(main, feed=_feed(step), fetch_list=[scope["loss"]])[0]) for step in range(1, 1 + STEPS)]
    return str(tmp_path / "two"), scope["loss"].name, losses


def test_a_table_looked_up_twice_sums_its_rows_as_paddle(static_mode, tmp_path):
    """paddle's sum of two SELECTED_ROWS shares is SELECTED_ROWS (its add_n kernel aborts on a LOD_TENSOR one)."""
    block = ProgramDesc.FromString(open(_two_lookups(tmp_path)[0] + ".pdmodel", "rb").read()).blocks[0]
    names = {number: name for name, number in VarTypeEnum.items()}
    types = {v.name: names[v.type.type] for v in block.vars if v.name.startswith("embedding_0.w_0@GRAD")}
    shares = [f"embedding_0.w_0@GRAD@RENAME@block0@{k}" for k in (0, 1)]
    assert types == dict.fromkeys(["embedding_0.w_0@GRAD", *shares], "SELECTED_ROWS")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_trains_a_table_looked_up_twice_with_minipaddles_losses(static_mode, tmp_path):
    prefix, loss, losses = _two_lookups(tmp_path)
    ids = json.dumps(RECORDED["ids"])
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_TRAINS, prefix, loss, ids], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    np.testing.assert_allclose(json.loads(result.stdout.strip().splitlines()[-1])["losses"], losses, rtol=1e-6)
