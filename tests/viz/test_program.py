"""viz.draw_program and viz.draw_pass: static Programs (golden DOT files: see conftest.py to regenerate them)."""

from __future__ import annotations

import re

import pytest

import minipaddle as paddle
import viz

from .models import building_program, cond_program, fc_program


def _node_lines(source: str) -> dict:
    return {m.group(1): m.group(0) for m in re.finditer(r'^\s*"([^"]+)" \[label=.*$', source, re.M)}


def _cluster_body(source: str, label: str) -> str:
    """The text of the cluster labelled `label`, up to its first closing brace (enough for a leaf cluster)."""
    start = source.index(f'label="{label}"')
    return source[start : source.index("}", start)]


def test_cond_with_backward_golden(golden):
    main, _ = cond_program()
    golden("program_cond_backward", viz.draw_program(main).source)


def test_cond_ops_only_golden(golden):
    main, _ = cond_program()
    golden("program_cond_ops_only", viz.draw_program(main, show_vars=False).source)


def test_pass_diff_golden(golden):
    main, kept = fc_program()
    after = paddle.static.passes.dead_code_elimination(paddle.static.passes.fuse_fc(main, keep=[kept]), keep=[kept])
    golden("pass_fuse_fc_dce", viz.draw_pass(main, after).source)


def test_roles_and_variable_kinds_are_styled_apart():
    main, _ = cond_program()
    nodes = _node_lines(viz.draw_program(main).source)
    assert "#eeeeee" in nodes["op0_0"] and "<B>matmul</B>" in nodes["op0_0"]  # forward
    backward = [nid for nid, line in nodes.items() if "dashed,filled" in line and "#fde0dd" in line]
    assert "op0_6" in backward and "op3_0" in backward  # a backward op of block 0 and one inside a grad sub-block
    assert "data" in nodes["var0_0"] and "#fff2cc" in nodes["var0_0"]
    assert "parameter" in nodes["var0_1"] and "#cfe2f3" in nodes["var0_1"]
    (grad_var,) = [nid for nid, line in nodes.items() if "fc.w_0@GRAD</B>" in line]
    assert "#fff5f3" in nodes[grad_var]  # written by backward only
    assert "[?, 4] float32" in nodes["var0_0"]  # -1 is shown as ?
    assert "forward</TD>" in nodes["roles"] and "backward</TD>" in nodes["roles"]


def test_sub_blocks_are_clusters_joined_to_the_op_that_runs_them():
    main, _ = cond_program()
    source = viz.draw_program(main).source
    assert '"var1_0"' in _cluster_body(source, "block 1: cond true_block")
    assert '"op2_1"' in _cluster_body(source, "block 2: cond false_block")
    assert re.search(r'"op0_4" -> "op1_0" \[label="true_block" lhead="cluster_b1"', source)
    assert re.search(r'"op0_4" -> "op2_0" \[label="false_block" lhead="cluster_b2"', source)
    assert "true_block=" not in source  # block indices are drawn as edges, not written as attributes


def test_nested_sub_blocks_of_a_while_loop():
    with building_program() as (main, _):
        i = paddle.full([1], 0, "int64")
        s = paddle.full([1], 0.0, "float32")

        def body(i, s):
            return [i + 1, paddle.static.nn.cond(i > 2, lambda: s + 1.0, lambda: s * 2.0)]

        paddle.static.nn.while_loop(lambda i, s: i < 5, body, [i, s])
    source = viz.draw_program(main).source
    outer = source.index('label="block 2: while body_block"')
    inner = source.index('label="block 3: cond true_block"')
    assert outer < inner < source.index("\t\t}", outer)  # block 3 is drawn inside block 2's box
    assert 'lhead="cluster_b1"' in source and 'lhead="cluster_b2"' in source


def test_ops_only_keeps_sources_and_sinks_and_labels_edges_with_shapes():
    main, _ = fc_program()
    source = viz.draw_program(main, show_vars=False).source
    nodes = _node_lines(source)
    assert {"var0_0", "var0_1", "var0_2"} <= set(nodes)  # data and parameters
    assert "var0_3" not in nodes  # matmul's output is an edge now
    assert re.search(r'"op0_0" -> "op0_1" \[label="\[\?, 3\] float32"\]', source)
    assert "var0_6" in nodes and "var0_7" in nodes  # the final outputs stay


def test_one_block_draws_outer_variables_at_the_top():
    main, _ = cond_program()
    source = viz.draw_program(main, block=1).source
    nodes = _node_lines(source)
    assert set(nodes) == {"var1_0", "op1_0", "var0_2"}
    assert "cluster" not in source


def test_a_name_no_block_declares_still_draws():
    program = paddle.static.Program()
    program.global_block().append_op("relu", {"x": ["ghost"]}, {"Out": ["ghost_out"]}, {})
    nodes = _node_lines(viz.draw_program(program).source)
    assert "(not declared)" in nodes["undeclared_0"] and "(not declared)" in nodes["undeclared_1"]


def test_an_empty_sub_block_gets_a_placeholder():
    program = paddle.static.Program()
    with program.sub_block():
        pass
    program.global_block().append_op("cond", {}, {}, {"true_block": 1})
    source = viz.draw_program(program).source
    assert '"b1_empty" [label="(empty block)"' in source and '"op0_0" -> "b1_empty"' in source


def test_pass_diff_marks_removed_added_and_changed():
    main, kept = fc_program()
    fused = paddle.static.passes.fuse_fc(main, keep=[kept])
    source = viz.draw_pass(main, fused).source
    nodes = _node_lines(source)
    assert "#f8cecc" in nodes["before_op0_0"] and "#f8cecc" in nodes["before_var0_3"]  # matmul and its output
    assert "<B>fc</B>" in nodes["after_op0_0"] and "#d5e8d4" in nodes["after_op0_0"]
    assert "#eeeeee" in nodes["before_op0_3"] and "#eeeeee" in nodes["after_op0_1"]  # mean: untouched
    assert "#f8cecc" in nodes["before_op0_2"]  # relu went into the fc too
    assert 'label="3 ops removed, 1 added, 0 changed; 0 variables renamed, 2 removed, 0 added"' in source


def test_pass_diff_notes_changed_attributes():
    main, _ = fc_program()
    after = main.clone()
    after.global_block().ops[0].attrs["transpose_y"] = True
    nodes = _node_lines(viz.draw_pass(main, after).source)
    assert "changed: attrs transpose_y" in nodes["before_op0_0"] and "#ffe6cc" in nodes["after_op0_0"]
    assert "#eeeeee" in nodes["after_op0_1"]


def test_pass_diff_notes_renamed_variables():
    with building_program() as (main, _):
        y = paddle.exp(paddle.tanh(paddle.exp(paddle.tanh(paddle.static.data("x", [-1, 4], "float32")))))
    reused = paddle.static.passes.reuse_buffers(main, keep=[y])
    nodes = _node_lines(viz.draw_pass(main, reused).source)
    assert "renamed to tanh_0.tmp_0" in nodes["before_var0_2"] and "#ffe6cc" in nodes["before_var0_2"]
    assert "was exp_0.tmp_0" in nodes["after_var0_1"] and "was tanh_1.tmp_0" in nodes["after_var0_1"]
    assert "changed: inputs, outputs" in nodes["after_op0_2"]


def test_identical_programs_show_no_change():
    main, _ = fc_program()
    source = viz.draw_pass(main, main.clone()).source
    assert 'label="0 ops removed, 0 added, 0 changed' in source
    assert not any(c in source for c in ("#f8cecc", "#d5e8d4", "#ffe6cc"))


@pytest.mark.parametrize("call", [lambda: viz.draw_program("main"), lambda: viz.draw_pass(None, None)])
def test_not_a_program_raises(call):
    with pytest.raises(TypeError, match="expected a paddle.static.Program"):
        call()


@pytest.mark.parametrize("block", [-1, 5, 1.0, True])
def test_a_bad_block_raises(block):
    main, _ = cond_program()
    with pytest.raises(ValueError, match="draw_program: block must be an index from 0 to 4"):
        viz.draw_program(main, block=block)
