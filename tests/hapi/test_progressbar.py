"""The progress display: Paddle's number and time formats, the step lines of verbose=2, the tqdm bar of
verbose=1."""

from __future__ import annotations

import io

import numpy as np
import pytest

from minipaddle.hapi.progressbar import ProgressBar, format_time_per_step, format_values


def test_numbers_use_4_decimals_or_scientific_when_tiny():
    assert format_values([("loss", [0.51234])]) == " - loss: 0.5123"
    assert format_values([("loss", [0.0004])]) == " - loss: 4.0000e-04"
    assert format_values([("acc", 0.0)]) == " - acc: 0.0000e+00"
    assert format_values([("acc", np.float32(0.875))]) == " - acc: 0.8750"
    assert format_values([("loss", [np.array(2.5, dtype="float32")])]) == " - loss: 2.5000"
    assert format_values([("acc_top", [0.5, 0.75])]) == " - acc_top: 0.5000 0.7500"
    assert format_values([("ips", "12.5 samples/sec"), ("n", 3)]) == " - ips: 12.5 samples/sec - n: 3"


@pytest.mark.parametrize(
    "seconds, text",
    [(0.0, " - 0s/step"), (2.4, " - 2s/step"), (0.0123, " - 12ms/step"), (0.00045, " - 450us/step")],
)
def test_time_per_step(seconds, text):
    assert format_time_per_step(seconds) == text


def test_verbose2_pads_the_step_to_the_width_of_the_total():
    out = io.StringIO()
    bar = ProgressBar(num=100, verbose=2, file=out)
    bar.update(7, [("loss", [1.5])])
    bar.update(100, [("loss", [0.5])])
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("step   7/100 - loss: 1.5000 - ")
    assert lines[1].startswith("step 100/100 - loss: 0.5000 - ")
    assert all(line.endswith("/step") for line in lines)


def test_verbose2_without_a_length():
    out = io.StringIO()
    ProgressBar(num=None, verbose=2, file=out).update(3, [("acc", 0.25)])
    assert out.getvalue().startswith("step   3 - acc: 0.2500 - ")


def test_verbose1_draws_a_bar_with_eta_and_ends_its_line_at_the_end():
    out = io.StringIO()
    bar = ProgressBar(num=4, verbose=1, file=out)
    bar.update(2, [("loss", [0.25])])
    text = out.getvalue()
    assert "step 2/4 [" in text and "] - loss: 0.2500 - ETA: " in text and "\n" not in text
    bar.update(4, [("loss", [0.125])])
    last = out.getvalue().split("\r")[-1]
    assert last.startswith("step 4/4 [" + "=" * bar._width + "] - loss: 0.1250 - ")
    assert "ETA" not in last and out.getvalue().endswith("\n")


def test_bad_num():
    with pytest.raises(TypeError, match="num should be None or integer"):
        ProgressBar(num=0)
