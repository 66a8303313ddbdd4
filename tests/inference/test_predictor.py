"""paddle.inference: Config, create_predictor, handles, the passes (each changes the Program as its name says,
and the outputs stay those of the unoptimized model), PredictorPool in threads."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from minipaddle import inference
from minipaddle.core.state import STATE
from tests.inference.models import conv_bn_mlp, lenet, run_program, save_static


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    d = tmp_path_factory.mktemp("models")
    save_static(str(d / "lenet"), lenet, [None, 1, 28, 28])
    save_static(str(d / "bn"), conv_bn_mlp, [None, 3, 8, 8])
    return d


def _config(models, name, **switches):
    c = inference.Config(str(models / f"{name}.pdmodel"), str(models / f"{name}.pdiparams"))
    c.disable_glog_info()
    for k, v in switches.items():
        getattr(c, k)(*([] if v is None else [v]))
    return c


def _run(predictor, x):
    h = predictor.get_input_handle(predictor.get_input_names()[0])
    h.reshape(list(x.shape))
    h.copy_from_cpu(x)
    assert predictor.run() is None
    return predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()


@pytest.mark.parametrize("name,shape", [("lenet", (5, 1, 28, 28)), ("bn", (4, 3, 8, 8))])
def test_outputs_with_and_without_ir_optim_agree(models, name, shape):
    x = np.random.default_rng(1).standard_normal(shape).astype("float32")
    plain = _run(inference.create_predictor(_config(models, name, switch_ir_optim=False)), x)
    optimized = _run(inference.create_predictor(_config(models, name, enable_memory_optim=None)), x)
    with threadpool_limits(1):  # the predictor's BLAS threads (1 by default): several split a GEMM's sums otherwise
        (reference,) = run_program(str(models / name), {"x": x})
    np.testing.assert_allclose(plain, reference, rtol=0, atol=0)
    np.testing.assert_allclose(optimized, plain, rtol=1e-5, atol=1e-5)


def test_each_pass_rewrites_what_its_name_says(models):
    p = inference.create_predictor(_config(models, "bn", switch_ir_debug=True, enable_memory_optim=None))
    steps = {s.name: s for s in p.pass_log() if s.ran}
    types = lambda step: [op.type for op in step.program.global_block().ops]  # noqa: E731
    assert "cond" not in types(steps["is_test_pass"])  # (a saved file holds the inference branches already)
    assert types(steps["simplify_with_basic_ops_pass"]).count("assign") < types(steps["is_test_pass"]).count("assign")
    assert "matmul" not in types(steps["fc_fuse_pass"]) and "fc" in types(steps["fc_fuse_pass"])
    assert "fusion_repeated_fc_relu" in types(steps["repeated_fc_relu_fuse_pass"])
    assert "rsqrt" in types(steps["repeated_fc_relu_fuse_pass"])  # the batch norms' arithmetic, before folding
    assert types(steps["conv_bn_fuse_pass"]).count("rsqrt") == 1  # the bias-free conv's BN is folded
    assert "rsqrt" not in types(steps["conv_eltwiseadd_bn_fuse_pass"])  # and the conv + bias + BN one
    assert steps["constant_folding_pass"].ops_after < steps["constant_folding_pass"].ops_before
    assert types(steps["conv_elementwise_add_act_fuse_pass"]).count("conv2d_fusion") == 2
    final = [op.type for op in p.optimized_program().global_block().ops]
    assert final[:8] == ["conv2d_fusion", "conv2d_fusion", "reshape", "fusion_repeated_fc_relu", "fc", "standardize",
                         "multiply", "add"]  # fmt: skip
    assert final[8:] in ([], ["assign"])  # the file may name the fetched result with an assign
    unmatched = [s for s in p.pass_log() if not s.ran]
    assert {s.name for s in unmatched} >= {"layer_norm_fuse_pass", "mul_lstm_fuse_pass"}
    assert all(s.ops_before == s.ops_after and s.notes for s in unmatched)


def test_without_ir_debug_no_programs_are_kept(models):
    p = inference.create_predictor(_config(models, "lenet"))
    assert all(s.program is None for s in p.pass_log())


def test_memory_optim_reuses_buffers_and_shrink_releases_them(models):
    x = np.ones((8, 3, 8, 8), "float32")
    plain = inference.create_predictor(_config(models, "bn", switch_ir_optim=False))
    reused = inference.create_predictor(_config(models, "bn", switch_ir_optim=False, enable_memory_optim=None))
    np.testing.assert_allclose(_run(plain, x), _run(reused, x), rtol=1e-6, atol=1e-6)
    names = lambda p: {n for op in p.optimized_program().global_block().ops for n in op.output_names()}  # noqa: E731
    assert len(names(reused)) < len(names(plain))
    assert reused.pass_log()[-1].name == "memory_optimize_pass"
    assert plain.try_shrink_memory() > reused.try_shrink_memory() > 0
    assert plain.try_shrink_memory() == 0  # nothing left to release


def test_config_constructors_getters_and_summary(models, tmp_path):
    prog, params = str(models / "lenet.pdmodel"), str(models / "lenet.pdiparams")
    c = inference.Config(prog, params)
    assert (c.prog_file(), c.params_file(), c.model_dir(), c.model_from_memory()) == (prog, params, "", False)
    assert c.ir_optim() and not c.use_gpu() and c.cpu_math_library_num_threads() == 1 and not c.mkldnn_enabled()
    empty = inference.Config()
    assert empty.prog_file() == "" and empty.model_dir() == ""
    expected = (
        "\n+--------------------------+-------+\n| Option                   | Value |\n"
        "+--------------------------+-------+\n+--------------------------+-------+\n"
        "| cpu_math_thread          | 1     |\n| enable_mkldnn            | false |\n"
        "| mkldnn_cache_capacity    | 10    |\n+--------------------------+-------+\n"
        "| use_gpu                  | false |\n+--------------------------+-------+\n"
        "| use_xpu                  | false |\n+--------------------------+-------+\n"
        "| use_cinn_compiler        | false |\n| save_optimized_model     | false |\n"
        "| ir_optim                 | true  |\n| ir_debug                 | false |\n"
        "| memory_optim             | false |\n| enable_profile           | false |\n"
        "| enable_log               | true  |\n| collect_shape_range_info | false |\n"
        "+--------------------------+-------+\n"
    )  # paddle 2.6.2's Config().summary(), with enable_mkldnn false (no oneDNN here)
    assert empty.summary() == expected
    c.enable_memory_optim()
    c.switch_ir_debug(True)
    text = c.summary()
    assert f"| model_file               | {prog.ljust(len(params))} |" in text
    assert f"| params_file              | {params} |" in text
    assert "| memory_optim             | true " in text and "| ir_debug                 | true " in text
    d = tmp_path / "dir"
    d.mkdir()
    for suffix in (".pdmodel", ".pdiparams"):
        (d / f"m{suffix}").write_bytes((models / f"lenet{suffix}").read_bytes())
    by_dir = inference.Config(str(d))
    by_dir.disable_glog_info()
    assert by_dir.model_dir() == str(d)
    x = np.zeros((1, 1, 28, 28), "float32")
    mem = inference.Config()
    model, weights = (models / "lenet.pdmodel").read_bytes(), (models / "lenet.pdiparams").read_bytes()
    mem.set_model_buffer(model, len(model), weights, len(weights))
    mem.disable_glog_info()
    assert mem.model_from_memory()
    np.testing.assert_array_equal(_run(inference.create_predictor(by_dir), x),
                                  _run(inference.create_predictor(mem), x))  # fmt: skip


def test_config_errors(models):
    c = _config(models, "lenet")
    with pytest.raises(RuntimeError, match="CPU only"):
        c.enable_use_gpu(100, 0)
    c.disable_gpu()
    c.enable_mkldnn()
    assert c.mkldnn_enabled() and "| enable_mkldnn            | true" in c.summary()
    inference.create_predictor(c)
    with pytest.raises(ValueError, match="Each config can only be used for one predictor"):
        inference.create_predictor(c)
    with pytest.raises(RuntimeError, match="Cannot open"):
        inference.create_predictor(inference.Config("/no/such.pdmodel", "/no/such.pdiparams"))
    with pytest.raises(ValueError, match="names no model"):
        inference.create_predictor(inference.Config())
    with pytest.raises(ValueError, match="set_cpu_math_library_num_threads"):
        c.set_cpu_math_library_num_threads(0)
    with pytest.raises(TypeError, match="create_predictor"):
        inference.create_predictor("m.pdmodel")


def test_pass_builder_edits_the_list(models):
    c = _config(models, "lenet")
    pb = c.pass_builder()
    assert pb.all_passes() == inference.passes.DEFAULT_PASSES
    assert pb.analysis_passes()[0] == "ir_graph_build_pass" and "memory_optimize_pass" in pb.analysis_passes()
    c.delete_pass("fc_fuse_pass")
    assert "fc_fuse_pass" not in pb.all_passes()
    pb.insert_pass(0, "fc_fuse_pass")
    pb.append_pass("fc_fuse_pass")
    assert pb.all_passes().count("fc_fuse_pass") == 2
    pb.delete_pass("fc_fuse_pass")  # every occurrence, as paddle
    assert "fc_fuse_pass" not in pb.all_passes()
    pb.delete_pass(0)
    assert pb.all_passes()[0] == inference.passes.DEFAULT_PASSES[1]
    with pytest.raises(ValueError, match="unknown pass 'no_such_pass'"):
        pb.append_pass("no_such_pass")
    with pytest.raises(IndexError):
        pb.insert_pass(999, "fc_fuse_pass")
    p = inference.create_predictor(c)
    assert "fc" not in [op.type for op in p.optimized_program().global_block().ops]


def test_paddle_pass_lists_are_paddle_26s():
    from minipaddle.inference import passes

    assert len(passes.PADDLE_CPU_PASSES) == 26 and passes.PADDLE_CPU_PASSES[0] == "simplify_with_basic_ops_pass"
    assert passes.PADDLE_CPU_PASSES[-2:] == ["is_test_pass", "constant_folding_pass"]
    assert len(passes.PADDLE_MKLDNN_PASSES) == 53 and passes.PADDLE_MKLDNN_PASSES[0] == "mkldnn_placement_pass"
    ours = ["conv_elementwise_add_act_fuse_pass", "act_pool_swap_pass"]  # the two minipaddle adds (passes/__init__)
    assert sorted(passes.DEFAULT_PASSES) == sorted(passes.PADDLE_CPU_PASSES + ours)


def test_handles(models):
    p = inference.create_predictor(_config(models, "lenet"))
    assert p.get_input_names() == ["x"] and len(p.get_output_names()) == 1
    h = p.get_input_handle("x")
    assert h.shape() == [0] and h.type() == inference.DataType.FLOAT32 and str(h.type()) == "PaddleDType.FLOAT32"
    h.reshape([2, 1, 28, 28])
    assert h.shape() == [2, 1, 28, 28]
    x = np.random.default_rng(0).standard_normal((2, 1, 28, 28)).astype("float32")
    h.share_external_data(x)  # no copy: a change to x is seen by the next run
    p.run()
    out = p.get_output_handle(p.get_output_names()[0])
    first = out.copy_to_cpu()
    assert out.shape() == [2, 10] and out.lod() == [] and out.type() == inference.DataType.FLOAT32
    x[:] = 0
    p.run()
    assert not np.allclose(out.copy_to_cpu(), first)
    h.set_lod([[0, 1, 2]])
    assert h.lod() == [[0, 1, 2]]
    with pytest.raises(ValueError, match="start at 0"):
        h.set_lod([[1, 2]])
    with pytest.raises(TypeError, match="is float32, got an array of float64"):
        h.copy_from_cpu(np.zeros((2, 1, 28, 28)))
    with pytest.raises(RuntimeError, match="output"):
        out.copy_from_cpu(x)
    with pytest.raises(ValueError, match="no input 'y'"):
        p.get_input_handle("y")
    h.copy_from_cpu(np.zeros((2, 28, 28), "float32"))
    with pytest.raises(ValueError, match="has shape \\[2, 28, 28\\]"):
        p.run()


def test_run_with_a_list_returns_paddle_tensors(models):
    import minipaddle as paddle

    p = inference.create_predictor(_config(models, "lenet"))
    x = np.ones((3, 1, 28, 28), "float32")
    (out,) = p.run([paddle.to_tensor(x)])
    assert isinstance(out, paddle.Tensor) and out.shape == [3, 10]
    np.testing.assert_array_equal(out.numpy(), _run(p, x))


def test_pool_predictors_run_in_threads_at_once(models):
    pool = inference.PredictorPool(_config(models, "bn"), 4)
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((3, 3, 8, 8)).astype("float32") for _ in range(4)]
    (want,) = zip(*[run_program(str(models / "bn"), {"x": x}) for x in xs])
    got, errors, barrier = [None] * 4, [], threading.Barrier(4)

    def serve(i):
        try:
            barrier.wait(timeout=30)
            for _ in range(20):
                got[i] = _run(pool.retrive(i), xs[i])
        except Exception as e:  # reported below, with the thread's index
            errors.append((i, e))

    threads = [threading.Thread(target=serve, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    with pytest.raises(IndexError, match="retrive"):
        pool.retrive(4)
    assert pool.retrive(1)._model is pool.retrive(0)._model  # clones share the optimized model and weights


def test_math_threads_are_set_while_running(models):
    from threadpoolctl import threadpool_info

    c = _config(models, "lenet")
    c.set_cpu_math_library_num_threads(1)
    p = inference.create_predictor(c)
    seen = []
    p.register_output_hook(lambda op, name, t: seen.append(
        {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}))  # fmt: skip
    before = {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
    _run(p, np.ones((1, 1, 28, 28), "float32"))
    assert seen and all(s <= {1} for s in seen)
    assert {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"} == before


def test_profile_and_hooks(models, capsys):
    c = _config(models, "lenet")
    c.enable_profile()
    p = inference.create_predictor(c)
    calls = []
    p.register_output_hook(lambda op, name, t: calls.append(op))
    for _ in range(3):
        _run(p, np.ones((1, 1, 28, 28), "float32"))
    assert STATE.hooks == ()  # the timer is on the door only while the predictor runs
    lines = p.profile_report().splitlines()
    assert lines[1] == "------------------------->     Profiling Report     <-------------------------"
    assert lines[3:6] == ["Place: CPU", "Time unit: ms", "Sorted by total time in descending order in the same thread"]
    assert lines[7].split() == ["Event", "Calls", "Total", "Min.", "Max.", "Ave.", "Ratio."]
    rows = {r.split()[0]: r.split()[1:] for r in lines[8:]}
    ops = [s.desc.type for s in p._model.plan]
    assert rows == {f"thread0::{op}": rows[f"thread0::{op}"] for op in set(ops)}  # one row per op type
    assert all(int(r[0]) == 3 * ops.count(k[9:]) for k, r in rows.items())  # every op of every run
    totals = [float(r[1]) for r in rows.values()]
    assert totals == sorted(totals, reverse=True) and abs(sum(float(r[5]) for r in rows.values()) - 1) < 1e-4
    assert all(float(r[2]) <= float(r[4]) <= float(r[3]) for r in rows.values())  # min <= mean <= max
    assert calls.count("conv2d_fusion") == 6
    capsys.readouterr()
    report = p.profile_report()
    del p
    gc.collect()
    assert capsys.readouterr().out == report  # printed when the predictor goes, as paddle's does
    with pytest.raises(RuntimeError, match="enable_profile"):
        inference.create_predictor(_config(models, "lenet")).profile_report()


def test_glog_lines_name_every_pass(models, capsys):
    c = inference.Config(str(models / "lenet.pdmodel"), str(models / "lenet.pdiparams"))
    inference.create_predictor(c)
    err = capsys.readouterr().err
    assert "--- Running analysis [ir_graph_build_pass]" in err and "--- Running IR pass [fc_fuse_pass]" in err


def test_save_optimized_model(models, tmp_path):
    c = _config(models, "lenet")
    c.enable_save_optim_model(True)
    c.set_optim_cache_dir(str(tmp_path))
    p = inference.create_predictor(c)
    again = inference.Config(str(tmp_path / "_optimized.pdmodel"), str(tmp_path / "_optimized.pdiparams"))
    again.disable_glog_info()
    again.switch_ir_optim(False)
    x = np.random.default_rng(0).standard_normal((2, 1, 28, 28)).astype("float32")
    np.testing.assert_allclose(_run(inference.create_predictor(again), x), _run(p, x), rtol=1e-6, atol=1e-6)


def test_enums_and_version():
    assert inference.DataType.FLOAT32 == 0 and inference.DataType.FLOAT64 == 7
    assert inference.PlaceType.CPU == 0 and inference.PrecisionType.Half == 2
    assert inference.Config.Precision.Int8 == inference.PrecisionType.Int8
    assert inference.get_num_bytes_of_data_type(inference.DataType.INT64) == 8
    assert inference.get_version().startswith("version: ")


def test_is_test_pass_replaces_train_switches_by_their_inference_branch():
    """A Program built in training mode holds cond(@IS_TRAINING@, ...) for dropout and batch norm; in its
    for_test clone the flag is False and is_test_pass inlines the inference branches."""
    import minipaddle as paddle
    from minipaddle.inference.passes import PassContext, is_test_pass

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3, 8, 8], "float32")
            y = conv_bn_mlp(x)
        exe = paddle.static.Executor()
        scope = paddle.static.Scope()
        exe.run(startup, scope=scope)
    finally:
        paddle.disable_static()
    test = main.clone(for_test=True)
    assert [op.type for op in test.global_block().ops].count("cond") == 3
    ctx = PassContext(scope, [y.name])
    out = is_test_pass(test, ctx)
    assert "cond" not in [op.type for op in out.global_block().ops] and "3 train/eval switches" in ctx.notes[0]
    feed = {"x": np.random.default_rng(0).standard_normal((2, 3, 8, 8)).astype("float32")}
    paddle.enable_static()
    try:
        want = exe.run(test, feed=feed, fetch_list=[y.name], scope=scope)[0]
        got = exe.run(out, feed=feed, fetch_list=[y.name], scope=scope)[0]
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(got, want)


def test_convert_to_mixed_precision_float16(models, tmp_path):
    import minipaddle as paddle

    src, dst = str(models / "lenet"), str(tmp_path / "lenet16")
    inference.convert_to_mixed_precision(src + ".pdmodel", src + ".pdiparams", dst + ".pdmodel", dst + ".pdiparams",
                                         inference.PrecisionType.Half, inference.PlaceType.CPU)  # fmt: skip
    program, _, _ = paddle.static.load_inference_model(dst, paddle.static.Executor())
    block = program.global_block()
    weights = {v.dtype.name for v in block.vars.values() if v.persistable}
    assert weights == {"float16"} and block.var("x").dtype.name == "float32"  # keep_io_types: float32 at the edges
    x = np.random.default_rng(0).standard_normal((2, 1, 28, 28)).astype("float32")
    (want,) = run_program(src, {"x": x})
    c = inference.Config(dst + ".pdmodel", dst + ".pdiparams")
    c.disable_glog_info()
    got = _run(inference.create_predictor(c), x)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)  # float16 keeps ~3 significant digits


@pytest.mark.parametrize("name,shape", [("lenet", (2, 1, 28, 28)), ("bn", (2, 3, 8, 8))])
def test_convert_to_mixed_precision_bfloat16(models, tmp_path, name, shape):
    """bfloat16 weights in Paddle's .pdiparams (data type BF16), every op but the black list computing in bfloat16
    (the IR passes fuse them as in float32), float32 at the edges."""
    import minipaddle as paddle

    src, dst = str(models / name), str(tmp_path / f"{name}_bf16")
    inference.convert_to_mixed_precision(src + ".pdmodel", src + ".pdiparams", dst + ".pdmodel", dst + ".pdiparams",
                                         inference.PrecisionType.Bfloat16, inference.PlaceType.CPU)  # fmt: skip
    program, _, _ = paddle.static.load_inference_model(dst, paddle.static.Executor())
    block = program.global_block()
    assert {v.dtype.name for v in block.vars.values() if v.persistable} == {"bfloat16"}
    black = {
        op.type for op in block.ops if op.type != "cast" and block.var(op.output_names()[0]).dtype.name == "float32"
    }
    assert black <= {"rsqrt", "standardize", "assign"}  # paddle's black list (and the fetched result's copy)
    x = np.random.default_rng(0).standard_normal(shape).astype("float32")
    (want,) = run_program(src, {"x": x})
    c = inference.Config(dst + ".pdmodel", dst + ".pdiparams")
    c.disable_glog_info()
    p = inference.create_predictor(c)
    got = _run(p, x)
    final = p.optimized_program().global_block()
    assert got.dtype == np.float32 and "conv2d_fusion" in [op.type for op in final.ops]
    assert {final.var(op.output_names()[0]).dtype.name for op in final.ops if op.type == "conv2d_fusion"} == {
        "bfloat16"}  # fmt: skip
    scale = float(np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2 * scale)  # bfloat16 keeps ~2-3 significant digits
    assert np.abs(got - want).max() > 1e-5 * scale  # (and it did compute in bfloat16)


def test_xpu_config_fields_and_paddles_errors(models):
    xpu = inference.XpuConfig()
    assert (xpu.device_id, xpu.l3_size, xpu.context_gm_size, xpu.gemm_compute_precision) == (0, 0, -1, 1)
    assert xpu.transformer_encoder_adaptive_seqlen is True and xpu.quant_post_dynamic_op_types == []
    assert xpu.quant_post_static_gelu_out_threshold == 10.0 and xpu.stream is None and xpu.conv_autotune_file == ""
    xpu.device_id, xpu.quant_post_static_gelu_out_threshold, xpu.quant_post_dynamic_op_types = 3, 3, ["fc"]
    assert xpu.device_id == 3 and xpu.quant_post_static_gelu_out_threshold == 3.0  # an int becomes a float
    assert xpu.quant_post_dynamic_op_types == ["fc"]
    with pytest.raises(TypeError, match="XpuConfig.device_id: expected int, got str"):
        xpu.device_id = "a"
    with pytest.raises(TypeError, match="XpuConfig.conv_autotune_file: expected str"):
        xpu.conv_autotune_file = 5
    with pytest.raises(AttributeError, match="no attribute 'no_such'"):
        xpu.no_such = 1
    c = _config(models, "lenet")
    with pytest.raises(RuntimeError, match=r"\(PreconditionNotMet\) Should call EnableXpu before SetXpuConfig"):
        c.set_xpu_config(xpu)
    with pytest.raises(RuntimeError, match="Should call EnableXpu before SetXpuDeviceId"):
        c.set_xpu_device_id(1)
    with pytest.raises(RuntimeError, match="compile with option 'WITH_XPU'.*no XPU"):
        c.enable_xpu(l3_size=1 << 20)
    with pytest.raises(TypeError, match="enable_xpu: l3_size must be int"):
        c.enable_xpu(l3_size="big")
    assert not c.use_xpu() and c.xpu_device_id() == 0 and c.xpu_config().device_id == 0
    inference.create_predictor(c)  # the refused calls left a usable CPU config


def test_internal_utils_stores_tensorrt_settings_as_paddles_cpu_build(models):
    c = _config(models, "lenet")
    with pytest.raises(TypeError, match="No constructor defined"):
        inference.InternalUtils()
    assert inference.InternalUtils.disable_tensorrt_half_ops(c, {"conv2d", "fc"}) is None
    inference.InternalUtils.set_transformer_posid(c, "pos_ids")
    inference.InternalUtils.set_transformer_maskid(c, "mask")
    assert (c._trt_float32_ops, c._transformer_posid, c._transformer_maskid) == ({"conv2d", "fc"}, "pos_ids", "mask")
    with pytest.raises(TypeError, match=r"disable_tensorrt_half_ops\(\): incompatible .*set\[str\].*list"):
        inference.InternalUtils.disable_tensorrt_half_ops(c, ["conv2d"])  # paddle's pybind takes a set only
    with pytest.raises(TypeError, match=r"set_transformer_posid\(\): incompatible .*int"):
        inference.InternalUtils.set_transformer_posid(c, 3)
    with pytest.raises(TypeError, match="expected \\(Config, str\\), got \\(str, str\\)"):
        inference.InternalUtils.set_transformer_maskid("config", "mask")
    before = c.summary()
    assert "pos_ids" not in before  # no effect on the CPU predictor, as in paddle's summary
    x = np.random.default_rng(0).standard_normal((2, 1, 28, 28)).astype("float32")
    p = inference.create_predictor(c)
    assert p.run([x])[0].shape == [2, 10]
