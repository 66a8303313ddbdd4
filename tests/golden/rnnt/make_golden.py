"""Record what real Paddle 2.6 (CPU, warp-transducer) computes for F.rnnt_loss, as golden cases for
tests/nn/test_rnnt.py: losses for each reduction and the gradient w.r.t. the input (of sum(loss * cot)).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/rnnt/make_golden.py

It writes arrays.npz. The test needs no Paddle.
"""

import os

import numpy as np
import paddle
import paddle.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)
out = {}

# name: (input shape [B, T, U+1, V], input lengths, label lengths, blank, fastemit_lambda, normalize, dtype)
CASES = {
    "basic": ((3, 5, 4, 6), [5, 3, 4], [3, 1, 2], 0, 0.0, True, "float64"),
    "fastemit": ((3, 5, 4, 6), [5, 3, 4], [3, 1, 2], 0, 0.5, True, "float64"),
    "default_lambda": ((2, 4, 3, 5), [4, 2], [2, 0], 0, 0.001, True, "float64"),
    "raw_scores": ((2, 4, 3, 5), [4, 3], [2, 2], 0, 0.0, False, "float64"),
    "blank_last": ((2, 3, 3, 4), [3, 2], [2, 1], 3, 0.1, True, "float64"),
    "float32": ((2, 4, 3, 5), [4, 3], [2, 1], 0, 0.001, True, "float32"),
}

for name, (shape, t_len, u_len, blank, lam, normalize, dtype) in CASES.items():
    b, _, nodes, classes = shape
    x = rng.normal(size=shape)
    if normalize:
        x = x - np.log(np.exp(x).sum(-1, keepdims=True))
    x = x.astype(dtype)
    label = rng.integers(0, classes, size=(b, nodes - 1)).astype("int32")
    label = np.where(label == blank, (blank + 1) % classes, label).astype("int32")
    prefix = name + "_"
    out[prefix + "x"], out[prefix + "label"] = x, label
    out[prefix + "tlen"], out[prefix + "ulen"] = np.array(t_len, "int32"), np.array(u_len, "int32")
    out[prefix + "attrs"] = np.array([blank, lam])
    args = [paddle.to_tensor(a) for a in (label, out[prefix + "tlen"], out[prefix + "ulen"])]
    for reduction in ("none", "mean", "sum"):
        t = paddle.to_tensor(x, stop_gradient=False)
        y = F.rnnt_loss(t, *args, blank=blank, fastemit_lambda=lam, reduction=reduction)
        out[prefix + reduction] = y.numpy()
        cot = rng.uniform(0.5, 1.5, size=y.shape).astype(dtype)
        out[prefix + reduction + "_cot"] = cot
        (y * paddle.to_tensor(cot)).sum().backward()
        out[prefix + reduction + "_grad"] = t.grad.numpy()

np.savez(os.path.join(HERE, "arrays.npz"), **out)
print(f"wrote {len(out)} arrays")
