"""`paddle.io.dataloader.dataset` of paddle 2.6: the datasets, re-exported from io/dataset.py."""

from minipaddle.io.dataset import *  # noqa: F403
from minipaddle.io.dataset import __all__  # noqa: F401
