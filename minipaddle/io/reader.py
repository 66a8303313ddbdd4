"""paddle.io.DataLoader: batches of Tensors from a dataset, read in the main process or in worker processes.

    for images, labels in DataLoader(dataset, batch_size=64, shuffle=True, num_workers=2):
        ...

Each batch is what the collate function makes of the samples (by default: stacked field by field, keeping the
samples' lists and dicts), with every numpy array turned into a Tensor.

With `num_workers > 0` the batches are read by worker processes (worker.py), in the same order as without
them. The main process never waits blindly: while it waits for a batch it checks that every worker is alive,
so a worker that raises surfaces its error here (with the worker's traceback), a worker that dies raises a
RuntimeError naming it and its exit code, and `timeout` bounds the wait.

The file is named as paddle 2.6 names it (paddle/io/reader.py defines DataLoader), so `paddle.io.reader.DataLoader`
is this class.
"""

from __future__ import annotations

import itertools
import multiprocessing
import numbers
import time
import warnings
import weakref

from minipaddle.core.state import STATE, in_dynamic_mode
from minipaddle.io.collate import default_collate_fn, default_convert_fn, to_tensors
from minipaddle.io.dataset import IterableDataset
from minipaddle.io.fetcher import BatchFetcher, InfiniteIterableSampler
from minipaddle.io.sampler import BatchSampler
from minipaddle.io.worker import worker_loop
from minipaddle.profiler.timer import benchmark

__all__ = ["DataLoader"]

# While waiting for a batch, check the workers' health this often (seconds).
POLL_INTERVAL = 0.05
# At shutdown, how long workers get to stop by themselves before they are terminated (seconds).
SHUTDOWN_GRACE = 2.0
# With the default timeout=0 (wait for ever), after how long a wait for one batch is reported as a likely hang.
HANG_WARNING_AFTER = 60.0


class DataLoader:
    """Iterate over a dataset in batches of Tensors.

    Args:
        dataset (Dataset|IterableDataset): where the samples come from.
        feed_list, places, use_buffer_reader, use_shared_memory: accepted for Paddle compatibility; minipaddle
            runs on the CPU, reads each batch when it is asked for (workers prefetch), and sends batches from
            workers as numpy arrays.
        return_list (bool): in dynamic mode every batch is returned as Paddle returns it (a list, or the
            structure the collate function made). Default True.
        batch_sampler (BatchSampler, optional): yields the index lists of the batches; replaces batch_size,
            shuffle and drop_last.
        batch_size (int|None): samples per batch. None turns automatic batching off: each sample is a batch.
        shuffle (bool): visit the samples in a random order (from minipaddle's generator: `paddle.seed`
            makes it repeatable). Default False.
        drop_last (bool): drop the last batch when it is smaller than batch_size. Default False.
        collate_fn (callable, optional): makes a batch from a list of samples. Default: stack field by field.
        num_workers (int): worker processes reading batches; 0 reads in the main process. Default 0.
        prefetch_factor (int): batches requested ahead per worker. Default 2.
        timeout (float): with workers, the longest wait for one batch in seconds (0: no limit, and a wait over a
            minute is reported as a likely hang; refused with num_workers=0, where nothing waits; the workers'
            health is checked either way). On expiry a RuntimeError is raised and the workers are stopped.
        worker_init_fn (callable, optional): called as `worker_init_fn(worker_id)` in each worker at start.
        persistent_workers (bool): keep the workers alive from one epoch to the next. Default False.
        multiprocessing_context (str|context, optional): how workers start: 'fork' (the default where the
            system has it) or 'spawn' (the dataset, collate_fn and worker_init_fn must then be picklable).

    Example:
        >>> loader = paddle.io.DataLoader(dataset, batch_size=32, shuffle=True, drop_last=True)
        >>> for x, y in loader:
        ...     loss = model(x, y)
    """

    def __init__(
        self,
        dataset,
        feed_list=None,
        places=None,
        return_list=True,
        batch_sampler=None,
        batch_size=1,
        shuffle=False,
        drop_last=False,
        collate_fn=None,
        num_workers=0,
        use_buffer_reader=True,
        prefetch_factor=2,
        use_shared_memory=True,
        timeout=0,
        worker_init_fn=None,
        persistent_workers=False,
        multiprocessing_context=None,
    ) -> None:
        fn = "DataLoader"
        if not return_list and not in_dynamic_mode() and feed_list is None:
            raise ValueError(f"{fn}: feed_list must be given when return_list=False in static mode")
        self.dataset = dataset
        self.feed_list = feed_list
        self.places = places
        self.return_list = return_list
        self.use_buffer_reader = use_buffer_reader
        self.use_shared_memory = use_shared_memory
        self.num_workers = _non_negative_int(num_workers, fn, "num_workers")
        self.prefetch_factor = _non_negative_int(prefetch_factor, fn, "prefetch_factor")
        if self.prefetch_factor == 0:
            raise ValueError(f"{fn}: prefetch_factor must be positive, got 0")
        if not isinstance(timeout, numbers.Real) or timeout < 0:
            raise ValueError(f"{fn}: timeout must be a non-negative number of seconds, got {timeout!r}")
        self.timeout = float(timeout)
        if self.timeout > 0 and self.num_workers == 0:
            # Paddle documents timeout as the wait for the workers' output queue; the main process reading a batch
            # itself has nothing to wait on and could not be interrupted, so the promise cannot be kept there.
            raise ValueError(
                f"{fn}: timeout={timeout!r} bounds the wait for batches from worker processes, but num_workers=0 "
                "reads every batch in the main process; use num_workers >= 1 with a timeout, or leave timeout=0"
            )
        if worker_init_fn is not None and not callable(worker_init_fn):
            raise TypeError(f"{fn}: worker_init_fn must be callable, got {type(worker_init_fn).__name__}")
        if collate_fn is not None and not callable(collate_fn):
            raise TypeError(f"{fn}: collate_fn must be callable, got {type(collate_fn).__name__}")
        self.worker_init_fn = worker_init_fn
        self.iterable = isinstance(dataset, IterableDataset)

        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError(f"{fn}: batch_size, shuffle and drop_last must be left at their defaults when "
                                 "batch_sampler is given (the batch sampler decides them)")  # fmt: skip
            if self.iterable:
                raise ValueError(f"{fn}: an IterableDataset cannot take a batch_sampler (it has no indices)")
            self.batch_sampler, self.batch_size = batch_sampler, None
        elif batch_size is None:
            if shuffle or drop_last:
                raise ValueError(f"{fn}: shuffle and drop_last need batching; with batch_size=None leave them off")
            self.batch_sampler, self.batch_size = None, None
        else:
            if self.iterable and shuffle:
                raise ValueError(f"{fn}: an IterableDataset cannot be shuffled (shuffle=True); shuffle the stream "
                                 "inside the dataset instead")  # fmt: skip
            if self.iterable:
                if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
                    raise ValueError(f"{fn}: batch_size must be a positive int or None, got {batch_size!r}")
                self.batch_sampler = InfiniteIterableSampler(batch_size)
            else:
                self.batch_sampler = BatchSampler(dataset=dataset, batch_size=batch_size, shuffle=shuffle,
                                                  drop_last=drop_last)  # fmt: skip
            self.batch_size = batch_size
        self.drop_last = drop_last
        self.auto_collate = self.batch_sampler is not None
        self.collate_fn = collate_fn or (default_collate_fn if self.auto_collate else default_convert_fn)

        self.persistent_workers = bool(persistent_workers) and self.num_workers > 0
        self.mp_context = _mp_context(multiprocessing_context)
        self._iterator = None  # the persistent workers' iterator, reused from epoch to epoch

    def __len__(self) -> int:
        if self.iterable:
            raise TypeError("DataLoader: the length of a DataLoader over an IterableDataset is unknown")
        if self.auto_collate:
            return len(self.batch_sampler)
        return len(self.dataset)

    def __iter__(self):
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        if not self.persistent_workers:
            return _MultiProcessIter(self)
        if self._iterator is None or self._iterator.closed:
            self._iterator = _MultiProcessIter(self)
        else:
            self._iterator.start_epoch()
        return self._iterator

    def __call__(self):
        return self.__iter__()


def _non_negative_int(value, fn: str, arg: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{fn}: {arg} must be a non-negative int, got {value!r}")
    return value


def _mp_context(method):
    """'fork' where the system has it (fast, nothing needs pickling), else 'spawn'; or the one asked for."""
    if method is None:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    if isinstance(method, str):
        if method not in multiprocessing.get_all_start_methods():
            raise ValueError(f"DataLoader: multiprocessing_context must be one of "
                             f"{multiprocessing.get_all_start_methods()}, got {method!r}")  # fmt: skip
        return multiprocessing.get_context(method)
    return method


def _index_sampler(loader):
    if loader.auto_collate:
        return loader.batch_sampler
    if loader.iterable:
        return InfiniteIterableSampler(1)
    return range(len(loader.dataset))


class _BatchIter:
    """What both iterators over a DataLoader share: they are their own iterator, and know the number of batches
    (unknown over an IterableDataset)."""

    def __init__(self, loader: DataLoader) -> None:
        self._length = len(loader) if not loader.iterable else None
        self._dataset = loader.dataset  # (what profiler.timer's Benchmark tells tasks apart by)

    def __iter__(self):
        return self

    def __next__(self):
        timer = benchmark()  # reader_cost for Profiler.step_info, as paddle 2.6's DataLoader reports it
        timer.check_if_need_record(self)
        timer.before_reader()
        batch = self._next_batch()
        timer.after_reader()
        return batch

    def __len__(self) -> int:
        if self._length is None:
            raise TypeError("the length of a DataLoader over an IterableDataset is unknown")
        return self._length


class _SingleProcessIter(_BatchIter):
    """Reads each batch in the main process when it is asked for."""

    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._indices = iter(_index_sampler(loader))
        self._fetcher = BatchFetcher(loader.dataset, loader.iterable, loader.auto_collate, loader.collate_fn,
                                     loader.drop_last)  # fmt: skip

    def _next_batch(self):
        indices = next(self._indices)
        return to_tensors(self._fetcher.fetch(indices))


class _MultiProcessIter(_BatchIter):
    """Hands batches of indices to worker processes and returns their batches in order.

    Tasks are numbered; results may arrive in any order and wait in `_results` until their turn. Each epoch
    has a number too, so results of an abandoned epoch (a `break`, then a new epoch with persistent workers)
    are recognised and dropped.
    """

    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._loader = loader
        self._timeout = loader.timeout
        self._num_workers = loader.num_workers
        ctx = loader.mp_context
        # The workers' seeds come from a child of minipaddle's generator: repeatable after paddle.seed, and
        # without drawing from the generator itself, so a shuffle is the same whatever num_workers is.
        base_seed = int(STATE.rng.spawn(1)[0].integers(0, 2**62))
        self._reader, writer = ctx.Pipe(duplex=False)
        # The lock must outlive the workers' start: a 'spawn' child opens it by name after start() returns.
        self._lock = lock = ctx.Lock()
        self._task_queues, self._workers = [], []
        for worker_id in range(self._num_workers):
            task_queue = ctx.Queue()
            args = (loader.dataset, loader.iterable, loader.auto_collate, loader.collate_fn, loader.drop_last,
                    loader.worker_init_fn, worker_id, self._num_workers, base_seed,
                    task_queue, writer, lock)  # fmt: skip
            worker = ctx.Process(target=worker_loop, args=args, daemon=True, name=f"DataLoader worker {worker_id}")
            worker.start()
            self._task_queues.append(task_queue)
            self._workers.append(worker)
        writer.close()  # only the workers write; the main process holds just the reading end
        self._grace = {"seconds": SHUTDOWN_GRACE}  # how long close() lets the workers stop by themselves
        # Stops the workers when this iterator is garbage-collected or the interpreter exits, whichever is first.
        self._finalizer = weakref.finalize(
            self, _shutdown_workers, self._workers, self._task_queues, self._reader, self._grace
        )
        self._epoch = -1
        self.start_epoch()

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    def start_epoch(self) -> None:
        """Begin a pass over the data: new epoch number, fresh index order, `prefetch_factor` tasks per worker."""
        self._epoch += 1
        self._indices = iter(_index_sampler(self._loader))
        self._sent = 0  # tasks handed out this epoch
        self._next = 0  # the task whose batch is returned next
        self._results = {}  # task index -> (kind, payload), received ahead of its turn
        self._worker_of = {}  # task index -> worker id
        self._active = [True] * self._num_workers  # False once a worker's IterableDataset ran out
        self._turn = itertools.cycle(range(self._num_workers))
        for _ in range(self._loader.prefetch_factor * self._num_workers):
            self._send_task()

    def _send_task(self) -> None:
        if not any(self._active):
            return
        try:
            indices = next(self._indices)
        except StopIteration:
            return
        worker_id = next(w for w in self._turn if self._active[w])
        self._task_queues[worker_id].put((self._epoch, self._sent, indices))
        self._worker_of[self._sent] = worker_id
        self._sent += 1

    def _next_batch(self):
        if self.closed:
            raise StopIteration
        deadline = time.monotonic() + self._timeout if self._timeout else None
        while True:
            if self._next == self._sent:  # every task of the epoch is answered
                if not self._loader.persistent_workers:
                    self.close()
                raise StopIteration
            if self._next not in self._results:
                self._receive(deadline)
                continue
            kind, payload = self._results.pop(self._next)
            if kind == "error":  # raised in its turn, so every batch before it is delivered first
                self.close(grace=0)
                raise _worker_error(self._worker_of[self._next], payload)
            self._next += 1
            self._send_task()
            if kind == "batch":
                return to_tensors(payload)
            # kind == "end": that worker's IterableDataset ran out; its task yields no batch

    def _receive(self, deadline) -> None:
        """Take one result from the pipe, checking the workers' health and the timeout while waiting. Without a
        timeout, a wait longer than HANG_WARNING_AFTER is reported once, naming the worker whose batch is due."""
        started, warned = time.monotonic(), False
        while True:
            if self._reader.poll(POLL_INTERVAL):
                try:
                    message = self._reader.recv()
                    break
                except EOFError:  # every worker has closed its end: they are all gone; say which and why
                    time.sleep(POLL_INTERVAL)
            for worker_id, worker in enumerate(self._workers):
                if not worker.is_alive():
                    code = worker.exitcode
                    self.close(grace=0)
                    how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                    raise RuntimeError(f"DataLoader worker {worker_id} (pid {worker.pid}) exited unexpectedly "
                                       f"({how}); its batch will never come, so the DataLoader stopped")  # fmt: skip
            if deadline is None and not warned and time.monotonic() - started > HANG_WARNING_AFTER:
                warned = True
                worker_id = self._worker_of.get(self._next, 0)
                warnings.warn(
                    f"DataLoader: no batch for {time.monotonic() - started:.0f} s from worker {worker_id} (pid "
                    f"{self._workers[worker_id].pid}), which is alive but has not answered; if its dataset hangs, "
                    "pass DataLoader(..., timeout=SECONDS) to stop waiting with an error instead",
                    RuntimeWarning,
                    stacklevel=3,
                )
            if deadline is not None and time.monotonic() > deadline:
                self.close(grace=0)  # a worker is stuck: no point waiting for it
                raise RuntimeError(f"DataLoader timed out: no batch came from the {self._num_workers} workers "
                                   f"within timeout={self._timeout:g} s; the workers were stopped")  # fmt: skip
        epoch, index, kind, payload = message
        if epoch != self._epoch:
            return  # from an abandoned epoch
        if kind == "end":
            self._active[self._worker_of[index]] = False
        self._results[index] = (kind, payload)

    def close(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Stop the workers now (they are also stopped when the iterator is garbage-collected).

        Idle workers stop at once; one still busy after `grace` seconds is terminated."""
        self._grace["seconds"] = grace
        self._finalizer()


def _worker_error(worker_id: int, payload) -> BaseException:
    """The worker's exception, rebuilt in the main process: same type when possible, with its traceback."""
    cls, name, trace, where = payload
    where = f" {where}" if where else ""
    message = f"DataLoader worker {worker_id} raised {name}{where}. The worker's traceback:\n{trace}"
    if isinstance(cls, type) and issubclass(cls, Exception) and cls is not StopIteration:
        try:
            return cls(message)
        except Exception:  # an exception class that needs other arguments
            pass
    return RuntimeError(message)


def _shutdown_workers(workers, task_queues, reader, grace: dict) -> None:
    """Ask every worker to stop, give them a moment, terminate the rest, and reap them all (no zombies)."""
    for task_queue in task_queues:
        try:
            task_queue.put(None)
        except (OSError, ValueError):  # the queue is already closed
            pass
    deadline = time.monotonic() + grace["seconds"]
    while any(w.is_alive() for w in workers) and time.monotonic() < deadline:
        try:  # a worker blocked writing a result into a full pipe can only stop once the pipe has room
            while reader.poll(0.01):
                reader.recv_bytes()
        except (OSError, EOFError):
            time.sleep(0.01)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
        worker.join(timeout=SHUTDOWN_GRACE)
        if worker.is_alive():
            worker.kill()
            worker.join()
    for task_queue in task_queues:
        task_queue.cancel_join_thread()  # do not wait at exit to flush tasks nobody will read
        task_queue.close()
    reader.close()
