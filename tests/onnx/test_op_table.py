"""The op table's ONNX check (DESIGN.md, Testing): every sample of every entry, built as a Program, either exports
and gives onnxruntime the values the Executor gives (rtol = atol = 1e-5, float32), or raises NotExportableError
naming the op and the opset; and every op the export table claims is exported with parity by some sample."""

from __future__ import annotations

import re

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.onnx import EXPORTS, NotExportableError, program_to_onnx
from minipaddle.onnx.export import _flatten
from tests.op_table import OP_TABLE

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

ENTRIES = [pytest.param(info, id=info.name) for info in OP_TABLE if info.static]


def _session(model):
    # No graph optimizations: a session builds in ~1 ms instead of ~40, and the nodes run as exported
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def _build(sample, info):
    feed, names = {}, iter(f"in{k}" for k in range(100))

    def declare(a):
        if isinstance(a, list) and all(isinstance(e, np.ndarray) for e in a):
            return [declare(e) for e in a]
        if not isinstance(a, np.ndarray) or a.dtype == object or a.dtype.kind == "c":
            return a
        a = a.astype("float32") if a.dtype.kind == "f" else a
        v = paddle.static.data(next(names), list(a.shape), str(a.dtype))
        feed[v.name] = a
        return v

    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            out = _flatten(info.fn(*[declare(a) for a in sample.args], **sample.kwargs))
        outs = [o for o in out if isinstance(o, paddle.static.Variable)]
        main = main.clone(for_test=True)  # what an exported model is: dropout and batch_norm in inference mode
        values = paddle.static.Executor().run(main, feed=feed, fetch_list=[o.name for o in outs])
    finally:
        paddle.disable_static()
    return main, feed, [o.name for o in outs], values


@pytest.mark.parametrize("info", ENTRIES)
def test_op_exports_with_onnxruntime_parity_or_says_why_not(info):
    for sample in info.samples(np.random.default_rng(0)):
        _check_sample(info, sample)


def _check_sample(info, sample):
    try:
        program, feed, fetches, want = _build(sample, info)
    except (TypeError, ValueError):  # a sample only float64 can take (dtype rules): nothing to export
        return
    types = {op.type for op in program.global_block().ops}
    try:
        model = program_to_onnx(program, list(feed), fetches, {}, opset_version=9)
    except NotExportableError as e:
        msg = str(e)
        named = set(re.findall(r"'(\w+)'", msg))
        assert re.search(r"at opset \d+", msg) and named & types, msg
        return
    sess = _session(model)
    got = sess.run(None, {k: v for k, v in feed.items() if k in {x.name for x in sess.get_inputs()}})
    for g, w in zip(got, want):
        assert g.shape == np.asarray(w).shape, f"{info.name} ({sample.label})"
        np.testing.assert_allclose(g.astype(np.float64), np.asarray(w, np.float64), rtol=1e-5, atol=1e-5,
                                   err_msg=f"{info.name} ({sample.label})")  # fmt: skip


@pytest.mark.slow
def test_every_exportable_op_is_exported_by_some_sample():
    """The export table claims no op the op table never exports (the case above then checks its parity)."""
    exported = set()
    for info in OP_TABLE:
        if not info.static:
            continue
        for sample in info.samples(np.random.default_rng(0)):
            try:
                program, feed, fetches, _ = _build(sample, info)
                program_to_onnx(program, list(feed), fetches, {}, opset_version=9)
            except (TypeError, ValueError):  # not exportable (NotExportableError), or a float64-only sample
                continue
            exported |= {op.type for op in program.global_block().ops}
    untested = sorted(set(EXPORTS) - exported - _ONLY_FROM_PASSES)
    assert not untested, f"export entries no op-table sample exports: {untested}"


# Made by traces and passes, never by a public function alone (assign_value), or exportable only with the constant
# scales of a converted model, which the op table feeds as inputs (test_export.py checks them with constants);
# the control-flow ops run sub-blocks and are no op-table entries (test_control_flow.py checks If and Loop).
_ONLY_FROM_PASSES = {"assign_value", "quantize_linear", "dequantize_linear", "cond", "while"}
