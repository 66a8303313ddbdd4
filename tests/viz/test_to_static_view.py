"""viz.show_to_static: one step per transformer with the lines it changed, and the Program below."""

import minipaddle as paddle
import viz
from minipaddle.static import InputSpec
from viz.to_static_view import changed_lines


def f(x):
    if x.mean() > 0:
        x = x * 2
    while x.sum() < 10:
        x = x + 1
    return x


def test_steps_program_and_html(tmp_path):
    view = viz.show_to_static(f, InputSpec([None, 3]))
    names = [title for title, *_ in view.steps]
    assert names[0] == "Original -> final" and any("IfElseTransformer" in n for n in names)
    step = next(k for k, n in enumerate(names) if "IfElseTransformer" in n)
    _, _, before, after = view.steps[step]
    removed, added = changed_lines(before, after)
    assert any("_jst.IfElse(" in after.splitlines()[i] for i in added)
    assert any(before.splitlines()[i].strip().startswith("if ") for i in removed)
    assert view.program is not None and view.program.num_blocks >= 3
    html = view.html()
    assert 'type="range"' in html and 'class="add"' in html and "The Program" in html
    path = view.save(tmp_path / "f.html")
    assert open(path).read().startswith("<!DOCTYPE html>")


def test_widget_and_last_call():
    sf = paddle.jit.to_static(f)
    sf(paddle.ones([3]))
    view = viz.show_to_static(sf)
    assert view.program is sf.main_program
    w = view.widget()
    slider, code = w.children[0], w.children[1]
    first = code.value
    slider.value = 3
    assert code.value != first
