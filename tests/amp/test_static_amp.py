"""paddle.static.amp: the amp_cast pass (paddle's gray-list rule), decorate's loss scaling in the Program, lists."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.ops.amp_names import paddle_op_name
from tests.golden_files import GOLDEN_ROOT, read_json


@pytest.fixture
def static():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _mlp(main, start):
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 3], "float32")
        y = paddle.static.data("y", [4, 1], "float32")
        h = paddle.static.nn.fc(x, 5, activation="relu")
        out = paddle.static.nn.fc(h, 1)
        loss = paddle.mean(paddle.square(out - y))
    return x, y, out, loss


def _dtypes_by_type(program):
    block = program.global_block()
    return [(op.type, block.var(op.output_names()[0]).dtype.name) for op in block.ops]


def test_o1_pass_casts_white_and_gray_ops_and_keeps_black_float32(static):
    main, start = paddle.static.Program(), paddle.static.Program()
    _mlp(main, start)
    before = [op.type for op in main.global_block().ops]
    after = paddle.static.passes.amp_cast(main)
    assert [op.type for op in main.global_block().ops] == before  # the input is not changed
    got = [(t, d) for t, d in _dtypes_by_type(after) if t != "cast"]
    assert got == [("matmul", "float16"), ("add", "float16"), ("relu", "float16"), ("matmul", "float16"),
                   ("add", "float16"), ("subtract", "float16"), ("square", "float32"), ("mean", "float32")]  # fmt: skip
    casts = [op for op in after.global_block().ops if op.type == "cast"]
    names = [op.output_names()[0] for op in casts]
    assert "x.cast_fp16" in names and any(n.endswith(".cast_fp32") for n in names)
    assert len(names) == len(set(names))  # each variable is cast once
    d = paddle.static.passes.diff(main, after)
    assert d is not None


def test_ops_in_no_list_are_float32_and_o2_runs_everything_low(static):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2, 3], "float32")
        y = paddle.abs(paddle.matmul(x, paddle.transpose(x, [1, 0])))
        paddle.exp(y)
    o1 = dict(_dtypes_by_type(paddle.static.passes.amp_cast(main)))
    assert o1["matmul"] == "float16" and o1["abs"] == "float32" and o1["exp"] == "float32"
    o2 = dict(_dtypes_by_type(paddle.static.passes.amp_cast(main, level="O2")))
    assert o2["abs"] == "float16" and o2["exp"] == "float16"  # O2 drops the float16 black list (paddle 2.6)
    bf = dict(_dtypes_by_type(paddle.static.amp.bf16.rewrite_program_bf16(main.clone())))
    assert bf["matmul"] == "bfloat16"


def test_fp16_guard_limits_o2(static):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2, 3], "float32")
        with paddle.static.amp.fp16_guard():
            a = paddle.nn.functional.relu(x)
        paddle.nn.functional.relu(a)
    out = main.clone()
    paddle.static.amp.cast_model_to_fp16(out, use_fp16_guard=True)
    relus = [d for t, d in _dtypes_by_type(out) if t == "relu"]
    assert relus == ["float16", "float32"]


def test_decorate_trains_with_dynamic_loss_scaling_in_the_program(static):
    paddle.seed(0)
    main, start = paddle.static.Program(), paddle.static.Program()
    x, y, out, loss = _mlp(main, start)
    with paddle.static.program_guard(main, start):
        opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), init_loss_scaling=8.0, incr_every_n_steps=2)
        opt.minimize(loss)
    exe = paddle.static.Executor()
    exe.run(start)
    rng = np.random.default_rng(0)
    xs, ys = rng.random((4, 3), np.float32), rng.random((4, 1), np.float32)
    losses, scales = [], []
    for _ in range(4):
        lv, s = exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[loss, opt.get_loss_scaling()])
        losses.append(float(lv))
        scales.append(float(s[0]))
    assert scales == [8.0, 16.0, 16.0, 32.0] and losses[-1] < losses[0]
    params = {p.name: np.array(paddle.static.global_scope().find_var(p.name).get_tensor()) for p in
              main.all_parameters()}  # fmt: skip
    bad = xs.copy()
    bad[0, 0] = 1e30
    _, s = exe.run(main, feed={"x": bad, "y": ys}, fetch_list=[loss, opt.get_loss_scaling()])
    assert float(s[0]) == 16.0
    for p in main.all_parameters():  # the overflowing step's gradients were zeroed: SGD changed nothing
        np.testing.assert_array_equal(np.array(paddle.static.global_scope().find_var(p.name).get_tensor()),
                                      params[p.name])  # fmt: skip


def test_lists_and_their_errors():
    lists = paddle.static.amp.AutoMixedPrecisionLists(custom_white_list={"softmax"}, custom_black_list={"relu"})
    assert "softmax" in lists.white_list and "softmax" not in lists.black_list
    assert "relu" in lists.black_list and "relu" not in lists.gray_list and "relu" in lists.unsupported_list
    assert len(paddle.static.amp.fp16_lists.gray_list) == 46
    assert paddle.static.amp.CustomOpLists is paddle.static.amp.AutoMixedPrecisionLists
    with pytest.raises(ValueError, match="overlaps custom_black_list with < relu >"):
        paddle.static.amp.AutoMixedPrecisionLists(custom_white_list={"relu"}, custom_black_list={"relu"})
    bf = paddle.static.amp.bf16.AutoMixedPrecisionListsBF16()
    assert len(bf.fp32_list) == 45 and "layer_norm" not in bf.fp32_list  # (layer_norm is gray)
    assert bf.bf16_list == paddle.amp.white_list()["bfloat16"]["O1"]
    with pytest.raises(TypeError, match="optimizer must be"):
        paddle.static.amp.decorate("sgd")
    assert paddle.static.amp.bf16.convert_float_to_uint16([1.0]).tolist() == [16256]


def _promote_program():
    """The Program of tests/golden/amp/make_golden.py's static_rewrite()."""
    x = paddle.static.data("x", [2, 3], "float32")
    w = paddle.create_parameter([3, 3], "float32")
    e = paddle.exp(paddle.abs(paddle.matmul(x, w)))
    paddle.nn.functional.softmax(paddle.add(e, x))


@pytest.mark.parametrize("level", ["O1", "O2"])
@pytest.mark.parametrize("use_promote", [False, True])
def test_rewrite_with_and_without_use_promote_is_paddles(static, level, use_promote):
    golden = read_json(GOLDEN_ROOT / "amp" / "static_rewrite.json")[f"{level}_promote={use_promote}"]
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        _promote_program()
    paddle.static.amp.cast_model_to_fp16(main, use_fp16_guard=False, level=level, use_promote=use_promote)
    block = main.global_block()
    got = [[paddle_op_name(op.type, op.attrs), block.var(op.output_names()[0]).dtype.name]
           for op in block.ops if op.type != "cast"]  # fmt: skip
    assert got == golden


def _adam_program(level="O1", master_grad=False, scale=8.0, lr=0.1, optimizer=None):
    main, start = paddle.static.Program(), paddle.static.Program()
    x, y, out, loss = _mlp(main, start)
    with paddle.static.program_guard(main, start):
        opt = paddle.static.amp.decorate(optimizer or paddle.optimizer.Adam(lr), level=level, init_loss_scaling=scale,
                                         master_grad=master_grad, use_fp16_guard=False)  # fmt: skip
        opt.minimize(loss)
    exe = paddle.static.Executor()
    exe.run(start)
    return main, exe, opt, loss


def _persistables(main) -> dict:
    scope = paddle.static.global_scope()
    return {v.name: np.array(scope.find_var(v.name).get_tensor()) for v in main.list_vars()
            if v.persistable and scope.find_var(v.name) is not None}  # fmt: skip


def test_an_overflowing_static_step_changes_no_parameter_and_no_adam_moment(static):
    paddle.seed(0)
    main, exe, opt, loss = _adam_program()
    rng = np.random.default_rng(0)
    xs, ys = rng.random((4, 3), np.float32), rng.random((4, 1), np.float32)
    exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[loss])
    before = _persistables(main)
    moments = [n for n in before if "moment1" in n or "moment2" in n or "beta1_pow" in n]
    assert len(moments) >= 12  # 4 parameters, each with moment1, moment2 and beta1_pow_acc
    bad = xs.copy()
    bad[0, 0] = 1e30
    exe.run(main, feed={"x": bad, "y": ys}, fetch_list=[loss])
    after = _persistables(main)
    for n in moments + [p.name for p in main.all_parameters()]:
        np.testing.assert_array_equal(after[n], before[n], err_msg=n)
    assert float(after[opt.get_loss_scaling().name][0]) == 4.0  # the step was bad: the scale shrank
    exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[loss])  # a good step updates again
    again = _persistables(main)
    assert all(not np.array_equal(again[n], before[n]) for n in moments)


def test_master_grad_keeps_the_unscaled_gradient_float32_under_o2(static):
    # d loss / d w = x * 2**-14 = 2**-26; scaled by 2**15 it is 2**-11 in float16, but unscaled, 2**-26 underflows
    # float16 (whose smallest subnormal is 2**-24): without master gradients the update is lost
    def update(master_grad):
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [1, 1], "float32")
            w = paddle.create_parameter([1, 1], "float32", default_initializer=paddle.nn.initializer.Constant(1e-3))
            loss = paddle.scale(paddle.mean(paddle.matmul(x, w)), 2.0**-14)
            opt = paddle.static.amp.decorate(paddle.optimizer.SGD(1.0), level="O2", init_loss_scaling=2.0**15,
                                             master_grad=master_grad, use_fp16_guard=False)  # fmt: skip
            opt.minimize(loss)
        exe = paddle.static.Executor()
        exe.run(start)
        exe.run(main, feed={"x": np.full((1, 1), 2.0**-12, np.float32)}, fetch_list=[loss])
        # O2's float16 w is updated through its float32 master weight (w itself holds it rounded to float16)
        master = opt._optimizer._master_weights[w.name].name
        return float(np.array(paddle.static.global_scope().find_var(master).get_tensor())[0, 0])

    w0 = float(np.float32(1e-3))
    assert update(master_grad=False) == w0  # the float16 gradient rounded to zero: no change
    assert update(master_grad=True) == float(np.float32(w0) - np.float32(2.0**-26))


def test_static_backward_built_under_auto_cast_keeps_the_forward_dtypes(static):
    # Static backward marks itself as dynamic backward does (STATE.in_backward), so auto_cast's hook leaves the
    # grad rules alone. Under O2 without promotion every op in no list would be cast low: the gradients of the
    # float32 ops (embedding and interpolation, EXTRA_BLACK_LIST) were cast to float16, and so the float32
    # embedding table's gradient.
    from minipaddle.core.state import STATE

    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [1, 2, 4, 4], "float32")
        x.stop_gradient = False
        ids = paddle.static.data("ids", [4], "int64")
        emb = paddle.nn.Embedding(5, 3)
        with paddle.amp.cast_log() as log, paddle.amp.auto_cast(level="O2", use_promote=False):
            y = paddle.nn.functional.interpolate(x, scale_factor=2, mode="bilinear")
            loss = y.mean() + emb(ids).mean()
            n = len(log)
            ((w, w_grad),) = paddle.static.append_backward(loss)
            (x_grad,) = paddle.static.gradients(loss, [x])
    assert len(log) == n  # the grad rules' ops are not AMP's: no record, no cast
    assert STATE.in_backward is False
    assert w.dtype == w_grad.dtype == x_grad.dtype == paddle.float32
    block = main.global_block()
    grad_ops = {op.type: block.var(op.output_names()[0]).dtype.name for op in block.ops if op.role == "backward"}
    assert grad_ops["embedding_grad"] == grad_ops["interpolate_grad"] == "float32"
    exe = paddle.static.Executor()
    exe.run(start)
    feed = {"x": np.ones((1, 2, 4, 4), np.float32), "ids": np.array([0, 1, 1, 4])}
    (g,) = exe.run(main, feed=feed, fetch_list=[w_grad])
    np.testing.assert_allclose(g[1], np.full(3, 2 / 12), rtol=1e-3)  # two of the 4 ids, mean over 12 values


def test_static_loss_scaling_is_paddles_two_fused_ops(static):
    main, exe, opt, loss = _adam_program()
    types = [op.type for op in main.global_block().ops]
    assert types.count("check_finite_and_unscale") == 1 and types.count("update_loss_scaling") == 1
    assert "isfinite" not in types  # no per-gradient checks spelled out
    rng = np.random.default_rng(1)
    xs, ys = rng.random((4, 3), np.float32), rng.random((4, 1), np.float32)
    counters = [v.name for v in main.list_vars() if "num_good_steps" in v.name]
    for _ in range(3):
        exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[loss])
    good = np.array(paddle.static.global_scope().find_var(counters[0]).get_tensor())
    assert good.tolist() == [3]  # three good steps counted, in a persistable int32 [1], as paddle's op keeps it
