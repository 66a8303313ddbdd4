"""The bad-input sweep against paddle 2.6's own verdicts (issue 18): where paddle refuses one of the sweep's calls,
minipaddle refuses it too, and in the same family of Python exception where paddle answers with one of the four
(TypeError, ValueError, IndexError, RuntimeError). paddle's verdicts are recorded by
tests/golden/reliability/make_golden.py; the rules by which minipaddle differs, and the differences not fixed yet,
are in paddle_known_differences.py.

The default run checks the calls minipaddle accepted when the verdicts were recorded (the accepted calls paddle
refuses: what the sweep alone cannot see); test_every_call_paddle_refuses (slow) checks every call paddle refuses,
and the exception families.
"""

from __future__ import annotations

import pytest

from tests.golden_files import GOLDEN_ROOT, read_json
from tests.reliability import sweep
from tests.reliability.paddle_known_differences import DTYPE_VALUES, FAMILY_RULES, NOT_YET, accepted_on_purpose

VERDICTS = read_json(GOLDEN_ROOT / "reliability" / "paddle_verdicts.json")["targets"]
# paddle's exception names in one of the four families (paddle's own errors subclass them: ValueError for
# InvalidArgument, IndexError for OutOfRange, RuntimeError for PreconditionNotMet, NotImplementedError for
# Unimplemented). Any other (AssertionError, SystemError, AttributeError, a crash, ...) is paddle refusing by
# crashing: minipaddle must refuse, in any of the four.
PADDLE_FAMILY = {"TypeError": TypeError, "ValueError": ValueError, "IndexError": IndexError,
                 "RuntimeError": RuntimeError, "NotImplementedError": RuntimeError}  # fmt: skip
TARGETS = {t.id: t for t in sweep.all_targets()}


def _outcome(target, where, bad, make, nan_before):
    """minipaddle's exception for one call, or None when it returned."""
    args, kwargs = sweep.build(target, where, make)
    status, result = sweep.run_guarded(lambda: target.invoke(args, kwargs))
    return result if status == "error" else None


def _differences(target_id: str, only_accepted: bool, families: bool) -> tuple:
    """(accepted, other family): the calls of one target where minipaddle differs from paddle, as keys, leaving
    out the dtype values and the calls a rule explains."""
    target = TARGETS[target_id]
    refused = VERDICTS[target_id]["refused"]
    wanted = {k for k, (_, accepted) in refused.items() if (accepted or not only_accepted)}
    wanted = {k for k in wanted if k.partition("=")[2] not in DTYPE_VALUES}
    accepted, other = [], []
    if not wanted:
        return accepted, other
    nan_before = sweep.prepare(target)
    for arg, bad, where, make in sweep.bad_calls(target):
        key = f"{arg}={bad}"
        if key not in wanted:
            continue
        paddle_says = refused[key][0]
        error = _outcome(target, where, bad, make, nan_before)
        if error is None:
            if accepted_on_purpose(target_id, key) is None:
                accepted.append(key)
        elif families:
            family = PADDLE_FAMILY.get(paddle_says)
            explained = any(paddle_says == p and isinstance(error, f) for p, f in FAMILY_RULES)
            if family is not None and not isinstance(error, family) and not explained:
                other.append(key)
    return accepted, other


def _unexplained(target_id: str, only_accepted: bool, families: bool) -> list:
    accepted, other = _differences(target_id, only_accepted, families)
    known_accepted = set(NOT_YET["accepted"].get(target_id, ()))
    known_other = set(NOT_YET["other_family"].get(target_id, ()))
    paddle = VERDICTS[target_id]["refused"]
    out = [f"{target_id}({k}): paddle raises {paddle[k][0]}, minipaddle accepts" for k in accepted
           if k not in known_accepted]  # fmt: skip
    out += [f"{target_id}({k}): paddle raises {paddle[k][0]}, minipaddle another family" for k in other
            if k not in known_other]  # fmt: skip
    return out


ACCEPTED_TARGETS = sorted(t for t, v in VERDICTS.items() if t in TARGETS and any(a for _, a in v["refused"].values()))


@pytest.mark.parametrize("target_id", ACCEPTED_TARGETS)
def test_calls_paddle_refuses_are_refused(target_id):
    problems = _unexplained(target_id, only_accepted=True, families=False)
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_every_call_paddle_refuses():
    problems = []
    for target_id in sorted(set(VERDICTS) & set(TARGETS)):
        problems += _unexplained(target_id, only_accepted=False, families=True)
    assert not problems, f"{len(problems)} differences from paddle:\n" + "\n".join(problems)


@pytest.mark.slow
def test_the_not_yet_list_only_shrinks():
    """Each difference of NOT_YET is still one (a fixed one leaves the list)."""
    stale = []
    for target_id in sorted(set(NOT_YET["accepted"]) | set(NOT_YET["other_family"])):
        accepted, other = _differences(target_id, only_accepted=False, families=True)
        stale += [f"{target_id}({k}) accepted" for k in NOT_YET["accepted"].get(target_id, ()) if k not in accepted]
        stale += [f"{target_id}({k}) family" for k in NOT_YET["other_family"].get(target_id, ()) if k not in other]
    assert not stale, "now like paddle, remove from paddle_not_yet.json:\n" + "\n".join(stale)


def test_every_difference_left_says_why():
    """Each entry of paddle_not_yet.json carries its reason (what paddle does, and why minipaddle differs)."""
    for kind in ("accepted", "other_family"):
        for target_id, entries in NOT_YET[kind].items():
            assert isinstance(entries, dict), target_id
            unexplained = [k for k, reason in entries.items() if not (isinstance(reason, str) and len(reason) > 20)]
            assert not unexplained, f"{kind} {target_id}: {unexplained}"


def test_the_verdicts_cover_the_sweep():
    """The recorded verdicts are for the sweep's targets (a renamed target would silently lose its checks)."""
    recorded = {t for t, v in VERDICTS.items() if v["target"] == "ok"}
    assert len(recorded) > 600
    assert recorded <= set(TARGETS), sorted(recorded - set(TARGETS))[:10]
    assert set(NOT_YET["accepted"]) | set(NOT_YET["other_family"]) <= recorded


def test_every_target_that_can_be_exported_has_paddle_verdicts():
    """A target added to the sweep gets paddle's verdicts too (make_golden.py --add records the new ones alone);
    only a target whose arguments cannot be written as JSON for paddle (a callable, a Python object) has none."""
    from tests.golden.reliability.export_calls import Unencodable, encode

    missing = []
    for target_id in sorted(set(TARGETS) - set(VERDICTS)):
        target = TARGETS[target_id]
        try:
            [encode(v) for v in (target.receiver, *target.args, *target.kwargs.values())]
        except Unencodable:
            continue
        missing.append(target_id)
    assert not missing, f"record paddle's verdicts for {missing} (tests/golden/reliability/make_golden.py --add)"
