"""Datasets for the DataLoader worker tests, at module level so 'spawn' workers can import them."""

from __future__ import annotations

import os
import time

import numpy as np

import minipaddle as paddle
from minipaddle.io import Dataset, IterableDataset, get_worker_info


class Squares(Dataset):
    """Sample i is (a float32 vector filled with i, the int i * i)."""

    def __init__(self, n: int = 10) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        return np.full([3], i, dtype="float32"), i * i


class FailsAt(Squares):
    """Raises ValueError when sample `bad` is read."""

    def __init__(self, n: int, bad: int) -> None:
        super().__init__(n)
        self.bad = bad

    def __getitem__(self, i):
        if i == self.bad:
            raise ValueError(f"sample {i} is corrupt")
        return super().__getitem__(i)


class DiesAt(Squares):
    """The worker reading sample `bad` exits abruptly (as a crash would), with exit code 7."""

    def __init__(self, n: int, bad: int) -> None:
        super().__init__(n)
        self.bad = bad

    def __getitem__(self, i):
        if i == self.bad and get_worker_info() is not None:
            os._exit(7)
        return super().__getitem__(i)


class Sleeps(Squares):
    """Sample `slow` takes `seconds` to read."""

    def __init__(self, n: int, slow: int, seconds: float) -> None:
        super().__init__(n)
        self.slow, self.seconds = slow, seconds

    def __getitem__(self, i):
        if i == self.slow:
            time.sleep(self.seconds)
        return super().__getitem__(i)


class WhoReads(Dataset):
    """Sample i tells which worker read it and what the worker's generators gave."""

    def __len__(self) -> int:
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        wid = -1 if info is None else info.id
        return np.array([i, wid, os.getpid()]), float(paddle.rand([1]).item()), float(np.random.rand())


class Stream(IterableDataset):
    """0 .. n-1, split among the workers with get_worker_info (each value arrives once)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(start, self.n, step):
            yield np.array([i])


class Unpicklable(Squares):
    """Samples hold a lambda, which cannot travel from a worker to the main process."""

    def __getitem__(self, i):
        return np.zeros(2), {"f": lambda: i}


def record_init(worker_id: int) -> None:
    """A worker_init_fn that leaves a mark the dataset can see."""
    os.environ["MINIPADDLE_TEST_WORKER_INIT"] = str(worker_id)


def failing_init(worker_id: int) -> None:
    raise KeyError(f"worker {worker_id} cannot start")


class InitMark(Dataset):
    def __len__(self) -> int:
        return 4

    def __getitem__(self, i):
        return np.array([int(os.environ.get("MINIPADDLE_TEST_WORKER_INIT", "-1"))])
