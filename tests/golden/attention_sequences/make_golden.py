"""Record what real Paddle 2.6 computes for the extra nn functions and paddle.nn.utils, as golden cases for
tests/nn/test_attention_sequences.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/attention_sequences/make_golden.py

It writes arrays.npz: for each case its inputs, outputs and gradients (of sum(out * cot) for a stored cotangent).
The test needs no Paddle.
"""

import os

import numpy as np
import paddle
import paddle.nn.functional as F
from paddle.nn.utils import clip_grad_norm_, spectral_norm, weight_norm

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)
out = {}


def leaf(a):
    return paddle.to_tensor(a, stop_gradient=False)


def record_grads(prefix, y, leaves):
    cot = rng.uniform(-1, 1, size=y.shape)
    out[prefix + "cot"] = cot
    grads = paddle.grad([y], leaves, [paddle.to_tensor(cot, dtype=y.dtype)])
    for i, g in enumerate(grads):
        out[f"{prefix}grad{i}"] = g.numpy()


# scaled_dot_product_attention (CPU: no mask, not causal)
q, k, v = (rng.uniform(-1, 1, size=s) for s in ((2, 3, 2, 4), (2, 5, 2, 4), (2, 5, 2, 3)))
out["sdpa_q"], out["sdpa_k"], out["sdpa_v"] = q, k, v
tq, tk, tv = leaf(q), leaf(k), leaf(v)
y = F.scaled_dot_product_attention(tq, tk, tv)
out["sdpa_out"] = y.numpy()
record_grads("sdpa_", y, [tq, tk, tv])

# rearrangements and temporal_shift (forward and backward)
x = rng.uniform(-1, 1, size=(2, 2, 4, 6))
out["unshuffle_x"] = x
t = leaf(x)
y = F.pixel_unshuffle(t, 2)
out["unshuffle_out"] = y.numpy()
record_grads("unshuffle_", y, [t])
out["unshuffle_nhwc_out"] = F.pixel_unshuffle(paddle.to_tensor(x.transpose(0, 2, 3, 1)), 2, "NHWC").numpy()
x = rng.uniform(-1, 1, size=(2, 6, 2, 3))
out["shuffle_x"] = x
out["shuffle_out"] = F.channel_shuffle(paddle.to_tensor(x), 3).numpy()
out["shuffle_nhwc_out"] = F.channel_shuffle(paddle.to_tensor(x.transpose(0, 2, 3, 1)), 2, "NHWC").numpy()
x = rng.uniform(-1, 1, size=(6, 5, 2, 2))
out["tshift_x"] = x
t = leaf(x)
y = F.temporal_shift(t, 3, 0.2)
out["tshift_out"] = y.numpy()
record_grads("tshift_", y, [t])
out["tshift_nhwc_out"] = F.temporal_shift(
    paddle.to_tensor(x.transpose(0, 2, 3, 1)), 2, 0.25, data_format="NHWC"
).numpy()

# sequence_mask and gather_tree
lengths = np.array([[1, 3], [0, 2]], dtype=np.int64)
out["seqmask_x"] = lengths
out["seqmask_out"] = F.sequence_mask(paddle.to_tensor(lengths)).numpy()
out["seqmask_float_out"] = F.sequence_mask(paddle.to_tensor([2.5, 1.0]), maxlen=4, dtype="float32").numpy()
ids = rng.integers(0, 10, size=(5, 2, 3))
parents = rng.integers(0, 3, size=(5, 2, 3))
out["tree_ids"], out["tree_parents"] = ids, parents
out["tree_out"] = F.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(parents)).numpy()

# weight_norm on a Conv2D weight [3, 2, 2, 2] for dim 0, 1, 3 and None
w = rng.uniform(-1, 1, size=(3, 2, 2, 2)).astype(np.float32)
xin = rng.uniform(-1, 1, size=(2, 2, 3, 3)).astype(np.float32)
out["wn_weight"], out["wn_x"] = w, xin
for dim in (0, 1, 3, None):
    conv = paddle.nn.Conv2D(2, 3, 2, bias_attr=False)
    conv.weight.set_value(w)
    weight_norm(conv, dim=dim)
    key = f"wn_{dim}_"
    y = conv(paddle.to_tensor(xin))
    out[key + "g"] = conv.weight_g.numpy()
    out[key + "out"] = y.numpy()
    record_grads(key, y, [conv.weight_g, conv.weight_v])

# spectral_norm on a Linear(3, 4) (dim 1) with given u, v: two training calls (power iteration), then eval
w = rng.uniform(-1, 1, size=(3, 4)).astype(np.float32)
u0 = rng.uniform(-1, 1, size=(4,)).astype(np.float32)
v0 = rng.uniform(-1, 1, size=(3,)).astype(np.float32)
xin = rng.uniform(-1, 1, size=(2, 3)).astype(np.float32)
out["sn_weight"], out["sn_u0"], out["sn_v0"], out["sn_x"] = w, u0, v0, xin
lin = paddle.nn.Linear(3, 4, bias_attr=False)
lin.weight.set_value(w)
spectral_norm(lin, n_power_iterations=2)
lin.weight_u.set_value(u0)
lin.weight_v.set_value(v0)
y = lin(paddle.to_tensor(xin))
out["sn_out1"] = y.numpy()
record_grads("sn_", y, [lin.weight_orig])
out["sn_u1"], out["sn_v1"] = lin.weight_u.numpy(), lin.weight_v.numpy()
out["sn_out2"] = lin(paddle.to_tensor(xin)).numpy()
lin.eval()
out["sn_out_eval"] = lin(paddle.to_tensor(xin)).numpy()
out["sn_u_eval"] = lin.weight_u.numpy()

# clip_grad_norm_ for each norm type
g1, g2 = rng.uniform(-3, 3, size=(2, 3)), rng.uniform(-3, 3, size=(4,))
out["clip_g1"], out["clip_g2"] = g1, g2
for name, norm_type in (("2", 2.0), ("1", 1), ("0", 0), ("inf", float("inf"))):
    a, b = leaf(np.zeros((2, 3))), leaf(np.zeros(4))
    ((a * paddle.to_tensor(g1)).sum() + (b * paddle.to_tensor(g2)).sum()).backward()
    total = clip_grad_norm_([a, b], 1.5, norm_type=norm_type)
    out[f"clip_{name}_total"] = total.numpy()
    out[f"clip_{name}_g1"], out[f"clip_{name}_g2"] = a.grad.numpy(), b.grad.numpy()

np.savez(os.path.join(HERE, "arrays.npz"), **out)
print(f"wrote {len(out)} arrays")
