"""The reader decorators of paddle 2.6 (paddle.reader.*), with its semantics.

cache(r)                    reads r once and replays it
map_readers(f, r1, r2, ...) f(s1, s2, ...) over the readers' samples side by side
shuffle(r, buf_size)        shuffles within consecutive buffers of buf_size samples (Python's `random`, as paddle:
                            random.seed makes it repeatable)
chain(r1, r2, ...)          r1's samples, then r2's, ...
compose(r1, r2, ...)        side-by-side samples flattened into one tuple; ComposeNotAligned when the readers end
                            at different lengths (unless check_alignment=False, which stops at the shortest)
buffered(r, size)           reads ahead into a queue of `size` samples on a thread
firstn(r, n)                the first n samples
xmap_readers(f, r, n, buf)  f over the samples on n threads (order=True keeps the input order)
multiprocess_reader(rs)     each reader in its own process, the samples merged (through pipes as JSON, or one
                            queue with use_pipe=False); the order between readers is not fixed
"""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import random
import sys
import threading

__all__ = ["cache", "map_readers", "shuffle", "chain", "ComposeNotAligned", "compose", "buffered", "firstn",
           "xmap_readers", "multiprocess_reader"]  # fmt: skip

QUEUE_GET_TIMEOUT = 60  # seconds multiprocess_reader waits for a sample before it gives up (paddle's value)


def _check_reader(reader, fn: str, arg: str = "reader") -> None:
    if not callable(reader):
        raise TypeError(f"{fn}: {arg} must be a function returning an iterable of samples, got {type(reader).__name__}")


def _positive_int(value, fn: str, arg: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{fn}: {arg} must be a positive int, got {value!r}")
    return value


def cache(reader):
    """A reader that reads `reader` once, now, and then yields the same samples every time it is called."""
    _check_reader(reader, "cache")
    all_data = tuple(reader())

    def cached():
        yield from all_data

    return cached


def map_readers(func, *readers):
    """A reader of func(s1, s2, ...) for the samples s1, s2, ... the readers yield side by side (the shortest ends
    it)."""
    for r in readers:
        _check_reader(r, "map_readers", "readers")

    def mapped():
        yield from map(func, *(r() for r in readers))

    return mapped


def shuffle(reader, buf_size):
    """A reader of `reader`'s samples shuffled within consecutive buffers of buf_size samples (random.shuffle)."""
    _check_reader(reader, "shuffle")

    def shuffled():
        buf = []
        for sample in reader():
            buf.append(sample)
            if len(buf) >= buf_size:
                random.shuffle(buf)
                yield from buf
                buf = []
        if buf:
            random.shuffle(buf)
            yield from buf

    return shuffled


def chain(*readers):
    """A reader of the first reader's samples, then the second's, and so on."""
    for r in readers:
        _check_reader(r, "chain", "readers")

    def chained():
        yield from itertools.chain(*(r() for r in readers))

    return chained


class ComposeNotAligned(ValueError):
    """compose's readers ended at different lengths."""


def compose(*readers, **kwargs):
    """A reader of the readers' samples side by side, flattened into one tuple: (1, (2, 3)) from readers of 1 and of
    (2, 3). With check_alignment=True (the default) readers of different lengths raise ComposeNotAligned; with False
    the shortest ends it."""
    check_alignment = kwargs.pop("check_alignment", True)
    if kwargs:
        raise TypeError(f"compose: unexpected keyword arguments {sorted(kwargs)}")
    for r in readers:
        _check_reader(r, "compose", "readers")

    def as_tuple(x):
        return x if isinstance(x, tuple) else (x,)

    def composed():
        iterators = [r() for r in readers]
        if not check_alignment:
            for outputs in zip(*iterators):
                yield sum(map(as_tuple, outputs), ())
            return
        for outputs in itertools.zip_longest(*iterators):
            if any(o is None for o in outputs):  # (as paddle: a reader that ran out gives None)
                raise ComposeNotAligned("outputs of readers are not aligned.")
            yield sum(map(as_tuple, outputs), ())

    return composed


class _End:
    """The end of a stream of samples through a queue."""


def buffered(reader, size):
    """A reader that reads `reader` ahead on a thread, keeping up to `size` samples in a queue."""
    _check_reader(reader, "buffered")

    def read_ahead():
        q = queue.Queue(maxsize=size)

        def fill():
            for sample in reader():
                q.put(sample)
            q.put(_End)

        threading.Thread(target=fill, daemon=True).start()
        while (sample := q.get()) is not _End:
            yield sample

    return read_ahead


def firstn(reader, n):
    """A reader of the first n samples of `reader`."""
    _check_reader(reader, "firstn")

    def first():
        yield from itertools.islice(reader(), n)

    return first


def xmap_readers(mapper, reader, process_num, buffer_size, order=False):
    """A reader of mapper(sample) over `reader`'s samples, computed by process_num threads with queues of
    buffer_size; with order=True the results come in the order of the samples, else as they are done."""
    _check_reader(reader, "xmap_readers")
    _positive_int(process_num, "xmap_readers", "process_num")

    def xreader():
        in_queue, out_queue = queue.Queue(buffer_size), queue.Queue(buffer_size)
        turn = threading.Condition()
        next_out = [0]  # with order: the index of the next result allowed into out_queue

        def read():
            for index, sample in enumerate(reader()):
                in_queue.put((index, sample))
            in_queue.put(_End)

        def work():
            while (item := in_queue.get()) is not _End:
                index, sample = item
                result = mapper(sample)
                if order:
                    with turn:
                        turn.wait_for(lambda i=index: next_out[0] == i)
                        out_queue.put(result)
                        next_out[0] += 1
                        turn.notify_all()
                else:
                    out_queue.put(result)
            in_queue.put(_End)  # for the next worker
            out_queue.put(_End)

        threading.Thread(target=read, daemon=True).start()
        for _ in range(process_num):
            threading.Thread(target=work, daemon=True).start()
        finished = 0
        while finished < process_num:
            result = out_queue.get()
            if result is _End:
                finished += 1
            else:
                yield result

    return xreader


def _fork_context():
    return multiprocessing.get_context("fork")  # the readers are closures: only a forked child has them


def _read_into_queue(reader, q) -> None:
    try:
        for sample in reader():
            if sample is None:
                raise ValueError("sample has None")
            q.put(sample)
        q.put(None)
    except Exception:
        q.put("")
        raise


def _read_into_pipe(reader, conn) -> None:
    import json

    try:
        for sample in reader():
            if sample is None:
                raise ValueError("sample has None!")
            conn.send(json.dumps(sample))
        conn.send(json.dumps(None))
    except Exception:
        conn.send(json.dumps(""))
        raise
    finally:
        conn.close()


def multiprocess_reader(readers, use_pipe=True, queue_size=1000):
    """A reader that runs each of `readers` in a forked process and yields all their samples. With use_pipe=True
    each process sends JSON through its own pipe (so samples must be JSON: numbers, strings, lists, dicts; tuples
    arrive as lists), taken round robin; with use_pipe=False they share one queue of queue_size (any picklable
    sample). A sample must not be None. Not on Windows, as paddle."""
    if sys.platform == "win32":
        raise NotImplementedError("The multiprocess_reader method is not supported on windows.")
    if not isinstance(readers, (list, tuple)) or not readers:
        raise ValueError("multiprocess_reader: `readers` must be a non-empty list or tuple.")
    for r in readers:
        _check_reader(r, "multiprocess_reader", "readers")
    ctx = _fork_context()

    def queue_reader():
        q = ctx.Queue(queue_size)
        processes = [ctx.Process(target=_read_into_queue, args=(r, q), daemon=True) for r in readers]
        for p in processes:
            p.start()
        finished = 0
        while finished < len(readers):
            try:
                sample = q.get(timeout=QUEUE_GET_TIMEOUT)
            except queue.Empty:
                raise RuntimeError(f"multiprocess_reader: no sample for {QUEUE_GET_TIMEOUT} s from the reader "
                                   "processes") from None  # fmt: skip
            if sample is None:
                finished += 1
            elif isinstance(sample, str) and sample == "":
                raise ValueError("multiprocess_reader failed to put data into the multiprocessing.Queue.")
            else:
                yield sample
        for p in processes:
            p.join(timeout=QUEUE_GET_TIMEOUT)

    def pipe_reader():
        import json

        conns, processes = [], []
        for r in readers:
            parent, child = ctx.Pipe()
            conns.append(parent)
            processes.append(ctx.Process(target=_read_into_pipe, args=(r, child), daemon=True))
            processes[-1].start()
            child.close()
        while conns:
            for conn in list(conns):
                if not conn.poll(QUEUE_GET_TIMEOUT):
                    raise RuntimeError(
                        f"multiprocess_reader: no sample for {QUEUE_GET_TIMEOUT} s from a reader process"
                    )
                sample = json.loads(conn.recv())
                if sample is None:
                    conn.close()
                    conns.remove(conn)
                elif sample == "":
                    conn.close()
                    conns.remove(conn)
                    raise ValueError("multiprocess_reader failed to send data into the multiprocessing.Pipe.")
                else:
                    yield sample
        for p in processes:
            p.join(timeout=QUEUE_GET_TIMEOUT)

    return pipe_reader if use_pipe else queue_reader
