"""paddle.sparse.nn.layer: the sparse Layers, in paddle 2.6's module path (activation.py; paddle's conv, norm and
pooling modules have no sparse counterpart here yet)."""
