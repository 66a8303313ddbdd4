"""fleet.utils.recompute's memory saving, measured: the bytes of activations the autograd graph keeps for
backward, counted with paddle.autograd.saved_tensors_hooks (a count that does not depend on the machine's load)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from minipaddle.distributed.fleet.utils import recompute

DEPTH, WIDTH, BATCH = 4, 64, 32


def _train_step(use_recompute: bool):
    """One forward+backward of DEPTH Linear+Tanh blocks; returns the saved activations and the gradients."""
    paddle.seed(0)
    layers = [paddle.nn.Sequential(paddle.nn.Linear(WIDTH, WIDTH), paddle.nn.Tanh()) for _ in range(DEPTH)]
    block = paddle.nn.Sequential(*layers)
    params = {id(p) for p in block.parameters()}
    x = paddle.randn([BATCH, WIDTH])
    x.stop_gradient = False
    activations = {}  # id -> bytes: a tensor saved by two ops (Tanh's output read by the next matmul) counts once

    def pack(t):
        if id(t) not in params:  # parameters are kept by the Layer anyway; only activations are the cost
            activations[id(t)] = t.numpy().nbytes
        return t

    with paddle.autograd.saved_tensors_hooks(pack, lambda t: t):  # the forward only: backward's re-run not counted
        out = recompute(block, x) if use_recompute else block(x)
    out.sum().backward()
    grads = [x.grad.numpy()] + [p.grad.numpy() for p in block.parameters()]
    return activations, grads


def test_recompute_keeps_only_the_segment_input_and_gives_the_same_gradients():
    plain, plain_grads = _train_step(False)
    checkpointed, checkpointed_grads = _train_step(True)
    one = BATCH * WIDTH * 4  # bytes of one float32 activation
    # without recompute: the input and every Tanh output (each read again by the next matmul and by Tanh's grad)
    assert len(plain) == DEPTH + 1 and sum(plain.values()) == (DEPTH + 1) * one
    # with recompute: only the segment's input; the forward is re-run in backward to get the rest
    assert len(checkpointed) == 1 and sum(checkpointed.values()) == one
    for a, b in zip(plain_grads, checkpointed_grads):
        np.testing.assert_array_equal(a, b)
