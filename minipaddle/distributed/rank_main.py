"""What every rank started by `spawn` or `launch` runs first: `python -m minipaddle.distributed.rank_main ...`.

It gives the rank Paddle's environment variables, sends its output to `log_dir/workerlog.N` (launch), runs the
work (spawn's function, imported by name, with its JSON arguments; or launch's script as `__main__`), and
writes how it ended into a status file that the launcher reads: `running`, `ok`, `error` (with the traceback),
or `terminated` (killed by MPI's launcher because another rank failed), each with the rank's process id. A rank
that raises aborts the whole MPI job, so no rank is left waiting. One node of a multi-node launch first joins
its ranks with the other nodes' (engine.join_nodes).
"""

from __future__ import annotations

import argparse
import os
import runpy
import signal
import sys
import traceback

from minipaddle.distributed import engine, spawn_payload
from minipaddle.distributed.parallel_env import fill_paddle_env, launched_by_mpi
from minipaddle.distributed.rendezvous import Store


def _status(path: str, text: str) -> None:
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def _log_to(log_dir: str, rank: int) -> None:
    """Send this rank's stdout and stderr (Python's and the C library's) to log_dir/workerlog.<rank>."""
    os.makedirs(log_dir, exist_ok=True)
    fd = os.open(os.path.join(log_dir, f"workerlog.{rank}"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)


def _abort(code: int) -> None:
    mpi = sys.modules.get("mpi4py.MPI")
    sys.stdout.flush()
    sys.stderr.flush()
    if mpi is not None and mpi.Is_initialized() and not mpi.Is_finalized():
        mpi.COMM_WORLD.Abort(code)
    os._exit(code)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="minipaddle.distributed.rank_main")
    parser.add_argument("--status_dir", required=True)
    parser.add_argument("--log_dir", default=None)
    parser.add_argument("--spawn", default=None, help="spawn's JSON file: the function by name, its arguments")
    parser.add_argument("script", nargs="?", default=None)
    parser.add_argument("script_args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)

    mpi = launched_by_mpi()
    if mpi is None:
        raise SystemExit("rank_main: start me through mpiexec (spawn and launch do)")
    local = mpi[0]  # this rank in its node's MPI job: names its status file and log (paddle's workerlog.N)
    os.environ.pop("PADDLE_TRAINER_ID", None)  # this rank's own, from MPI's rank
    fill_paddle_env()
    rank = int(os.environ["PADDLE_TRAINER_ID"])  # in the whole job (the same as `local` on a single node)
    status = os.path.join(args.status_dir, f"rank.{local}")
    pid = os.getpid()
    _status(status, f"running {pid}")

    def terminated(signum, frame):  # MPI's launcher ends the other ranks with SIGTERM when one fails
        _status(status, f"terminated {pid}")
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, terminated)
    if args.log_dir:
        _log_to(args.log_dir, local)
    try:
        nnodes = int(os.environ.get("MINIPADDLE_NNODES", "1"))
        if nnodes > 1:  # launch started this node's ranks alone: join them with the other nodes' first
            store, job = Store(os.environ["PADDLE_MASTER"]), os.environ.get("PADDLE_JOB_ID", "default")
            engine.join_nodes(store, job, int(os.environ["MINIPADDLE_NODE_RANK"]), nnodes, rank)
        if args.spawn:
            func, func_args = spawn_payload.load(args.spawn)
            func(*func_args)
        else:
            sys.argv = [args.script, *args.script_args]
            sys.path.insert(0, os.path.dirname(os.path.abspath(args.script)))
            runpy.run_path(args.script, run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            _status(status, f"error {pid}\nSystemExit: {e.code}\n")
            print(f"[rank {rank}] exited with status {e.code}; aborting every rank of the job", file=sys.stderr)
            _abort(e.code if isinstance(e.code, int) else 1)
    except BaseException as e:  # noqa: BLE001  (any failure of the rank ends the job, KeyboardInterrupt too)
        text = traceback.format_exc()
        _status(status, f"error {pid}\n{type(e).__name__}: {e}\n{text}")
        print(text, file=sys.stderr)
        print(f"[rank {rank}] raised {type(e).__name__}: {e}; aborting every rank of the job", file=sys.stderr)
        _abort(1)
    _status(status, f"ok {pid}")


if __name__ == "__main__":
    main()
