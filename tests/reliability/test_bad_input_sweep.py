"""The bad-input sweep (issue 18): every public function of the op table, the same functions as Tensor methods and
the Layers of sweep.LAYERS, called once validly and then with each argument in turn replaced by bad values of its
kind (tests/reliability/sweep.py). Each bad call must return, or raise TypeError/ValueError/IndexError/RuntimeError
whose message names the callable (or a public function or op it is built from) in minipaddle's words. Never a raw
AttributeError, KeyError, ZeroDivisionError, OverflowError, RecursionError or MemoryError, numpy's or Python's text,
a hang past the alarm, or a NaN made silently from an argument that was not NaN.

The default run tries SAMPLE bad calls per callable, chosen with SEED (set MINIPADDLE_SWEEP_SEED to draw others);
test_the_full_sweep (slow) tries every one. The cases minipaddle still gets wrong are in sweep_known_gaps.py, each
with what happens; the full run fails when one of them is fixed, so that list only shrinks.
"""

from __future__ import annotations

import collections
import os
import random

import pytest

from tests.reliability import sweep
from tests.reliability.sweep_known_gaps import KNOWN_GAPS

SEED = int(os.environ.get("MINIPADDLE_SWEEP_SEED", "0"))
SAMPLE = 8
TARGETS = sweep.all_targets()


def _run(target, calls) -> tuple:
    """(counts per class, never cases not in KNOWN_GAPS, known gaps that no longer fail)."""
    nan_before = sweep.prepare(target)
    known = KNOWN_GAPS.get(target.id, {})
    counts, new, fixed = collections.Counter(), [], []
    for arg, bad, where, make in calls:
        verdict, detail = sweep.judge(target, where, bad, make, nan_before)
        counts[verdict] += 1
        key = f"{arg}={bad}"
        if sweep.is_never(verdict) and key not in known:
            new.append(f"{target.id}({key}): {verdict}: {detail}")
        if not sweep.is_never(verdict) and key in known:
            fixed.append(f"{target.id}({key})")
    return counts, new, fixed


@pytest.mark.parametrize("target", TARGETS, ids=[t.id for t in TARGETS])
def test_bad_inputs_get_clean_errors(target):
    calls = sweep.bad_calls(target)
    calls = random.Random(f"{SEED}/{target.id}").sample(calls, min(SAMPLE, len(calls)))
    counts, new, fixed = _run(target, calls)
    assert not new, "bad inputs not refused cleanly:\n" + "\n".join(new)
    assert not fixed, f"now refused cleanly, remove from sweep_known_gaps.py: {fixed}"


@pytest.mark.slow
def test_the_full_sweep():
    totals, new, fixed = collections.Counter(), [], []
    for target in TARGETS:
        counts, n, f = _run(target, sweep.bad_calls(target))
        totals += counts
        new += n
        fixed += f
    never = {k: v for k, v in totals.items() if sweep.is_never(k)}
    print(f"\nbad-input sweep: {len(TARGETS)} callables, {sum(totals.values())} bad calls: "
          f"{totals['clean']} clean errors, {totals['accepted']} accepted, never classes {never} "
          f"(all in the known gaps: {not new})")  # fmt: skip
    assert not new, f"{len(new)} bad inputs not refused cleanly:\n" + "\n".join(new)
    assert not fixed, f"now refused cleanly, remove from sweep_known_gaps.py: {fixed}"
    assert sum(len(v) for v in KNOWN_GAPS.values()) == sum(never.values())


def test_the_sweep_covers_the_api():
    ids = {t.id for t in TARGETS}
    assert len(TARGETS) > 600 and sum(len(sweep.bad_calls(t)) for t in TARGETS) > 12000
    assert {"paddle.add", "Tensor.add", "paddle.nn.functional.conv2d", "nn.Conv2D", "nn.LSTM"} <= ids
    assert set(KNOWN_GAPS) <= ids


def test_every_layer_of_paddle_nn_is_swept():
    """Every Layer class of paddle 2.6's paddle.nn (the recorded API list) is in sweep.LAYERS, or in NOT_SWEPT
    with a reason."""
    import minipaddle as paddle
    from tests.golden_files import GOLDEN_ROOT, read_json

    names = read_json(GOLDEN_ROOT / "api26" / "names.json")["names"]["paddle.nn"]
    classes = {n: getattr(paddle.nn, n, None) for n in names}
    layers = {n for n, c in classes.items() if isinstance(c, type) and issubclass(c, paddle.nn.Layer)}
    swept = {entry[0] for entry in sweep.LAYERS}
    assert len(layers) > 120
    assert layers - swept - set(sweep.NOT_SWEPT) == set()
    assert not swept & set(sweep.NOT_SWEPT)


def test_the_sweep_catches_what_the_review_found():
    """The judge itself: raw errors, numpy's text, a missing name, a hang and a silent NaN are each caught."""
    target = sweep.Target("demo", ("demo",), lambda a, k: a[0](), [None], {}, ["f"])

    def verdict(fn):
        return sweep.classify(target, *sweep.run_guarded(fn), nan_before=False, value_is_nan=False)

    def hang():
        while True:
            pass

    import minipaddle as paddle

    assert verdict(lambda: None.shape) == "raw AttributeError"
    assert verdict(lambda: {}["k"]) == "raw KeyError"
    assert verdict(lambda: 1 / 0) == "raw ZeroDivisionError"
    assert verdict(lambda: bytearray(2**60)) == "raw MemoryError"
    assert verdict(lambda: float(None)) == "raw text"
    assert verdict(lambda: (_ for _ in ()).throw(ValueError("demo: operands could not be broadcast"))) == "raw text"
    assert verdict(lambda: (_ for _ in ()).throw(ValueError("shape must be positive"))) == "unnamed"
    assert verdict(lambda: (_ for _ in ()).throw(ValueError("demo: shape must be positive"))) == "clean"
    assert verdict(lambda: paddle.to_tensor([float("nan")])) == "nan"
    assert verdict(lambda: paddle.to_tensor([1.0])) == "accepted"
    old, sweep.ALARM_SECONDS = sweep.ALARM_SECONDS, 0.2
    try:
        assert verdict(hang) == "hang"
    finally:
        sweep.ALARM_SECONDS = old
