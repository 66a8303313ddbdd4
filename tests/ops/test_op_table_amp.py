"""The AMP dtype rules over every op of the op table (DESIGN.md, Testing): under auto_cast at each level and low
dtype, each op's inputs reach the kernel in the dtype paddle 2.6's rule gives, and its floating outputs come out in
that dtype.

The rule is written here again from the 2.6 facts (docs: paddle26_amp.md, section 3), independently of
minipaddle/amp/cast_rule.py; the lists are paddle 2.6's, read through the one name table (minipaddle/ops/amp_names.py).
"""

from __future__ import annotations

import pytest

import minipaddle as paddle
from minipaddle.core.dispatch import tracing
from minipaddle.core.op import OPS
from minipaddle.core.state import STATE
from minipaddle.ops.amp_lists import black_list, white_list
from minipaddle.ops.amp_names import UNSUPPORTED_LOW_PRECISION, amp_category, paddle_op_name
from tests.op_table import OP_TABLE
from tests.ops.test_op_table import _sample, _to_tensors

# With float32 inputs, O1 shows the lists (white ops in the low dtype, the rest float32); O2 without promotion runs
# every op but the black ones in the low dtype, which exercises each kernel on float16 and bfloat16 inputs.
SETTINGS = [("O1", "float16", True), ("O2", "float16", False), ("O2", "bfloat16", False)]
FLOATS = ("float32", "float16", "bfloat16")

# Ops whose floating output has a dtype of its own, whatever the inputs' (attribute-given or fixed), with the reason.
OWN_OUTPUT_DTYPE = {
    "cast": "the dtype attribute",
    "complex": "complex64 from two float32 parts",
    "view_dtype": "reinterprets the bits as the dtype attribute",
    "full_like": "the dtype attribute (dropout's keep mask is float32)",
    "random_like": "the dtype attribute",
    "auc": "float64 counters, as paddle's",
    "nce_sample": "float32 sampling probabilities",
    "py_func": "whatever the user's function returns",
    "dequantize_int32": "float32, the int8 inference path's output dtype (paddle's dequantize ops write float32)",
    "run_program": "the dtypes its Program computes (its parameters are float32; AMP inside is auto_cast's at build)",
    "assign": "in place into batch_norm's float32 running statistics (an in-place op keeps its target's dtype)",
}

# Entries whose public function refuses float16/bfloat16 arguments, which O2 without promotion hands them (paddle
# 2.6's dynamic mode does not check there, and its AMP runs complex in float32): checked under O1 only.
REFUSE_LOW_PRECISION = {
    "complex_div": "paddle.complex takes float32/float64 parts",
    "angle": "paddle.complex takes float32/float64 parts",
    "uniform_": "minipaddle's uniform_ fills float32/float64 tensors only",
}

CASES = [pytest.param(info, 0, id=info.name) for info in OP_TABLE if "float32" in info.dtypes]  # first sample


# Functions that are one Paddle op made of several minipaddle ops (minipaddle/amp/composite.py): the cast log holds
# one record for the whole op, and the ops inside run with auto_cast paused.
COMPOSITES = ("batch_norm", "layer_norm", "group_norm", "instance_norm")


def expected_dtype(op, attrs, in_dtypes, level, low, use_promote):
    """paddle 2.6's GetAmpDestDtype for float32/float16/bfloat16 inputs, as the reference states it."""
    return expected_for(paddle_op_name(op.name, attrs), op.name, in_dtypes, level, low, use_promote)


def expected_for(name, op_name, in_dtypes, level, low, use_promote):
    """The rule by Paddle op name `name` (minipaddle's op `op_name` may lack a low-precision kernel)."""
    white, black = white_list()[low][level], black_list()[low][level]
    if name in white and op_name not in UNSUPPORTED_LOW_PRECISION:
        return low
    if name in black or op_name in UNSUPPORTED_LOW_PRECISION:
        return "float32"
    if level == "OD":
        return "float32"
    if level == "O2" and not use_promote:
        return low
    # only x decides for the norms, for float16 and bfloat16 alike (paddle 2.6's imperative/amp_utils.h)
    deciding = in_dtypes[:1] if name in ("batch_norm", "layer_norm") else in_dtypes
    return "float32" if "float32" in deciding else low


@pytest.mark.parametrize("info,i", CASES)
def test_amp_dtype_rules(info, i):
    sample = _sample(info, i)
    failures = []
    for level, low, use_promote in SETTINGS:
        if level == "O2" and info.name in REFUSE_LOW_PRECISION:
            continue
        seen = []

        def watch(op, inputs, attrs, outputs, seen=seen):
            if STATE.in_backward or STATE.amp is None:  # a grad rule, or an op inside a composite: not cast
                return
            seen.append((op, attrs, tuple(None if t is None else t.dtype.name for t in inputs), outputs))

        args = _to_tensors(sample.args, "float32")
        amp = paddle.amp.auto_cast(level=level, dtype=low, use_promote=use_promote)
        with paddle.amp.cast_log() as log, amp, tracing(watch):
            info.fn(*args, **sample.kwargs)
        records = iter(log)
        for op, attrs, kernel_in, outputs in seen:
            if op.name == "cast" and op.amp == "keep":
                continue  # the casts AMP inserted (and the op's own casts): checked as inputs of the ops they feed
            record = next(records)
            while record.op != op.name:
                record = next(records)
            came = tuple(d for d in record.input_dtypes if d in FLOATS)
            if op.amp == "keep" or not came:
                continue
            want = expected_dtype(op, attrs, came, level, low, use_promote)
            where = f"{info.name}: op {op.name} ({paddle_op_name(op.name, attrs)}) under {level}/{low}"
            if record.dtype != want:
                failures.append(f"{where}: decided {record.dtype}, rule says {want}")
            got = [d for d in kernel_in if d in FLOATS]
            if not all(d == want for d in got):
                failures.append(f"{where}: kernel got inputs {kernel_in}, expected {want}")
            if op.name not in OWN_OUTPUT_DTYPE:
                outs = [o.dtype.name for o in outputs if o.dtype.is_floating]
                if not all(d == want for d in outs):
                    failures.append(f"{where}: outputs {outs} from {want} inputs")
        for record in log:
            if record.op in COMPOSITES:
                came = tuple(d for d in record.input_dtypes if d is not None)
                want = expected_for(record.op, record.op, came, level, low, use_promote)
                if record.dtype != want or record.output_dtypes != (want,):
                    failures.append(f"{info.name}: {record.op} under {level}/{low}: decided {record.dtype}, output "
                                    f"{record.output_dtypes}, rule says {want}")  # fmt: skip
    assert not failures, "\n".join(failures)


def test_every_op_amp_category_agrees_with_the_name_table():
    """One source of truth: each OpDef's `amp` attribute is what the name table and paddle's lists give it."""
    for name, op in OPS.items():
        attrs = {"mode": "bilinear"} if name == "interpolate" else {"kernel_size": (2, 2)}
        assert op.amp == amp_category(name, attrs), f"op {name}: amp={op.amp!r}, the table says {amp_category(name)}"
