"""What `make tour`'s page shows of viz beyond the graphs: the Layer tree, the summary table, the curves, a profile.

    for title, fragment in viz.tour_sections(net, model.history, input_size=[1, 1, 28, 28]):
        page += f"<h2>{title}</h2><figure>{fragment}</figure>"

Each fragment is plain HTML (an inline SVG, or a <pre>), so the page stays one self-contained file.
"""

from __future__ import annotations

from html import escape

from viz.curves import plot_history
from viz.layers import draw_layers
from viz.profile import plot_profile
from viz.render import svg_element
from viz.summary import summary_table


def tour_sections(net, history=None, input_size=None, dtypes=None, input=None) -> list:
    """[(title, HTML fragment)]: the Layer tree of `net`, its summary table, and (given a History) its curves.

    Args:
        net: the paddle.nn.Layer the tour trained.
        history: the run's paddle.callbacks.History (`model.history`), or None to leave the curves out.
        input_size, dtypes, input: an input for the dry run that measures shapes, as in paddle.summary.
    """
    sections = [
        ("The Layer tree (viz.draw_layers)", draw_layers(net, input_size, dtypes, input).inline_html()),
    ]
    if input_size is not None or input is not None:
        table = summary_table(net, input_size, dtypes, input)
        sections.append(
            ("The summary with torchinfo's extras (viz.summary_table)", f"<pre>{escape(table.text())}</pre>")
        )
    if history is not None:
        sections.append(("Training curves (viz.plot_history)", svg_element(plot_history(history).svg())))
    if (input_size is not None or input is not None) and not isinstance(input_size, dict):
        title = "Where a step's time goes (paddle.profiler, viz.plot_profile)"
        sections.append((title, _profile(net, input_size, input)))
    return sections


def _profile(net, input_size, input) -> str:
    """Profile three forward/backward passes of `net` on a random batch of `input_size` (or on `input`), in eval
    mode so that the trained network's batch-norm statistics stay as they are."""
    import minipaddle as paddle

    was_training = net.training
    net.eval()
    if input is not None:
        xs = list(input) if isinstance(input, (list, tuple)) else [input]
    else:
        shapes = input_size if isinstance(input_size[0], (list, tuple)) else [input_size]
        xs = [paddle.randn([1 if d in (None, -1) else d for d in shape]) for shape in shapes]
    prof = paddle.profiler.Profiler(scheduler=(1, 3), on_trace_ready=lambda p: None)
    prof.start()
    for _ in range(3):
        out = net(*xs)
        (out[0] if isinstance(out, (list, tuple)) else out).mean().backward()
        prof.step()
    prof.stop()
    net.clear_gradients()
    if was_training:
        net.train()
    return svg_element(plot_profile(prof).svg())
