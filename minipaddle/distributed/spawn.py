"""paddle.distributed.spawn: run a function on N ranks, started through MPI's launcher."""

from __future__ import annotations

import os
import tempfile
import time

from minipaddle.distributed import launcher, spawn_payload

__all__ = ["MultiprocessContext", "spawn"]

_OPTIONS = ("backend", "ips", "gpus", "xpus", "start_method", "print_config")


class MultiprocessContext:
    """The running ranks of a `spawn(join=False)`; `join()` waits for them and raises if one failed."""

    def __init__(self, run: launcher.RankRun, payload: str) -> None:
        self._run = run
        self._payload = payload
        self.outcome = None

    @property
    def processes(self) -> list:
        return [self._run.process]  # mpiexec, which owns the ranks

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the ranks (up to `timeout` seconds); True when they have all ended. Raises when one failed."""
        if self.outcome is None:
            if timeout is not None and not self._wait_for(timeout):
                return False
            self.outcome = self._run.wait()
            os.unlink(self._payload)
        if not self.outcome.ok:
            raise RuntimeError(self.outcome.describe("spawn"))
        return True

    def _wait_for(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while not self._run.poll():
            if time.monotonic() > end:
                return False
            time.sleep(0.05)
        return True

    def terminate(self) -> None:
        self._run.kill()


def spawn(func, args=(), nprocs=-1, join=True, daemon=False, **options):
    """Run `func(*args)` on `nprocs` ranks, each a process started by MPI's launcher with Paddle's environment
    variables, so `init_parallel_env()` inside `func` joins them.

    `func` reaches the ranks by name, so it must be defined at the top level of a module or of the main script
    (guard the script's own work with `if __name__ == '__main__':`); in a notebook, define it in a .py file and
    import it. Lambdas and nested functions are refused. `args` reach them as data (numbers, strings, lists,
    tuples, dicts, numpy arrays, Tensors, top-level functions): see distributed/spawn_payload.py.

    Args:
        func (callable): what every rank runs.
        args (tuple): its arguments.
        nprocs (int): the number of ranks; -1 means one per CPU core.
        join (bool): wait for the ranks (default). False returns the context at once.
        daemon (bool): accepted for Paddle's signature (the ranks always end with the job).
        **options: `ips` (comma-separated hosts, default '127.0.0.1'), `backend` ('auto', 'mpi' or 'gloo'; the
            engine is MPI either way), `print_config`; `gpus`, `xpus` and `start_method` are accepted and ignored
            (CPU ranks, always started by mpiexec).

    Returns:
        MultiprocessContext. With join=True, once every rank has ended; a failed rank raises RuntimeError naming
        the rank, with its traceback.

    Example:
        >>> def train(lr):
        ...     dist.init_parallel_env()
        ...     ...
        >>> dist.spawn(train, args=(0.1,), nprocs=2)
    """
    if not callable(func):
        raise TypeError(f"spawn: func must be callable, got {type(func).__name__}")
    if not isinstance(args, (tuple, list)):
        raise TypeError(f"spawn: args must be a tuple, got {type(args).__name__}")
    if not isinstance(nprocs, int) or isinstance(nprocs, bool) or (nprocs < 1 and nprocs != -1):
        raise ValueError(f"spawn: nprocs must be a positive int or -1, got {nprocs!r}")
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise ValueError(f"spawn: unknown options {sorted(unknown)}; known: {list(_OPTIONS)}")
    backend = options.get("backend", "auto")
    if backend not in ("auto", "mpi", "gloo"):
        raise ValueError(f"spawn: backend must be 'auto', 'mpi' or 'gloo' (all run on MPI here), got {backend!r}")
    if nprocs == -1:
        nprocs = os.cpu_count() or 1
    ips = options.get("ips", "127.0.0.1")

    payload = spawn_payload.encode(func, tuple(args))  # the function by name, the arguments as JSON
    fd, path = tempfile.mkstemp(prefix="minipaddle_spawn_", suffix=".json")
    with os.fdopen(fd, "w") as f:
        f.write(payload)
    if options.get("print_config"):
        print(f"spawn: {nprocs} ranks on {ips} through {launcher.mpiexec()}")
    hosts = [h for h in ips.split(",") if h]
    env = launcher.environment(nprocs, ips, -(-nprocs // len(hosts)))
    run = launcher.RankRun(nprocs, ["--spawn", path], env, ips=ips)
    context = MultiprocessContext(run, path)
    if join:
        context.join()
    return context
