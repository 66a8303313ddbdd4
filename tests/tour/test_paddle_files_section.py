"""The tour's section on real Paddle files (viz/tour/paddle_files.py): the LeNet paddle 2.6.2's jit.save wrote
(a golden model) opened, run to paddle's outputs and drawn."""

from __future__ import annotations

import re

import minipaddle as paddle
from viz.tour.paddle_files import paddle_files_tour_section


def test_the_section_runs_the_paddle_written_lenet_and_draws_it():
    title, html = paddle_files_tour_section()
    assert "lenet" in title and "viz.draw_program" in title
    gap = float(re.search(r"differ from paddle 2\.6\.2's by at most ([0-9.e+-]+)", html).group(1))
    assert gap < 1e-5
    assert "conv2d" in html and "max_pool" in html
    assert "feeds ['x0'], fetches ['save_infer_model/scale_0.tmp_0']" in html
    assert "<svg" in html or "digraph" in html  # the drawing (or, without graphviz, its DOT source)
    assert paddle.in_dynamic_mode()  # the section leaves the mode as it was
