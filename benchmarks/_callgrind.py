"""Counting instructions of a region of a Python process with valgrind's callgrind, free of machine load.

The process runs under `valgrind --tool=callgrind --instr-atstart=no` and calls `counted_start()` and
`counted_stop()` (two client requests in a tiny C library built here with the system's cc) around the region,
so import and warm-up cost nothing and the count is exactly the region's, numpy and BLAS included. Used by
instructions.py and dp_counts.py.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

_CLIENT_REQUESTS = r"""
#include <valgrind/callgrind.h>
void counted_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void counted_stop(void) { CALLGRIND_DUMP_STATS_AT("counted"); CALLGRIND_STOP_INSTRUMENTATION; }
"""


def client_library(tmp: str) -> str:
    """Build the two client requests (counted_start, counted_stop) into a shared library in `tmp`."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or shutil.which("valgrind") is None or not Path("/usr/include/valgrind/callgrind.h").exists():
        raise RuntimeError("counting instructions needs valgrind (with its headers) and a C compiler")
    source = Path(tmp, "counted.c")
    source.write_text(_CLIENT_REQUESTS)
    library = Path(tmp, "counted.so")
    subprocess.run([cc, "-O1", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return str(library)


def valgrind_command(out_file: str) -> list:
    """The command prefix that runs a Python process under callgrind, instrumenting nothing until told to."""
    return ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out_file}"]


def count_steps(library: str, step, steps: int) -> None:
    """Run `step` `steps` times with callgrind counting (the process runs under `valgrind_command`)."""
    import ctypes

    counted = ctypes.CDLL(library)
    counted.counted_start()
    for _ in range(steps):
        step()
    counted.counted_stop()


def instructions(folder: Path, prefix: str) -> int:
    """The instructions of callgrind's "counted" dump (its `summary:` line) among the files `prefix*`."""
    for dump in Path(folder).glob(f"{prefix}*"):
        text = dump.read_text()
        if "Trigger: Client Request: counted" in text:
            return int(next(line for line in text.splitlines() if line.startswith("summary:")).split()[1])
    raise RuntimeError(f"no callgrind dump of the counted region in {folder}")
