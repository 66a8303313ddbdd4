"""The ranks do not outlive their launcher: mpiexec is started with Linux's parent-death signal.

`spawn` and `launch` start `mpiexec` in a session of its own (so that killing the group ends every rank). A
launcher killed by SIGKILL cannot do that: its mpiexec and the ranks would run on, orphaned, holding the cores
and waiting in collectives forever. So the child asks the kernel, between fork and exec, to be sent SIGTERM when
its parent dies (`prctl(PR_SET_PDEATHSIG)`, kept across exec); MPICH's mpiexec ends its ranks on SIGTERM, and
rank_main marks them `terminated`. Two limits, both the kernel's: the signal follows the *thread* that started the
child (spawn from a thread that then ends takes the job with it), and it exists on Linux only (elsewhere the
launcher's own cleanup is all there is).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with_parent():
    """A `preexec_fn` for subprocess.Popen (None off Linux): the child gets SIGTERM when this process dies."""
    if not sys.platform.startswith("linux"):
        return None
    # Looked up here, before the fork: the child should run as little as possible between fork and exec.
    prctl = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    parent = os.getpid()

    def in_child() -> None:
        if prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os._exit(1)

    return in_child
