"""paddle.DataParallel: the same model on every rank, each on its own share of the batch, gradients averaged.

At construction rank 0's parameters and buffers are broadcast, so every rank starts from the same weights. The
trainable parameters are dealt into buckets in reverse order (gradients arrive last layer first): the first
bucket holds `last_comm_buffer_size` MB, the others `comm_buffer_size` MB, as Paddle's EagerReducer. A backward
hook on every parameter (core/autograd.py calls it as soon as that gradient is final, while backward goes on)
tells the reducer that its gradient is ready. Each bucket has one flat buffer, and each parameter's `.grad` is a
view into it (as Paddle's fused buffers), so backward accumulates the gradients where they are all-reduced; once
every gradient of a bucket is there, its all-reduce is started without waiting (one `c_allreduce_sum` through the
door, an MPI Iallreduce), so communication overlaps the backward of the earlier layers. After the last bucket has
started the reducer waits for them all (`c_sync_comm_stream`) and divides each buffer by the number of ranks in
place: the `.grad`s are the averages, with no copy in or out. Buckets are started in bucket order on every rank,
so ranks whose gradients arrive in different orders still make the same collectives.

MPI moves a non-blocking all-reduce forward only inside MPI calls (MPICH has no progress thread by default), so
every ready gradient tests the started ones once; `viz.plot_timeline` shows each bucket from its start to the
moment a test found it complete.
"""

from __future__ import annotations

import contextlib
import functools
import warnings

import numpy as np

from minipaddle.core.inplace import apply_inplace
from minipaddle.core.node import GradNode
from minipaddle.core.state import STATE, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.distributed import collective, parallel_env, timeline
from minipaddle.nn import Layer
from minipaddle.ops.collective import AllReduceSum, SyncCommStream

__all__ = ["DataParallel", "sync_params_buffers"]

_MB = 1024 * 1024


def sync_params_buffers(model: Layer, comm_group=None, src_rank: int = 0, is_model_parallel=False, fuse_params=True):
    """Broadcast every parameter and buffer of `model` from `src_rank` to all ranks of the group."""
    with no_grad():
        for t in [*model.parameters(), *model.buffers()]:
            if t is not None:
                collective.broadcast(t, src=src_rank, group=comm_group)


class DataParallel(Layer):
    """Run `layers` data-parallel: every rank holds a copy, gradients are averaged over the ranks in backward.

    Args:
        layers (Layer): the model.
        strategy (ParallelStrategy, optional): accepted for Paddle's signature (the environment says the ranks).
        comm_buffer_size (int): the size in MB of a gradient bucket. Default 25.
        last_comm_buffer_size (int): the size in MB of the first bucket reduced (the last layers). Default 1.
        find_unused_parameters (bool): walk the graph after each forward to find parameters that will get no
            gradient this step (their bucket is then reduced without waiting for them). Default False: every
            trainable parameter must get a gradient every step.
        group (Group, optional): the ranks taking part. Default: all.

    Example:
        >>> dist.init_parallel_env()
        >>> model = paddle.DataParallel(nn.Linear(4, 2))
        >>> loss = model(x).mean(); loss.backward()   # gradients are now the mean over ranks
    """

    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None) -> None:  # fmt: skip
        super().__init__()
        if not isinstance(layers, Layer):
            raise TypeError(f"DataParallel: layers must be a paddle.nn.Layer, got {type(layers).__name__}")
        for name, value in (("comm_buffer_size", comm_buffer_size), ("last_comm_buffer_size", last_comm_buffer_size)):
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"DataParallel: {name} must be a positive number of MB, got {value!r}")
        if not isinstance(find_unused_parameters, bool):
            raise TypeError(f"DataParallel: find_unused_parameters must be a bool, got {find_unused_parameters!r}")
        self._layers = layers
        self._strategy = strategy
        self.find_unused_parameters = find_unused_parameters
        self.group = group
        self.grad_need_sync = True
        self.comm_buffer_size = int(comm_buffer_size * _MB)
        self.last_comm_buffer_size = int(last_comm_buffer_size * _MB)
        self._reducer = None
        if parallel_env.get_world_size(group) > 1:
            if parallel_env.comm_of(group) is None and (group is None or group.is_member()):
                raise RuntimeError("DataParallel: call paddle.distributed.init_parallel_env() first")
            src = 0 if group is None else group.ranks[0]
            sync_params_buffers(layers, comm_group=group, src_rank=src)
            names = {id(p): n for n, p in layers.named_parameters()}
            params = [p for p in layers.parameters() if p.trainable and not p.stop_gradient]
            self._reducer = Reducer(params, names, group, self.last_comm_buffer_size, self.comm_buffer_size,
                                    find_unused_parameters)  # fmt: skip
        else:
            warnings.warn(
                "The program will return to single-card operation. Please check 1, whether you use spawn or "
                "fleetrun to start the program. 2, Whether it is a multi-card program. 3, Is the current "
                "environment multi-card.",
                stacklevel=2,
            )

    def forward(self, *inputs, **kwargs):
        with timeline.phase("forward"):
            outputs = self._layers(*inputs, **kwargs)
        if self._reducer is not None and self.grad_need_sync and _recording():
            self._reducer.prepare(outputs)
        return outputs

    @contextlib.contextmanager
    def no_sync(self):
        """Inside, backward accumulates gradients locally without communicating; the next synced backward
        averages the accumulated sums (gradient accumulation with one all-reduce)."""
        previous = self.grad_need_sync
        self.grad_need_sync = False
        try:
            yield
        finally:
            self.grad_need_sync = previous

    def scale_loss(self, loss):
        """Legacy (Paddle 2.x eager): returns the loss unchanged; gradients are averaged by the reducer."""
        return loss

    def apply_collective_grads(self):
        """Legacy (Paddle 2.x eager): nothing to do, the reducer averages during backward."""

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="", use_hook=True):
        """The wrapped layer's state_dict (no `_layers.` prefix), so checkpoints load into the plain model."""
        return self._layers.state_dict(destination, include_sublayers, structured_name_prefix, use_hook)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict


def _recording() -> bool:
    return STATE.grad_enabled and not STATE.static_mode


class Reducer:
    """Averages the gradients of `params` over the ranks of `group`, bucket by bucket, while backward runs.

    Each bucket has one flat buffer, and each parameter's `.grad` is a view into it (as Paddle's fused buffers),
    so backward accumulates the gradients straight into the buffer that is all-reduced: a bucket is neither
    gathered into its buffer before its all-reduce nor split back after. A `.grad` that is not the view (the first
    backward, `clear_grad(set_to_zero=False)`, a gradient the user set) is copied in once and replaced by the
    view. Each parameter's backward hook (`Tensor._register_backward_hook`: its gradient is final) counts down its
    bucket; once the next bucket's count is zero its all-reduce is started without waiting (`c_allreduce_sum`
    with use_calc_stream=False, an MPI Iallreduce), and backward goes on with the earlier layers. Every ready
    gradient lets MPI move the started all-reduces forward. When the last bucket has started, the reducer waits
    for all (`c_sync_comm_stream`) and divides each buffer by the number of ranks in place: as Paddle's
    EagerReducer (MarkGroupReady, then FinalizeBackward)."""

    def __init__(self, params: list, names: dict, group, first_bytes: int, bytes_each: int, find_unused: bool):
        self.group = group
        self.ring = 0 if group is None else group.id
        self.nranks = parallel_env.get_world_size(group)
        self.find_unused = find_unused
        self.params = params
        self.names = names
        self.buckets = _buckets(list(reversed(params)), first_bytes, bytes_each)
        self.bucket_of = {id(p): b for b, bucket in enumerate(self.buckets) for p in bucket}
        self.spans = [_spans(bucket) for bucket in self.buckets]  # each parameter's [lo, hi) in its bucket's buffer
        self.flats = [None] * len(self.buckets)  # each bucket's flat gradient buffer (a Tensor), made at first use
        self.views = [None] * len(self.buckets)  # each bucket's .grad Tensors, views into its flat buffer
        self.arrays = [None] * len(self.buckets)  # their numpy arrays (the views' storage)
        self.sizes = [len(bucket) for bucket in self.buckets]
        self.start_attrs = {"ring_id": self.ring, "use_calc_stream": False}
        self.sync_attrs = {"ring_id": self.ring}
        self.active = False
        for p in params:
            p._register_backward_hook(functools.partial(self.on_ready, id(p)))

    def prepare(self, outputs) -> None:
        """Called after each forward that will be followed by a synced backward."""
        if self.active:
            if self.arrived:  # the last backward left some bucket unreduced
                raise RuntimeError(self._unused_message())
            extra = self._used(outputs) if self.find_unused else None  # a second forward before backward
            self.used = None if extra is None else (self.used | extra)
        else:
            self.used = self._used(outputs) if self.find_unused else None
        self.active = True
        self.arrived = set()  # ids of the parameters whose gradient is ready (a second arrival counts once)
        # the gradients each bucket still awaits
        self.waiting = (
            list(self.sizes) if self.used is None else [len(self._expected(b)) for b in range(len(self.sizes))]
        )
        self.started = []  # (bucket index, the engine's InFlight) of each bucket being all-reduced
        self.next_bucket = 0
        self.comm = parallel_env.comm_of(self.group)

    def _used(self, outputs) -> set:
        """ids of the leaves the outputs depend on (a walk of the autograd graph)."""
        roots = [t._node for t in _tensors(outputs) if t._node is not None]
        leaves = {id(t) for t in _tensors(outputs) if t._node is None}
        seen, stack = set(), list(roots)
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            for edge in node.edges:
                if edge is None:
                    continue
                if type(edge[0]) is GradNode:
                    stack.append(edge[0])
                else:
                    leaves.add(id(edge[0]))
        return leaves

    def _expected(self, b: int) -> list:
        bucket = self.buckets[b]
        return bucket if self.used is None else [p for p in bucket if id(p) in self.used]

    def on_ready(self, key: int) -> None:
        """The backward hook of the parameter with id `key`: its `.grad` is final for this step; start every
        bucket, in order, now complete."""
        if not self.active:
            return
        if self.started and self.comm is not None:
            self.comm.progress()
        if key in self.arrived or (self.used is not None and key not in self.used):
            # Its gradient has been counted already (or, found unused, counted as zeros), and its bucket may be
            # all-reduced by now: this gradient would be lost or added into a buffer MPI is reducing. Paddle's
            # EagerReducer (MarkVarReady) refuses it too.
            raise RuntimeError(self._ready_twice_message(key))
        self.arrived.add(key)
        b = self.bucket_of[key]
        self.waiting[b] -= 1
        if b != self.next_bucket or self.waiting[b]:  # a later bucket (started once those before are) or not full
            return
        count = len(self.buckets)
        while self.next_bucket < count and not self.waiting[self.next_bucket]:
            self._start(self.next_bucket)
            self.next_bucket += 1
        if self.next_bucket == count:
            self._finish()

    def _start(self, b: int) -> None:
        """Start bucket b's all-reduce in place on its flat buffer (not waited for).

        The gradients are already in the buffer (their `.grad`s are views into it) except where a `.grad` was
        replaced; those are adopted here. The copies are numpy's, not ops: Paddle's EagerReducer also fills its
        buckets with kernels it calls directly, not traced ops, so a synced step adds one `c_allreduce_sum` per
        bucket and a `c_sync_comm_stream` to the ops of backward, and nothing else."""
        flat, views, arrays = self._flat(b)
        for p, view, array in zip(self.buckets[b], views, arrays):
            if p._grad is not view or view._data is not array:  # (GradScaler's unscale rebinds a .grad's storage)
                _adopt(p, view, array)
        # (no no_grad needed: the buffer is a leaf that stops gradients, so the door records nothing for it)
        apply_inplace(AllReduceSum, flat, (flat,), self.start_attrs)
        self.started.append((b, self.comm.in_flight[-1] if self.comm is not None else None))

    def _flat(self, b: int) -> tuple[Tensor, list, list]:
        """Bucket b's flat buffer, its parameters' `.grad` views and their arrays, made at its first use and kept
        (a buffer per step would cost an allocation and, for large buckets, page faults on every step). The views
        share the buffer's version counter, as views of one storage do (core/tensor.py): the all-reduce and the
        averaging bump it once for the whole bucket."""
        if self.flats[b] is None:
            bucket = self.buckets[b]
            flat = Tensor(np.empty(self.spans[b][-1][1], bucket[0]._data.dtype), stop_gradient=True)
            self.flats[b] = flat
            self.arrays[b] = [flat._data[lo:hi].reshape(p._data.shape) for p, (lo, hi) in zip(bucket, self.spans[b])]
            # stop_gradient=False: as backward makes a .grad (and as Paddle prints it)
            self.views[b] = [Tensor(a, stop_gradient=False, version=flat._version) for a in self.arrays[b]]
        return self.flats[b], self.views[b], self.arrays[b]

    def _finish(self) -> None:
        """Every bucket has started: wait for all, then divide each bucket's buffer (the `.grad`s) by the ranks."""
        last = self.flats[self.started[-1][0]]
        apply_inplace(SyncCommStream, last, (last,), self.sync_attrs)
        for b, flight in self.started:
            flat = self.flats[b]
            buf = flat._data
            np.multiply(buf, buf.dtype.type(1.0 / self.nranks), out=buf)
            flat._bump_version()  # (its views' too: they share the counter)
            if flight is not None:
                timeline.span(f"all-reduce bucket {b}", flight.started, flight.finished, kind="allreduce")
                timeline.span(f"waiting for the other ranks, bucket {b}", flight.arrived, flight.started, kind="wait")
        self.active = False
        self.started = []

    def _ready_twice_message(self, key: int) -> str:
        index = next(i for i, p in enumerate(self.params) if id(p) == key)
        param = self.params[index]
        reasons = (
            "1) in several backward passes of one step (retain_graph), some parameters are reused; 2) model "
            "parameters are used outside of forward"
        )
        if self.used is not None:
            reasons += (
                "; 3) the unused parameters were found from the return value of forward, but this one (unused "
                "there) takes part in the loss after forward, so its gradient would not be synchronized"
            )
        return (
            f"DataParallel: parameter [{index}] '{self.names.get(key, param.name)}' ({param.name}) got a gradient "
            "after it had been marked ready in this step. Pass find_unused_parameters=True if some parameters are "
            f"not used in every step. If you did, possible reasons: {reasons}."
        )

    def _unused_message(self) -> str:
        for b in range(len(self.buckets)):  # the first bucket still waiting, and whom it waits for
            missing = [p for p in self._expected(b) if id(p) not in self.arrived]
            if missing:
                break
        names = ", ".join(f"'{self.names.get(id(p), p.name)}' ({p.name})" for p in missing)
        return (
            f"DataParallel: parameter(s) {names} got no gradient in the last backward, so their gradient bucket was "
            "never all-reduced and the ranks' gradients are out of step. If some parameters are not used in every "
            "step, pass find_unused_parameters=True to paddle.DataParallel (it costs a walk of the graph each step)."
        )


def _adopt(param: Tensor, view: Tensor, array: np.ndarray) -> None:
    """Make `view` (with `array`, its place in the bucket's buffer) `param.grad`, holding the gradient's values:
    zeros where the parameter got none on this rank (unused: it then gets the others' average)."""
    grad = param._grad
    if grad is None:
        array[...] = 0
    elif grad._data.shape != array.shape:
        raise ValueError(
            f"DataParallel: the gradient of parameter {param.name} has shape {list(grad._data.shape)} but the "
            f"parameter has {list(array.shape)}; a .grad must have its parameter's shape"
        )
    else:
        array[...] = grad._data  # (in the parameter's dtype, as backward's accumulation casts)
    view._data = array
    param._grad = view


def _tensors(outputs) -> list:
    if isinstance(outputs, Tensor):
        return [outputs]
    if isinstance(outputs, (list, tuple)):
        return [t for o in outputs for t in _tensors(o)]
    if isinstance(outputs, dict):
        return [t for o in outputs.values() for t in _tensors(o)]
    return []


def _spans(bucket: list) -> list[tuple[int, int]]:
    ends = np.cumsum([p._data.size for p in bucket]).tolist()
    return list(zip([0, *ends[:-1]], ends))


def _buckets(params: list, first_bytes: int, bytes_each: int) -> list[list]:
    """Consecutive parameters of one dtype, up to the byte limit (the first bucket smaller), as Paddle's
    `eager_assign_group_by_size`."""
    buckets, current, size, limit = [], [], 0, first_bytes
    for p in params:
        nbytes = p._data.nbytes
        if current and (size + nbytes > limit or p._data.dtype != current[0]._data.dtype):
            buckets.append(current)
            current, size, limit = [], 0, bytes_each
        current.append(p)
        size += nbytes
    if current:
        buckets.append(current)
    return buckets
