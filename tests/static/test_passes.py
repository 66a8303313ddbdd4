"""Program passes (static/passes/): each one's ops before and after, the same numbers from the Executor, the
input Program left alone, and `diff` describing the change."""

import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import passes
from minipaddle.static.executor import compile_block, run_plan

RNG = np.random.default_rng(0)
X = RNG.random((3, 4), dtype=np.float32)


@pytest.fixture
def fresh_scope():
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        yield scope


def types(program) -> list:
    return [op.type for op in program.global_block().ops]


def run(program, fetch, feed=None):
    exe = paddle.static.Executor()
    return exe.run(
        program,
        feed={"x": X} if feed is None else feed,
        fetch_list=[f if isinstance(f, str) else f.name for f in fetch],
    )


def check_pass(before, after, fetch, feed=None, exact=True):
    """The pass left `before` as it was and `after` computes the same values."""
    text = str(before)
    expected, got = run(before, fetch, feed), run(after, fetch, feed)
    for e, g in zip(expected, got):
        if exact:
            np.testing.assert_array_equal(g, e)
        else:
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    assert str(before) == text


def _mlp(activation="relu"):
    """x -> Linear -> activation -> Linear -> sum, plus an unused branch."""
    paddle.seed(0)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 4], "float32")
        h = paddle.nn.Linear(4, 5)(x)
        h = getattr(paddle.nn.functional, activation)(h) if activation else h
        y = paddle.nn.Linear(5, 2)(h)
        out = paddle.sum(y, axis=1)
        paddle.exp(h)  # nobody reads this
    exe = paddle.static.Executor()
    exe.run(startup)
    return main, x, h, out


# ---- dead-code elimination ---------------------------------------------------------------------------------------


def test_dead_code_elimination_drops_what_the_fetches_do_not_need(static_mode, fresh_scope):
    main, x, h, out = _mlp()
    after = passes.dead_code_elimination(main, keep=[out])
    assert types(main) == ["matmul", "add", "relu", "matmul", "add", "sum", "exp"]
    assert types(after) == ["matmul", "add", "relu", "matmul", "add", "sum"]
    assert not any(n.startswith("exp") for n in after.global_block().vars)
    check_pass(main, after, [out])
    assert types(passes.dead_code_elimination(main, keep=[h])) == ["matmul", "add", "relu"]
    d = passes.diff(main, after)
    assert (d.removed_ops, d.added_ops, d.changed_ops) == ([6], [], [])


def test_dead_code_elimination_keeps_ops_that_write_state(static_mode, fresh_scope):
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [-1, 4], "float32")
        counter = main.global_block().create_var("counter", [1], "float32", persistable=True)
        counter.add_(paddle.ones([1], "float32"))  # a running count: its ops write a persistable variable
        y = paddle.sum(x)
    fresh_scope.vars["counter"] = np.zeros(1, np.float32)
    after = passes.dead_code_elimination(main, keep=[y])
    assert types(after) == types(main)
    run(after, [y])
    np.testing.assert_array_equal(fresh_scope.vars["counter"], [1.0])


# ---- constant folding -------------------------------------------------------------------------------------------


def test_constant_folding_computes_constant_ops_now(static_mode, fresh_scope):
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [-1, 4], "float32")
        k = paddle.exp(paddle.to_tensor(np.array([1.0, 2.0, 3.0, 4.0], "float32")) * 0.5)
        y = x * paddle.reshape(k, [1, 4])
    folded = passes.constant_folding(main)
    assert types(main) == ["assign_value", "assign_value", "multiply", "exp", "reshape", "multiply"]
    assert types(folded) == ["assign_value", "assign_value", "assign_value", "assign_value", "assign_value",
                             "multiply"]  # fmt: skip
    check_pass(main, folded, [y])
    d = passes.diff(main, folded)
    assert (d.removed_ops, d.added_ops) == ([2, 3, 4], [2, 3, 4])
    slim = passes.dead_code_elimination(folded, keep=[y])  # the constants nobody reads any more go
    assert types(slim) == ["assign_value", "multiply"]
    check_pass(main, slim, [y])


def test_constant_folding_leaves_random_ops_and_state_alone(static_mode, fresh_scope):
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        coin = paddle.bernoulli(paddle.full([1000], 0.5))  # random: a fold would freeze one draw forever
        w = main.global_block().create_parameter("w", [2], "float32")
        y = w * paddle.to_tensor(np.array([2.0, 3.0], "float32"))  # w changes while training: not a constant
    fresh_scope.vars["w"] = np.ones(2, np.float32)
    folded = passes.constant_folding(main)
    assert "bernoulli" in types(folded) and "multiply" in types(folded)
    (a,), (b,) = run(folded, [coin], {}), run(folded, [coin], {})
    assert not np.array_equal(a, b)
    check_pass(main, folded, [y], {})


# ---- fc fusion ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("activation", ["relu", "sigmoid", "tanh", None])
def test_fuse_fc_turns_matmul_add_activation_into_one_op(static_mode, fresh_scope, activation):
    main, x, h, out = _mlp(activation)
    fused = passes.fuse_fc(main, keep=[out])
    assert types(fused) == ["fc", "fc", "sum", "exp"]
    first = fused.global_block().ops[0]
    assert first.attrs == {"activation": activation} and first.output_names() == [h.name]
    check_pass(main, fused, [out], exact=False)
    d = passes.diff(main, fused)
    chain = 3 if activation else 2  # the second Linear has no activation: a chain of 2
    assert d.removed_ops == list(range(chain + 2)) and d.added_ops == [0, 1]
    assert len(d.removed_vars) == (chain - 1) + 1


def test_fuse_fc_leaves_chains_whose_middle_is_used_elsewhere(static_mode, fresh_scope):
    main, x, h, out = _mlp("relu")
    add_out = main.global_block().ops[1].output_names()[0]
    kept = passes.fuse_fc(main, keep=[out, add_out])  # fetched: the chain ends there, before the relu
    assert types(kept)[:2] == ["fc", "relu"] and kept.global_block().ops[0].output_names() == [add_out]
    check_pass(main, kept, [out, add_out], exact=False)
    mm_out = main.global_block().ops[0].output_names()[0]
    with paddle.static.program_guard(main, paddle.static.Program()):
        also = paddle.mean(main.global_block().var(mm_out))  # a second reader of the matmul's result
    fused = passes.fuse_fc(main, keep=[out, also])
    assert types(fused) == ["matmul", "add", "relu", "fc", "sum", "exp", "mean"]
    check_pass(main, fused, [out, also], exact=False)


def test_fuse_fc_leaves_transposed_matmuls(static_mode, fresh_scope):
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [-1, 4], "float32")
        w = paddle.to_tensor(np.ones((3, 4), "float32"))
        y = paddle.matmul(x, w, transpose_y=True) + paddle.to_tensor(np.ones(3, "float32"))
    assert "fc" not in types(passes.fuse_fc(main, keep=[y]))


def test_a_fused_program_saves_loads_and_trains(static_mode, fresh_scope, tmp_path):
    main, x, h, out = _mlp("tanh")
    fused = passes.fuse_fc(main, keep=[out])
    exe = paddle.static.Executor()
    paddle.static.save_inference_model(str(tmp_path / "m"), [fused.global_block().var("x")],
                                       [fused.global_block().var(out.name)], exe, program=fused)  # fmt: skip
    program, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "m"), exe)
    assert types(program) == ["fc", "fc", "sum"]
    np.testing.assert_allclose(exe.run(program, feed={"x": X}, fetch_list=fetches)[0], run(main, [out])[0],
                               rtol=1e-5, atol=1e-6)  # fmt: skip
    with paddle.static.program_guard(fused, paddle.static.Program()):  # static backward goes through fc
        grads = paddle.static.gradients(
            [paddle.mean(fused.global_block().var(out.name))],
            [fused.global_block().var(p.name) for p in main.all_parameters()],
        )
    assert all(g is not None for g in grads)


# ---- conv + batch_norm folding ------------------------------------------------------------------------------------


def _conv_bn(training=False, bias=True):
    paddle.seed(3)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 2, 5, 5], "float32")
        conv = paddle.nn.Conv2D(2, 3, 3, padding=1, bias_attr=None if bias else False)
        bn = paddle.nn.BatchNorm2D(3)
        bn.train() if training else bn.eval()
        y = paddle.nn.functional.relu(bn(conv(x)))
    paddle.static.Executor().run(startup)
    scope = paddle.static.global_scope()
    for p in bn.parameters() + [bn._mean, bn._variance]:  # statistics and affine parameters away from 0 and 1
        shape = scope.vars[p.name].shape
        scope.vars[p.name] = RNG.uniform(0.5, 1.5, shape).astype("float32")
    return main, y


CONV_FEED = {"x": RNG.random((2, 2, 5, 5), dtype=np.float32)}


@pytest.mark.parametrize("bias", [True, False])
def test_fold_conv_bn_folds_inference_batch_norm_into_the_conv(static_mode, fresh_scope, bias):
    main, y = _conv_bn(bias=bias)
    folded = passes.fold_conv_bn(main)
    assert types(folded) == ["conv2d", "add", "relu"]
    assert len(types(main)) > 10
    new_w, new_b = folded.global_block().ops[0].inputs["w"][0], folded.global_block().ops[1].inputs["y"][0]
    assert new_w in fresh_scope.vars and fresh_scope.vars[new_b].shape == (1, 3, 1, 1)
    check_pass(main, folded, [y], CONV_FEED, exact=False)
    assert {v.name for v in folded.global_block().vars.values() if v.persistable} == {new_w, new_b}
    d = passes.diff(main, folded)
    assert d.added_vars == [new_w, new_b] and (0, 0) in d.changed_ops


def test_fold_conv_bn_leaves_training_batch_norm(static_mode, fresh_scope):
    with warnings.catch_warnings():  # (BatchNorm may remark on tracking statistics in training)
        warnings.simplefilter("ignore")
        main, y = _conv_bn(training=True)
    folded = passes.fold_conv_bn(main)
    # training-mode batch_norm is a cond on the training flag (batch statistics inside): nothing to fold
    assert types(folded) == types(main) and "cond" in types(main)


# ---- buffer reuse ---------------------------------------------------------------------------------------------------


def _arrays_held(program, feed) -> int:
    """Run the program's plan and count the arrays the run holds at its end (what the Executor keeps alive)."""
    env = dict(paddle.static.global_scope().vars)
    start = len(env) + len(feed)
    env.update(feed)
    run_plan(compile_block(program), env)
    return len(env) - start


def test_reuse_buffers_lowers_the_arrays_a_run_holds(static_mode, fresh_scope):
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [-1, 4], "float32")
        h = x
        for _ in range(6):
            h = paddle.tanh(h * 2.0)
        out = paddle.sum(h)
    reused = passes.reuse_buffers(main, keep=[out])
    assert types(reused) == types(main)
    before, after = passes.buffer_count(main), passes.buffer_count(reused)
    assert (before, after) == (19, 3)  # 6 tanh, 6 multiply, 6 constants, sum -> one [-1, 4], one constant, out
    assert _arrays_held(main, {"x": X}) == before and _arrays_held(reused, {"x": X}) == after
    check_pass(main, reused, [out])
    d = passes.diff(main, reused)
    assert d.removed_ops == [] and d.added_ops == [] and len(d.renamed_vars) == before - after
    assert out.name in reused.global_block().vars and out.name not in d.renamed_vars


def _control_flow():
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [-1, 4], "float32")
        a = paddle.exp(x)
        b = paddle.tanh(a)
        s = paddle.sum(b)
        c = paddle.static.nn.cond(s > 0, lambda: s * 2.0, lambda: s - 1.0)
        i, total = paddle.full([1], 0, "int64"), paddle.full([1], 0.0)
        _, total = paddle.static.nn.while_loop(lambda i, t: i < 3, lambda i, t: [i + 1, t + s], [i, total])
        d = paddle.tanh(b * 3.0)
        paddle.exp(d)  # unused
    return main, [a, c, total, d], s


def test_reuse_buffers_never_renames_fetched_or_control_flow_names(static_mode, fresh_scope):
    main, fetches, s = _control_flow()
    reused = passes.reuse_buffers(main, keep=fetches)
    renamed = passes.diff(main, reused).renamed_vars
    assert renamed and not {f.name for f in fetches} & set(renamed) and s.name not in renamed
    check_pass(main, reused, fetches)


@pytest.mark.parametrize("name", sorted(passes.PASSES))
def test_every_pass_keeps_control_flow_working(static_mode, fresh_scope, name):
    main, fetches, _ = _control_flow()
    after = passes.apply_passes(main, [name], keep=fetches)
    assert [op.type for b in after.blocks[1:] for op in b.ops] == [op.type for b in main.blocks[1:] for op in b.ops]
    check_pass(main, after, fetches)


# ---- the registry -------------------------------------------------------------------------------------------------


def test_apply_passes_runs_a_pipeline(static_mode, fresh_scope):
    main, x, h, out = _mlp("relu")
    names = ["constant_folding", "fuse_fc", "fold_conv_bn", "dead_code_elimination", "reuse_buffers"]
    names_with_others = [*names, "convert_to_int8", "amp_cast"]  # (int8: tests/quantization; amp_cast: tests/amp)
    assert sorted(passes.PASSES) == sorted(names_with_others)
    final = passes.apply_passes(main, names, keep=[out])
    assert types(final) == ["fc", "fc", "sum"]
    check_pass(main, final, [out], exact=False)
    with pytest.raises(ValueError, match=r"unknown pass\(es\) \['fuse_everything'\]"):
        passes.apply_passes(main, ["fuse_everything"])
    with pytest.raises(TypeError, match="keep: expected Variables or names"):
        passes.dead_code_elimination(main, keep=[3])
