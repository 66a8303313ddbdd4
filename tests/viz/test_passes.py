"""viz.draw_passes (a predictor's pipeline) and viz.draw_onnx (an ONNX file beside its Program)."""

from __future__ import annotations

import re

import pytest

import viz
from minipaddle import inference
from tests.inference.models import conv_bn_mlp, save_static


@pytest.fixture(scope="module")
def predictor(tmp_path_factory):
    d = tmp_path_factory.mktemp("m")
    save_static(str(d / "bn"), conv_bn_mlp, [None, 3, 8, 8])
    c = inference.Config(str(d / "bn.pdmodel"), str(d / "bn.pdiparams"))
    c.disable_glog_info()
    c.switch_ir_debug(True)
    return inference.create_predictor(c), d


def test_pipeline_has_one_box_per_pass_that_ran_with_its_op_counts(predictor):
    p, _ = predictor
    src = viz.draw_passes(p).source
    ran = [s for s in p.pass_log() if s.ran]
    for k, s in enumerate(ran):
        assert f'"step{k}"' in src and s.name in src and f"{s.ops_before} &#8594; {s.ops_after} ops" in src
    assert f"{len(p.pass_log()) - len(ran)} more of paddle's passes" in src
    assert len(re.findall(r'"step\d+" -> "step\d+"', src)) == len(ran) - 1  # one chain, in order


def test_one_step_is_the_pass_diff(predictor):
    p, _ = predictor
    src = viz.draw_passes(p, step="conv_bn_fuse_pass").source
    assert "cluster_before" in src and "cluster_after" in src and "ops removed" in src
    with pytest.raises(ValueError, match="no pass 'nope' ran"):
        viz.draw_passes(p, step="nope")


def test_step_without_ir_debug_says_how_to_keep_programs(predictor):
    _, d = predictor
    c = inference.Config(str(d / "bn.pdmodel"), str(d / "bn.pdiparams"))
    c.disable_glog_info()
    with pytest.raises(RuntimeError, match="switch_ir_debug"):
        viz.draw_passes(inference.create_predictor(c), step="fc_fuse_pass")
    with pytest.raises(TypeError, match="Predictor"):
        viz.draw_passes("not a predictor")


def test_draw_onnx_beside_the_program(predictor, tmp_path):
    import minipaddle as paddle

    p, d = predictor
    path = paddle.onnx.export_model(str(d / "bn.pdmodel"), str(d / "bn.pdiparams"), str(tmp_path / "bn.onnx"))
    src = viz.draw_onnx(path, program=p.optimized_program()).source
    assert "cluster_program" in src and "cluster_onnx" in src and "<B>Conv</B>" in src
    assert "ONNX opset 9" in src and "DynamicDimension.0" in src
    alone = viz.draw_onnx(path, show_initializers=False).source
    assert "cluster_program" not in alone and "conv2d_0.w_0" not in alone
