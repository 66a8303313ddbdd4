"""`paddle.static.nn.metric`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.static.fluid_api import auc, ctr_metric_bundle
from minipaddle.static.framework import accuracy

__all__ = ["accuracy", "auc", "ctr_metric_bundle"]
