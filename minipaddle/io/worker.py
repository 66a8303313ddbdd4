"""The DataLoader's worker processes: what runs inside each one, and how it reports back.

The main process talks to worker k through two channels:
- worker k's own task queue, carrying `(epoch, task_index, indices)`, or None to stop;
- one result pipe shared by all workers, carrying `(epoch, task_index, kind, payload)` where kind is
  'batch' (payload: the collated batch, as numpy), 'end' (an IterableDataset ran out) or 'error'
  (payload: the exception's class, its name and the worker's formatted traceback).

Workers write results synchronously, under a lock, from their main thread: a result is either fully in the
pipe or not at all, so a worker that dies between two results never leaves half a message behind, and a batch
that cannot be pickled is reported as an error instead of vanishing.
"""

from __future__ import annotations

import os
import pickle
import queue
import random
import threading
import time
import traceback

import numpy as np

from minipaddle.core import state
from minipaddle.io.collate import to_numpy
from minipaddle.io.fetcher import BatchFetcher

__all__ = ["get_worker_info", "WorkerInfo"]

# How often an idle worker checks that the main process still exists (seconds).
PARENT_CHECK_INTERVAL = 1.0


class WorkerInfo:
    """What a worker knows about itself: `id` (0 .. num_workers-1), `num_workers`, `dataset` (this worker's
    copy) and `seed` (the base seed; worker k seeds its generators with seed + k). Read-only."""

    def __init__(self, **fields) -> None:
        self.__dict__.update(fields)

    def __setattr__(self, key, value) -> None:
        raise RuntimeError(f"WorkerInfo is read-only: cannot set {key!r}")

    def __repr__(self) -> str:
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


_worker_info: WorkerInfo | None = None  # inside a DataLoader worker process: its WorkerInfo (set by worker_loop)


def get_worker_info() -> WorkerInfo | None:
    """Inside a DataLoader worker process: its WorkerInfo (id, num_workers, dataset, seed). Elsewhere: None.

    Use it in an IterableDataset's `__iter__` to give each worker its own share of the data.

    Example:
        >>> class Range(paddle.io.IterableDataset):
        ...     def __iter__(self):
        ...         info = paddle.io.get_worker_info()
        ...         start, step = (0, 1) if info is None else (info.id, info.num_workers)
        ...         return iter(range(start, 10, step))
    """
    return _worker_info


def seed_worker(seed: int) -> None:
    """Give the worker its own random streams: minipaddle's generator, numpy's global one and Python's."""
    state.seed(seed)
    np.random.seed(seed % 2**32)
    random.seed(seed)


def worker_loop(
    dataset,
    iterable: bool,
    auto_collate: bool,
    collate_fn,
    drop_last: bool,
    worker_init_fn,
    worker_id: int,
    num_workers: int,
    base_seed: int,
    task_queue,
    result_writer,
    result_lock,
) -> None:
    """The body of worker process `worker_id`: answer tasks until told to stop (None) or orphaned."""
    parent = os.getppid()
    _watch_parent(parent)
    seed_worker(base_seed + worker_id)
    global _worker_info
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, dataset=dataset, seed=base_seed)
    init_error = None
    try:
        if worker_init_fn is not None:
            worker_init_fn(worker_id)
    except Exception as e:
        init_error = e, traceback.format_exc()

    epoch, fetcher, drained = None, None, False
    try:
        while True:
            try:
                task = task_queue.get(timeout=PARENT_CHECK_INTERVAL)
            except queue.Empty:
                if os.getppid() != parent:  # the main process is gone: nobody will ever read our results
                    return
                continue
            if task is None:
                return
            task_epoch, index, indices = task
            if init_error is not None:
                _send_error(result_writer, result_lock, task_epoch, index, *init_error, "in worker_init_fn")
                init_error = None
                continue
            if task_epoch != epoch:  # a new epoch (persistent workers): read the dataset from its start again
                epoch, drained = task_epoch, False
                fetcher = None
            try:
                if fetcher is None:
                    fetcher = BatchFetcher(dataset, iterable, auto_collate, collate_fn, drop_last)
                if drained:
                    raise StopIteration
                batch = to_numpy(fetcher.fetch(indices))
            except StopIteration as e:
                if not iterable:  # a map-style dataset has no "end": report it like any other error
                    _send_error(result_writer, result_lock, epoch, index, e, traceback.format_exc(), "")
                    continue
                drained = True
                _send(result_writer, result_lock, (epoch, index, "end", None))
                continue
            except Exception as e:
                _send_error(result_writer, result_lock, epoch, index, e, traceback.format_exc(), "")
                continue
            try:
                _send(result_writer, result_lock, (epoch, index, "batch", batch))
            except Exception as e:  # pickling failed before anything was written
                _send_error(result_writer, result_lock, epoch, index, e, traceback.format_exc(),
                            "while sending the batch to the main process")  # fmt: skip
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group; the main process reports it
        return


def _watch_parent(parent: int) -> None:
    """Exit as soon as the main process is gone, even in the middle of a batch or blocked on a full pipe.

    The task loop checks too, but only between tasks: a worker busy in the dataset's __getitem__, or blocked
    writing into a pipe that a sibling worker still holds open (so the write never fails), would outlive a main
    process that was killed. A daemon thread checking once a second exits the whole process instead."""

    def watch():
        while True:
            time.sleep(PARENT_CHECK_INTERVAL)
            if os.getppid() != parent:
                os._exit(0)  # nobody will read our results; skip the atexit handlers of the dead main process

    threading.Thread(target=watch, name="DataLoader parent watch", daemon=True).start()


def _send(writer, lock, message) -> None:
    with lock:
        writer.send(message)  # pickles the whole message before writing a byte, so a failure writes nothing


def _send_error(writer, lock, epoch, index, error: BaseException, trace: str, where: str) -> None:
    cls = type(error)
    try:
        pickle.dumps(cls)
    except Exception:  # a class defined where the main process cannot import it
        cls = None
    _send(writer, lock, (epoch, index, "error", (cls, type(error).__name__, trace, where)))
