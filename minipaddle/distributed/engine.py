"""The engine: MPI through mpi4py. The only file of minipaddle that talks to MPI.

`Communicator` wraps one MPI communicator (the world, or a group's) with the calls the collective ops make
(see ops/collective.py). numpy arrays go to MPI through the buffer protocol, without copies.

Before each collective, the ranks agree on what they are about to do: each rank contributes a small signature
(which collective, its sequence number, dtype, shape, root) with a non-blocking all-gather, polled with a
deadline, and the data goes only after the signatures matched. So ranks that call collectives in different
orders or with different shapes get a clear error naming what every rank called (read from the signatures),
instead of a hang, an MPI abort or silently wrong numbers; a rank that never arrives (it is in a different
call, or finished early) makes the others fail after the timeout instead of hanging forever. What this cannot
see: point-to-point calls (send/recv) that never match, which MPI itself cannot detect either.

`start_allreduce` is the non-blocking form (DataParallel's buckets during backward): after the same agreement
its data's Iallreduce is posted and the rank computes on instead of waiting for it. MPI moves such a request
forward only while the rank is inside an MPI call, so the reducer calls `progress()` at every gradient that
becomes ready, and `wait_all()` (the `c_sync_comm_stream` op) at the end.
"""

from __future__ import annotations

import os
import pickle
import sys
import time
import traceback
import zlib

import numpy as np
from mpi4py import MPI

_MPI_OPS = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD, "avg": MPI.SUM}
_TIMEOUT_ENV = "MINIPADDLE_COLLECTIVE_TIMEOUT"  # seconds a collective waits for the other ranks (default 1800,
# paddle's `new_group(timeout=timedelta(seconds=1800))`)


def collective_timeout() -> float:
    return float(os.environ.get(_TIMEOUT_ENV, "1800"))


def world_rank() -> int:
    """This process's rank in the job (with several nodes, MPI's own world is only this node's ranks)."""
    return _JOINED["comm"].Get_rank() if _JOINED["comm"] is not None else MPI.COMM_WORLD.Get_rank()


def abort(code: int = 1) -> None:
    """End every rank of this MPI job (MPI's launcher kills the others), after flushing this rank's output. With
    several nodes that is this node's ranks: the launchers end the other nodes' (see rendezvous.py)."""
    sys.stdout.flush()
    sys.stderr.flush()
    MPI.COMM_WORLD.Abort(code)


def install_abort_on_error() -> None:
    """An uncaught exception on one rank ends the whole job, instead of leaving the other ranks waiting forever
    in their next collective (MPI's own default when a process raises is to hang in MPI_Finalize)."""
    previous = sys.excepthook
    if getattr(previous, "_minipaddle_abort", False):
        return

    def abort_on_error(kind, value, tb):
        rank = world_rank()
        print(f"[rank {rank}] {kind.__name__}: {value}", file=sys.stderr)
        traceback.print_exception(kind, value, tb, file=sys.stderr)
        print(f"[rank {rank}] raised {kind.__name__}; aborting every rank of the job", file=sys.stderr)
        abort(1)

    abort_on_error._minipaddle_abort = True
    sys.excepthook = abort_on_error


class Communicator:
    """One MPI communicator and the collectives the ops call on it."""

    def __init__(self, comm, ranks: list[int]) -> None:
        self.comm = comm
        self.ranks = list(ranks)  # global rank of each member, in group order
        self.rank = comm.Get_rank()
        self.nranks = comm.Get_size()
        self.calls = 0  # collectives started on this communicator (their sequence number)
        self.in_flight: list[InFlight] = []  # non-blocking all-reduces started and not yet waited for
        self.timeout = collective_timeout()  # read once, when the communicator is made (init_parallel_env, new_group)
        self._signatures: dict[tuple, np.ndarray] = {}  # the signature of each kind of call made, without its number

    # ---- agreeing on the call ------------------------------------------------------------------------------
    def _signature(self, what: str, x: np.ndarray | None, root: int) -> np.ndarray:
        """This call's signature (its layout is described at `_SIGNATURE_SIZE`): what every rank compares, and can
        describe, of every rank's call."""
        self.calls += 1
        key = (what, root) if x is None else (what, root, x.dtype, x.shape)
        template = self._signatures.get(key)
        if template is None:  # a call not made before: its checksums, once (DataParallel repeats its buckets')
            template = np.full(_SIGNATURE_SIZE, -1, dtype=np.int64)
            template[1:4] = zlib.crc32(what.encode()), zlib.crc32(b"" if x is None else x.dtype.str.encode()), root
            if x is not None:
                template[4] = x.ndim
                template[5 : 5 + min(x.ndim, _SHOWN_DIMS)] = x.shape[:_SHOWN_DIMS]
                template[-1] = zlib.crc32(repr(x.shape).encode())
            if len(self._signatures) >= _SIGNATURES_KEPT:
                self._signatures.clear()
            self._signatures[key] = template
        sig = template.copy()
        sig[0] = self.calls
        return sig

    def agree(self, what: str, x: np.ndarray | None = None, root: int = -1) -> None:
        """Check that every rank is making the same call, before making it (see the module docstring)."""
        mine = self._signature(what, x, root)
        table = np.empty((self.nranks, mine.size), dtype=np.int64)
        self._wait(self.comm.Iallgather(mine, table), what)
        if (table == mine).all():
            return
        lines = [f"  rank {self.ranks[r]}: {_described(row)}" for r, row in enumerate(table)]
        raise RuntimeError(
            "collective mismatch: the ranks called different collectives (or with different shapes, dtypes or "
            "roots); every rank must call the same collectives in the same order:\n" + "\n".join(lines)
        )

    def _wait(self, request, what: str) -> None:
        """Wait for a non-blocking request until it completes or the deadline passes (spinning, then sleeping
        between tests: see Spin)."""
        deadline = time.monotonic() + self.timeout
        if not _poll(request.Test, deadline):
            raise RuntimeError(
                f"{what}: rank {self.ranks[self.rank]} waited {self.timeout:g} s (collective "
                f"#{self.calls}) but not every rank of the group {self.ranks} joined. A rank may be calling "
                f"a different collective, or none (it finished or is stuck); every rank must call the same "
                f"collectives in the same order. ({_TIMEOUT_ENV} sets the timeout.)"
            )

    # ---- the collectives -----------------------------------------------------------------------------------
    def allreduce(self, buf: np.ndarray, op: str) -> None:
        self.agree(f"all_reduce[{op}]", buf)
        self._wait(self.comm.Iallreduce(MPI.IN_PLACE, _contiguous(buf), _MPI_OPS[op]), "all_reduce")
        if op == "avg":
            _divide(buf, self.nranks)

    def start_allreduce(self, buf: np.ndarray, op: str) -> InFlight:
        """Start an all-reduce of `buf` in place and return once its data is on its way; `wait_all()` finishes it.

        The ranks first agree on the call (the small signature all-gather, waited for), and only then is the
        data's Iallreduce posted: ranks that start all-reduces of different sizes get a `collective mismatch`
        naming every rank's call before any data is sent (MPI's behaviour for such calls is undefined; MPICH may
        abort the job with "message truncated"). The wait costs the rank that arrives last nothing, the others
        wait for it here instead of at the end of backward, and the data then overlaps the rest of backward."""
        what = f"all_reduce[{op}]"
        arrived = time.perf_counter()
        self.agree(what, buf)
        request = self.comm.Iallreduce(MPI.IN_PLACE, _contiguous(buf), _MPI_OPS[op])
        flight = InFlight(self, what, self.calls, request, buf, op, arrived)
        self.in_flight.append(flight)
        return flight

    def progress(self) -> None:
        """Let MPI move the started all-reduces forward (each test is one MPI call); stamp the finished ones."""
        for flight in self.in_flight:
            flight.test()

    def wait_all(self) -> None:
        """Wait, within the collective timeout, for every all-reduce started with `start_allreduce`."""
        flights, self.in_flight = self.in_flight, []
        deadline = time.monotonic() + self.timeout
        for flight in flights:
            if not _poll(flight.test, deadline):
                raise RuntimeError(
                    f"{flight.what}: rank {self.ranks[self.rank]} waited {self.timeout:g} s for a "
                    f"non-blocking all-reduce (collective #{flight.number}) but not every rank of the group "
                    f"{self.ranks} joined ({_TIMEOUT_ENV} sets the timeout)."
                )

    def reduce(self, buf: np.ndarray, root: int, op: str) -> None:
        self.agree(f"reduce[{op}]", buf, root)
        if self.rank == root:
            self._wait(self.comm.Ireduce(MPI.IN_PLACE, _contiguous(buf), _MPI_OPS[op], root=root), "reduce")
            if op == "avg":
                _divide(buf, self.nranks)
        else:  # the other ranks keep their own values, as Paddle's reduce
            self._wait(self.comm.Ireduce(buf.copy(), None, _MPI_OPS[op], root=root), "reduce")

    def broadcast(self, buf: np.ndarray, root: int) -> None:
        self.agree("broadcast", buf, root)
        self._wait(self.comm.Ibcast(_contiguous(buf), root=root), "broadcast")

    def allgather(self, x: np.ndarray) -> np.ndarray:
        self.agree("all_gather", x)
        out = np.empty((self.nranks * x.shape[0], *x.shape[1:]) if x.ndim else (self.nranks,), x.dtype)
        self._wait(self.comm.Iallgather(np.ascontiguousarray(x), out), "all_gather")
        return out

    def reduce_scatter(self, x: np.ndarray, op: str) -> np.ndarray:
        self.agree(f"reduce_scatter[{op}]", x)
        _check_divisible(x, self.nranks, "reduce_scatter")
        out = np.empty((x.shape[0] // self.nranks, *x.shape[1:]), x.dtype)
        self._wait(self.comm.Ireduce_scatter_block(np.ascontiguousarray(x), out, _MPI_OPS[op]), "reduce_scatter")
        if op == "avg":
            _divide(out, self.nranks)
        return out

    def scatter(self, x: np.ndarray, root: int) -> np.ndarray:
        self.agree("scatter", x, root)
        _check_divisible(x, self.nranks, "scatter")
        out = np.empty((x.shape[0] // self.nranks, *x.shape[1:]), x.dtype)
        send = np.ascontiguousarray(x) if self.rank == root else None
        self._wait(self.comm.Iscatter(send, out, root=root), "scatter")
        return out

    def alltoall(self, x: np.ndarray) -> np.ndarray:
        self.agree("alltoall", x)
        _check_divisible(x, self.nranks, "alltoall")
        out = np.empty_like(x)
        self._wait(self.comm.Ialltoall(np.ascontiguousarray(x), out), "alltoall")
        return out

    def barrier(self) -> None:
        self.agree("barrier")
        self._wait(self.comm.Ibarrier(), "barrier")

    def allgather_object(self, obj) -> list:
        """Every rank's `obj`, pickled: the contract is any picklable object, and what is unpickled comes only from
        this job's ranks over MPI, never from a file (docs/distributed.md, "where pickle remains")."""
        self.agree("all_gather_object")
        data = np.frombuffer(pickle.dumps(obj), dtype=np.uint8)
        sizes = np.empty(self.nranks, np.int64)
        self._wait(self.comm.Iallgather(np.array([data.size], np.int64), sizes), "all_gather_object")
        out = np.empty(int(sizes.sum()), np.uint8)
        self._wait(self.comm.Iallgatherv(data, (out, sizes)), "all_gather_object")
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        return [pickle.loads(out[offsets[i] : offsets[i + 1]].tobytes()) for i in range(self.nranks)]

    # ---- point to point ------------------------------------------------------------------------------------
    def send(self, x: np.ndarray, peer: int) -> None:
        self.comm.Send(np.ascontiguousarray(x), dest=peer, tag=0)

    def isend(self, x: np.ndarray, peer: int):
        return self.comm.Isend(np.ascontiguousarray(x), dest=peer, tag=0)

    def recv(self, buf: np.ndarray, peer: int) -> None:
        status = MPI.Status()
        self.comm.Recv(_contiguous(buf), source=peer, tag=0, status=status)
        got = status.Get_count(MPI.BYTE)
        if got != buf.nbytes:
            raise RuntimeError(f"recv: expected {buf.nbytes} bytes from rank {peer}, got {got}")

    # ---- groups --------------------------------------------------------------------------------------------
    def subgroup(self, ranks: list[int]) -> Communicator | None:
        """A communicator of the given global ranks (called by every rank of the world); None on non-members."""
        group = self.comm.Get_group().Incl(ranks)
        comm = self.comm.Create(group)  # collective over the world: every rank calls it, non-members get NULL
        group.Free()
        return None if comm == MPI.COMM_NULL else Communicator(comm, ranks)

    def free(self) -> None:
        if self.comm not in (MPI.COMM_WORLD, MPI.COMM_NULL):
            self.comm.Free()


class InFlight:
    """A started non-blocking all-reduce (its signature already agreed): its data request, and when this rank
    arrived at it, when every rank had (the agreement done: the data starts) and when a test found it finished.
    From `arrived` to `started` the rank waited for the others (their skew); from `started` to `finished` the
    data moved."""

    def __init__(self, comm: Communicator, what: str, number: int, request, buf: np.ndarray, op: str, arrived: float):
        self.comm, self.what, self.number = comm, what, number
        self.request, self.buf, self.op = request, buf, op
        self.arrived = arrived
        self.started = time.perf_counter()
        self.finished = None  # perf_counter() when a test first found it complete

    def test(self) -> bool:
        """True once complete (AVG divided); one MPI call while it is not."""
        if self.finished is not None:
            return True
        if not self.request.Test():
            return False
        self.finished = time.perf_counter()
        if self.op == "avg":
            _divide(self.buf, self.comm.nranks)
        return True


# The signature every rank contributes before each collective: [sequence number, crc32 of the collective's name,
# crc32 of the dtype, root, ndim, the first _SHOWN_DIMS dims, crc32 of the whole shape]; -1 where there is none.
# Sizes and names are there in the open (or as checksums of names every rank knows), so any rank can describe any
# other rank's call from the table alone, without a second exchange.
_SHOWN_DIMS = 8
_SIGNATURES_KEPT = 256  # kinds of call whose signature a communicator keeps (a script of many shapes starts over)
_SIGNATURE_SIZE = 6 + _SHOWN_DIMS
_OPS = ("sum", "max", "min", "prod", "avg")
_NAMES = {
    zlib.crc32(n.encode()): n
    for n in [
        *(f"{c}[{op}]" for c in ("all_reduce", "reduce", "reduce_scatter") for op in _OPS),
        *("broadcast", "all_gather", "scatter", "alltoall", "barrier", "all_gather_object"),
    ]
}
_DTYPES = {zlib.crc32(b""): None}
for _name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
              "float64", "complex64", "complex128"):  # fmt: skip
    _DTYPES[zlib.crc32(np.dtype(_name).str.encode())] = _name


def _described(row) -> str:
    """One rank's call, read from its signature: e.g. `collective #3: all_reduce[sum](dtype=float32, shape=[4, 2],
    root=-1)` (names not in the tables show as their checksum)."""
    what = _NAMES.get(int(row[1]), f"collective {int(row[1]):#x}")
    dtype = _DTYPES.get(int(row[2]), f"dtype {int(row[2]):#x}")
    ndim = int(row[4])
    shape = [] if ndim < 0 else [int(d) for d in row[5 : 5 + min(ndim, _SHOWN_DIMS)]]
    shown = ", ".join(map(str, shape)) + (", ..." if ndim > _SHOWN_DIMS else "")
    return f"collective #{int(row[0])}: {what}(dtype={dtype}, shape=[{shown}], root={int(row[3])})"


def world() -> Communicator:
    """The communicator of every rank of the job: MPI's world, or the nodes' ranks joined by `join_nodes`."""
    base = _JOINED["comm"] if _JOINED["comm"] is not None else MPI.COMM_WORLD
    comm = base.Dup()  # our own context: user code calling mpi4py directly never mixes with ours
    return Communicator(comm, list(range(comm.Get_size())))


_JOINED = {"comm": None}  # the ranks of all nodes as one intracommunicator, once join_nodes has run


def join_nodes(store, job_id: str, node: int, nnodes: int, rank: int) -> None:
    """Join the ranks of `nnodes` separately launched MPI jobs (one `mpiexec` per node, as launch starts them)
    into one communicator, with MPI's own means for it (MPI-2 dynamic process management), before the script runs.

    Node 0's rank 0 opens an MPI port (`MPI_Open_port`) and puts its name in the rendezvous store; every other
    node's ranks connect to it (`Comm.Connect`, collective over that node's ranks) while the ranks already joined
    accept (`Comm.Accept`), and each intercommunicator is merged into one intracommunicator. Nodes may connect in
    any order; a final split orders the ranks by their global rank (the ranks of the nodes before, plus the local
    rank). Every rank of every node calls this (rank_main does, when launch says the job has several nodes)."""
    local = MPI.COMM_WORLD
    key = f"/{job_id}/mpi_port"
    port = None
    if node == 0:
        comm = local
        if local.rank == 0:
            port = MPI.Open_port()
            store.put(key, port)
    else:
        name = store.wait(key, what="node 0's MPI port") if local.rank == 0 else None
        inter = local.Connect(name, root=0)
        comm = inter.Merge(high=True)  # the joined ranks come after those already there
        inter.Free()
    # node 0's rank 0 stays rank 0 of every merged communicator (its side is always the low one): it holds the port
    while comm.allreduce(1 if local.rank == 0 else 0) < nnodes:  # the number of nodes joined so far
        inter = comm.Accept(port, root=0)
        merged = inter.Merge(high=False)
        inter.Free()
        if comm is not local:
            comm.Free()
        comm = merged
    if port is not None:
        MPI.Close_port(port)
    _JOINED["comm"] = comm.Split(0, rank)
    if comm is not local:
        comm.Free()


def _contiguous(buf: np.ndarray) -> np.ndarray:
    if not buf.flags.c_contiguous:
        raise ValueError("collective: the tensor's storage must be contiguous to be communicated in place")
    return buf


def _divide(buf: np.ndarray, n: int) -> None:
    if np.issubdtype(buf.dtype, np.integer):
        np.floor_divide(buf, n, out=buf)
    else:
        np.divide(buf, n, out=buf)


def _check_divisible(x: np.ndarray, n: int, what: str) -> None:
    if x.ndim == 0 or x.shape[0] % n:
        raise ValueError(f"{what}: the first dimension ({x.shape[:1]}) must be divisible by the {n} ranks")


_SPIN_ENV = "MINIPADDLE_SPIN_SECONDS"  # seconds a wait keeps testing without sleeping before it backs off
_SPIN_WHEN_CORES_FREE = 5e-3


class Spin:
    """How long a wait spins (tests its request back to back) before it starts sleeping between tests.

    Sleeping costs a wait the rest of the sleep after the data arrived (the kernel wakes a sleeper late by ~50 us
    to a scheduler tick), so a collective that completes in 100 us could take 1-20 ms. Spinning answers at once
    but burns the core, which is right only when each rank of this node has a core of its own: then it spins up
    to 5 ms, otherwise (ranks oversubscribing the cores) not at all, leaving the cores to the ranks that compute.
    MINIPADDLE_SPIN_SECONDS overrides the choice (0 never spins)."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = _spin_seconds() if seconds is None else seconds

    def wait(self, done, deadline: float) -> bool:
        """Call `done()` until it is true (True) or the deadline passes (False): back to back for `seconds`,
        then sleeping a little longer between calls each time, up to 1 ms."""
        if done():
            return True
        spin_until = time.monotonic() + self.seconds
        while time.monotonic() < spin_until:
            if done():
                return True
        pause = 0.0
        while not done():
            if time.monotonic() > deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2 + 1e-5, 1e-3)
        return True


def _spin_seconds() -> float:
    value = os.environ.get(_SPIN_ENV)
    if value is not None:
        try:
            seconds = float(value)
        except ValueError:
            raise ValueError(f"{_SPIN_ENV}: expected a number of seconds, got {value!r}") from None
        if not seconds >= 0:
            raise ValueError(f"{_SPIN_ENV}: expected a number of seconds >= 0, got {value!r}")
        return seconds
    return _SPIN_WHEN_CORES_FREE if MPI.COMM_WORLD.Get_size() <= _cores() else 0.0


def _cores() -> int:
    """The cores this process may run on (its affinity, where the OS tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_SPIN: list[Spin] = []  # the process's Spin, made at the first wait (the environment is read once)


def _poll(done, deadline: float) -> bool:
    """Wait for `done()` with the process's Spin (see Spin)."""
    if not _SPIN:
        _SPIN.append(Spin())
    return _SPIN[0].wait(done, deadline)
