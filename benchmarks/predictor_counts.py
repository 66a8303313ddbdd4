"""Counts `lenet_predictor`'s step (the predictor at batch 64 and 1) rather than timing it: what the wall clock
pays for that an instruction count does not show, in figures the machine's load does not move.

- instructions and cache misses per step: valgrind's callgrind with its cache simulator (--cache-sim=yes),
  collecting only around the counted steps (a client request from a tiny C library built here with the system's
  cc): Ir, D1 misses (first-level data cache, read + write) and LL misses (the simulated last level, sized as
  this machine's L2: what must come from further away);
- bytes allocated per step: every malloc/calloc/realloc the step makes, counted by a second tiny library
  preloaded into the process (glibc's __libc_malloc underneath), and how many of them were 64 KB or more (the
  activations' size: each such block is fresh memory, faulted in and written for the first time);
- minor page faults per step (fresh pages the kernel maps and zeroes: kernel time callgrind does not see);
- tracemalloc's peak above the step's start (what the step holds at once beyond its inputs);
- Python calls per step (cProfile's count, C functions included: harness.python_calls).

    python benchmarks/predictor_counts.py [--steps 10] [--batch 64] [--callgrind]

One BLAS thread, PYTHONHASHSEED=0. Paddle 2.6's predictor is counted with the same driver when its Python is
given (--framework paddle, run by /work/paddle-venv/bin/python).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CLIENT_REQUESTS = r"""
#include <valgrind/callgrind.h>
void counted_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void counted_stop(void) { CALLGRIND_DUMP_STATS_AT("counted"); CALLGRIND_STOP_INSTRUMENTATION; }
"""

# malloc's bytes while `counting` is on (the step only); glibc's own functions do the allocating.
_MALLOC_COUNTER = r"""
#include <stddef.h>
extern void *__libc_malloc(size_t); extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static int counting; static long long bytes, blocks, big;
static void note(size_t n) { if (counting) { bytes += n; blocks++; if (n >= 65536) big++; } }
void *malloc(size_t n) { note(n); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { note(k * n); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { note(n); return __libc_realloc(p, n); }
void malloc_count_start(void) { bytes = blocks = big = 0; counting = 1; }
void malloc_count_stop(long long *out) { counting = 0; out[0] = bytes; out[1] = blocks; out[2] = big; }
"""

# The simulated last level is this machine's L2 (1 MB a core, 16-way, 64-byte lines), not its 32 MB L3 (which
# holds all of LeNet's arrays): an L2 miss is what a pass over an activation that does not stay close costs.
_L2 = "1048576,16,64"

_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}


def _build(tmp: str, name: str, source: str) -> str:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise RuntimeError("predictor_counts needs a C compiler (cc) for its counting libraries")
    path = Path(tmp, name + ".c")
    path.write_text(source)
    library = str(Path(tmp, name + ".so"))
    subprocess.run([cc, "-O1", "-shared", "-fPIC", "-o", library, str(path)], check=True)
    return library


def _step(framework: str, batch: int, directory: str):
    sys.path.insert(0, str(HERE))
    import lenet_predictor

    if framework == "paddle":
        import numpy.random  # noqa: F401  (paddle 2.6 wants numpy.random imported first)
        import paddle
    else:
        import minipaddle as paddle
    return lenet_predictor.predictor_step(paddle, lenet_predictor.saved_lenet(paddle, directory), batch)


def _inside(args) -> None:
    """The counted process: warm up, then count `steps` steps in the mode asked."""
    import ctypes
    import resource
    import tracemalloc

    with tempfile.TemporaryDirectory() as d:
        step = _step(args.framework, args.batch, d)
        for _ in range(3):
            step()
        result = {}
        if args.mode == "callgrind":
            counted = ctypes.CDLL(args.library)
            counted.counted_start()
            for _ in range(args.steps):
                step()
            counted.counted_stop()
        elif args.mode == "malloc":
            counter = ctypes.CDLL(None)  # the preloaded library's functions are the process's
            out = (ctypes.c_longlong * 3)()
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            counter.malloc_count_start()
            for _ in range(args.steps):
                step()
            counter.malloc_count_stop(out)
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
            result = {"malloc bytes": out[0] / args.steps, "malloc blocks": out[1] / args.steps,
                      "blocks >= 64 KB": out[2] / args.steps, "page faults": faults / args.steps}  # fmt: skip
            tracemalloc.start()
            step()
            peaks = []
            for _ in range(args.steps):
                start = tracemalloc.get_traced_memory()[0]
                tracemalloc.reset_peak()
                step()
                peaks.append(tracemalloc.get_traced_memory()[1] - start)
            tracemalloc.stop()
            result["tracemalloc peak"] = max(peaks)
            import harness

            result["python calls"] = harness.python_calls(step, calls=args.steps)
        Path(args.out).write_text(json.dumps(result))


def _callgrind_summary(folder: Path) -> dict:
    """Ir and the cache misses of callgrind's "counted" dump."""
    for dump in folder.glob("cg.*"):
        text = dump.read_text()
        if "Trigger: Client Request: counted" in text:
            events = next(line for line in text.splitlines() if line.startswith("events:")).split()[1:]
            summary = next(line for line in text.splitlines() if line.startswith("summary:")).split()[1:]
            got = dict(zip(events, map(int, summary)))
            return {"Ir": got["Ir"], "D1 misses": got["D1mr"] + got["D1mw"], "LL misses": got["DLmr"] + got["DLmw"]}
    raise RuntimeError(f"predictor_counts: no callgrind dump of the counted steps in {folder}")


def count(framework: str = "minipaddle", batch: int = 64, steps: int = 10, callgrind: bool = True,
          python: str = sys.executable, keep: str = "") -> dict:  # fmt: skip
    """Per-step counts of the predictor (see the module docstring)."""
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, **_ENV)
        inside = [python, __file__, "--inside", "--framework", framework, "--batch", str(batch), "--steps",
                  str(steps), "--out", f"{tmp}/out.json"]  # fmt: skip
        malloc_lib = _build(tmp, "malloc_count", _MALLOC_COUNTER)
        subprocess.run([*inside, "--mode", "malloc"], env=dict(env, LD_PRELOAD=malloc_lib), check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        figures.update(json.loads(Path(tmp, "out.json").read_text()))
        if callgrind:
            library = _build(tmp, "counted", _CLIENT_REQUESTS)
            grind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--cache-sim=yes", f"--LL={_L2}",
                     f"--callgrind-out-file={keep or tmp}/cg.%p"]  # fmt: skip
            subprocess.run([*grind, *inside, "--mode", "callgrind", "--library", library], env=env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
            figures.update({k: v / steps for k, v in _callgrind_summary(Path(keep or tmp)).items()})
    return figures


def _print(framework: str, batch: int, steps: int, figures: dict) -> None:
    print(f"{framework} predictor, batch {batch}, per step over {steps} steps:")
    for name, value in figures.items():
        print(f"  {name:18s} {value:>14,.0f}")


def run(steps: int = 10, callgrind: bool = False) -> dict:
    """`make bench`'s entry: the counts at batch 64 and 1 (without callgrind unless asked: it takes minutes)."""
    figures = {}
    for batch in (64, 1):
        figures[batch] = count("minipaddle", batch, steps, callgrind)
        _print("minipaddle", batch, steps, figures[batch])
    return figures


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--framework", choices=("minipaddle", "paddle"), default="minipaddle")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--callgrind", action="store_true", help="also count instructions and cache misses")
    parser.add_argument("--python", default=sys.executable, help="the Python to count in (paddle's for paddle)")
    parser.add_argument("--keep", default="", help="a folder to keep callgrind's dump in (callgrind_annotate)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="malloc", help=argparse.SUPPRESS)
    parser.add_argument("--library", default="", help=argparse.SUPPRESS)
    parser.add_argument("--out", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inside:
        _inside(args)
        return {}
    figures = count(args.framework, args.batch, args.steps, args.callgrind, args.python, args.keep)
    _print(args.framework, args.batch, args.steps, figures)
    return figures


if __name__ == "__main__":
    main()
