"""DataLoader workers under bad conditions: the main process killed while workers are busy, a hang with the
default timeout=0, and a timeout where there are no workers to wait for. Every test is bounded by timeouts."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from minipaddle.io import DataLoader, reader
from tests.io import workloads as W

ORPHANS = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    from minipaddle.io import DataLoader, Dataset

    class Slow(Dataset):  # every sample takes long: the workers are busy, not idle, when the main process dies
        def __len__(self):
            return 100
        def __getitem__(self, i):
            time.sleep(30)
            return np.float32(i)

    it = iter(DataLoader(Slow(), batch_size=1, num_workers=2))
    print(" ".join(str(w.pid) for w in it._workers), flush=True)
    next(it)
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by init) counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_busy_workers_exit_when_the_main_process_is_killed():
    main = subprocess.Popen([sys.executable, "-c", ORPHANS], stdout=subprocess.PIPE, text=True)
    pids = []
    try:
        pids = [int(p) for p in main.stdout.readline().split()]
        assert len(pids) == 2
        time.sleep(0.5)  # the workers are inside __getitem__ now
        main.send_signal(signal.SIGKILL)
        main.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in pids if _alive(p)]
        assert not left, f"workers {left} outlived their killed main process"
    finally:
        if main.poll() is None:
            main.kill()
        for p in pids:
            if _alive(p):
                os.kill(p, signal.SIGKILL)


def test_a_timeout_without_workers_is_refused_clearly():
    with pytest.raises(ValueError, match=r"DataLoader: timeout=5 .* num_workers=0 reads every batch in the main"):
        DataLoader(W.Squares(4), batch_size=2, timeout=5)
    assert len(list(DataLoader(W.Squares(4), batch_size=2, timeout=0))) == 2  # the default is fine


def test_a_hang_with_the_default_timeout_is_reported_naming_the_worker(monkeypatch):
    monkeypatch.setattr(reader, "HANG_WARNING_AFTER", 0.3)
    loader = DataLoader(W.Sleeps(2, slow=0, seconds=1.5), batch_size=1, num_workers=1)
    with pytest.warns(RuntimeWarning, match=r"no batch for \d+ s from worker 0 \(pid \d+\).*timeout=SECONDS"):
        batches = list(loader)
    assert len(batches) == 2  # only a report: the slow batch still arrives
