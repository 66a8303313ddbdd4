"""paddle.reader: decorators of readers, paddle's older data pipeline (before paddle.io.DataLoader).

A reader is a function of no arguments that returns an iterable of samples (usually a generator function); a
decorator takes readers and returns a new reader: cache, map_readers, shuffle, chain, compose, buffered, firstn,
xmap_readers, multiprocess_reader (decorator.py). paddle.batch groups samples into lists.
"""

from minipaddle.reader.decorator import (
    ComposeNotAligned,
    buffered,
    cache,
    chain,
    compose,
    firstn,
    map_readers,
    multiprocess_reader,
    shuffle,
    xmap_readers,
)

__all__ = []  # as paddle 2.6: the names are reached as paddle.reader.X
