"""Collective communication ops: Paddle's `c_allreduce_sum`, `c_broadcast`, `c_allgather`, ... as OpDefs.

A collective is an op like any other, so it goes through the door (the profiler and the static Program see it)
and a drawn Program shows where communication happens. Its kernel hands the numpy buffer to a communicator
found by the op's `ring_id` attribute in `RINGS`; `minipaddle.distributed` puts its MPI communicators there
(this floor imports nothing above it, and knows nothing of MPI). Without a communicator for the ring (one
process, no parallel environment) every collective is what it is on a group of one: the identity.

An all-reduce with `use_calc_stream=False` only starts (Paddle runs it on the communication stream) and
`c_sync_comm_stream` on its ring waits for it: DataParallel overlaps its buckets' all-reduces with backward so.

A communicator offers: `nranks`, `rank`, `allreduce(buf, op)`, `start_allreduce(buf, op)`, `wait_all()`,
`broadcast(buf, root)`, `reduce(buf, root, op)`, `allgather(x) -> array`, `scatter(buf, root) -> array`,
`alltoall(x) -> array`, `reduce_scatter(x, op) -> array`, `send(x, peer)`, `recv(buf, peer)`, `barrier()`;
buffers are written in place (numpy arrays, no copies).
"""

from __future__ import annotations

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register

__all__ = ["RINGS", "REDUCE_KINDS"]

RINGS: dict[int, object] = {}  # ring_id -> communicator (filled by minipaddle.distributed)
REDUCE_KINDS = ("sum", "max", "min", "prod", "avg")


def _comm(ring_id: int):
    return RINGS.get(ring_id)


class _Collective(OpDef):
    """A collective on the ring `ring_id`. Subclasses write `communicate(comm, buf, **attrs)`; on a group of one
    (no communicator for the ring) the op is the identity.

    `in_place = True`: `communicate` writes `buf` (the output, a copy of x) and returns None; the op also has the
    `kernel_into` form, so `apply_inplace` hands MPI the tensor's own storage. `in_place = False`: `communicate`
    returns a new array (its shape may differ from x's), and `infer_meta` says which."""

    saves_inputs = False
    differentiable = False
    in_place = True

    def communicate(self, comm, buf, **attrs):
        raise NotImplementedError(f"{self.name}: a collective OpDef defines communicate() (the base class has none)")

    def kernel(self, x, ring_id=0, **attrs):
        if self.in_place:
            out = x.copy()
            self._run(out, ring_id, {**attrs, "use_calc_stream": True})  # an out-of-place result must be complete
            return out
        comm = _comm(ring_id)
        return x.copy() if comm is None else self.communicate(comm, x, **attrs)

    def kernel_into(self, out, x, ring_id=0, **attrs):
        if out is not x:
            out[...] = x
        self._run(out, ring_id, attrs)

    def _run(self, buf, ring_id, attrs) -> None:
        comm = _comm(ring_id)
        if comm is not None:
            self.communicate(comm, buf, **attrs)

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


class _AllReduce(_Collective):
    """Every rank ends with the reduction (sum, max, ...) of all ranks' x. Written in place by all_reduce.
    With use_calc_stream=False (in place only) the all-reduce is started and c_sync_comm_stream finishes it."""

    kind = "sum"
    amp = "promote"

    def communicate(self, comm, buf, use_calc_stream=True, **attrs):
        if use_calc_stream:
            comm.allreduce(buf, self.kind)
        else:  # Paddle's communication stream: started now, finished by c_sync_comm_stream on the ring
            comm.start_allreduce(buf, self.kind)

    def grad(self, node, g):
        # y_r = sum_s x_s on every rank, so dL/dx_s = sum_r dL/dy_r: the gradient is all-reduced too.
        return (apply(self, (g,), {**node.attrs, "use_calc_stream": True}),)


@register
class AllReduceSum(_AllReduce):
    name = "c_allreduce_sum"
    differentiable = True


@register
class AllReduceAvg(_AllReduce):
    """The mean over ranks (Paddle's Gloo backend refuses AVG; MPI's SUM divided by the number of ranks)."""

    name = "c_allreduce_avg"
    kind = "avg"
    differentiable = True


@register
class AllReduceMax(_AllReduce):
    name = "c_allreduce_max"
    kind = "max"


@register
class AllReduceMin(_AllReduce):
    name = "c_allreduce_min"
    kind = "min"


@register
class AllReduceProd(_AllReduce):
    name = "c_allreduce_prod"
    kind = "prod"


ALLREDUCE_OPS = {op.kind: op for op in (AllReduceSum, AllReduceAvg, AllReduceMax, AllReduceMin, AllReduceProd)}


class _Reduce(_Collective):
    """The rank `root_id` ends with the reduction of all ranks' x; the others keep their x (as Paddle)."""

    kind = "sum"

    def communicate(self, comm, buf, root_id=0, **attrs):
        comm.reduce(buf, root_id, self.kind)


@register
class ReduceSum(_Reduce):
    name = "c_reduce_sum"


@register
class ReduceAvg(_Reduce):
    name = "c_reduce_avg"
    kind = "avg"


@register
class ReduceMax(_Reduce):
    name = "c_reduce_max"
    kind = "max"


@register
class ReduceMin(_Reduce):
    name = "c_reduce_min"
    kind = "min"


@register
class ReduceProd(_Reduce):
    name = "c_reduce_prod"
    kind = "prod"


REDUCE_OPS = {op.kind: op for op in (ReduceSum, ReduceAvg, ReduceMax, ReduceMin, ReduceProd)}


@register
class Broadcast(_Collective):
    """Every rank ends with rank `root`'s x."""

    name = "c_broadcast"

    def communicate(self, comm, buf, root=0, **attrs):
        comm.broadcast(buf, root)


class _Reshaping(_Collective):
    """A collective that returns a new array (its rows along axis 0 may differ from x's): no in-place form;
    `apply_inplace` copies its result into the target."""

    in_place = False
    kernel_into = None
    differentiable = True

    def rows(self, n: int, nranks: int) -> int:
        raise NotImplementedError(f"{self.name}: a gather/scatter OpDef defines rows() (the base class has none)")

    def infer_meta(self, x: Meta, nranks=1, **attrs) -> Meta:
        return Meta((self.rows(x.shape[0], nranks) if x.shape[0] >= 0 else -1, *x.shape[1:]), x.dtype)


@register
class AllGather(_Reshaping):
    """Every rank's x stacked along axis 0 in rank order: shape [nranks * d0, ...]."""

    name = "c_allgather"

    def communicate(self, comm, x, **attrs):
        return comm.allgather(x)

    def rows(self, n, nranks):
        return n * nranks

    def grad(self, node, g):
        # Each rank's x appears once in every rank's output: its gradient is the sum over ranks of that slice.
        attrs = {"nranks": node.attrs.get("nranks", 1), "ring_id": node.attrs.get("ring_id", 0)}
        return (apply(ReduceScatter, (g,), attrs),)


@register
class ReduceScatter(_Reshaping):
    """The sum (or `reduce_type`) over ranks of x, split along axis 0 into nranks pieces: rank r keeps piece r."""

    name = "c_reducescatter"

    def communicate(self, comm, x, reduce_type="sum", **attrs):
        return comm.reduce_scatter(x, reduce_type)

    def rows(self, n, nranks):
        return n // nranks

    def grad(self, node, g):
        if node.attrs.get("reduce_type", "sum") != "sum":
            raise RuntimeError(f"reduce_scatter: no gradient for reduce_type {node.attrs['reduce_type']!r}")
        attrs = {"nranks": node.attrs.get("nranks", 1), "ring_id": node.attrs.get("ring_id", 0)}
        return (apply(AllGather, (g,), attrs),)


@register
class Scatter(_Reshaping):
    """Rank `root`'s x split along axis 0 into nranks pieces: rank r receives piece r (other ranks' x is only
    a buffer of the right shape)."""

    name = "c_scatter"
    differentiable = False

    def communicate(self, comm, x, root=0, **attrs):
        return comm.scatter(x, root)

    def rows(self, n, nranks):
        return n // nranks


@register
class AllToAll(_Reshaping):
    """x split along axis 0 into nranks pieces; piece j goes to rank j, and rank r's output stacks the pieces r
    of every rank in rank order (Paddle's Gloo backend refuses it on the CPU; MPI does it)."""

    name = "alltoall"

    def communicate(self, comm, x, **attrs):
        return comm.alltoall(x)

    def rows(self, n, nranks):
        return n

    def grad(self, node, g):
        return (apply(self, (g,), node.attrs),)  # the transpose of a permutation of pieces is its inverse: itself


@register
class Send(_Reshaping):
    """Send x to rank `peer` (its output is x itself, so a Program keeps the op)."""

    name = "send_v2"
    differentiable = False

    def communicate(self, comm, x, peer=0, **attrs):
        comm.send(x, peer)
        return x.copy()

    def rows(self, n, nranks):
        return n


@register
class Recv(_Collective):
    """Receive into x (written in place) what rank `peer` sent. On a group of one this rank sent it to itself,
    and x holds it already."""

    name = "recv_v2"

    def communicate(self, comm, buf, peer=0, **attrs):
        comm.recv(buf, peer)


@register
class Barrier(_Collective):
    """Wait until every rank of the ring has reached this op. Passes x on unchanged."""

    name = "barrier"

    def communicate(self, comm, buf, **attrs):
        comm.barrier()


@register
class SyncCommStream(_Collective):
    """Wait until every all-reduce started on the ring with use_calc_stream=False has finished. Passes x on
    unchanged (Paddle's op of this name ties the tensors it guards to it)."""

    name = "c_sync_comm_stream"

    def communicate(self, comm, buf, **attrs):
        comm.wait_all()
