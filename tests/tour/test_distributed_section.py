"""The tour's distributed section (viz/tour/distributed.py): drawn from the recorded 2-rank trace; recording a
fresh one (slow: it starts 2 ranks) shows the buckets' all-reduces starting while backward still computes."""

from __future__ import annotations

import pytest

from viz.tour.distributed import distributed_tour_section, load_trace, overlap, record


def _starts_during_backward(trace: dict) -> None:
    """On every rank, in every step, the first bucket's all-reduce starts before backward's last conv filter
    gradient (the first layer's, computed last): communication overlaps computation."""
    for rank, spans in trace["ranks"].items():
        firsts = [s for s in spans if s["name"] == "all-reduce bucket 0"]
        assert len(firsts) == 2, (rank, firsts)
        grads = sorted(s["start"] for s in spans if s["name"] == "conv2d_grad_filter")
        assert len(grads) == 4  # two convolutions, two steps
        for first, last_grad in zip(firsts, grads[1::2]):
            assert first["start"] < last_grad, (rank, first, last_grad)


def test_the_section_draws_the_recorded_trace():
    trace = load_trace()
    assert trace["world_size"] == 2 and set(trace["ranks"]) == {0, 1}
    _starts_during_backward(trace)
    figures = overlap(trace)
    assert all(0 < f["waited_ms"] < f["in_flight_ms"] for f in figures.values()), figures
    title, html = distributed_tour_section()
    assert "viz.plot_timeline" in title and html.count("<svg") == 2
    assert "python -m viz.tour.distributed" in html and "backward waited" in html


@pytest.mark.slow
def test_a_fresh_recording_overlaps_too(tmp_path):
    path = tmp_path / "trace.json"
    record(str(path))
    _starts_during_backward(load_trace(str(path)))
