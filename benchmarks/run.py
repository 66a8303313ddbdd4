"""Run every workload in benchmarks/ and print their tables (`make bench`).

A workload is any module here but harness.py, run.py, breakdown.py and files starting with `_`; it exposes `run()`
(called with no arguments) or `main()`. Name workloads to run only those: `python benchmarks/run.py tiny`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOT_WORKLOADS = {"harness", "run", "breakdown"}  # breakdown.py splits one workload's step; see its docstring


def workloads() -> list[str]:
    """The names of the workload modules in benchmarks/, sorted."""
    return sorted(p.stem for p in HERE.glob("*.py") if p.stem not in NOT_WORKLOADS and not p.stem.startswith("_"))


def main(argv: list[str] | None = None) -> int:
    available = workloads()
    parser = argparse.ArgumentParser(description="Run minipaddle's benchmark workloads.")
    parser.add_argument("names", nargs="*", metavar="WORKLOAD", help=f"run only these (of: {', '.join(available)})")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(available))
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; there are: {', '.join(available)}")

    sys.path.insert(0, str(HERE))  # workloads import `harness` as a sibling module
    failures = 0
    for name in args.names or available:
        start = time.perf_counter()
        try:
            module = importlib.import_module(name)
            entry = getattr(module, "run", None) or module.main
            entry()
        except Exception as exc:  # one broken workload must not hide the others' figures
            failures += 1
            print(f"\n== {name} ==\nfailed: {type(exc).__name__}: {exc}")
        print(f"({name} took {time.perf_counter() - start:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
