"""paddle.batch: the reader decorator of Paddle's older data pipeline (before paddle.io.DataLoader).

A reader is a function of no arguments that returns an iterable of samples (usually a generator function);
`paddle.batch(reader, n)` is a reader of lists of n samples. The other decorators are in paddle.reader.

paddle.batch is the function, not this module: minipaddle/__init__.py binds the name after importing the module,
as paddle's does.
"""

from __future__ import annotations

import numbers

__all__ = ["batch"]


def batch(reader, batch_size, drop_last=False):
    """Turn a reader of samples into a reader of batches (lists of batch_size samples).

    Args:
        reader: a function of no arguments returning an iterable of samples.
        batch_size: how many samples go into each batch (a positive int).
        drop_last: leave out the last batch when it has fewer than batch_size samples.

    Returns:
        A reader (a function of no arguments) that yields lists of samples.

    Example:
        >>> def reader():
        ...     yield from range(5)
        >>> list(paddle.batch(reader, batch_size=2)())
        [[0, 1], [2, 3], [4]]
    """
    if not callable(reader):
        raise TypeError(
            f"batch: reader must be a function returning an iterable of samples, got {type(reader).__name__}"
        )
    if not isinstance(batch_size, numbers.Integral) or isinstance(batch_size, bool):
        raise TypeError(f"batch: batch_size must be an int, got {type(batch_size).__name__}")
    if batch_size <= 0:
        raise ValueError(f"batch: batch_size must be a positive integer, got {batch_size}")
    batch_size = int(batch_size)

    def batch_reader():
        chunk = []
        for sample in reader():
            chunk.append(sample)
            if len(chunk) == batch_size:
                yield chunk
                chunk = []
        if chunk and not drop_last:
            yield chunk

    return batch_reader
