"""minipaddle's pictures: graphs, Programs, Layer trees, AMP cast maps, quantization scales, training curves.

viz stands apart above minipaddle (DESIGN.md, wall 5): it reads only minipaddle's public introspection APIs,
and minipaddle never imports it. It draws with graphviz, matplotlib and ipywidgets, imported lazily.
"""
