"""A pass, before and after: two Programs side by side with what changed coloured.

    after = paddle.static.passes.fuse_fc(main)
    viz.draw_pass(main, after)

The left panel is the Program before the pass, the right one after it. Red marks what the pass removed (on the
left), green what it added (on the right), amber what it changed in place or renamed (on both sides, with a note
saying what differs). What changed is taken from `paddle.static.passes.diff`, which compares the global blocks;
sub-blocks are drawn but not compared.
"""

from __future__ import annotations

import json

import minipaddle as paddle
from minipaddle.static.serialize import encode_attr
from viz import dot, style
from viz.program import ProgramDrawing, check_program
from viz.render import View


def draw_pass(before, after, show_vars: bool = True, show_attrs: bool = True) -> View:
    """Draw `before` and `after` (a pass's input and output Program) side by side, the differences coloured.

    Args:
        before: the Program the pass was given.
        after: the Program it returned.
        show_vars: draw every variable (True) or only inputs, parameters and outputs (False), as in draw_program.
        show_attrs: write each op's attributes that are set under its name.

    Returns:
        View: shows itself in Jupyter; `.source` is the DOT text, `.save('pass.svg')` writes a file. The title
        line says how many ops and variables were removed, added, changed and renamed.

    Example:
        >>> fused = paddle.static.passes.fuse_fc(main)
        >>> viz.draw_pass(main, fused).save("fuse_fc.svg")
    """
    check_program(before, "draw_pass")
    check_program(after, "draw_pass")
    d = paddle.static.passes.diff(before, after)
    b_ops, a_ops = before.global_block().ops, after.global_block().ops
    before_marks = {(0, i): "removed" for i in d.removed_ops}
    after_marks = {(0, j): "added" for j in d.added_ops}
    before_notes, after_notes = {}, {}
    for i, j in d.changed_ops:
        before_marks[(0, i)] = after_marks[(0, j)] = "changed"
        before_notes[(0, i)] = after_notes[(0, j)] = [f"changed: {', '.join(_what_differs(b_ops[i], a_ops[j]))}"]
    before_vars = {(0, n): "removed" for n in d.removed_vars}
    after_vars = {(0, n): "added" for n in d.added_vars}
    for old, new in d.renamed_vars.items():
        before_vars[(0, old)] = after_vars[(0, new)] = "changed"
        before_notes[(0, old)] = [f"renamed to {new}"]
        after_notes.setdefault((0, new), []).append(f"was {old}")

    g = dot.Digraph("pass", graph={**style.GRAPH, "compound": "true", "label": d.summary(), "labelloc": "t"},
                    node=style.NODE, edge=style.EDGE)  # fmt: skip
    panels = (("before", before, before_marks, before_vars, before_notes),
              ("after", after, after_marks, after_vars, after_notes))  # fmt: skip
    for name, program, op_marks, var_marks, notes in panels:
        drawing = ProgramDrawing(program, show_vars=show_vars, show_attrs=show_attrs, prefix=f"{name}_",
                                 op_marks=op_marks, var_marks=var_marks, notes=notes)  # fmt: skip
        with g.cluster(name, name, **style.PANEL_CLUSTER) as panel:
            drawing.emit(panel)
    return View(g.source(), title="pass diff")


def _what_differs(old, new) -> list:
    """Which parts of two matched ops differ: 'inputs', 'outputs', and the names of attributes that changed."""
    parts = [part for part in ("inputs", "outputs") if getattr(old, part) != getattr(new, part)]
    keys = list(dict.fromkeys([*old.attrs, *new.attrs]))
    changed = [k for k in keys if k not in old.attrs or k not in new.attrs or
               _attr_key(old.attrs[k]) != _attr_key(new.attrs[k])]  # fmt: skip
    if changed:
        parts.append("attrs " + ", ".join(changed))
    return parts


def _attr_key(value) -> str:
    """An attribute as comparable text (values may be numpy arrays, whose == is element-wise)."""
    try:
        return json.dumps(encode_attr(value), sort_keys=True)
    except TypeError:
        return repr(value)
