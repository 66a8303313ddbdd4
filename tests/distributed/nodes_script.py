"""What every rank of the two-node launch tests runs (tests/distributed/test_nodes.py): checks that the ranks of
two launchers joined into one job with Paddle's variables, then all-reduces and trains a DataParallel step.

`python nodes_script.py` checks itself on every rank; with the argument `fail`, global rank 1 of the second node
raises after the job has formed; with `hang`, every rank writes its pid to pid.<rank> and sleeps."""

from __future__ import annotations

import os
import sys
import time

import numpy as np

import minipaddle as paddle
import minipaddle.distributed as dist


def main() -> None:
    dist.init_parallel_env()
    r, n = dist.get_rank(), dist.get_world_size()
    env = os.environ
    assert env["PADDLE_TRAINER_ID"] == str(r) and env["PADDLE_TRAINERS_NUM"] == str(n), (r, n)
    endpoints = env["PADDLE_TRAINER_ENDPOINTS"].split(",")
    assert len(endpoints) == n and env["PADDLE_CURRENT_ENDPOINT"] == endpoints[r]
    local = int(env["PADDLE_LOCAL_RANK"])
    offset = r - local  # the ranks of the nodes before this one
    if len(sys.argv) > 1 and sys.argv[1] == "fail" and offset > 0 and local == n - offset - 1:
        raise RuntimeError(f"rank {r} of the second node cannot go on")

    if len(sys.argv) > 1 and sys.argv[1] == "hang":  # for a launcher to be killed: say who we are, then wait
        with open(f"pid.{r}", "w") as f:
            f.write(str(os.getpid()))
        time.sleep(600)

    t = paddle.to_tensor([float(r + 1)])
    dist.all_reduce(t)
    assert t.item() == n * (n + 1) / 2, t.item()
    ranks = []
    dist.all_gather_object(ranks, (r, env["PADDLE_NNODES"], local))
    assert [g[0] for g in ranks] == list(range(n)) and all(g[1] == "2" for g in ranks), ranks

    # DataParallel across the nodes: rank r feeds [[r+1, 0]] through Linear(2, 1); every rank gets the mean
    paddle.seed(r)  # different weights per rank: rank 0's are broadcast
    model = paddle.DataParallel(paddle.nn.Linear(2, 1))
    model(paddle.to_tensor([[r + 1.0, 0.0]])).sum().backward()
    grad = model._layers.weight.grad.numpy().ravel()
    assert np.allclose(grad, [(n + 1) / 2, 0.0]), grad
    weights = []
    dist.all_gather_object(weights, model._layers.weight.numpy().tolist())
    assert all(w == weights[0] for w in weights)
    print(f"rank {r} of {n} (local {local}): joined, all_reduce and DataParallel agree", flush=True)


if __name__ == "__main__":
    main()
