"""paddle.sparse.nn.layer: the sparse Layers, in paddle 2.6's module paths (activation.py, conv.py, norm.py,
pooling.py; paddle's SyncBatchNorm, a multi-GPU layer, has no sparse counterpart here)."""
