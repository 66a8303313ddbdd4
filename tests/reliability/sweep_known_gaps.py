"""The bad-input sweep's known gaps: (callable, "argument=bad value") -> what happens today.

Each is a case minipaddle still gets wrong (test_bad_input_sweep.py). The full sweep fails when one is fixed, so
this table only shrinks: remove an entry when its case is refused cleanly. Never add one to make a test pass."""

KNOWN_GAPS: dict = {}
