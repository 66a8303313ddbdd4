"""A predictor's optimization, pass by pass: the pipeline with the op count after every step.

    predictor = paddle.inference.create_predictor(config)     # config.switch_ir_debug(True) to keep each Program
    viz.draw_passes(predictor)                               # the pipeline: one box per pass that ran
    viz.draw_passes(predictor, step="conv_bn_fuse_pass")     # that pass's Program before and after (viz.draw_pass)

Each box names a pass, its op count before -> after and what it did (the pass's own note); a box is green where
the pass removed ops, grey where it changed nothing. Paddle's passes that have nothing to match in minipaddle are
counted in one box at the end, not drawn one by one. Reads only `predictor.pass_log()` (PassStep records).
"""

from __future__ import annotations

from viz import dot, style
from viz.pass_diff import draw_pass
from viz.render import View

_CHANGED = {"fillcolor": "#d5e8d4", "color": "#5d9c4a", "penwidth": "2"}


def _check(predictor, fn: str) -> list:
    log = getattr(predictor, "pass_log", None)
    if log is None:
        raise TypeError(f"{fn}: expected a paddle.inference.Predictor, got {type(predictor).__name__}")
    return log()


def draw_passes(predictor, step: str | None = None, show_vars: bool = False) -> View:
    """Draw a predictor's optimization pipeline, or one step of it.

    Args:
        predictor: a paddle.inference.Predictor.
        step: None for the pipeline; a pass name for that pass's Program before and after (needs the Programs:
            Config.switch_ir_debug(True) before create_predictor).
        show_vars: for a step, draw every variable (as draw_program) or only ops.

    Returns:
        View (`.source` is the DOT text, `.save('passes.svg')` writes a file).

    Example:
        >>> config.switch_ir_debug(True)
        >>> viz.draw_passes(paddle.inference.create_predictor(config))
    """
    steps = _check(predictor, "draw_passes")
    if step is not None:
        return _draw_step(steps, step, show_vars)
    g = dot.Digraph("passes", graph={**style.GRAPH, "rankdir": "LR", "label": _title(steps), "labelloc": "t"},
                    node=style.NODE, edge=style.EDGE)  # fmt: skip
    ran = [s for s in steps if s.ran]
    skipped = [s for s in steps if not s.ran]
    prev = None
    for k, s in enumerate(ran):
        note = "; ".join(s.notes)
        label = dot.html(f"<B>{dot.escape(s.name)}</B><BR/>{s.ops_before} &#8594; {s.ops_after} ops"
                         + (f'<BR/><FONT POINT-SIZE="9">{dot.escape(note)}</FONT>' if note else ""))  # fmt: skip
        kind = _CHANGED if s.ops_after < s.ops_before or (k == 0) else {}
        g.node(f"step{k}", label, **{**style.OP, **kind})
        if prev is not None:
            g.edge(prev, f"step{k}")
        prev = f"step{k}"
    if skipped:
        names = ", ".join(s.name.removesuffix("_pass") for s in skipped[:6]) + (", ..." if len(skipped) > 6 else "")
        label = dot.html(f"<B>{len(skipped)} more of paddle's passes</B><BR/>"
                         f'<FONT POINT-SIZE="9">nothing to match: {dot.escape(names)}</FONT>')  # fmt: skip
        g.node("skipped", label, **{**style.OP, "style": "rounded,dashed,filled", "fillcolor": "#ffffff"})
        if prev is not None:
            g.edge(prev, "skipped", style="invis")
    return View(g.source(), title="passes")


def _title(steps) -> str:
    first = next((s for s in steps if s.ran), None)
    last = [s for s in steps if s.ran][-1] if first else None
    if first is None:
        return "no passes"
    return f"{first.ops_after} ops loaded -> {last.ops_after} ops run"


def _draw_step(steps, name: str, show_vars: bool) -> View:
    names = [s.name for s in steps if s.ran]
    if name not in names:
        raise ValueError(f"draw_passes: no pass {name!r} ran; the passes that ran are {names}")
    k = next(i for i, s in enumerate(steps) if s.name == name)
    before = next((s.program for s in reversed(steps[:k]) if s.ran and s.program is not None), None)
    after = steps[k].program
    if before is None or after is None:
        raise RuntimeError("draw_passes: the predictor kept no Programs; call config.switch_ir_debug(True) before "
                           "create_predictor to keep the Program after every pass")  # fmt: skip
    return draw_pass(before, after, show_vars=show_vars)
