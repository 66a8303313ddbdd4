"""paddle.amp.debugging: operator statistics (paddle's table), check_numerics, the tensor checker, compare_accuracy."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.amp import debugging as d

TABLE = """<------------------------------------------------------- op list -------------------------------------------------------->
<--------------- Op Name ---------------- | -- FP16 Calls --- | -- BF16 Calls --- | --- FP32 Calls--- | -- Other Calls -->
  elementwise_add                         |  0                |  0                |  1                |  0                
  matmul_v2                               |  1                |  0                |  0                |  0                
  softmax                                 |  0                |  0                |  1                |  0                
<----------------------------------------------------- op count: 3 ------------------------------------------------------>
"""  # noqa: E501, W291  (paddle's table, with its trailing spaces)


def test_collect_operator_stats_prints_paddles_table(capsys):
    x, w, b = paddle.rand([2, 4]), paddle.rand([4, 3]), paddle.rand([3])
    with d.collect_operator_stats(), paddle.amp.auto_cast():
        paddle.nn.functional.softmax(paddle.matmul(x, w) + b)
    out = capsys.readouterr().out
    assert out.replace("  cast  ", "").startswith(TABLE[:100])
    assert "matmul_v2                               |  1                |  0                |  0" in out
    stats = d.operator_stats()
    assert stats["matmul_v2"] == [1, 0, 0, 0] and stats["softmax"] == [0, 0, 1, 0]
    assert stats["elementwise_add"] == [0, 0, 1, 0]


def test_check_numerics_matches_paddle(capsys):
    x = paddle.to_tensor([1.0, float("nan"), 0.0, float("inf")])
    stats, values = d.check_numerics(x, "myop", "v", d.DebugMode.CHECK_NAN_INF)
    assert stats.numpy().tolist() == [1, 1, 1] and stats.dtype == paddle.int64
    np.testing.assert_array_equal(values.numpy(), np.array([np.inf, 0, np.nan], np.float32))
    assert capsys.readouterr().out.strip() == (
        "[PRECISION] [ERROR] in [device=cpu, op=myop, tensor=v, dtype=fp32], numel=4, num_nan=1, num_inf=1, "
        "num_zero=1, max=inf, min=0.000000e+00, mean=nan"
    )
    with pytest.raises(RuntimeError, match="There are NAN or INF"):
        d.check_numerics(x, "myop", "v")
    d.check_numerics(paddle.to_tensor([1e5, 2.0]), "myop", "v", d.DebugMode.CHECK_ALL_FOR_OVERFLOW)
    assert "max=1.000000e+05" in capsys.readouterr().out
    d.check_numerics(paddle.to_tensor([1.0, 2.0]), "myop", "v", d.DebugMode.CHECK_ALL_FOR_OVERFLOW)
    assert capsys.readouterr().out == ""
    with pytest.raises(TypeError, match="check_numerics"):
        d.check_numerics(paddle.to_tensor([1, 2]), "myop", "v")


def test_tensor_checker_and_compare_accuracy(tmp_path, capsys):
    x = paddle.to_tensor([[1000.0, 2.0]])
    dirs = {}
    for low in (False, True):
        out_dir = str(tmp_path / ("fp16" if low else "fp32"))
        cfg = d.TensorCheckerConfig(True, d.DebugMode.CHECK_ALL, output_dir=out_dir, checked_op_list=["matmul_v2"])
        d.enable_tensor_checker(cfg)
        with paddle.amp.auto_cast(enable=low):
            paddle.matmul(x, paddle.to_tensor([[100.0], [1.0]]))
        d.disable_tensor_checker()
        dirs[low] = out_dir
    rows = d.compare_accuracy(dirs[False], dirs[True], str(tmp_path / "cmp.csv"))
    assert len(rows) == 1 and rows[0]["op"] == "matmul_v2" and rows[0]["fp16 dtype"] == "fp16"
    assert rows[0]["fp16 overflow"] is True  # 100002 > 65504
    assert (tmp_path / "cmp.csv").read_text().startswith("op,tensor")
    cfg = d.TensorCheckerConfig(True, d.DebugMode.CHECK_NAN_INF_AND_ABORT)
    d.enable_tensor_checker(cfg)
    try:
        with pytest.raises(RuntimeError, match="There are NAN or INF"):
            paddle.log(paddle.to_tensor([-1.0]))
    finally:
        d.disable_tensor_checker()
    with pytest.raises(ValueError, match="debug_step must be list or tuple"):
        d.TensorCheckerConfig(True, debug_step=3)
