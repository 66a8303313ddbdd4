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

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register

__all__ = ["RINGS", "REDUCE_KINDS"]

RINGS: dict[int, object] = {}  # ring_id -> communicator (filled by minipaddle.distributed)
REDUCE_KINDS = ("sum", "max", "min", "prod", "avg")


def _comm(ring_id: int):
    return RINGS.get(ring_id)


class _AllReduce(OpDef):
    """Every rank ends with the reduction (sum, max, ...) of all ranks' x. Written in place by all_reduce."""

    kind = "sum"
    saves_inputs = False
    amp = "promote"

    def kernel(self, x, ring_id=0, use_calc_stream=True):
        out = x.copy()
        self.kernel_into(out, out, ring_id=ring_id)
        return out

    def kernel_into(self, out, x, ring_id=0, use_calc_stream=True):
        if out is not x:
            out[...] = x
        comm = _comm(ring_id)
        if comm is None:
            return
        if use_calc_stream:
            comm.allreduce(out, self.kind)
        else:  # Paddle's communication stream: started now, finished by c_sync_comm_stream on the ring
            comm.start_allreduce(out, self.kind)

    def grad(self, node, g):
        # y_r = sum_s x_s on every rank, so dL/dx_s = sum_r dL/dy_r: the gradient is all-reduced too.
        return (apply(self, (g,), {**node.attrs, "use_calc_stream": True}),)

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


@register
class AllReduceSum(_AllReduce):
    name = "c_allreduce_sum"


@register
class AllReduceAvg(_AllReduce):
    """The mean over ranks (Paddle's Gloo backend refuses AVG; MPI's SUM divided by the number of ranks)."""

    name = "c_allreduce_avg"
    kind = "avg"


@register
class AllReduceMax(_AllReduce):
    name = "c_allreduce_max"
    kind = "max"
    differentiable = False


@register
class AllReduceMin(_AllReduce):
    name = "c_allreduce_min"
    kind = "min"
    differentiable = False


@register
class AllReduceProd(_AllReduce):
    name = "c_allreduce_prod"
    kind = "prod"
    differentiable = False


ALLREDUCE_OPS = {op.kind: op for op in (AllReduceSum, AllReduceAvg, AllReduceMax, AllReduceMin, AllReduceProd)}


class _Reduce(OpDef):
    """The rank `root_id` ends with the reduction of all ranks' x; the others keep their x (as Paddle)."""

    kind = "sum"
    saves_inputs = False
    differentiable = False

    def kernel(self, x, root_id=0, ring_id=0, use_calc_stream=True):
        out = x.copy()
        self.kernel_into(out, out, root_id=root_id, ring_id=ring_id)
        return out

    def kernel_into(self, out, x, root_id=0, ring_id=0, use_calc_stream=True):
        if out is not x:
            out[...] = x
        comm = _comm(ring_id)
        if comm is not None:
            comm.reduce(out, root_id, self.kind)

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


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
class Broadcast(OpDef):
    """Every rank ends with rank `root`'s x."""

    name = "c_broadcast"
    saves_inputs = False
    differentiable = False

    def kernel(self, x, root=0, ring_id=0, use_calc_stream=True):
        out = x.copy()
        self.kernel_into(out, out, root=root, ring_id=ring_id)
        return out

    def kernel_into(self, out, x, root=0, ring_id=0, use_calc_stream=True):
        if out is not x:
            out[...] = x
        comm = _comm(ring_id)
        if comm is not None:
            comm.broadcast(out, root)

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


@register
class AllGather(OpDef):
    """Every rank's x stacked along axis 0 in rank order: shape [nranks * d0, ...]."""

    name = "c_allgather"
    saves_inputs = False

    def kernel(self, x, nranks=1, ring_id=0, use_calc_stream=True):
        comm = _comm(ring_id)
        if comm is None:
            return x.copy()
        return comm.allgather(x)

    def grad(self, node, g):
        # Each rank's x appears once in every rank's output: its gradient is the sum over ranks of that slice.
        return (
            apply(
                ReduceScatter, (g,), {"nranks": node.attrs.get("nranks", 1), "ring_id": node.attrs.get("ring_id", 0)}
            ),
        )

    def infer_meta(self, x: Meta, nranks=1, **attrs) -> Meta:
        return Meta((x.shape[0] * nranks if x.shape[0] >= 0 else -1, *x.shape[1:]), x.dtype)


@register
class ReduceScatter(OpDef):
    """The sum (or `reduce_type`) over ranks of x, split along axis 0 into nranks pieces: rank r keeps piece r."""

    name = "c_reducescatter"
    saves_inputs = False

    def kernel(self, x, nranks=1, ring_id=0, reduce_type="sum", use_calc_stream=True):
        comm = _comm(ring_id)
        if comm is None:
            return x.copy()
        return comm.reduce_scatter(x, reduce_type)

    def grad(self, node, g):
        if node.attrs.get("reduce_type", "sum") != "sum":
            raise RuntimeError(f"reduce_scatter: no gradient for reduce_type {node.attrs['reduce_type']!r}")
        return (
            apply(AllGather, (g,), {"nranks": node.attrs.get("nranks", 1), "ring_id": node.attrs.get("ring_id", 0)}),
        )

    def infer_meta(self, x: Meta, nranks=1, **attrs) -> Meta:
        return Meta((x.shape[0] // nranks if x.shape[0] >= 0 else -1, *x.shape[1:]), x.dtype)


@register
class Scatter(OpDef):
    """Rank `root`'s x split along axis 0 into nranks pieces: rank r receives piece r (other ranks' x is only
    a buffer of the right shape)."""

    name = "c_scatter"
    saves_inputs = False
    differentiable = False

    def kernel(self, x, root=0, nranks=1, ring_id=0, use_calc_stream=True):
        comm = _comm(ring_id)
        if comm is None:
            return x.copy()
        return comm.scatter(x, root)

    def infer_meta(self, x: Meta, nranks=1, **attrs) -> Meta:
        return Meta((x.shape[0] // nranks if x.shape[0] >= 0 else -1, *x.shape[1:]), x.dtype)


@register
class AllToAll(OpDef):
    """x split along axis 0 into nranks pieces; piece j goes to rank j, and rank r's output stacks the pieces r
    of every rank in rank order (Paddle's Gloo backend refuses it on the CPU; MPI does it)."""

    name = "alltoall"
    saves_inputs = False

    def kernel(self, x, ring_id=0, use_calc_stream=True):
        comm = _comm(ring_id)
        if comm is None:
            return x.copy()
        return comm.alltoall(x)

    def grad(self, node, g):
        return (apply(self, (g,), node.attrs),)  # the transpose of a permutation of pieces is its inverse: itself

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


@register
class Send(OpDef):
    """Send x to rank `peer` (its output is x itself, so a Program keeps the op)."""

    name = "send_v2"
    saves_inputs = False
    differentiable = False

    def kernel(self, x, peer=0, ring_id=0, use_calc_stream=True):
        comm = _comm(ring_id)
        if comm is not None:
            comm.send(x, peer)
        return x.copy()

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


@register
class Recv(OpDef):
    """Receive into x (written in place) what rank `peer` sent."""

    name = "recv_v2"
    saves_inputs = False
    differentiable = False

    def kernel(self, x, peer=0, ring_id=0, use_calc_stream=True):
        out = x.copy()
        self.kernel_into(out, out, peer=peer, ring_id=ring_id)
        return out

    def kernel_into(self, out, x, peer=0, ring_id=0, use_calc_stream=True):
        comm = _comm(ring_id)
        if comm is None:  # a group of one: this rank sent it to itself, and x holds it already
            out[...] = x
            return
        comm.recv(out, peer)

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


@register
class Barrier(OpDef):
    """Wait until every rank of the ring has reached this op. Passes x on unchanged."""

    name = "barrier"
    saves_inputs = False
    differentiable = False

    def kernel(self, x, ring_id=0):
        comm = _comm(ring_id)
        if comm is not None:
            comm.barrier()
        return np.array(x, copy=True)

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


@register
class SyncCommStream(OpDef):
    """Wait until every all-reduce started on the ring with use_calc_stream=False has finished. Passes x on
    unchanged (Paddle's op of this name ties the tensors it guards to it)."""

    name = "c_sync_comm_stream"
    saves_inputs = False
    differentiable = False

    def kernel(self, x, ring_id=0):
        out = x.copy()
        self.kernel_into(out, out, ring_id=ring_id)
        return out

    def kernel_into(self, out, x, ring_id=0):
        if out is not x:
            out[...] = x
        comm = _comm(ring_id)
        if comm is not None:
            comm.wait_all()

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x
