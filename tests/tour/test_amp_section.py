"""The tour's mixed-precision section (viz/tour/amp.py): LeNet's cast map under O1 and O2, the dtype each op ran
in at both levels, and the GradScaler's loss scale with the overflowing step skipped."""

from __future__ import annotations

import re

import minipaddle as paddle
from viz.tour.amp import amp_tour_section


def _lenet():
    nn = paddle.nn
    paddle.seed(0)
    return nn.Sequential(
        nn.Conv2D(1, 6, 5), nn.ReLU(), nn.MaxPool2D(2), nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Flatten(), nn.Linear(256, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10),
    )  # fmt: skip


def test_the_section_shows_o1_and_o2_and_the_skipped_step():
    net = _lenet()
    title, html = amp_tour_section(net)
    assert "O1" in title and "O2" in title and "GradScaler" in title
    rows = re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td><td>([^<]+)</td></tr>", html)
    ran = {}
    for op, o1, o2 in rows:
        ran.setdefault(op, set()).add((o1, o2))
    assert ran["conv2d"] == {("float16", "float16")}  # white at both levels
    assert ("float32", "float16") in ran["elementwise_add"]  # O1 promotes the bias add, O2 has float16 biases
    assert ran["relu"] == {("float32", "float16")}
    assert "step [3] overflowed and was skipped" in html and html.count("<svg") >= 1
    assert net[0].weight.dtype == paddle.float32  # the tour's own network is untouched (O2 runs on a copy)
