"""The static AMP rewrite decides a normalization as one Paddle op, by the rule dynamic mode's auto_cast applies
(minipaddle/ops/amp_norms.py): static == dynamic, in dtypes and bit for bit in values, for each norm under O1
and O2. The producer is a conv2d without bias (white in both modes), so the norm's x arrives low in both."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minipaddle as paddle

NORMS = {
    "batch_norm": lambda: paddle.nn.BatchNorm2D(4),
    "batch_norm_eval": lambda: paddle.nn.BatchNorm2D(4),
    "layer_norm": lambda: paddle.nn.LayerNorm([3, 3]),
    "group_norm": lambda: paddle.nn.GroupNorm(2, 4),
    "instance_norm": lambda: paddle.nn.InstanceNorm2D(4),
}
# (level, dtype, use_promote): O1 promotes in dynamic mode and follows the producers in static mode; O2 is
# compared with the same use_promote in both modes
SETTINGS = [("O1", "float16", False), ("O1", "bfloat16", False), ("O2", "float16", True), ("O2", "float16", False),
            ("O2", "bfloat16", True)]  # fmt: skip


def _net(norm: str):
    net = paddle.nn.Sequential(paddle.nn.Conv2D(4, 4, 1, bias_attr=False), NORMS[norm]())
    if norm == "batch_norm_eval":
        net.eval()
    return net


def _values(net) -> list:
    rng = np.random.default_rng(3)
    return [rng.standard_normal(p.shape).astype(np.float32) for p in net.parameters()]


def _input() -> np.ndarray:
    return np.random.default_rng(4).standard_normal((2, 4, 3, 3)).astype(np.float32)


def _dynamic(norm, level, dtype, use_promote):
    net = _net(norm)
    for p, v in zip(net.parameters(), _values(net)):
        p.set_value(v)
    if level == "O2":
        net = paddle.amp.decorate(net, level="O2", dtype=dtype)
    with paddle.amp.auto_cast(level=level, dtype=dtype, use_promote=use_promote):
        y = net(paddle.to_tensor(_input()))
    stats = [b.numpy() for b in net[1].buffers()]
    return y.dtype.name, np.asarray(y.astype("float32").numpy()), stats


def _static(norm, level, dtype, use_promote):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [2, 4, 3, 3], "float32")
            net = _net(norm)
            y = net(x)
        amp = paddle.static.passes.amp_cast(main, dtype=dtype, level=level, use_promote=use_promote)
        exe = paddle.static.Executor()
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            exe.run(start)
            for p, v in zip(net.parameters(), _values(net)):
                scope.find_var(p.name).get_tensor().set(v)
            (out,) = exe.run(amp, feed={"x": _input()}, fetch_list=[y.name])
            stats = [np.array(scope.find_var(b.name).get_tensor()) for b in net[1].buffers()]
        return amp.global_block().var(y.name).dtype.name, np.asarray(out).astype(np.float32), stats, amp
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("level,dtype,use_promote", SETTINGS)
@pytest.mark.parametrize("norm", list(NORMS))
def test_static_rewrite_computes_each_norm_as_dynamic_auto_cast(norm, level, dtype, use_promote):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # BatchNorm's "we now always track global mean and variance"
        d_dtype, d_out, d_stats = _dynamic(norm, level, dtype, use_promote)
        s_dtype, s_out, s_stats, _ = _static(norm, level, dtype, use_promote)
    assert s_dtype == d_dtype
    np.testing.assert_array_equal(s_out, d_out)
    for s, d in zip(s_stats, d_stats):
        np.testing.assert_array_equal(s, d)


def test_the_dtypes_each_norm_gets():
    """What the shared rule decides, spelled out (O1 float16; O2 float16 with use_promote)."""
    got = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for norm in NORMS:
            got[norm] = (_static(norm, "O1", "float16", False)[0], _static(norm, "O2", "float16", True)[0])
    assert got == {
        "batch_norm": ("float16", "float16"),  # gray: its x comes from a white conv2d; only x decides
        "batch_norm_eval": ("float16", "float16"),
        "layer_norm": ("float32", "float16"),  # O1 black; O2 drops the float16 black list, only x decides
        "group_norm": ("float32", "float16"),  # O1 black; O2: its parameters are cast, as decorate casts them
        "instance_norm": ("float32", "float32"),  # in no list; O2: decorate keeps its float16 parameters float32
    }


def test_only_x_is_cast_and_the_output_is_rounded_once():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, amp = _static("layer_norm", "O2", "float16", False)
    block = amp.global_block()
    casts = [(op.inputs["x"][0], op.outputs["Out"][0]) for op in block.ops if op.type == "cast" and op.group is None]
    assert not any(src.startswith("layer_norm") for src, _ in casts)  # the scale and bias stay float32
    rounded = [dst for src, dst in casts if src.endswith("@fp32")]  # the group's float32 result, rounded once
    assert len(rounded) == 1 and block.var(rounded[0]).dtype.name == "float16"


def test_static_amp_trains_a_batch_norm_network():
    """Gradients flow through the rewritten train/eval switch into the conv2d before it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle.enable_static()
        try:
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, start):
                x = paddle.static.data("x", [2, 4, 3, 3], "float32")
                net = _net("batch_norm")
                loss = paddle.mean(net(x) * x)
                opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.5), init_loss_scaling=4.0)
                opt.minimize(loss)
            exe = paddle.static.Executor()
            scope = paddle.static.Scope()
            with paddle.static.scope_guard(scope):
                exe.run(start)
                w = net[0].weight.name
                before = np.array(scope.find_var(w).get_tensor())
                exe.run(main, feed={"x": _input()}, fetch_list=[loss])
                after = np.array(scope.find_var(w).get_tensor())
        finally:
            paddle.disable_static()
    assert any(op.type == "cond" and op.group is not None for op in main.global_block().ops)
    assert np.isfinite(after).all() and not np.array_equal(before, after)


@pytest.mark.parametrize("norm", ["batch_norm", "layer_norm"])
def test_norm_groups_survive_the_json_program_file(norm, tmp_path):
    """A Program saved to its JSON file and loaded keeps each norm's group, so the O2 rewrite of the loaded Program
    still keeps the norm in float32 as one Paddle op: the same ops and dtypes as the rewrite of the original."""
    from minipaddle.static.serialize import program_from_bytes, program_to_bytes

    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [2, 4, 3, 3], "float32")
            _net(norm)(x)
        path = tmp_path / "net.json"
        path.write_bytes(program_to_bytes(main))
        loaded = program_from_bytes(path.read_bytes())
        grouped = [op.group for op in loaded.global_block().ops if op.group is not None]
        assert grouped and grouped[0].paddle_op == norm
        assert all(g is grouped[0] for g in grouped)  # one object per group, as built
        assert [op.group for op in main.global_block().ops if op.group is not None] == grouped

        def rewritten(program):
            amp = paddle.static.passes.amp_cast(program, dtype="float16", level="O2")
            block = amp.global_block()
            return [(op.type, [block.var(n).dtype.name for n in op.output_names() if n]) for op in block.ops]

        assert rewritten(loaded) == rewritten(main)
    finally:
        paddle.disable_static()


def test_a_damaged_group_in_a_program_file_is_refused():
    import json

    from minipaddle.static.serialize import program_from_bytes, program_to_bytes

    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            _net("layer_norm")(paddle.static.data("x", [2, 4, 3, 3], "float32"))
        data = json.loads(program_to_bytes(main))
    finally:
        paddle.disable_static()
    op = next(op for op in data["blocks"][0]["ops"] if "group" in op)
    op["group"] = {"paddle_op": "layer_norm", "inputs": [3], "output": "y"}
    with pytest.raises(ValueError, match="damaged 'group'"):
        program_from_bytes(json.dumps(data).encode())
