"""Starting N ranks through MPI's launcher (`mpiexec`), and reading how each one ended.

`spawn` and `launch` both come here. Every rank runs `rank_main` (see there), which writes a status file; after
`mpiexec` returns, the statuses tell which rank failed and how (raised, exited, died without a word), since
MPI's own exit code does not say which rank it was, and a rank that died with status 0 leaves MPI's exit code 0.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from minipaddle.distributed import parent_death

_PID = re.compile(r"PID (\d+) RUNNING AT")
_EXIT = re.compile(r"EXIT CODE: (\d+)")


def mpiexec() -> str:
    """MPI's launcher: the one installed beside this Python (the mpich wheel puts it there), else on PATH."""
    here = Path(sys.executable).parent / "mpiexec"
    if here.exists():
        return str(here)
    found = shutil.which("mpiexec")
    if found is None:
        raise RuntimeError("paddle.distributed: no mpiexec found; pip install 'minipaddle[distributed]' (mpich)")
    return found


def _is_open_mpi(launcher: str) -> bool:
    return (Path(launcher).parent / "ompi_info").exists()


@dataclass
class Outcome:
    """How a run of N ranks ended."""

    returncode: int
    statuses: dict = field(default_factory=dict)  # rank -> (state, detail)
    pids: dict = field(default_factory=dict)  # rank -> its process id (when it got as far as saying it)
    log_dir: str | None = None
    dead: dict = field(default_factory=dict)  # pid -> exit code, for the processes MPI's launcher saw die
    rank_offset: int = 0  # the global rank of this run's rank 0 (one node of a multi-node launch)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and all(state == "ok" for state, _ in self.statuses.values())

    def failed_ranks(self) -> list[int]:
        raised = [r for r, (state, _) in self.statuses.items() if state == "error"]
        if raised:
            return raised
        return [r for r, (state, _) in self.statuses.items() if state in ("running", "missing")]

    def describe(self, what: str) -> str:
        """One clear message naming the rank(s) that failed and how."""
        lines = []
        for r, (state, detail) in sorted(self.statuses.items()):
            if state == "error":
                lines.append(f"rank {self.rank_offset + r} raised {detail}")
        if not lines:  # no rank raised: which one died? MPI's launcher names its process id
            for r, (state, _) in sorted(self.statuses.items()):
                if state == "running" and self.pids.get(r) in self.dead:
                    lines.append(
                        f"rank {self.rank_offset + r} died before finishing ({_exit_meaning(self.dead[self.pids[r]])})"
                    )
        if not lines:
            died = [r for r, (state, _) in self.statuses.items() if state in ("running", "missing")]
            for r in died:
                lines.append(f"rank {self.rank_offset + r} died before finishing ({_exit_meaning(self.returncode)})")
        if not lines:
            lines.append(f"mpiexec ended with status {self.returncode}")
        terminated = [self.rank_offset + r for r, (state, _) in self.statuses.items() if state == "terminated"]
        text = f"{what}: " + "\n".join(lines)
        if terminated:
            text += f"\n(ranks {terminated} were stopped by MPI's launcher after that)"
        if self.log_dir:
            text += f"\nthe ranks' logs are in {self.log_dir}/workerlog.N"
        return text


def _exit_meaning(code: int) -> str:
    if code > 128:
        code -= 128
    try:
        return f"signal {code}, {signal.Signals(code).name}" if code else "exit status 0 without finishing"
    except ValueError:
        return f"exit status {code}"


def environment(nprocs: int, ips: str, nproc_per_node: int, master: str | None = None) -> dict:
    """Paddle's variables for the ranks (PADDLE_TRAINER_ID itself is each rank's own, set in rank_main)."""
    hosts = [h for h in ips.split(",") if h]
    endpoints = [f"{h}:{6170 + i}" for h in hosts for i in range(nproc_per_node)][:nprocs]
    env = dict(os.environ)
    env.update(
        PADDLE_TRAINERS_NUM=str(nprocs),
        PADDLE_TRAINER_ENDPOINTS=",".join(endpoints),
        PADDLE_MASTER=master or endpoints[0],
        PADDLE_NNODES=str(len(hosts)),
        PADDLE_NPROC_PER_NODE=str(nproc_per_node),
        PADDLE_GLOBAL_SIZE=str(nprocs),
        PADDLE_LOCAL_SIZE=str(min(nprocs, nproc_per_node)),
        PADDLE_DISTRI_BACKEND="mpi",
        PADDLE_WITH_GLOO="0",
    )
    for var in (
        "PADDLE_TRAINER_ID",
        "PADDLE_CURRENT_ENDPOINT",
        "PADDLE_GLOBAL_RANK",
        "PADDLE_LOCAL_RANK",
        "PADDLE_RANK_IN_NODE",
        "MINIPADDLE_NNODES",
        "MINIPADDLE_NODE_RANK",
        "MINIPADDLE_RANK_OFFSET",
    ):
        env.pop(var, None)  # each rank's own (rank_main), or a multi-node launch's (launch/nodes.py)
    # One BLAS thread per core a rank has: N ranks each running numpy's default of one thread per core would
    # oversubscribe the machine N times over (set the variables yourself to choose otherwise).
    threads = str(max(1, (os.cpu_count() or 1) // nproc_per_node))
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, threads)
    env.setdefault("PYTHONUNBUFFERED", "1")
    # The ranks import the same minipaddle as this process (a work tree, not some other installed copy).
    here = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([here, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))])
    return env


class RankRun:
    """N ranks running under one `mpiexec`; `wait()` returns their Outcome."""

    def __init__(self, nprocs: int, rank_args: list, env: dict, ips: str = "127.0.0.1", log_dir: str | None = None,
                 out=None, echo_log: bool = False, rank_offset: int = 0) -> None:  # fmt: skip
        self.nprocs = nprocs
        self.rank_offset = rank_offset
        self.log_dir = log_dir
        self.status_dir = tempfile.mkdtemp(prefix="minipaddle_ranks_")
        if log_dir:  # the last run's logs go first, so nobody (the echo of rank 0) reads them as this run's
            for r in range(nprocs):
                Path(log_dir, f"workerlog.{r}").unlink(missing_ok=True)
        launcher = mpiexec()
        cmd = [launcher, "-n", str(nprocs)]
        hosts = [h for h in ips.split(",") if h]
        if _is_open_mpi(launcher):
            cmd += ["--oversubscribe", "--allow-run-as-root"]
        if len(hosts) > 1 or hosts[0] not in ("127.0.0.1", "localhost"):
            cmd += (["--host"] if _is_open_mpi(launcher) else ["-hosts"]) + [",".join(hosts)]
            cmd += ["-ppn", str(-(-nprocs // len(hosts)))] if not _is_open_mpi(launcher) else []
        cmd += [sys.executable, "-m", "minipaddle.distributed.rank_main", "--status_dir", self.status_dir]
        if log_dir:
            cmd += ["--log_dir", log_dir]
        self.out = out if out is not None else sys.stdout
        self.dead: dict = {}
        self.process = subprocess.Popen(
            cmd + list(rank_args), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,  # our own process group: nothing of the job outlives a kill of the group
            preexec_fn=parent_death.die_with_parent(),  # nor a SIGKILL of this process
        )  # fmt: skip
        self._reader = threading.Thread(target=self._relay, daemon=True)
        self._reader.start()
        self._tail = None
        if echo_log and log_dir:
            self._tail = threading.Thread(target=self._follow, args=(Path(log_dir) / "workerlog.0",), daemon=True)
            self._tail.start()

    def _relay(self) -> None:
        """The ranks' output (and mpiexec's) to our stdout, through Python (so a notebook shows it). MPICH's
        launcher reports a process that died as `PID n RUNNING AT host` then `EXIT CODE: c`: keep those."""
        pid = None
        for line in self.process.stdout:
            self.out.write(line)
            self.out.flush()
            found = _PID.search(line)
            if found:
                pid = int(found.group(1))
            found = _EXIT.search(line)
            if found and pid is not None:
                self.dead[pid] = int(found.group(1))
                pid = None

    def _follow(self, path: Path) -> None:
        """Echo rank 0's log while it grows, as Paddle's launcher shows the first worker's output."""
        pos = 0
        while True:
            done = self.process.poll() is not None
            if path.exists():
                with open(path) as f:
                    f.seek(pos)
                    chunk = f.read()
                    pos = f.tell()
                if chunk:
                    self.out.write(chunk)
                    self.out.flush()
            if done:
                return
            time.sleep(0.1)

    def poll(self) -> bool:
        return self.process.poll() is not None

    def wait(self, timeout: float | None = None) -> Outcome:
        try:
            code = self.process.wait(timeout)
        except BaseException:
            self.kill()
            raise
        self._reader.join(5)
        if self._tail is not None:
            self._tail.join(5)
        statuses, pids = self._statuses()
        return Outcome(code, statuses, pids, self.log_dir, dict(self.dead), self.rank_offset)

    def kill(self) -> None:
        """End mpiexec and every rank (their whole process group)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait()

    def _statuses(self) -> tuple[dict, dict]:
        statuses, pids = {}, {}
        for r in range(self.nprocs):
            path = Path(self.status_dir) / f"rank.{r}"
            if not path.exists():
                statuses[r] = ("missing", "")
                continue
            head, _, detail = path.read_text().partition("\n")
            state, _, pid = head.partition(" ")
            statuses[r] = (state, detail.strip())
            if pid.isdigit():
                pids[r] = int(pid)
        shutil.rmtree(self.status_dir, ignore_errors=True)
        return statuses, pids
