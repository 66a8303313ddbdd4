"""viz.draw_collective and viz.plot_timeline (the timeline recorded in one process here; on 2 ranks in
tests/distributed/workers.py)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import viz
from minipaddle import nn
from minipaddle.distributed import timeline
from viz.collective import OPS, label, steps


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ring_all_reduce_takes_2_n_minus_1_steps_and_ends_with_every_sum_everywhere(n):
    rows = steps("ring_all_reduce", n)
    assert len(rows) == 1 + 2 * (n - 1)
    after_reduce_scatter = rows[n - 1][1]
    for r in range(n):  # each rank holds one finished piece after the reduce-scatter half: piece r+1
        assert after_reduce_scatter[r][(r + 1) % n] == (frozenset(range(n)), (r + 1) % n)
    final = rows[-1][1]
    assert all(final[r][c] == (frozenset(range(n)), c) for r in range(n) for c in range(n))


def test_each_collective_ends_as_its_definition_says():
    n = 3
    final = {op: steps(op, n)[-1][1] for op in OPS}
    assert [label(s, n) for s in final["all_reduce"][2]] == ["ABC0", "ABC1", "ABC2"]
    assert [label(s, n) for s in final["broadcast"][1]] == ["A0", "A1", "A2"]
    assert [label(s, n) for s in final["reduce"][1]] == ["B0", "B1", "B2"]  # non-destination keeps its own
    assert [label(s, n) for s in final["all_gather"][0]] == ["A0", "B1", "C2"]
    assert [label(s, n) for s in final["scatter"][2]] == ["", "", "A2"]
    assert [label(s, n) for s in final["reduce_scatter"][1]] == ["", "ABC1", ""]
    assert [label(s, n) for s in final["alltoall"][1]] == ["A1", "B1", "C1"]


def test_draw_collective_renders_and_checks_its_arguments(tmp_path):
    svg = viz.draw_collective("ring_all_reduce", 3).svg()
    assert "reduce-scatter step 2" in svg and "all-gather step 2" in svg and "rank 2" in svg
    assert viz.draw_collective("alltoall", 2).save(tmp_path / "a.png").endswith("a.png")
    with pytest.raises(ValueError, match="op must be one of"):
        viz.draw_collective("all_sum", 2)
    with pytest.raises(ValueError, match="world_size must be an int from 2 to 8"):
        viz.draw_collective("all_reduce", 1)


def test_the_timeline_of_one_process_has_forward_backward_and_the_optimizer_step():
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = paddle.optimizer.Adam(parameters=model.parameters())
    x = paddle.to_tensor(np.ones((2, 4), "float32"))
    with timeline.record() as rec:
        for _ in range(2):
            model(x).mean().backward()
            opt.step()
            opt.clear_grad()
    model(x).mean().backward()  # after the block: not recorded
    trace = rec.gather()
    assert trace["world_size"] == 1 and list(trace["ranks"]) == [0]
    bars = viz.timeline.segments(trace["ranks"][0])
    assert [b["kind"] for b in bars][:3] == ["forward", "backward", "optimizer"]
    assert len([b for b in bars if b["kind"] == "optimizer"]) == 2
    totals = viz.timeline.summary(trace)[0]
    assert totals["forward"] > 0 and totals["backward"] > 0 and totals["optimizer"] > 0
    assert all(b["start"] <= b["end"] for b in bars)
    assert "rank 0" in viz.plot_timeline(trace).svg()
    with pytest.raises(TypeError, match="plot_timeline: trace must be"):
        viz.plot_timeline([1, 2])


def test_a_drawn_static_program_shows_where_communication_happens():
    """In static mode the collectives are ops of the Program (one process here: the ops are built, not run), so
    draw_program shows them in their place, with the ring and root they use."""
    import minipaddle.distributed as dist

    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            w = paddle.static.data("v", [2], "float32") * 2.0
            dist.all_reduce(w)
            dist.broadcast(w, src=0)
    finally:
        paddle.disable_static()
    assert [op.type for op in main.global_block().ops][-3:] == ["multiply", "c_allreduce_sum", "c_broadcast"]
    lines = viz.draw_program(main).source.splitlines()
    allreduce = next(line for line in lines if "<B>c_allreduce_sum</B>" in line)
    broadcast = next(line for line in lines if "<B>c_broadcast</B>" in line)
    assert "ring_id=0" in allreduce and "root=0" in broadcast
