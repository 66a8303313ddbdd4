"""Record what real Paddle 2.6 computes for paddle.linalg.pca_lowrank on matrices of exact low rank (where the
randomized result does not depend on the random draws: the singular values and the spanned subspaces are exact),
as golden cases for tests/tensor/test_pca.py.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/pca/make_golden.py
"""

import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)
out = {}
paddle.seed(0)

# name: (shape [..., m, n], rank, q, center, niter)
CASES = {
    "tall": ((9, 5), 3, 3, True, 2),
    "wide": ((4, 10), 2, 4, False, 1),
    "batched": ((2, 7, 6), 2, 2, False, 0),
    "default_q": ((12, 8), 6, None, False, 2),
}
for name, (shape, rank, q, center, niter) in CASES.items():
    *batch, m, n = shape
    left = rng.normal(size=(*batch, m, rank))
    if center:  # columns of mean 0 plus an offset: centering leaves exactly rank `rank`
        left -= left.mean(-2, keepdims=True)
    x = left @ rng.normal(size=(*batch, rank, n)) + center * rng.normal(size=(*batch, 1, n))
    out[name + "_x"] = x
    u, s, v = paddle.linalg.pca_lowrank(paddle.to_tensor(x), q=q, center=center, niter=niter)
    out[name + "_s"] = s.numpy()
    out[name + "_shapes"] = np.array([u.ndim, *u.shape, s.ndim, *s.shape, v.ndim, *v.shape])

np.savez(os.path.join(HERE, "arrays.npz"), **out)
print(f"wrote {len(out)} arrays")
