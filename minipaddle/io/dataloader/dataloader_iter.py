"""`paddle.io.dataloader.dataloader_iter` of paddle 2.6: the iterators a DataLoader returns, re-exported from
io/reader.py under paddle's names (one process; worker processes)."""

from minipaddle.io.reader import _BatchIter as _DataLoaderIterBase
from minipaddle.io.reader import _MultiProcessIter as _DataLoaderIterMultiProcess
from minipaddle.io.reader import _SingleProcessIter as _DataLoaderIterSingleProcess

__all__ = ["_DataLoaderIterBase", "_DataLoaderIterSingleProcess", "_DataLoaderIterMultiProcess"]
