"""The parallel environment: which rank this process is, how many there are, and the groups of ranks.

A rank learns its place from Paddle's environment variables (`PADDLE_TRAINER_ID`, `PADDLE_TRAINERS_NUM`, ...).
`spawn` and `launch` set them; under a plain `mpiexec -n N python train.py` they are filled in from MPI's own
variables when `paddle.distributed` is imported, so the same script runs all three ways. `init_parallel_env()`
then opens MPI (only then: a process that never trains in parallel never loads MPI) and makes the default group.
"""

from __future__ import annotations

import datetime
import os
import warnings

from minipaddle.distributed import engine
from minipaddle.ops.collective import RINGS

__all__ = [
    "Group",
    "ParallelEnv",
    "destroy_process_group",
    "get_backend",
    "get_group",
    "get_rank",
    "get_world_size",
    "init_parallel_env",
    "is_available",
    "is_initialized",
    "new_group",
]

# MPI launchers' own variables: (rank, size) for MPICH's hydra, Open MPI, and PMIx-based launchers.
_MPI_ENV = (("PMI_RANK", "PMI_SIZE"), ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"), ("PMIX_RANK", "PMIX_SIZE"))


def launched_by_mpi() -> tuple[int, int] | None:
    """(rank, size) when MPI's launcher started this process, else None. Reads the environment only."""
    for rank_var, size_var in _MPI_ENV:
        if rank_var in os.environ and size_var in os.environ:
            return int(os.environ[rank_var]), int(os.environ[size_var])
    return None


def fill_paddle_env() -> None:
    """Under a plain `mpiexec`, give this rank Paddle's variables (as `launch` would), unless already set."""
    mpi = launched_by_mpi()
    if mpi is None:
        return
    local, size = mpi
    rank = local
    if _env_int("MINIPADDLE_NNODES", 1) > 1:  # one node of a multi-node launch: MPI's world is this node's ranks
        rank = _env_int("MINIPADDLE_RANK_OFFSET", 0) + local  # after the ranks of the nodes before this one
        size = _env_int("PADDLE_TRAINERS_NUM", size)
    endpoints = [f"127.0.0.1:{6170 + r}" for r in range(size)]
    if os.environ.get("PADDLE_TRAINER_ID") != str(rank) or "PADDLE_TRAINERS_NUM" not in os.environ:
        os.environ["PADDLE_TRAINER_ID"] = str(rank)
        os.environ["PADDLE_TRAINERS_NUM"] = str(size)
        os.environ.setdefault("PADDLE_TRAINER_ENDPOINTS", ",".join(endpoints))
        os.environ["PADDLE_CURRENT_ENDPOINT"] = os.environ["PADDLE_TRAINER_ENDPOINTS"].split(",")[rank]
        os.environ.setdefault("PADDLE_RANK_IN_NODE", os.environ.get("MPI_LOCALRANKID", str(local)))
        os.environ.setdefault("PADDLE_GLOBAL_RANK", str(rank))
        os.environ.setdefault("PADDLE_LOCAL_RANK", str(local))


class _World:
    """This process's parallel state (a process has one; it lives here, with its subsystem)."""

    def __init__(self) -> None:
        self.comm = None  # the world's engine.Communicator once init_parallel_env ran with 2+ ranks
        self.groups: dict[int, Group] = {}
        self.next_id = 1


_WORLD = _World()


class Group:
    """A group of ranks that run collectives together (`paddle.distributed.new_group`).

    Attributes: `rank` (this process's rank in the group, -1 when it is not a member), `nranks`, `id`
    (the ring id the collective ops carry), `ranks` (global ranks of the members), `name`.
    """

    def __init__(self, rank_in_group: int, id: int, ranks: list, pg=None, name: str | None = None) -> None:
        self.rank = rank_in_group
        self.nranks = len(ranks)
        self.id = id
        self.ranks = list(ranks)
        self.process_group = pg
        self.name = name

    @property
    def world_size(self) -> int:
        return self.nranks

    @property
    def backend(self) -> str:
        return "MPI"

    def is_member(self) -> bool:
        return self.rank >= 0

    def get_group_rank(self, rank: int) -> int:
        """The rank in this group of global rank `rank` (-1 when it is not a member)."""
        return self.ranks.index(rank) if rank in self.ranks else -1

    def __repr__(self) -> str:
        return f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: {', '.join(map(str, self.ranks))}"


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    try:
        return default if value in (None, "") else int(value)
    except ValueError:
        raise ValueError(f"paddle.distributed: environment variable {name} must be an int, got {value!r}") from None


def is_available() -> bool:
    """Whether distributed training can run here (mpi4py and an MPI library are installed)."""
    return True  # importing paddle.distributed already checked it


def is_initialized() -> bool:
    """Whether `init_parallel_env` has set up the default group (False with a single process)."""
    return _WORLD.comm is not None


def init_parallel_env():
    """Set up the parallel environment of this rank and return the default Group of all ranks.

    With one process (`PADDLE_TRAINERS_NUM` unset or 1) it warns and does nothing, as Paddle. The ranks must
    have been started by `paddle.distributed.spawn`, `python -m minipaddle.distributed.launch`, or `mpiexec`.

    Returns:
        Group: the default group (ranks 0..n-1), or None with one process.

    Example:
        >>> import minipaddle.distributed as dist
        >>> dist.init_parallel_env()
        >>> dist.get_rank(), dist.get_world_size()
    """
    if _WORLD.comm is not None:
        return _WORLD.groups[0]
    fill_paddle_env()
    nranks = _env_int("PADDLE_TRAINERS_NUM", 1)
    if nranks < 2:
        warnings.warn(
            "Currently not a parallel execution environment, `paddle.distributed.init_parallel_env` will not do "
            "anything.",
            stacklevel=2,
        )
        return None
    if launched_by_mpi() is None:
        raise RuntimeError(
            f"init_parallel_env: PADDLE_TRAINERS_NUM is {nranks} but this process was not started by MPI's "
            "launcher; start the ranks with paddle.distributed.spawn, `python -m minipaddle.distributed.launch "
            "--nproc_per_node N train.py`, or `mpiexec -n N python train.py`"
        )

    comm = engine.world()
    if comm.nranks != nranks:
        raise RuntimeError(f"init_parallel_env: PADDLE_TRAINERS_NUM says {nranks} ranks but MPI started {comm.nranks}"
                           " (a rank of a multi-node launch is started by launch on every node)")  # fmt: skip
    engine.install_abort_on_error()
    _WORLD.comm = comm
    RINGS[0] = comm
    group = Group(comm.rank, 0, list(range(nranks)), name="_default_pg")
    _WORLD.groups[0] = group
    return group


def _default_group() -> Group | None:
    return _WORLD.groups.get(0)


def get_rank(group: Group | None = None) -> int:
    """This process's rank: in `group`, else in the world (PADDLE_TRAINER_ID; 0 when not parallel)."""
    if group is not None:
        return group.rank
    if _WORLD.comm is not None:
        return _WORLD.comm.rank
    return _env_int("PADDLE_TRAINER_ID", 0)


def get_world_size(group: Group | None = None) -> int:
    """The number of ranks: in `group`, else in the world (PADDLE_TRAINERS_NUM; 1 when not parallel)."""
    if group is not None:
        return group.nranks
    if _WORLD.comm is not None:
        return _WORLD.comm.nranks
    return _env_int("PADDLE_TRAINERS_NUM", 1)


def get_backend(group: Group | None = None) -> str:
    """The communication backend: always 'MPI' here (Paddle's CPU build says 'GLOO')."""
    return "MPI"


def new_group(ranks: list | None = None, backend: str | None = None, timeout=datetime.timedelta(seconds=1800)):
    """Make a group of the given global ranks. Every rank of the world must call it, in the same order.

    Args:
        ranks (list[int], optional): global ranks of the members. Default: all ranks.
        backend (str, optional): accepted for Paddle's signature; the engine is MPI.
        timeout (datetime.timedelta): accepted for Paddle's signature (collectives wait
            MINIPADDLE_COLLECTIVE_TIMEOUT seconds).

    Returns:
        Group: the group; on a rank that is not a member, its `rank` is -1.
    """
    world = get_world_size()
    if ranks is None:
        ranks = list(range(world))
    if not isinstance(ranks, (list, tuple)) or not all(isinstance(r, int) and not isinstance(r, bool) for r in ranks):
        raise TypeError(f"new_group: ranks must be a list of ints, got {ranks!r}")
    ranks = sorted(ranks)
    if len(set(ranks)) != len(ranks) or any(not 0 <= r < world for r in ranks):
        raise ValueError(f"new_group: ranks must be distinct ranks in [0, {world}), got {ranks}")
    gid = _WORLD.next_id
    _WORLD.next_id += 1
    if _WORLD.comm is None:  # one process: a group of itself
        group = Group(0 if 0 in ranks else -1, gid, ranks, name=f"_pg_{gid}")
    else:
        comm = _WORLD.comm.subgroup(ranks)
        if comm is not None:
            RINGS[gid] = comm
        group = Group(-1 if comm is None else comm.rank, gid, ranks, name=f"_pg_{gid}")
    _WORLD.groups[gid] = group
    return group


def get_group(id: int = 0) -> Group | None:
    """The group with this id (0: the default group), or None."""
    return _WORLD.groups.get(id)


def destroy_process_group(group: Group | None = None) -> None:
    """Free `group`, or with None every group and the parallel environment itself."""
    if group is not None:
        comm = RINGS.pop(group.id, None)
        if comm is not None and group.id != 0:
            comm.free()
        _WORLD.groups.pop(group.id, None)
        if group.id != 0:
            return
    for gid in list(RINGS):
        comm = RINGS.pop(gid)
        comm.free()
    _WORLD.groups.clear()
    _WORLD.comm = None
    _WORLD.next_id = 1


def world_comm():
    """The world's Communicator (None when not parallel); for DataParallel and the timeline."""
    return _WORLD.comm


def comm_of(group: Group | None):
    """The Communicator a collective on `group` uses (None: one process, nothing to communicate)."""
    gid = 0 if group is None else group.id
    return RINGS.get(gid)


class ParallelEnv:
    """This rank's environment as Paddle's launcher describes it (read from the PADDLE_* variables)."""

    def __init__(self) -> None:
        fill_paddle_env()
        self._rank = _env_int("PADDLE_TRAINER_ID", 0)
        self._world_size = _env_int("PADDLE_TRAINERS_NUM", 1)
        self._current_endpoint = os.environ.get("PADDLE_CURRENT_ENDPOINT", "")
        self._trainer_endpoints = [e for e in os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",") if e]
        self._nrings = _env_int("FLAGS_nccl_nrings", 1)
        self._pg_timeout = _env_int("PADDLE_PG_TIMEOUT", 1800000)

    @property
    def rank(self) -> int:
        return self._rank

    @property
    def world_size(self) -> int:
        return self._world_size

    @property
    def device_id(self) -> int:
        return 0

    @property
    def device_type(self) -> str:
        return "cpu"

    @property
    def current_endpoint(self) -> str:
        return self._current_endpoint

    @property
    def trainer_endpoints(self) -> list:
        return self._trainer_endpoints

    @property
    def nrings(self) -> int:
        return self._nrings

    @property
    def pg_timeout(self) -> int:
        return self._pg_timeout

    # Paddle's older names for the same things
    local_rank = rank
    nranks = world_size
    dev_id = device_id
