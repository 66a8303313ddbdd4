"""A launcher killed by SIGKILL takes its ranks with it (prctl's parent-death signal on mpiexec)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.distributed.test_collectives import _alive
from tests.distributed.test_launch import _env

LAUNCHER = """
import sys
import minipaddle.distributed as dist
from tests.distributed import workers
dist.spawn(workers.write_pid_and_wait, args=(sys.argv[1],), nprocs=2)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_sigkilled_launcher_takes_its_ranks_with_it(tmp_path):
    launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(tmp_path)], env=_env(), start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while len(list(tmp_path.glob("pid.*"))) < 2:
            assert launcher.poll() is None, "the launcher ended before its ranks started"
            assert time.monotonic() < deadline, "the ranks did not start within 90 s"
            time.sleep(0.2)
        time.sleep(0.3)  # let both pid files be written in full
        pids = [int(p.read_text()) for p in tmp_path.glob("pid.*")]
        assert all(_alive(pid) for pid in pids)
        launcher.send_signal(signal.SIGKILL)  # no cleanup of its own can run
        launcher.wait(10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in pids if _alive(pid)], "a rank outlived its SIGKILLed launcher by 10 s"
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
        for path in tmp_path.glob("pid.*"):  # the ranks this test started, should they be left behind
            pid = int(path.read_text() or 0)
            if pid and _alive(pid):
                os.kill(pid, signal.SIGKILL)
