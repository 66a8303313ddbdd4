"""What the ranks run in the distributed tests (top-level functions, so spawn can pickle them).

Each worker checks its results itself with asserts: an assert failing on any rank makes spawn raise in the test
process, naming the rank and carrying its traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal

import numpy as np

import minipaddle as paddle
import minipaddle.distributed as dist
from minipaddle import nn


def destroyed_groups() -> None:
    """destroy_process_group: one group freed leaves the others working; with None the environment goes."""
    dist.init_parallel_env()
    g = dist.new_group([0, 1])
    dist.destroy_process_group(g)
    assert dist.get_group(g.id) is None and dist.is_initialized()
    t = paddle.to_tensor([1.0 + dist.get_rank()])
    dist.all_reduce(t)  # the default group still communicates
    assert t.item() == 3.0
    dist.destroy_process_group()
    assert not dist.is_initialized() and dist.get_group(0) is None


def collectives() -> None:
    dist.init_parallel_env()
    r, n = dist.get_rank(), dist.get_world_size()
    assert n == 2 and dist.is_initialized() and os.environ["PADDLE_TRAINER_ID"] == str(r)
    env = dist.ParallelEnv()
    assert (env.rank, env.world_size) == (r, 2) and env.current_endpoint == env.trainer_endpoints[r]

    t = paddle.to_tensor([r + 1.0, 10.0 * (r + 1)])
    dist.all_reduce(t)
    assert t.tolist() == [3.0, 30.0]
    for op, want in ((dist.ReduceOp.MAX, 2.0), (dist.ReduceOp.MIN, 1.0), (dist.ReduceOp.PROD, 2.0),
                     (dist.ReduceOp.AVG, 1.5)):  # fmt: skip
        t = paddle.to_tensor([r + 1.0])
        dist.all_reduce(t, op=op)
        assert t.item() == want, (op, t.item())
    t = paddle.to_tensor([5.0 * r])
    task = dist.broadcast(t, src=1, sync_op=False)
    assert task.wait() and t.item() == 5.0
    out = []
    dist.all_gather(out, paddle.to_tensor([r, r]))
    assert [o.tolist() for o in out] == [[0, 0], [1, 1]]
    t = paddle.to_tensor([r + 1.0])
    dist.reduce(t, dst=0)
    assert t.item() == (3.0 if r == 0 else 2.0)  # the non-destination keeps its own value, as Paddle
    t = paddle.zeros([2])
    dist.scatter(t, [paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])] if r == 0 else None, src=0)
    assert t.tolist() == ([1.0, 2.0] if r == 0 else [3.0, 4.0])
    objs = []
    dist.all_gather_object(objs, {"rank": r})
    assert objs == [{"rank": 0}, {"rank": 1}]
    out = []
    dist.alltoall([paddle.to_tensor([10.0 * r + j]) for j in range(n)], out)
    assert [o.item() for o in out] == [float(r), 10.0 + r]
    t = paddle.zeros([1])
    dist.reduce_scatter(t, [paddle.to_tensor([1.0 + r]), paddle.to_tensor([10.0 + r])])
    assert t.item() == (3.0 if r == 0 else 21.0)
    if r == 0:
        dist.send(paddle.to_tensor([42.0]), dst=1)
    else:
        t = paddle.zeros([1])
        dist.recv(t, src=0)
        assert t.item() == 42.0
    t = paddle.zeros([3])
    recv_task = dist.irecv(t, src=1 - r)  # both post the receive first: isend must not block
    send_task = dist.isend(paddle.to_tensor([r, r, r], dtype="float32"), dst=1 - r)
    send_task.wait()
    recv_task.wait()
    assert t.tolist() == [1 - r] * 3
    got = []
    dist.gather(paddle.to_tensor([r + 5]), got if r == 1 else None, dst=1)
    assert [g.item() for g in got] == ([5, 6] if r == 1 else [])
    objs = [r, "x"] if r == 1 else [None]
    dist.broadcast_object_list(objs, src=1)
    assert objs == [1, "x"]
    objs = []
    dist.scatter_object_list(objs, [{"to": 0}, {"to": 1}] if r == 0 else None, src=0)
    assert objs == [{"to": r}]
    t = paddle.zeros([2])
    dist.alltoall_single(paddle.to_tensor([10.0 * r, 10.0 * r + 1]), t)
    assert t.tolist() == [float(r), 10.0 + r]
    g = dist.new_group([0, 1])
    t = paddle.to_tensor([1.0])
    dist.all_reduce(t, group=g)
    assert t.item() == 2.0 and dist.get_group(g.id) is g
    solo = dist.new_group([1])
    t = paddle.to_tensor([7.0 + r])
    dist.all_reduce(t, group=solo)  # rank 0 is no member: nothing happens there
    assert t.item() == 7.0 + r and solo.is_member() == (r == 1)

    # the communication-stream form DataParallel uses: started, then waited for by c_sync_comm_stream
    from minipaddle.core.inplace import apply_inplace
    from minipaddle.ops import collective as ops

    a, b = paddle.to_tensor([r + 1.0]), paddle.to_tensor([10.0 * (r + 1)])
    apply_inplace(ops.AllReduceSum, a, (a,), {"use_calc_stream": False})
    apply_inplace(ops.AllReduceAvg, b, (b,), {"use_calc_stream": False})
    apply_inplace(ops.SyncCommStream, b, (b,), {})
    assert (a.item(), b.item()) == (3.0, 15.0)
    c = paddle.to_tensor([1.0])  # a mismatch (sum on rank 0, max on rank 1) is found before any data is sent
    try:
        apply_inplace(ops.AllReduceSum if r == 0 else ops.AllReduceMax, c, (c,), {"use_calc_stream": False})
        raise AssertionError("no error for a mismatched non-blocking all-reduce")
    except RuntimeError as e:
        assert "collective mismatch" in str(e), e
        assert "rank 0: collective #" in str(e) and "all_reduce[sum](dtype=float32, shape=[1], root=-1)" in str(e)
        assert "rank 1: collective #" in str(e) and "all_reduce[max](dtype=float32, shape=[1], root=-1)" in str(e)
    # different sizes: the data of an all-reduce goes only after the signatures matched (MPI's behaviour for
    # all-reduces of different sizes is undefined: MPICH may abort the job, "message truncated")
    d = paddle.ones([2 + r, 3])
    try:
        apply_inplace(ops.AllReduceSum, d, (d,), {"use_calc_stream": False})
        raise AssertionError("no error for non-blocking all-reduces of different sizes")
    except RuntimeError as e:
        assert "rank 0: collective #" in str(e) and "shape=[2, 3]" in str(e) and "shape=[3, 3]" in str(e), e
    e = paddle.to_tensor([r + 1.0])  # and the job goes on: the calls after a mismatch still agree
    dist.all_reduce(e)
    assert e.item() == 3.0

    # the gradient of all_reduce(sum) is the all-reduced gradient
    x = paddle.to_tensor([1.0 + r], stop_gradient=False)
    y = x * 1.0
    dist.all_reduce(y)
    (y * (r + 1.0)).sum().backward()
    assert x.grad.item() == 3.0

    # static mode: the collectives are ops of the Program
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            v = paddle.static.data("v", [2], "float32")
            dist.all_reduce(v)
            dist.broadcast(v, src=0)
        types = [op.type for op in main.global_block().ops]
        assert "c_allreduce_sum" in types and "c_broadcast" in types, types
        exe = paddle.static.Executor()
        (res,) = exe.run(main, feed={"v": np.array([r + 1.0, 2.0], "float32")}, fetch_list=[v])
        assert res.tolist() == [3.0, 4.0], res
    finally:
        paddle.disable_static()
    dist.barrier()


def rank_fails(how: str) -> None:
    """Rank 1 fails (raises, or is killed); rank 0 waits in a collective and must not hang."""
    dist.init_parallel_env()
    dist.barrier()
    if dist.get_rank() == 1:
        if how == "raise":
            raise ValueError("rank 1 fails on purpose")
        os.kill(os.getpid(), signal.SIGKILL)
    t = paddle.ones([4])
    dist.all_reduce(t)  # never completes: rank 1 is gone


def write_pid_and_wait(directory: str) -> None:
    """Each rank writes its pid to directory/pid.<rank>, then waits in a collective rank 0 never joins."""
    import time

    dist.init_parallel_env()
    with open(os.path.join(directory, f"pid.{dist.get_rank()}"), "w") as f:
        f.write(str(os.getpid()))
    if dist.get_rank() == 0:
        time.sleep(600)
    dist.barrier()


def mismatch(how: str) -> None:
    dist.init_parallel_env()
    r = dist.get_rank()
    if how == "shape":
        dist.all_reduce(paddle.ones([2 + r]))
    elif how == "order":
        t = paddle.ones([2])
        dist.all_reduce(t) if r == 0 else dist.broadcast(t, src=0)
    elif how == "absent":  # rank 1 does no collective at all: rank 0 times out
        if r == 0:
            dist.all_reduce(paddle.ones([2]))


# ---- DataParallel --------------------------------------------------------------------------------------------


class MLP(nn.Layer):
    def __init__(self, unused: bool = False) -> None:
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 3)
        if unused:
            self.spare = nn.Linear(16, 3)

    def forward(self, x, use_spare=False):
        h = paddle.tanh(self.fc1(x))
        return self.spare(h) if use_spare else self.fc2(h)


def _data(steps: int, batch: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(steps, batch, 6))
    ys = rng.normal(size=(steps, batch, 3))
    return xs, ys


def _train(model, opt, xs, ys, rank=None, nranks=1) -> None:
    for x, y in zip(xs, ys):
        if rank is not None:  # this rank's share of the global batch
            b = len(x) // nranks
            x, y = x[rank * b : (rank + 1) * b], y[rank * b : (rank + 1) * b]
        loss = ((model(paddle.to_tensor(x)) - paddle.to_tensor(y)) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()


def _optimizer(name: str, params):
    if name == "sgd":
        return paddle.optimizer.SGD(learning_rate=0.1, parameters=params)
    return paddle.optimizer.Adam(learning_rate=0.01, parameters=params)


def _max_diff(a: nn.Layer, b: nn.Layer) -> float:
    return max(float(np.abs(p.numpy() - q.numpy()).max()) for p, q in zip(a.parameters(), b.parameters()))


def data_parallel_equals_one_process(steps: int = 20, per_rank: int = 4) -> None:
    """N ranks with batch B each == one process with batch N*B, for SGD and Adam, in float64."""
    paddle.set_default_dtype("float64")
    dist.init_parallel_env()
    r, n = dist.get_rank(), dist.get_world_size()
    xs, ys = _data(steps, per_rank * n)
    for name in ("sgd", "adam"):
        paddle.seed(100 + r)  # different initial weights on each rank: DataParallel broadcasts rank 0's
        model = MLP()
        paddle.seed(100)
        single = MLP()  # rank 0's initial weights, trained alone on the whole batch
        dp = paddle.DataParallel(model, comm_buffer_size=1, last_comm_buffer_size=1)
        assert _max_diff(model, single) == 0.0
        _train(dp, _optimizer(name, dp.parameters()), xs, ys, rank=r, nranks=n)
        _train(single, _optimizer(name, single.parameters()), xs, ys)
        diff = _max_diff(model, single)
        assert diff < 1e-6, (name, diff)
        assert _max_diff(model, single) > 0 or steps == 0
        assert list(dp.state_dict()) == list(single.state_dict())  # no `_layers.` prefix
    dist.barrier()


class SavedNet(nn.Layer):
    """A net with parameters and buffers (batch norm's running statistics), for the save/load checks."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.norm = nn.BatchNorm1D(8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(paddle.tanh(self.norm(self.fc1(x))))


def save_data_parallel(directory: str) -> None:
    """Train a DataParallel SavedNet on 2 ranks, then, as Paddle's docs show, rank 0 alone saves it with
    `paddle.jit.save` (a plain inner Layer with input_spec, and an inner Layer whose forward is to_static) and
    `paddle.save(model.state_dict())`; the test process loads them (test_data_parallel.py). Rank 1 loads the
    state dict back into a DataParallel model of its own."""
    dist.init_parallel_env()
    r, n = dist.get_rank(), dist.get_world_size()
    paddle.seed(7 + r)  # different weights per rank: what is saved is rank 0's after the broadcast
    dp = paddle.DataParallel(SavedNet())
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=dp.parameters())
    xs, ys = _data(3, 4 * n)
    xs, ys = xs.astype("float32"), ys.astype("float32")
    _train(dp, opt, xs, ys, rank=r, nranks=n)
    spec = [paddle.static.InputSpec([None, 6], "float32", "x")]
    probe = np.random.default_rng(3).normal(size=(5, 6)).astype("float32")
    dp.eval()  # the inference form: batch norm on this rank's running statistics
    static_dp = paddle.DataParallel(paddle.jit.to_static(SavedNet(), input_spec=spec))  # forward is to_static
    static_dp.set_state_dict(dp.state_dict())
    static_dp.eval()
    if r == 0:
        paddle.jit.save(static_dp, os.path.join(directory, "static", "net"))  # input_spec from to_static
        paddle.jit.save(dp, os.path.join(directory, "plain", "net"), input_spec=spec)
        paddle.save(dp.state_dict(), os.path.join(directory, "net.pdparams"))
        expected = {f"param:{k}": v.numpy() for k, v in dp.state_dict().items()}
        with paddle.no_grad():
            out = dp(paddle.to_tensor(probe)).numpy()
        np.savez(os.path.join(directory, "expected.npz"), probe=probe, out=out, **expected)
    dist.barrier()
    # the saved state dict loads into a DataParallel model on every rank (its keys have no `_layers.`)
    other = paddle.DataParallel(SavedNet())
    missing, unexpected = other.set_state_dict(paddle.load(os.path.join(directory, "net.pdparams")))
    assert not missing and not unexpected, (missing, unexpected)
    other.eval()
    with paddle.no_grad():
        out = other(paddle.to_tensor(probe)).numpy()
    assert np.allclose(out, np.load(os.path.join(directory, "expected.npz"))["out"], atol=1e-6)
    dist.barrier()


def _graph_nodes(t) -> list:
    """The GradNodes behind `t` (through the public introspection: next_nodes)."""
    seen, stack, nodes = set(), [t._node], []
    while stack:
        node = stack.pop()
        if node is None or not hasattr(node, "next_nodes") or id(node) in seen:
            continue
        seen.add(id(node))
        nodes.append(node)
        stack.extend(node.next_nodes)
    return nodes


def data_parallel_features() -> None:
    """no_sync, unused parameters, gradient merge, recompute inside DataParallel, the timeline."""
    from minipaddle.distributed import fleet, timeline
    from minipaddle.distributed.fleet.utils import recompute

    paddle.set_default_dtype("float64")
    dist.init_parallel_env()
    r, n = dist.get_rank(), dist.get_world_size()

    # Verified on paddle 2.6: rank r's input [[r+1, 0]] through Linear(2, 1): every rank's weight.grad is the mean
    lin = nn.Linear(2, 1)
    dp = paddle.DataParallel(lin)
    dp(paddle.to_tensor([[r + 1.0, 0.0]])).sum().backward()
    assert lin.weight.grad.numpy().ravel().tolist() == [1.5, 0.0]
    lin.clear_gradients()
    with dp.no_sync():  # local accumulation only
        dp(paddle.to_tensor([[r + 1.0, 0.0]])).sum().backward()
    assert lin.weight.grad.numpy().ravel()[0] == r + 1.0
    dp(paddle.to_tensor([[r + 1.0, 0.0]])).sum().backward()  # synced: the mean of the accumulated sums
    assert lin.weight.grad.numpy().ravel()[0] == (1 + 1 + 2 + 2) / 2

    # each .grad is a view into its bucket's buffer, so backward accumulates where the all-reduce reads and the
    # average is left there; a .grad that is not the view (None after clear_grad(set_to_zero=False), or one the
    # user set) goes into the buffer once and is replaced by the view
    flat = dp._reducer.flats[0].numpy()
    assert all(np.shares_memory(p.grad.numpy(), flat) for p in lin.parameters())
    views = [p.grad for p in lin.parameters()]
    lin.weight.clear_grad(set_to_zero=False)
    lin.bias.grad = paddle.to_tensor([10.0 * (r + 1)])
    dp(paddle.to_tensor([[r + 1.0, 0.0]])).sum().backward()
    assert all(p.grad is v for p, v in zip(lin.parameters(), views))  # the views again
    assert lin.weight.grad.numpy().ravel().tolist() == [1.5, 0.0]
    assert lin.bias.grad.numpy().tolist() == [(10 + 1 + 20 + 1) / 2]
    lin.clear_gradients()  # zeros, in place: the views stay, and the next backward adds into them
    assert all(p.grad is v for p, v in zip(lin.parameters(), views)) and not flat.any()
    dp(paddle.to_tensor([[r + 1.0, 0.0]])).sum().backward()
    assert lin.weight.grad.numpy().ravel().tolist() == [1.5, 0.0] and lin.bias.grad.numpy().tolist() == [1.0]
    lin.clear_gradients()

    # unused parameters: a clear error naming them without the flag; with it, training stays in step
    paddle.seed(3)
    dp = paddle.DataParallel(MLP(unused=True))
    dp(paddle.ones([2, 6])).sum().backward()
    try:
        dp(paddle.ones([2, 6]))
        raise AssertionError("no error for an unused parameter")
    except RuntimeError as e:
        assert "spare.weight" in str(e) and "find_unused_parameters=True" in str(e), e
    paddle.seed(3)
    model = MLP(unused=True)
    dp = paddle.DataParallel(model, find_unused_parameters=True)
    for step in range(3):  # rank 1 uses the spare head, rank 0 the main one
        dp(paddle.ones([2, 6]) * (step + 1), use_spare=(r == 1)).sum().backward()
        grads = [p.grad.numpy() for p in model.parameters()]
        everyone = []
        dist.all_gather_object(everyone, grads)
        assert all(np.array_equal(a, b) for a, b in zip(everyone[0], everyone[1])), "ranks' gradients differ"
        model.clear_gradients()
    # a parameter found unused by the walk but used in the loss after forward: its gradient would not be synced,
    # so it is refused, as paddle's EagerReducer refuses a parameter marked ready twice
    out = dp(paddle.ones([2, 6]))
    try:
        (out.sum() + model.spare.weight.sum()).backward()
        raise AssertionError("no error for a gradient of a parameter found unused")
    except RuntimeError as e:
        assert "spare.weight" in str(e) and "marked ready" in str(e) and "3)" in str(e), e
    model.clear_gradients()

    # gradient merge over k steps of batch B == one step of batch k*B
    k, b = 3, 2
    xs, ys = _data(k * 2, b * n, seed=5)
    paddle.seed(7)
    merged = MLP()
    strategy = fleet.DistributedStrategy()
    strategy.gradient_merge = True
    strategy.gradient_merge_configs = {"k_steps": k, "avg": True}
    fleet.init(is_collective=True, strategy=strategy)
    fleet_model = fleet.distributed_model(merged)
    opt = fleet.distributed_optimizer(paddle.optimizer.SGD(learning_rate=0.1, parameters=merged.parameters()))
    _train(fleet_model, opt, xs, ys, rank=r, nranks=n)
    paddle.seed(7)
    big = MLP()
    big_opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=big.parameters())
    _train(big, big_opt, xs.reshape(2, k * b * n, 6), ys.reshape(2, k * b * n, 3))  # batches k*B*N, same samples
    # (the k micro-batches of a merged step are consecutive rows, and the ranks split each micro-batch)
    assert fleet.worker_num() == n and fleet.worker_index() == r
    assert _max_diff(merged, big) < 1e-6, _max_diff(merged, big)

    # strategy.amp: the forward under auto_cast, the loss scaled, the step unscaled (and skipped on Inf on any rank)
    paddle.set_default_dtype("float32")
    strategy = fleet.DistributedStrategy()
    strategy.amp = True
    strategy.amp_configs = {"init_loss_scaling": 1024.0, "decr_every_n_nan_or_inf": 1, "decr_ratio": 0.5}
    fleet.init(is_collective=True, strategy=strategy)
    xs, ys = _data(2, 4 * n, seed=9)
    paddle.seed(13)
    net = MLP()
    opt = fleet.distributed_optimizer(paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters()))
    amp_model = fleet.distributed_model(net)  # (after the optimizer, as in Paddle's examples)
    paddle.seed(13)
    alone = MLP()  # one process, the whole batch, auto_cast and GradScaler written out by hand
    alone_opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=alone.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    for x, y in zip(xs, ys):
        share = slice(r * 4, (r + 1) * 4)
        with paddle.amp.cast_log() as log:
            out = amp_model(paddle.to_tensor(x[share], dtype="float32"))
        assert [c.dtype for c in log if c.op == "matmul"] == ["float16", "float16"], log
        ((out - paddle.to_tensor(y[share], dtype="float32")) ** 2).mean().backward()
        with paddle.amp.auto_cast():
            out = alone(paddle.to_tensor(x, dtype="float32"))
        loss = ((out - paddle.to_tensor(y, dtype="float32")) ** 2).mean()
        scaler.scale(loss).backward()
        for p, q in zip(net.parameters(), alone.parameters()):  # both scaled by 1024 before the step
            assert np.abs(p.grad.numpy() - q.grad.numpy()).max() <= 1e-2 * np.abs(q.grad.numpy()).max(), p.name
        opt.step()
        opt.clear_grad()
        scaler.step(alone_opt)
        scaler.update()
        alone_opt.clear_grad()
    assert 0 < _max_diff(net, alone) < 2e-3, _max_diff(net, alone)  # float16 sums in another order
    before = [p.numpy().copy() for p in net.parameters()]
    bad = np.full((4, 6), np.inf if r == 1 else 1.0, "float32")  # an Inf on rank 1 only
    (amp_model(paddle.to_tensor(bad)) ** 2).mean().backward()
    opt.step()
    opt.clear_grad()
    assert all(np.array_equal(a, p.numpy()) for a, p in zip(before, net.parameters())), "the step was not skipped"
    assert float(fleet.fleet._FLEET.scaler.get_loss_scaling().numpy()[0]) == 512.0  # on every rank
    paddle.set_default_dtype("float64")

    # strategy.recompute: the named sublayers run through recompute, with the same gradients
    strategy = fleet.DistributedStrategy()
    strategy.recompute = True
    strategy.recompute_configs = {"checkpoints": ["fc1"]}
    fleet.init(is_collective=True, strategy=strategy)
    paddle.seed(17)
    plain, checkpointed = MLP(), MLP()
    checkpointed.set_state_dict(plain.state_dict())
    x = paddle.to_tensor(np.random.default_rng(r).normal(size=(4, 6)))
    paddle.DataParallel(plain)(x).sum().backward()
    out = fleet.distributed_model(checkpointed)(x)
    assert "recompute" in {node.type for node in _graph_nodes(out)}
    out.sum().backward()
    assert max(float(np.abs(p.grad.numpy() - q.grad.numpy()).max())
               for p, q in zip(plain.parameters(), checkpointed.parameters())) < 1e-12  # fmt: skip
    strategy.recompute_configs = {"checkpoints": ["fc9"]}
    try:
        fleet.distributed_model(MLP())
        raise AssertionError("no error for an unknown checkpoint")
    except ValueError as e:
        assert "['fc9'], which are not sublayers" in str(e) and "'fc1'" in str(e), e
    fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())

    # recompute inside DataParallel: the same gradients as without
    paddle.seed(11)
    plain = MLP()
    paddle.seed(11)
    again = MLP()
    x = paddle.to_tensor(np.random.default_rng(r).normal(size=(4, 6)))
    dp_plain, dp_again = paddle.DataParallel(plain), paddle.DataParallel(again)
    dp_plain(x).sum().backward()
    recompute(dp_again, x).sum().backward()
    assert max(float(np.abs(p.grad.numpy() - q.grad.numpy()).max())
               for p, q in zip(plain.parameters(), again.parameters())) < 1e-12  # fmt: skip

    # the timeline: forward, backward, each bucket's all-reduce, the optimizer step, gathered on rank 0
    paddle.seed(1)
    model = MLP()
    dp = paddle.DataParallel(model, comm_buffer_size=1, last_comm_buffer_size=1)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    with timeline.record() as rec:
        _train(dp, opt, *_data(2, 4))
    trace = rec.gather()
    if r == 0:
        assert trace["world_size"] == 2 and set(trace["ranks"]) == {0, 1}
        kinds = {s["kind"] for spans in trace["ranks"].values() for s in spans}
        assert {"forward", "backward", "allreduce", "optimizer"} <= kinds, kinds
    else:
        assert trace is None

    # overlap: with buckets smaller than a layer, fc2's bucket is all-reduced while fc1's gradients are computed
    paddle.seed(1)
    model = MLP()
    dp = paddle.DataParallel(model, comm_buffer_size=0.0004, last_comm_buffer_size=0.0004)  # ~420 bytes
    assert [[q.name for q in bucket] for bucket in dp._reducer.buckets] == [
        [model.fc2.bias.name, model.fc2.weight.name], [model.fc1.bias.name], [model.fc1.weight.name]]  # fmt: skip
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    with timeline.record() as rec:
        _train(dp, opt, *_data(1, 4))
    first = next(s for s in rec.spans if s["name"] == "all-reduce bucket 0")
    later = [s for s in rec.spans if s["kind"] == "backward" and s["name"] == "matmul" and s["start"] > first["start"]]
    assert later, "no gradient matmul ran after the first bucket's all-reduce started: no overlap"
    assert first["end"] >= first["start"]

    # the buckets' flattening is numpy into buffers kept from step to step: a synced backward records only the
    # 3 buckets' all-reduces and the final c_sync_comm_stream more than a no_sync one (no reshape/concat/split ops)
    x = paddle.to_tensor(np.ones((4, 6)))
    flats = None
    for step, context in enumerate((dp.no_sync, contextlib.nullcontext, contextlib.nullcontext)):
        with timeline.record() as rec, context():
            dp(x).sum().backward()
        names = [s["name"] for s in rec.spans if s["kind"] in ("backward", "communication")]
        if step == 0:
            local = names
        else:
            assert sorted(names) == sorted(local + ["c_allreduce_sum"] * 3 + ["c_sync_comm_stream"]), names
            if flats is not None:
                assert all(a is b for a, b in zip(flats, dp._reducer.flats)), "the buckets' buffers were remade"
            flats = list(dp._reducer.flats)
        model.clear_gradients()
    dist.barrier()
