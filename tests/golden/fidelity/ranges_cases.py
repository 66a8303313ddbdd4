"""paddle.profiler.statistic_helper on random range lists, run with either library (`paddle` passed in);
make_ranges_golden.py records run_all(paddle 2.6) into ranges.json, tests/profiler/test_statistic_helper.py
compares."""

import numpy as np


def _ranges(rng, n):
    starts = rng.integers(0, 60, size=n)
    return [(int(s), int(s + rng.integers(0, 12))) for s in starts]


def run_all(paddle):
    helper = paddle.profiler.statistic_helper
    rng = np.random.default_rng(0)
    out = []
    for n1, n2 in [(0, 0), (0, 3), (4, 0), (1, 1), (5, 5), (8, 3), (3, 9), (12, 12)] * 3:
        a, b = _ranges(rng, n1), _ranges(rng, n2)
        out.append({
            "a": a, "b": b,
            "sum": helper.sum_ranges(a),
            "merge_self": helper.merge_self_ranges(list(a)),
            "merge": helper.merge_ranges(list(a), list(b)),
            "intersection": helper.intersection_ranges(list(a), list(b)),
            "subtract": helper.subtract_ranges(list(a), list(b)),
        })  # fmt: skip
    return out
