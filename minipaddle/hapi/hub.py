"""`paddle.hapi.hub`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.framework.io import load
from minipaddle.hub import help, list

__all__ = ["help", "list", "load"]
