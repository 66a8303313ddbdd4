"""The collectives of `paddle.distributed`: all_reduce, broadcast, reduce, all_gather, scatter, alltoall, ...

Each is an op through the door (ops/collective.py), so in static mode it becomes an op of the Program
(`c_allreduce_sum`, `c_broadcast`, ...). `src`/`dst` are global ranks, as in Paddle. With one process every
collective is the identity on a group of one.

Differences from Paddle's CPU (Gloo) backend: ReduceOp.AVG, alltoall and reduce_scatter work (MPI does them;
Gloo refuses). `sync_op=False` returns a task that has already finished, except `isend`/`irecv`, which are
really asynchronous (the send starts at once; the receive is made when its task is waited for).
"""

from __future__ import annotations

from minipaddle.core.dispatch import apply
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.distributed import parallel_env
from minipaddle.ops import collective as ops
from minipaddle.tensor.creation import to_tensor
from minipaddle.tensor.manipulation import concat, reshape, split

__all__ = [
    "ParallelMode",
    "ReduceOp",
    "all_gather",
    "all_gather_object",
    "all_reduce",
    "alltoall",
    "alltoall_single",
    "barrier",
    "broadcast",
    "broadcast_object_list",
    "gather",
    "irecv",
    "isend",
    "recv",
    "reduce",
    "reduce_scatter",
    "scatter",
    "scatter_object_list",
    "send",
    "wait",
]


class ReduceOp:
    """How all_reduce / reduce combine the ranks' values (plain int constants, as Paddle's)."""

    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


_KIND = {ReduceOp.SUM: "sum", ReduceOp.MAX: "max", ReduceOp.MIN: "min", ReduceOp.PROD: "prod", ReduceOp.AVG: "avg"}


class Task:
    """What a collective with `sync_op=False` returns: `wait()` blocks until it is done."""

    def __init__(self, finish=None) -> None:
        self._finish = finish  # None: already done

    def wait(self, timeout=None) -> bool:
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()
        return True

    def is_completed(self) -> bool:
        return self._finish is None

    def synchronize(self) -> None:
        self.wait()


def _check_tensor(fn: str, tensor, arg: str = "tensor") -> None:
    if not isinstance(tensor, Tensor) and not (STATE.static_mode and hasattr(tensor, "block")):
        raise TypeError(f"{fn}: {arg} must be a Tensor, got {type(tensor).__name__}")


def _check_list(fn: str, tensors, arg: str) -> list:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"{fn}: {arg} must be a non-empty list of Tensors, got {tensors!r}")
    for t in tensors:
        _check_tensor(fn, t, arg)
    return list(tensors)


def _kind(fn: str, op) -> str:
    if op not in _KIND:
        raise ValueError(f"{fn}: op must be one of ReduceOp.SUM, MAX, MIN, PROD, AVG (0..4), got {op!r}")
    return _KIND[op]


def _group(fn: str, group):
    """(ring id, group) for a collective; group None is the default group."""
    if group is not None and not isinstance(group, parallel_env.Group):
        raise TypeError(f"{fn}: group must be a Group from new_group, or None; got {type(group).__name__}")
    return (0 if group is None else group.id), group


def _group_rank(fn: str, group, rank: int, arg: str) -> int:
    """The group rank of global rank `rank` (src/dst are global in Paddle)."""
    if not isinstance(rank, int) or isinstance(rank, bool):
        raise TypeError(f"{fn}: {arg} must be an int (a global rank), got {rank!r}")
    world = parallel_env.get_world_size()
    ranks = list(range(world)) if group is None else group.ranks
    if rank not in ranks:
        raise ValueError(f"{fn}: {arg}={rank} is not a rank of the group {ranks}")
    return ranks.index(rank)


def _nranks(group) -> int:
    return parallel_env.get_world_size(group)


def _not_member(group) -> bool:
    return group is not None and not group.is_member()


def _done(sync_op: bool) -> Task | None:
    return Task() if not STATE.static_mode else None


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce `tensor` over all ranks of the group, in place: every rank gets the result.

    Args:
        tensor (Tensor): the input, and the output (written in place).
        op (ReduceOp): SUM (default), MAX, MIN, PROD or AVG (AVG is not on Paddle's Gloo backend).
        group (Group, optional): the ranks taking part. Default: all.
        sync_op (bool): False returns a task (already finished here).

    Example:
        >>> t = paddle.to_tensor([dist.get_rank() + 1.0])
        >>> dist.all_reduce(t)        # on 2 ranks: both hold [3.]
    """
    _check_tensor("all_reduce", tensor)
    kind = _kind("all_reduce", op)
    ring, group = _group("all_reduce", group)
    if _not_member(group):
        return None
    # Always on the calculation stream: the started form (use_calc_stream=False) needs a c_sync_comm_stream after
    # it, which only DataParallel's reducer makes; a task that is already done keeps every caller correct.
    apply_inplace(ops.ALLREDUCE_OPS[kind], tensor, (tensor,), {"ring_id": ring, "use_calc_stream": True})
    return _done(sync_op)


def broadcast(tensor, src, group=None, sync_op=True):
    """Copy `tensor` from global rank `src` to every rank of the group (in place)."""
    _check_tensor("broadcast", tensor)
    ring, group = _group("broadcast", group)
    if _not_member(group):
        return None
    root = _group_rank("broadcast", group, src, "src")
    apply_inplace(ops.Broadcast, tensor, (tensor,), {"root": root, "ring_id": ring, "use_calc_stream": sync_op})
    return _done(sync_op)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce `tensor` over the group into global rank `dst` (in place there; the other ranks keep theirs)."""
    _check_tensor("reduce", tensor)
    kind = _kind("reduce", op)
    ring, group = _group("reduce", group)
    if _not_member(group):
        return None
    root = _group_rank("reduce", group, dst, "dst")
    apply_inplace(ops.REDUCE_OPS[kind], tensor, (tensor,), {"root_id": root, "ring_id": ring})
    return _done(sync_op)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    """Append every rank's `tensor` (in rank order) to `tensor_list`.

    Example:
        >>> out = []
        >>> dist.all_gather(out, paddle.to_tensor([dist.get_rank()]))   # [[0], [1]] on 2 ranks
    """
    if not isinstance(tensor_list, list):
        raise TypeError(f"all_gather: tensor_list must be a list, got {type(tensor_list).__name__}")
    _check_tensor("all_gather", tensor)
    ring, group = _group("all_gather", group)
    if _not_member(group):
        return None
    n = _nranks(group)
    x = tensor if tensor.ndim else reshape(tensor, [1])
    gathered = apply(ops.AllGather, (x,), {"nranks": n, "ring_id": ring, "use_calc_stream": sync_op})
    pieces = split(gathered, n, axis=0)
    tensor_list.extend(p if tensor.ndim else reshape(p, []) for p in pieces)
    return _done(sync_op)


def all_gather_object(object_list, obj, group=None):
    """Append every rank's picklable `obj` (in rank order) to `object_list`."""
    if not isinstance(object_list, list):
        raise TypeError(f"all_gather_object: object_list must be a list, got {type(object_list).__name__}")
    _, group = _group("all_gather_object", group)
    if _not_member(group):
        return None
    comm = parallel_env.comm_of(group)
    object_list.extend([obj] if comm is None else comm.allgather_object(obj))
    return None


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    """Rank `src` sends `tensor_list[r]` to rank r of the group, which receives it into `tensor` (in place)."""
    _check_tensor("scatter", tensor)
    ring, group = _group("scatter", group)
    if _not_member(group):
        return None
    root = _group_rank("scatter", group, src, "src")
    n = _nranks(group)
    if parallel_env.get_rank(group) == root:
        pieces = _check_list("scatter", tensor_list, "tensor_list")
        if len(pieces) != n:
            raise ValueError(f"scatter: tensor_list must hold one tensor per rank ({n}), got {len(pieces)}")
        if any(list(p.shape) != list(tensor.shape) for p in pieces):
            raise ValueError(f"scatter: every tensor of tensor_list must have the shape of tensor {tensor.shape}")
    else:
        pieces = [tensor] * n  # only the shape matters off the root
    flat = [p if p.ndim else p.reshape([1]) for p in pieces]
    source = concat(flat, axis=0)
    attrs = {"root": root, "nranks": n, "ring_id": ring, "use_calc_stream": sync_op}
    if tensor.ndim:
        apply_inplace(ops.Scatter, tensor, (source,), attrs)
    else:
        tensor.set_value(apply(ops.Scatter, (source,), attrs).reshape([]))
    return _done(sync_op)


def alltoall(in_tensor_list, out_tensor_list, group=None, sync_op=True):
    """Rank r sends `in_tensor_list[j]` to rank j; `out_tensor_list` gets what every rank sent to r, in rank order
    (Paddle's Gloo backend refuses it on the CPU; MPI does it)."""
    ins = _check_list("alltoall", in_tensor_list, "in_tensor_list")
    if not isinstance(out_tensor_list, list):
        raise TypeError(f"alltoall: out_tensor_list must be a list, got {type(out_tensor_list).__name__}")
    ring, group = _group("alltoall", group)
    if _not_member(group):
        return None
    n = _nranks(group)
    if len(ins) != n or any(list(t.shape) != list(ins[0].shape) for t in ins):
        raise ValueError(f"alltoall: in_tensor_list must hold {n} tensors of one shape, got {[t.shape for t in ins]}")
    out = apply(ops.AllToAll, (concat(ins, axis=0),), {"ring_id": ring, "use_calc_stream": sync_op})
    out_tensor_list.extend(split(out, n, axis=0))
    return _done(sync_op)


def reduce_scatter(tensor, tensor_list, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce `tensor_list` element-wise over the ranks; rank r receives the reduced `tensor_list[r]` into
    `tensor` (Paddle's Gloo backend refuses it on the CPU; MPI does it)."""
    _check_tensor("reduce_scatter", tensor)
    pieces = _check_list("reduce_scatter", tensor_list, "tensor_list")
    kind = _kind("reduce_scatter", op)
    ring, group = _group("reduce_scatter", group)
    if _not_member(group):
        return None
    n = _nranks(group)
    if len(pieces) != n or any(list(p.shape) != list(tensor.shape) for p in pieces):
        raise ValueError(f"reduce_scatter: tensor_list must hold {n} tensors of the shape of tensor {tensor.shape}")
    attrs = {"nranks": n, "ring_id": ring, "reduce_type": kind, "use_calc_stream": sync_op}
    apply_inplace(ops.ReduceScatter, tensor, (concat(pieces, axis=0),), attrs)
    return _done(sync_op)


def send(tensor, dst=0, group=None, sync_op=True):
    """Send `tensor` to global rank `dst` (which calls `recv`)."""
    return _point_to_point("send", ops.Send, tensor, dst, "dst", group, sync_op)


def recv(tensor, src=0, group=None, sync_op=True):
    """Receive into `tensor` (in place) what global rank `src` sends."""
    return _point_to_point("recv", ops.Recv, tensor, src, "src", group, sync_op)


def _point_to_point(fn: str, op, tensor, rank: int, arg: str, group, sync_op: bool):
    """send and recv: `op` with the group rank of global rank `rank` as its peer (recv writes `tensor`)."""
    _check_tensor(fn, tensor)
    ring, group = _group(fn, group)
    if _not_member(group):
        return None
    attrs = {"peer": _group_rank(fn, group, rank, arg), "ring_id": ring, "use_calc_stream": sync_op}
    if op is ops.Recv:
        apply_inplace(op, tensor, (tensor,), attrs)
    else:
        apply(op, (tensor,), attrs)
    return _done(sync_op)


def isend(tensor, dst, group=None):
    """Start sending `tensor` to global rank `dst`; returns a task (do not change `tensor` before `wait()`)."""
    _check_tensor("isend", tensor)
    _, group = _group("isend", group)
    if _not_member(group):
        return None
    peer = _group_rank("isend", group, dst, "dst")
    comm = parallel_env.comm_of(group)
    if comm is None:
        raise RuntimeError("isend: no parallel environment (call init_parallel_env in 2+ ranks)")
    request = comm.isend(tensor.numpy(), peer)  # MPI reads the buffer while the caller goes on
    return Task(request.Wait)


def irecv(tensor, src=None, group=None):
    """Receive into `tensor` what global rank `src` sends; the receive is made by the returned task's `wait()`."""
    _check_tensor("irecv", tensor)
    _, group = _group("irecv", group)
    if _not_member(group):
        return None
    src = 0 if src is None else src
    _group_rank("irecv", group, src, "src")
    return Task(lambda: recv(tensor, src, group))


def barrier(group=None) -> None:
    """Wait until every rank of the group gets here."""
    ring, group = _group("barrier", group)
    if _not_member(group):
        return None
    apply(ops.Barrier, (to_tensor([0], dtype="int32"),), {"ring_id": ring})
    return None


def wait(tensor, group=None, use_calc_stream=True) -> None:
    """Wait for the communication on `tensor` (collectives here finish before they return: nothing to wait for)."""
    _check_tensor("wait", tensor)


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True):
    """Global rank `dst` appends every rank's `tensor` (in rank order) to `gather_list`; the others get nothing."""
    _check_tensor("gather", tensor)
    _, group = _group("gather", group)
    if _not_member(group):
        return None
    root = _group_rank("gather", group, dst, "dst")
    everyone: list = []
    all_gather(everyone, tensor, group=group)
    if parallel_env.get_rank(group) == root:
        if not isinstance(gather_list, list):
            raise TypeError(f"gather: gather_list must be a list on the destination rank, got {gather_list!r}")
        gather_list.extend(everyone)
    return _done(sync_op)


def broadcast_object_list(object_list, src=0, group=None) -> None:
    """Every rank's `object_list` becomes (in place) global rank `src`'s list of picklable objects."""
    if not isinstance(object_list, list):
        raise TypeError(f"broadcast_object_list: object_list must be a list, got {type(object_list).__name__}")
    sent = _objects_from("broadcast_object_list", group, src, lambda rank, root: list(object_list))
    if sent is not None:
        object_list[:] = sent[0]


def scatter_object_list(out_object_list, in_object_list=None, src=0, group=None) -> None:
    """Rank r of the group gets `[in_object_list[r]]` of global rank `src` into `out_object_list` (in place)."""
    if not isinstance(out_object_list, list):
        raise TypeError(f"scatter_object_list: out_object_list must be a list, got {type(out_object_list).__name__}")

    def mine(rank: int, root: int):
        if rank != root:
            return None
        if not isinstance(in_object_list, list) or len(in_object_list) != _nranks(group):
            raise ValueError(f"scatter_object_list: in_object_list must hold one object per rank ({_nranks(group)})")
        return in_object_list

    sent = _objects_from("scatter_object_list", group, src, mine)
    if sent is not None:
        out_object_list[:] = [sent[0][sent[1]]]


def _objects_from(fn: str, group, src: int, contribution):
    """What global rank `src` sends (every rank's `contribution(rank, root)` is all-gathered, the root's kept):
    (the root's object, this rank's group rank), or None off the group."""
    _, group = _group(fn, group)
    if _not_member(group):
        return None
    root = _group_rank(fn, group, src, "src")
    rank = parallel_env.get_rank(group)
    everyone: list = []
    all_gather_object(everyone, contribution(rank, root), group=group)
    return everyone[root], rank


def alltoall_single(in_tensor, out_tensor, in_split_sizes=None, out_split_sizes=None, group=None, sync_op=True):
    """alltoall on one tensor: its first dimension split into equal pieces, piece j to rank j; `out_tensor`
    receives (in place) the pieces every rank sent here, in rank order. Only equal split sizes here."""
    _check_tensor("alltoall_single", in_tensor)
    _check_tensor("alltoall_single", out_tensor, "out_tensor")
    ring, group = _group("alltoall_single", group)
    if _not_member(group):
        return None
    n = _nranks(group)
    for sizes, arg in ((in_split_sizes, "in_split_sizes"), (out_split_sizes, "out_split_sizes")):
        if sizes is not None and len(set(sizes)) > 1:
            raise NotImplementedError(f"alltoall_single: unequal {arg} {sizes} are not supported here (equal only)")
    if not in_tensor.ndim or in_tensor.shape[0] % n or list(in_tensor.shape) != list(out_tensor.shape):
        raise ValueError(f"alltoall_single: in and out must have one shape, its first dimension divisible by {n}")
    apply_inplace(ops.AllToAll, out_tensor, (in_tensor,), {"ring_id": ring, "use_calc_stream": sync_op})
    return _done(sync_op)


class ParallelMode:
    """The kinds of parallelism (Paddle's constants); minipaddle trains DATA_PARALLEL."""

    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
