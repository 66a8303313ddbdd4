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
    if input_size is not None and not isinstance(input_size, dict) and not isinstance(input_size[0], (list, tuple)):
        title = "Deployment: the inference predictor's passes (paddle.inference, viz.draw_passes)"
        sections.append((title, _passes(net, input_size)))
    return sections


def _passes(net, input_size) -> str:
    """The trained net saved with jit.save, loaded by paddle.inference's predictor: its IR pass pipeline, the
    Program before and after the first pass that changed it, and the same net exported to ONNX."""
    import tempfile

    import minipaddle as paddle
    from viz.onnx_graph import draw_onnx
    from viz.passes import draw_passes

    was_training = net.training
    net.eval()
    with tempfile.TemporaryDirectory() as d:
        spec = [paddle.static.InputSpec([None, *input_size[1:]], "float32", "x")]
        paddle.jit.save(net, f"{d}/model", input_spec=spec)
        config = paddle.inference.Config(f"{d}/model.pdmodel", f"{d}/model.pdiparams")
        config.disable_glog_info()
        config.enable_memory_optim()
        config.switch_ir_debug(True)  # keep each pass's Program, to draw one before/after
        predictor = paddle.inference.create_predictor(config)
        try:
            onnx_html = draw_onnx(paddle.onnx.export(net, f"{d}/model", spec)).inline_html()
        except paddle.onnx.NotExportableError as e:
            onnx_html = f"<p>Not exportable to ONNX: {escape(str(e))}</p>"
    if was_training:
        net.train()
    html = [draw_passes(predictor).inline_html()]
    changed = [s for s in predictor.pass_log()[1:] if s.ran and s.ops_after < s.ops_before]
    if changed:
        html.append(f"<h4>{escape(changed[0].name)}: the Program before and after</h4>")
        html.append(draw_passes(predictor, step=changed[0].name).inline_html())
    html.append("<h4>The same net exported with paddle.onnx.export (viz.draw_onnx)</h4>")
    html.append(onnx_html)
    return "\n".join(html)


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
