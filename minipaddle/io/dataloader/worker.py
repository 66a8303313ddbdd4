"""`paddle.io.dataloader.worker` of paddle 2.6: what a worker process knows about itself, re-exported from
io/worker.py."""

from minipaddle.io.worker import WorkerInfo, get_worker_info

__all__ = ["get_worker_info", "WorkerInfo"]
