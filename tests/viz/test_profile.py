"""viz.plot_profile: where a recorded step's time goes, drawn from paddle.profiler's numbers."""

from __future__ import annotations

import pytest

import minipaddle as paddle
import minipaddle.profiler as P
import viz


def _profiled():
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 2))
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    prof = P.Profiler(scheduler=(1, 3), on_trace_ready=lambda p: None)
    prof.start()
    for _ in range(3):
        net(paddle.randn([8, 3])).mean().backward()
        opt.step()
        opt.clear_grad()
        prof.step()
    prof.stop()
    return prof


def test_plot_profile_shows_phases_ops_and_layers(tmp_path):
    prof = _profiled()
    view = viz.plot_profile(prof, top=5)
    assert view.steps == 2
    assert set(view.phases) == {"Forward", "Backward", "Optimization", "Others"}
    assert abs(sum(view.phases.values()) - view.step_ms) < 1e-6 or view.phases["Others"] == 0
    assert len(view.ops) == 5 and view.ops[0][1]  # the slowest ops, each split by phase
    assert [name for name, _, _ in view.layers] == ["Sequential", "· 0 (Linear)", "· 1 (ReLU)", "· 2 (Linear)"]
    assert all(own <= total + 1e-9 for _, total, own in view.layers)
    svg = view.svg()
    assert svg.lstrip().startswith("<?xml") or "<svg" in svg
    assert "matmul" in svg and "Sequential" in svg
    path = view.save(tmp_path / "profile.png")
    assert (tmp_path / "profile.png").read_bytes()[:4] == b"\x89PNG" and path.endswith("profile.png")
    with pytest.raises(ValueError, match="format"):
        view.save(tmp_path / "profile.txt")


def test_plot_profile_of_a_loaded_result(tmp_path):
    prof = _profiled()
    prof.export(str(tmp_path / "trace.json"))
    view = viz.plot_profile(P.load_profiler_result(str(tmp_path / "trace.json")))
    assert {n for n, _ in view.ops} == {n for n, _ in viz.plot_profile(prof).ops}


def test_plot_profile_checks_its_argument():
    with pytest.raises(TypeError, match="Profiler or ProfilerResult"):
        viz.plot_profile(3)
    with pytest.raises(ValueError, match="recorded nothing"):
        viz.plot_profile(P.Profiler(on_trace_ready=lambda p: None))
    with pytest.raises(ValueError, match="top"):
        viz.plot_profile(_profiled(), top=0)
