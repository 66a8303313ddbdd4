"""minipaddle's pictures: graphs, Programs, Layer trees, AMP cast maps, quantization scales, training curves.

viz stands apart above minipaddle (DESIGN.md, wall 5): it reads only minipaddle's public introspection APIs,
and minipaddle never imports it. It draws with graphviz, matplotlib and ipywidgets, imported lazily.

    viz.draw_graph(loss)                  the autograd graph behind a Tensor (viz/graph.py)
    viz.draw_program(main)                a static Program with its sub-blocks (viz/program.py)
    viz.draw_pass(before, after)          a pass's input and output side by side, changes coloured (viz/pass_diff.py)
    viz.draw_state_dict(sd)               the names in a saved state dict as a tree (viz/state_dict.py)

Each returns a View (viz/render.py): it shows itself in Jupyter, `.save("x.svg")` writes a file (.svg .png .pdf
.html .dot), `.source` is the DOT text. `python -m viz program model.pdmodel -o graph.svg` draws a saved model.
"""

from viz.graph import draw_graph
from viz.pass_diff import draw_pass
from viz.program import draw_program
from viz.render import View
from viz.state_dict import draw_state_dict, state_dict_text

__all__ = ["View", "draw_graph", "draw_pass", "draw_program", "draw_state_dict", "state_dict_text"]
