"""Where minipaddle answers the bad-input sweep's calls differently from paddle 2.6 (test_paddle_verdicts.py).

Three rules, each with its reason, and a to-do list (paddle_not_yet.json) that the test only lets shrink."""

import json
from pathlib import Path

# Bad values that are a dtype, not an argument value: which dtypes each op accepts is the dtype sweep's subject
# (tests/golden/fidelity/dtype_sweep.json, tests/ops/test_dtype_sweep.py), with its own known differences; this
# comparison leaves them to it.
DTYPE_VALUES = ("bool tensor", "int64 tensor", "float tensor")

# (paddle's exception, minipaddle's family) pairs that differ by a rule of minipaddle's.
FAMILY_RULES = {
    ("ValueError", TypeError): "a value of the wrong type is a TypeError in minipaddle (Python's convention and "
    "the house rule); paddle's C++ argument parser says ValueError (InvalidArgument: 'must be int, but got str')",
    ("RuntimeError", TypeError): "a tensor of a dtype an op has no kernel for is a TypeError in minipaddle; "
    "paddle's kernel registry says RuntimeError (NotFound / PreconditionNotMet)",
    ("IndexError", ValueError): "an axis out of range is a ValueError in minipaddle (normalize_axis, as paddle's "
    "Python-side checks say); paddle's C++ infer-meta says IndexError (OutOfRange)",
}


def accepted_on_purpose(target_id: str, key: str) -> str | None:
    """The reason minipaddle accepts this call paddle refuses, or None."""
    arg, _, bad = key.partition("=")
    if arg.endswith("_attr") and bad == "str":
        return ("a string ParamAttr is the parameter's name, which paddle accepts too; its refusal in the "
                "recording comes from the same name made twice in one process")  # fmt: skip
    return None


# The differences left, each with its reason: {"accepted": {target: {key: reason}}, "other_family": {target: {key:
# reason}}}. A reason ending "kept" is a difference minipaddle keeps on purpose; "to become ..." says what fixes it.
# A fixed one fails test_the_not_yet_list_only_shrinks until it is removed here.
NOT_YET = json.loads((Path(__file__).with_name("paddle_not_yet.json")).read_text())
