"""paddle.profiler.timer (the Benchmark behind Profiler.step_info and the DataLoader's reader_cost) against paddle
2.6, on a fake clock (tests/golden/fidelity/timer_cases.py, recorded by make_timer_golden.py into timer.json)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "timer.json")


def _ours() -> dict:
    path = GOLDEN_ROOT / "fidelity" / "timer_cases.py"
    spec = importlib.util.spec_from_file_location("timer_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run_all(paddle)


OURS = _ours()


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_the_benchmark_reports_as_paddles(case):
    assert OURS[case] == GOLDEN[case]


def test_a_dataloader_reports_its_reader_cost_to_the_profiler():
    class Squares(paddle.io.Dataset):
        def __len__(self):
            return 8

        def __getitem__(self, i):
            return np.full([2], i, dtype="float32")

    prof = paddle.profiler.Profiler(timer_only=True)
    prof.start()
    for _ in paddle.io.DataLoader(Squares(), batch_size=2):
        prof.step(num_samples=2)
    info = prof.step_info()
    prof.stop()
    assert info.startswith(" reader_cost: ") and " batch_cost: " in info and info.endswith(" samples/s")
    assert paddle.profiler.timer.benchmark().current_event is None  # stop() closed the Profiler's event
