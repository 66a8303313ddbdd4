"""One training script for every way of starting ranks: `python -m minipaddle.distributed.launch`, a plain
`mpiexec -n 2 python fit_script.py`, and `spawn(main)`. paddle.Model.fit trains data-parallel on 2 ranks (each
reading its share through DistributedBatchSampler); only rank 0 writes the checkpoints.

Usage: fit_script.py SAVE_DIR [fail]
"""

import sys

import numpy as np

import minipaddle as paddle
import minipaddle.distributed as dist
from minipaddle import nn


class Squares(paddle.io.Dataset):
    def __init__(self) -> None:
        rng = np.random.default_rng(0)
        self.x = rng.normal(size=(32, 4)).astype("float32")
        self.y = (self.x @ np.array([[1.0], [-2.0], [0.5], [3.0]], "float32")).astype("float32")

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def main(save_dir: str, fail: bool = False) -> None:
    dist.init_parallel_env()
    rank = dist.get_rank()
    if fail and rank == 1:
        raise RuntimeError("rank 1 cannot go on")
    paddle.seed(rank)  # different initial weights: DataParallel starts every rank from rank 0's
    net = nn.Linear(4, 1)
    model = paddle.Model(net)
    model.prepare(paddle.optimizer.SGD(learning_rate=0.05, parameters=net.parameters()), nn.MSELoss())
    model.fit(Squares(), batch_size=4, epochs=2, save_dir=save_dir, verbose=0, shuffle=True)
    gathered = []
    dist.all_gather_object(gathered, net.weight.numpy().round(6).tolist())
    print(f"rank {rank} of {dist.get_world_size()}: same weights on every rank: {gathered[0] == gathered[1]}")


if __name__ == "__main__":
    main(sys.argv[1], fail=len(sys.argv) > 2 and sys.argv[2] == "fail")
