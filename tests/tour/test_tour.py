"""The tour (`make tour`, `python -m viz.tour`): a shrunk run writes the page and reports the accuracy;
the full run (slow) teaches LeNet more than 90% of the test digits."""

from __future__ import annotations

import re

import pytest

from viz.tour.__main__ import main

QUICK = ["--train-samples", "128", "--test-samples", "48", "--epochs", "1", "--batch-size", "32"]


def test_quick_tour_writes_the_page(tmp_path, capsys):
    assert main([*QUICK, "--out", str(tmp_path), "--min-accuracy", "0"]) == 0
    out = capsys.readouterr().out
    accuracy = float(re.search(r"LeNet reads ([\d.]+)% of the test digits right", out).group(1))
    assert f"test accuracy: {accuracy:.2f}%" in out
    assert "reloaded model's test accuracy: " + f"{accuracy:.2f}% (the same as before saving)" in out
    assert "Total params: 61,610" in out and "Epoch 1/1" in out
    page = (tmp_path / "index.html").read_text()
    assert str(tmp_path / "index.html") in out
    for section in ("Test images", "paddle.summary(LeNet)", "viz.draw_graph", "viz.draw_program",
                    "viz.draw_state_dict", "A model real Paddle saved"):  # fmt: skip
        assert section in page
    assert page.count("<h2>") >= 6  # and viz's own sections (viz.tour_sections): layer tree, curves, ...
    assert f"<b>{accuracy:.2f}%</b>" in page
    assert "data:image/png;base64," in page  # the sample digits
    assert page.count("<svg") >= 3 or page.count("graphviz's `dot` program was not found") >= 3
    saved = sorted(p.name for p in (tmp_path / "checkpoint").iterdir())
    assert saved == ["lenet.pdopt", "lenet.pdparams", "lenet.pdset"]  # .pdset: the set's manifest
    assert sorted(p.name for p in (tmp_path / "inference").iterdir()) == [
        "lenet.pdiparams",
        "lenet.pdmodel",
        "lenet.pdset",
    ]


def test_tour_fails_when_lenet_learns_too_little(tmp_path, capsys):
    assert main([*QUICK, "--train-samples", "32", "--out", str(tmp_path), "--min-accuracy", "0.999"]) == 1
    assert "the tour expected LeNet to learn more" in capsys.readouterr().err


@pytest.mark.slow
def test_full_tour_reaches_90_percent(tmp_path, capsys):
    assert main(["--out", str(tmp_path)]) == 0  # exits 1 when the accuracy is not above 90%
    accuracy = float(re.search(r"LeNet reads ([\d.]+)%", capsys.readouterr().out).group(1))
    assert accuracy > 90
