"""paddle.reader's decorators and paddle.batch, written once and run with either library (`paddle` passed in).
make_reader_golden.py records run_all(paddle 2.6) into reader.json; tests/io/test_reader_decorators.py compares.
Results whose order depends on threads or processes are sorted."""

import random


def _numbers(n, start=0):
    def reader():
        yield from range(start, start + n)

    return reader


def _pairs():
    def reader():
        for k in range(4):
            yield (k, -k)

    return reader


def run_all(paddle):
    R = paddle.reader
    out = {}
    out["cache"] = [list(R.cache(_numbers(5))()) for _ in range(2)]
    out["map_readers"] = list(R.map_readers(lambda a, b: a * 10 + b, _numbers(4), _numbers(6, 1))())
    random.seed(3)
    out["shuffle"] = list(R.shuffle(_numbers(10), 4)())
    random.seed(3)
    out["shuffle_big_buffer"] = list(R.shuffle(_numbers(7), 100)())
    out["chain"] = list(R.chain(_numbers(2), _numbers(3, 10), _pairs())())
    out["compose"] = [list(t) for t in R.compose(_numbers(4), _pairs(), _numbers(4, 5))()]
    out["compose_unaligned"] = [list(t) for t in R.compose(_numbers(2), _pairs(), check_alignment=False)()]
    try:
        list(R.compose(_numbers(2), _pairs())())
        out["compose_not_aligned"] = "runs"
    except R.ComposeNotAligned as e:
        out["compose_not_aligned"] = ["ComposeNotAligned", isinstance(e, ValueError)]
    out["buffered"] = list(R.buffered(_numbers(20), 3)())
    out["firstn"] = list(R.firstn(_numbers(10), 4)())
    out["firstn_more"] = list(R.firstn(_numbers(3), 8)())
    out["xmap_ordered"] = list(R.xmap_readers(lambda s: s * s, _numbers(30), 4, 5, order=True)())
    out["xmap_unordered"] = sorted(R.xmap_readers(lambda s: s + 1, _numbers(30), 3, 2)())
    readers = [_numbers(5), _numbers(4, 100)]
    out["multiprocess_pipe"] = sorted(R.multiprocess_reader(readers)())
    out["multiprocess_queue"] = sorted(R.multiprocess_reader(readers, use_pipe=False)())
    out["batch"] = list(paddle.batch(_numbers(7), 3)())
    out["batch_drop_last"] = list(paddle.batch(_numbers(7), 3, drop_last=True)())
    out["batch_of_shuffle"] = [len(b) for b in paddle.batch(R.shuffle(_numbers(9), 4), 4)()]
    return out
