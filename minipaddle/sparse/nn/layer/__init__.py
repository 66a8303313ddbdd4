"""paddle.sparse.nn.layer: the sparse Layers, in paddle 2.6's module paths (activation.py, conv.py, pooling.py;
paddle's norm module, BatchNorm and SyncBatchNorm, has no sparse counterpart here yet)."""
