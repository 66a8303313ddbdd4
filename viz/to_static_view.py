"""show_to_static: how dynamic-to-static rewrote a function, one transformer at a time, and the Program it made.

    view = viz.show_to_static(f, paddle.rand([4]))      # f: a to_static function (or a plain one, or a Layer)
    view                    # in a notebook: a slider over the transformers; each step shows the code before and
                            # after it, side by side, with the lines it removed (red) and added (green)
    view.save("f.html")     # the same as a standalone page (a little JavaScript moves between the steps)

Below the code, the Program that the converted function built for the given arguments (or for the last call),
with its control-flow sub-blocks (viz.draw_program). viz reads only minipaddle's public introspection here:
StaticFunction.code_stages and StaticFunction.get_concrete_program.
"""

from __future__ import annotations

import difflib
from html import escape

from minipaddle.static.files import atomic_write
from viz.program import draw_program
from viz.render import html_page
from viz.style import DIFF

_ADD, _DEL = DIFF["added"]["fillcolor"], DIFF["removed"]["fillcolor"]
_CSS = f"""<style>
.jst {{ font-family: system-ui, sans-serif; }}
.jst .panes {{ display: flex; gap: 1em; align-items: flex-start; }}
.jst .pane {{ flex: 1; min-width: 0; }}
.jst pre {{ font-size: 12px; line-height: 1.35; background: #fafafa; border: 1px solid #ddd; padding: 0.5em;
           overflow-x: auto; margin: 0; }}
.jst .add {{ background: {_ADD}; display: block; }}
.jst .del {{ background: {_DEL}; display: block; }}
.jst .doc {{ color: #555; margin: 0.3em 0 0.6em 0; }}
.jst h4 {{ margin: 0.2em 0; }}
</style>
"""


def _static_function(fn):
    import minipaddle as paddle

    if isinstance(fn, paddle.jit.StaticFunction):
        return fn
    if isinstance(fn, paddle.nn.Layer):
        forward = fn.__dict__.get("forward") or fn.forward
        return forward if isinstance(forward, paddle.jit.StaticFunction) else paddle.jit.to_static(fn.forward)
    if callable(fn):
        return paddle.jit.to_static(fn)
    raise TypeError(f"show_to_static: expected a function, a to_static function or a Layer, got {type(fn).__name__}")


def changed_lines(before: str, after: str) -> tuple:
    """(line numbers of `before` that were removed or replaced, line numbers of `after` that are new), from 0."""
    a, b = before.splitlines(), after.splitlines()
    removed, added = set(), set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed.update(range(i1, i2))
        if tag in ("replace", "insert"):
            added.update(range(j1, j2))
    return removed, added


def _code_html(source: str, marked: set, css: str) -> str:
    lines = []
    for i, line in enumerate(source.splitlines()):
        text = escape(line) or " "
        lines.append(f'<span class="{css}">{text}</span>' if i in marked else text + "\n")
    return "<pre>" + "".join(lines) + "</pre>"  # (a marked line is a block: it ends its own line)


class ToStaticView:
    """The steps of one conversion (`steps`: [(title, doc, before, after)]) and the Program's drawing."""

    def __init__(self, stages: list, program=None, title: str = "to_static") -> None:
        self.title = title
        self.program = program
        self.stages = stages
        self.steps = []
        original = stages[0][3]
        final = stages[-1][3]
        self.steps.append(("Original -> final", "all transformers at once", original, final))
        for (_, _, _, before), (name, level, doc, after) in zip(stages, stages[1:]):
            self.steps.append((f"{level}. {name}", doc, before, after))

    def step_html(self, k: int) -> str:
        """One step: the code before and after, with the removed and added lines marked."""
        title, doc, before, after = self.steps[k]
        removed, added = changed_lines(before, after)
        note = f"{len(added)} line(s) added or rewritten" if added or removed else "no change for this function"
        return (
            f'<h4>{escape(title)}</h4><div class="doc">{escape(doc)} ({note})</div><div class="panes">'
            f'<div class="pane"><b>before</b>{_code_html(before, removed, "del")}</div>'
            f'<div class="pane"><b>after</b>{_code_html(after, added, "add")}</div></div>'
        )

    def program_html(self) -> str:
        if self.program is None:
            return "<p>(call the function, or pass example arguments, to see its Program)</p>"
        return draw_program(self.program, show_vars=False).inline_html()

    def html(self) -> str:
        """The whole view as HTML: a slider over the steps (a few lines of JavaScript), then the Program."""
        steps = "".join(
            f'<div class="jst-step" style="display:{"block" if k == 0 else "none"}">{self.step_html(k)}</div>'
            for k in range(len(self.steps))
        )
        n = len(self.steps) - 1
        script = (
            "<script>function jstShow(root, k){var s=root.querySelectorAll('.jst-step');"
            "for(var i=0;i<s.length;i++){s[i].style.display=(i==k)?'block':'none';}"
            "root.querySelector('.jst-label').textContent=root.querySelectorAll('.jst-step h4')[k].textContent;}"
            "</script>"
        )
        slider = (
            f'<input type="range" min="0" max="{n}" value="0" style="width:60%" '
            "oninput=\"jstShow(this.closest('.jst'), +this.value)\"> "
            f'<span class="jst-label">{escape(self.steps[0][0])}</span>'
        )
        return (
            f'{_CSS}<div class="jst"><h3>{escape(self.title)}</h3>{slider}{steps}'
            f"<h3>The Program</h3>{self.program_html()}</div>{script}"
        )

    def widget(self):
        """An ipywidgets view: a slider over the steps, the step's code, then the Program."""
        import ipywidgets as widgets

        options = [(title, k) for k, (title, *_rest) in enumerate(self.steps)]
        slider = widgets.SelectionSlider(options=options, value=0, description="step",
                                         layout=widgets.Layout(width="90%"))  # fmt: skip
        code = widgets.HTML(_CSS + f'<div class="jst">{self.step_html(0)}</div>')

        def show(change):
            code.value = _CSS + f'<div class="jst">{self.step_html(change["new"])}</div>'

        slider.observe(show, names="value")
        return widgets.VBox([slider, code, widgets.HTML(f"<h3>The Program</h3>{self.program_html()}")])

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        try:
            return self.widget()._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        except ImportError:
            return {"text/html": self.html()}

    def _repr_html_(self) -> str:
        return self.html()

    def save(self, path) -> str:
        """Write the view as a standalone .html page; returns path."""
        import os

        path = os.fspath(path)
        if not path.lower().endswith(".html"):
            raise ValueError(f"ToStaticView.save: the view saves as .html, got {path!r}")
        atomic_write(path, html_page(self.title, self.html()).encode("utf-8"))
        return path

    def __repr__(self) -> str:
        return f"<viz.ToStaticView {self.title!r}: {len(self.steps)} steps; show it in Jupyter, or .save('x.html')>"


def show_to_static(fn, *args, **kwargs) -> ToStaticView:
    """How to_static converts `fn`: the original and transformed source, one step per transformer, and the
    Program it builds.

    Args:
        fn: a to_static function (StaticFunction), a plain function (converted here), or a Layer.
        args, kwargs: example arguments (Tensors or InputSpecs) to build the Program for; without them, the
            Program of the function's last call is drawn, if there is one.

    Example:
        >>> viz.show_to_static(f, paddle.static.InputSpec([None, 4])).save("f.html")
    """
    sf = _static_function(fn)
    program = None
    if args or kwargs:
        program = sf.get_concrete_program(*args, **kwargs)[0].main_program
    elif sf.get_traced_count():
        program = sf.main_program
    return ToStaticView(sf.code_stages, program, title=f"to_static: {sf.__name__}")
