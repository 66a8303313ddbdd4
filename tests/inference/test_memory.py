"""Config.enable_memory_optim: the fused ops write into arrays the predictor plans from a liveness table and
reuses run after run; the outputs stay bit for bit those without it, and a run holds less memory."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import inference
from tests.inference.models import lenet, save_static


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    d = tmp_path_factory.mktemp("memory")
    save_static(str(d / "lenet"), lenet, [None, 1, 28, 28])
    return d / "lenet"


def _predictor(model, memory_optim: bool):
    c = inference.Config(f"{model}.pdmodel", f"{model}.pdiparams")
    c.disable_glog_info()
    c.enable_memory_optim(memory_optim)
    return inference.create_predictor(c)


def _run(p, x):
    p.get_input_handle("x").copy_from_cpu(x)
    p.run()
    return p.get_output_handle(p.get_output_names()[0]).copy_to_cpu()


def test_outputs_are_bitwise_those_without_reuse_at_every_batch_size(model):
    plain, reused = _predictor(model, False), _predictor(model, True)
    rng = np.random.default_rng(0)
    for batch in (64, 64, 3, 3, 64):  # a new batch size records a new table; the same one reuses the slots
        x = rng.standard_normal((batch, 1, 28, 28)).astype("float32")
        np.testing.assert_array_equal(_run(reused, x), _run(plain, x))
    assert reused._buffers.signature[0][0] == (64, 1, 28, 28)


def test_the_liveness_table_shares_slots_only_between_disjoint_lifetimes(model):
    p = _predictor(model, True)
    _run(p, np.ones((64, 1, 28, 28), "float32"))
    table = p._buffers.table
    kinds = [(p._model.plan[r.step].desc.type, r.kind) for r in table]
    # each conv asks for a chunk of columns (a batch of 64 is copied from x unpadded), each pool for its first pass
    assert kinds.count(("conv2d_fusion", "scratch")) == 2 and kinds.count(("fc", "result")) == 3
    assert kinds.count(("max_pool_infer", "scratch")) == 2 and kinds.count(("max_pool_infer", "result")) == 2
    # conv1's result is read by pool1 (the step after it): its lifetime follows the views of it
    conv1_result = next(r for r in table if r.step == 0 and r.kind == "result")
    assert conv1_result.last_read == 1
    slotted = [r for r in table if r.slot is not None]
    assert len({r.slot for r in slotted}) < len(slotted)  # some slots are shared
    for a in slotted:
        for b in slotted:
            if a is not b and a.slot == b.slot:
                assert a.last_read < b.step or b.last_read < a.step, (a, b)
    assert all(p._buffers.slots[r.slot].nbytes >= r.nbytes for r in slotted)


def test_later_runs_write_into_the_slots_and_hand_out_fresh_outputs(model):
    p = _predictor(model, True)
    x = np.random.default_rng(1).standard_normal((8, 1, 28, 28)).astype("float32")
    first = p.run([paddle.to_tensor(x)])[0].numpy().copy()
    kept = p.run([paddle.to_tensor(x)])[0]  # the second run at these shapes: the slots are used
    conv1_out = p._env[p._model.plan[0].writes[0]]
    assert any(np.shares_memory(conv1_out, s) for s in p._buffers.slots)
    p.run([paddle.to_tensor(-x)])
    np.testing.assert_array_equal(kept.numpy(), first)  # an output handed out is never a slot
    assert not any(np.shares_memory(kept.numpy(), s) for s in p._buffers.slots)


def _peak(p, x) -> int:
    for _ in range(2):
        _run(p, x)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        _run(p, x)
        return tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()


def test_a_run_at_batch_64_holds_far_less_memory(model):
    x = np.random.default_rng(2).standard_normal((64, 1, 28, 28)).astype("float32")
    without, with_reuse = _peak(_predictor(model, False), x), _peak(_predictor(model, True), x)
    # measured 2.64 MB -> 0.34 MB (0.13x; the slots, 2.1 MB, are allocated once, at the first run at a shape; before
    # the im2col went a chunk at a time and the pools into slots: 6.2 MB -> 0.91 MB, slots 5.0 MB)
    assert with_reuse < 0.3 * without, (with_reuse, without)


def test_the_weights_gemm_forms_are_made_once_and_remade_when_a_weight_is_replaced(model):
    p, plain = _predictor(model, True), _predictor(model, False)
    x = np.random.default_rng(3).standard_normal((4, 1, 28, 28)).astype("float32")
    for _ in range(3):
        _run(p, x)
    conv2 = next(i for i, s in enumerate(p._model.plan) if s.desc.type == "conv2d_fusion" and i > 0)
    layout = p._buffers.layouts[conv2]
    kept = layout.array
    _run(p, x)
    assert layout.array is kept  # not remade at a run with the same weights
    name = p._model.plan[conv2].reads[1]
    with pytest.raises(ValueError, match="read-only"):  # a write in place would leave the kept form stale
        p._model.scope.vars[name][...] = 0
    new = p._model.scope.vars[name] * -0.5
    p._model.scope.vars[name] = new  # a replaced weight (plain shares nothing with p: its own scope)
    plain._model.scope.vars[name] = new.copy()
    np.testing.assert_array_equal(_run(p, x), _run(plain, x))
    assert layout.array is not kept
