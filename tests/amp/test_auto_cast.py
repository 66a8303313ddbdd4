"""paddle.amp.auto_cast: the lists and levels of paddle 2.6, custom lists, the cast log, numerics."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from minipaddle.ops.amp_lists import EXTRA_BLACK_LIST, FP16_BLACK_LIST, FP16_WHITE_LIST, WHITE_LIST


def _linear():
    paddle.seed(0)
    return paddle.nn.Linear(4, 3)


def test_white_and_black_lists_answer_as_paddle_26():
    white, black = paddle.amp.white_list(), paddle.amp.black_list()
    assert set(white) == {"float16", "bfloat16"} and set(white["float16"]) == {"OD", "O1", "O2"}
    assert white["float16"]["O1"] == FP16_WHITE_LIST and white["bfloat16"]["O2"] == WHITE_LIST
    assert "fused_attention" in white["float16"]["O1"] and "fused_attention" not in white["bfloat16"]["O1"]
    assert black["float16"]["OD"] == set() and black["bfloat16"]["O2"] == EXTRA_BLACK_LIST
    assert black["float16"]["O1"] == FP16_BLACK_LIST | EXTRA_BLACK_LIST
    assert len(FP16_BLACK_LIST) == 44 and len(EXTRA_BLACK_LIST) == 8 and len(FP16_WHITE_LIST) == 11


def test_o1_linear_softmax_mean_dtypes_and_the_cast_log():
    lin, x = _linear(), paddle.rand([2, 4])
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast():
        y = paddle.matmul(x, lin.weight)
        z = F.softmax(y + lin.bias)
        loss = z.mean()
    assert (y.dtype, z.dtype, loss.dtype) == (paddle.float16, paddle.float32, paddle.float32)
    assert "matmul_v2" in log.table()
    log = [r for r in log if r.list != "keep"]  # (the float16 + float32 promotion's own cast is logged as 'keep')
    ops = [(r.op, r.paddle_op, r.list, r.dtype) for r in log]
    assert ops == [
        ("matmul", "matmul_v2", "white", "float16"),
        ("add", "elementwise_add", "gray", "float32"),  # promote: the bias is float32
        ("softmax", "softmax", "black", "float32"),
        ("mean", "reduce_mean", "black", "float32"),
    ]
    assert log[0].casts == [(0, "float32", "float16"), (1, "float32", "float16")]
    assert log[1].casts == [] and log[1].output_dtypes == ("float32",)


def test_backward_flows_through_the_casts_in_each_inputs_dtype():
    lin, x = _linear(), paddle.rand([2, 4])
    with paddle.amp.auto_cast():
        loss = lin(x).mean()
    loss.backward()
    assert lin.weight.grad.dtype == paddle.float32 and lin.bias.grad.dtype == paddle.float32
    # the same computation by hand: cast, matmul in float16, cast back
    w16, x16 = lin.weight.astype("float16"), x.astype("float16")
    ref = (x16.numpy().astype(np.float32) @ w16.numpy().astype(np.float32)).astype(np.float16)
    with paddle.amp.auto_cast():
        got = paddle.matmul(x, lin.weight)
    np.testing.assert_array_equal(got.numpy(), ref)


def test_backward_inside_auto_cast_keeps_the_forward_dtypes():
    lin, x = _linear(), paddle.rand([2, 4])
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast():
        loss = lin(x).mean()
        n = len(log)
        loss.backward()
    assert len(log) == n  # grad rules are not cast
    assert lin.weight.grad.dtype == paddle.float32


def test_double_backward_inside_auto_cast_records_grad_rules_uncast():
    # create_graph=True records the grad rules, so "no gradient recording" cannot tell them from forward ops:
    # the hook reads STATE.in_backward, which autograd sets around its walk
    x = paddle.rand([3, 4])
    x.stop_gradient = False
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast():
        y = paddle.matmul(x, x.t()).sum()
        n = len(log)
        (dx,) = paddle.grad(y, x, create_graph=True)
    assert len(log) == n and dx.dtype == paddle.float32
    (ddx,) = paddle.grad(dx.sum(), x)
    assert ddx.dtype == paddle.float32 and ddx.shape == [3, 4]


def test_in_backward_flag_is_set_by_the_walk_and_reset_after_an_error():
    from minipaddle.core.state import STATE

    seen = []
    x = paddle.rand([2])
    x.stop_gradient = False
    y = x * 2
    y.register_hook(lambda g: seen.append(STATE.in_backward))
    y.sum().backward()
    assert seen == [True] and STATE.in_backward is False

    def boom(g):
        raise ValueError("boom")

    z = x * 3
    z.register_hook(boom)
    with pytest.raises(ValueError, match="boom"):
        z.sum().backward()
    assert STATE.in_backward is False
    with paddle.no_grad(), paddle.amp.auto_cast():  # forward ops without recording are still cast
        assert paddle.matmul(x.reshape([1, 2]), x.reshape([2, 1])).dtype == paddle.float16


@pytest.mark.parametrize("level,dtype,use_promote,expect", [
    ("O1", "float16", True, ["float16", "float32", "float32"]),
    ("OD", "float16", True, ["float16", "float32", "float32"]),
    ("O2", "float16", True, ["float16", "float32", "float32"]),  # promote: the bias is float32
    ("O2", "float16", False, ["float16", "float16", "float16"]),  # softmax is on the O1 black list only
    ("O2", "bfloat16", False, ["bfloat16", "bfloat16", "bfloat16"]),
    ("O0", "float16", True, ["float32", "float32", "float32"]),
])  # fmt: skip
def test_levels(level, dtype, use_promote, expect):
    lin, x = _linear(), paddle.rand([2, 4])
    with paddle.amp.auto_cast(level=level, dtype=dtype, use_promote=use_promote):
        y = paddle.matmul(x, lin.weight)
        z = y + lin.bias
        s = F.softmax(z)
    assert [t.dtype.name for t in (y, z, s)] == expect


def test_o2_keeps_extra_black_ops_in_float32():
    emb = paddle.nn.Embedding(5, 3)
    with paddle.amp.auto_cast(level="O2", use_promote=False):
        out = emb(paddle.to_tensor([1, 2]))
        up = F.interpolate(paddle.rand([1, 1, 2, 2]), scale_factor=2, mode="bilinear")
    assert out.dtype == paddle.float32 and up.dtype == paddle.float32


def test_od_runs_only_white_ops_low():
    x = paddle.rand([2, 2]).astype("float16")
    with paddle.amp.auto_cast(level="OD"):
        y = F.relu(x)  # gray: OD computes it in float32
        m = paddle.matmul(x, x)
    assert y.dtype == paddle.float32 and m.dtype == paddle.float16


def test_promote_with_all_low_inputs_stays_low():
    x = paddle.rand([2, 2]).astype("float16")
    with paddle.amp.auto_cast():
        y = F.relu(x) + x
    assert y.dtype == paddle.float16


def test_float64_and_integers_are_never_cast():
    x64 = paddle.rand([2, 2], dtype="float64")
    idx = paddle.to_tensor([0, 1])
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast():
        y = paddle.matmul(x64, x64)
        g = paddle.gather(paddle.rand([3, 2]), idx)
    assert y.dtype == paddle.float64 and g.dtype == paddle.float32
    assert all(d != "int64" for r in log for _, d, _ in r.casts)


def test_custom_lists_in_paddle_names():
    x = paddle.rand([2, 2])
    with paddle.amp.auto_cast(custom_white_list={"elementwise_add", "softmax"}, custom_black_list=["matmul_v2"]):
        s = x + x
        m = paddle.matmul(x, x)
        sm = F.softmax(x)
    assert (s.dtype, m.dtype, sm.dtype) == (paddle.float16, paddle.float32, paddle.float16)
    with pytest.raises(ValueError, match="Custom white list overlap custom black list"):
        with paddle.amp.auto_cast(custom_white_list=["relu"], custom_black_list=["relu"]):
            pass


def test_argument_errors_are_paddles():
    with pytest.raises(ValueError, match="level should be O0, OD, O1 or O2."):
        with paddle.amp.auto_cast(level="O3"):
            pass
    with pytest.raises(ValueError, match="dtype should be 'float16' or 'bfloat16'"):
        with paddle.amp.amp_guard(dtype="float64"):
            pass
    with paddle.amp.auto_cast(enable=False, dtype="float64"):  # no dtype check when disabled
        assert paddle.matmul(paddle.rand([2, 2]), paddle.rand([2, 2])).dtype == paddle.float32
    with pytest.raises(TypeError, match="custom_white_list"):
        with paddle.amp.auto_cast(custom_white_list="relu"):
            pass


def test_nesting_restores_the_outer_settings():
    x = paddle.rand([2, 2])
    with paddle.amp.auto_cast():
        with paddle.amp.auto_cast(enable=False):
            inner = paddle.matmul(x, x)
        outer = paddle.matmul(x, x)
    after = paddle.matmul(x, x)
    assert (inner.dtype, outer.dtype, after.dtype) == (paddle.float32, paddle.float16, paddle.float32)
    assert paddle.amp.amp_state() is None


def test_auto_cast_is_per_thread():
    import threading

    x = paddle.rand([2, 2])
    seen = []
    with paddle.amp.auto_cast():
        t = threading.Thread(target=lambda: seen.append(paddle.matmul(x, x).dtype))
        t.start()
        t.join(timeout=30)
    assert seen == [paddle.float32]


def test_bfloat16_matmul_equals_cast_compute_round():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((5, 7)).astype(np.float32), rng.standard_normal((7, 3)).astype(np.float32)
    with paddle.amp.auto_cast(dtype="bfloat16"):
        got = paddle.matmul(paddle.to_tensor(a), paddle.to_tensor(b))
    bf = ml_dtypes.bfloat16
    ref = (a.astype(bf).astype(np.float32) @ b.astype(bf).astype(np.float32)).astype(bf)
    assert got.dtype == paddle.bfloat16
    np.testing.assert_array_equal(got.numpy().astype(np.float32), ref.astype(np.float32))


def test_conv2d_white_in_float16_equals_float32_conv_rounded():
    paddle.seed(1)
    conv = paddle.nn.Conv2D(2, 3, 3)
    x = paddle.rand([1, 2, 6, 6])
    with paddle.amp.auto_cast():
        y = F.conv2d(x, conv.weight)
    ref = F.conv2d(x.astype("float16").astype("float32"), conv.weight.astype("float16").astype("float32"))
    assert y.dtype == paddle.float16
    np.testing.assert_array_equal(y.numpy(), ref.numpy().astype(np.float16))


def test_supported_answers_true_on_the_cpu():
    assert paddle.amp.is_float16_supported() and paddle.amp.is_bfloat16_supported("cpu")
    with pytest.raises(ValueError, match="is_float16_supported"):
        paddle.amp.is_float16_supported("tpu")


def test_static_build_phase_inserts_cast_ops():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [2, 4], "float32")
            w = paddle.static.data("w", [4, 3], "float32")
            with paddle.amp.auto_cast():
                y = paddle.matmul(x, w)
        types = [op.type for op in main.global_block().ops]
        assert types == ["cast", "cast", "matmul"] and y.dtype == paddle.float16
    finally:
        paddle.disable_static()
