"""`paddle.sparse.nn.layer.norm`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.layer.norm import BatchNorm, SyncBatchNorm

__all__ = ["BatchNorm", "SyncBatchNorm"]
