"""minipaddle's pictures: graphs, Programs, Layer trees, AMP cast maps, quantization scales, training curves.

viz stands apart above minipaddle (DESIGN.md, wall 5): it reads only minipaddle's public introspection APIs,
and minipaddle never imports it. It draws with graphviz, matplotlib and ipywidgets, imported lazily.

    viz.draw_graph(loss)                  the autograd graph behind a Tensor (viz/graph.py)
    viz.draw_program(main)                a static Program with its sub-blocks (viz/program.py)
    viz.draw_pass(before, after)          a pass's input and output side by side, changes coloured (viz/pass_diff.py)
    viz.draw_state_dict(sd)               the names in a saved state dict as a tree (viz/state_dict.py)
    viz.draw_layers(model, input_size)    a Layer's hierarchy with shapes and parameters (viz/layers.py)
    viz.layer_tree(model, input_size)     the same as a widget you can fold (viz/layer_tree.py)
    viz.summary_table(model, input_size)  paddle.summary's table with torchinfo's extras (viz/summary.py)
    viz.inspect(loss)                     pick a tensor, see its value and gradient; step through backward
    viz.TrainingCurves()                  a Model.fit callback plotting loss and metrics live (viz/curves.py)
    viz.LiveCurves()                      the same for hand-written loops; viz.plot_history(history) after the fact
    viz.plot_profile(prof)                where a step's time goes: phases, ops, Layers (viz/profile.py)
    viz.plot_timeline(trace)              every rank's forward, backward, all-reduces and steps (viz/timeline.py)
    viz.draw_collective(op, world_size)   what a collective does to each rank's buffer (viz/collective.py)
    viz.show_to_static(fn, *example_args) how to_static rewrote fn, one transformer at a time, and its Program
    viz.draw_passes(predictor)            a predictor's IR passes with op counts; step=: one pass's diff (viz/passes.py)
    viz.draw_onnx("m.onnx", program)      an exported ONNX graph, beside the Program it came from (viz/onnx_graph.py)
    viz.draw_quant(model or program)      quantizers' bits, scheme, scales; a Program's Q/DQ ops coloured (viz/quant.py)
    viz.plot_weight_quant(layer)          a layer's weights on the quantization grid; plot_quant_error: SQNR per layer
    viz.plot_scale_history(record_scales(model))   moving-average scale, state and accum over QAT steps
    viz.tour_sections(net, history)       the Layer tree, summary and curves as HTML for `make tour`'s page
    viz.draw_amp(loss_or_program)         ops coloured by the dtype AMP ran them in, its casts marked (viz/amp.py)
    viz.plot_filters(conv)                a convolution's filters as small pictures (viz/filters.py)
    viz.amp_stats() / plot_loss_scale(scaler) / plot_grad_range(model)   AMP's op counts, loss scale, grad range

The drawings return a View (viz/render.py): it shows itself in Jupyter, `.save("x.svg")` writes a file (.svg
.png .pdf .html .dot), `.source` is the DOT text. The widgets (layer_tree, inspect) return a WidgetView
(viz/widget_view.py) that saves as a standalone .html page. `python -m viz program model.pdmodel -o graph.svg`
draws a saved model.
"""

from viz.amp import amp_stats, draw_amp, plot_grad_range, plot_loss_scale
from viz.collective import draw_collective
from viz.curves import LiveCurves, plot_history
from viz.filters import plot_filters
from viz.graph import draw_graph
from viz.inspector import inspect
from viz.layer_tree import layer_tree
from viz.layers import draw_layers, trace_layers
from viz.onnx_graph import draw_onnx
from viz.pass_diff import draw_pass
from viz.passes import draw_passes
from viz.profile import plot_profile
from viz.program import draw_program
from viz.quant import draw_quant, plot_quant_error, plot_scale_history, plot_weight_quant, quant_records, record_scales
from viz.render import View
from viz.state_dict import draw_state_dict, state_dict_text
from viz.summary import summary_table
from viz.tensor_stats import tensor_stats
from viz.timeline import plot_timeline
from viz.to_static_view import show_to_static
from viz.tour.sections import tour_sections
from viz.widget_view import WidgetView

__all__ = [
    "draw_collective", "draw_graph", "draw_layers", "draw_pass", "draw_program", "draw_state_dict", "inspect",
    "layer_tree", "LiveCurves", "plot_history", "plot_profile", "plot_timeline", "state_dict_text", "summary_table",
    "tensor_stats", "tour_sections", "trace_layers", "TrainingCurves", "View", "WidgetView",
]  # fmt: skip
__all__ += ["show_to_static"]
__all__ += ["draw_passes", "draw_onnx"]
__all__ += [
    "draw_quant",
    "plot_quant_error",
    "plot_scale_history",
    "plot_weight_quant",
    "quant_records",
    "record_scales",
]
__all__ += ["draw_amp", "amp_stats", "plot_loss_scale", "plot_grad_range"]
__all__ += ["plot_filters"]


def __getattr__(name: str):
    # TrainingCurves subclasses paddle.callbacks.History, so it is built only when first asked for (viz/curves.py).
    if name == "TrainingCurves":
        from viz import curves

        return curves.TrainingCurves
    raise AttributeError(f"module 'viz' has no attribute {name!r}")
