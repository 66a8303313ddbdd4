"""`paddle.io.reader`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.io.dataloader import DataLoader

__all__ = ["DataLoader"]
