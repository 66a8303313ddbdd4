"""Op-table section: creation (arange, linspace, eye, diag, diag_embed, tril, triu, meshgrid) and random
numbers (each drawn right after paddle.seed, so it must equal numpy's default_rng with the same seed)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, pos, r


def diag_samples(rng):
    return [
        Sample((r(rng, 3),), {}, "vector"),
        Sample((r(rng, 3),), {"offset": 1, "padding_value": 2.5}, "vector, offset, padding"),
        Sample((r(rng, 3, 4),), {"offset": -1}, "matrix, offset -1"),
        Sample((r(rng, 4, 3),), {"offset": 2}, "matrix, offset 2"),
    ]


def diag_ref(x, offset=0, padding_value=0):
    if x.ndim == 2:
        return np.diagonal(x, offset).copy()
    out = np.diag(x, offset)
    return np.where(np.diag(np.ones_like(x), offset) == 1, out, np.asarray(padding_value, x.dtype)).astype(x.dtype)


def diag_embed_samples(rng):
    return [
        Sample((r(rng, 2, 3),), {}, "batch"),
        Sample((r(rng, 3),), {"offset": 1}, "offset 1"),
        Sample((r(rng, 2, 3),), {"offset": -1, "dim1": 0, "dim2": 2}, "dims 0, 2"),
        Sample((r(rng, 2, 3),), {"dim1": -1, "dim2": 0}, "dims -1, 0"),
    ]


def diag_embed_ref(x, offset=0, dim1=-2, dim2=-1):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n), x.dtype)
    i = np.arange(x.shape[-1])
    out[..., i + max(-offset, 0), i + max(offset, 0)] = x
    nd = x.ndim + 1
    return np.moveaxis(out, (-2, -1), (dim1 % nd, dim2 % nd))


def triangle_samples(rng):
    return [
        Sample((r(rng, 4, 4),), {}, "square"),
        Sample((r(rng, 3, 5),), {"diagonal": 1}, "above"),
        Sample((r(rng, 2, 4, 3),), {"diagonal": -1}, "batched, below"),
    ]


def seeded(fn, seed=7):
    """fn run right after paddle.seed(seed): every draw is then fixed."""

    def run(*args, **kwargs):
        paddle.seed(seed)
        return fn(*args, **kwargs)

    return run


def np_rng(seed=7):
    return np.random.default_rng(seed)


def multinomial_ref(x, num_samples=1, replacement=False):
    rows = x.reshape(-1, x.shape[-1]).astype(np.float64)
    rng = np_rng()
    if replacement:
        u = rng.random((len(rows), num_samples))
        picks = [np.searchsorted(np.cumsum(w / w.sum()), u_row, side="right") for w, u_row in zip(rows, u)]
    else:  # Gumbel top-k: the k largest noisy log-weights
        keys = np.log(rows) + rng.gumbel(size=rows.shape)
        picks = [np.argsort(-k, kind="stable")[:num_samples] for k in keys]
    return np.asarray(picks, dtype=np.int64).reshape(x.shape[:-1] + (num_samples,))


def normal_tensor_ref(mean, std):
    shape = np.broadcast_shapes(mean.shape, std.shape)
    return np_rng().normal(0.0, 1.0, size=shape).astype(mean.dtype) * std + mean


ENTRIES: list[OpInfo] = [
    OpInfo("arange", paddle.arange, lambda *a, dtype=None: np.arange(*a).astype(dtype or np.int64),
           lambda rng: [Sample((5,)), Sample((2, 11, 3)), Sample((5, 0, -2)), Sample((1, 3), {"dtype": "float64"})],
           grad=False),
    OpInfo("arange_float", paddle.arange, lambda *a: np.arange(*a).astype(np.float32),
           lambda rng: [Sample((1.0, 2.0, 0.25)), Sample((-1.0, 1.0, 0.5))], grad=False),
    OpInfo("linspace", paddle.linspace, lambda *a, dtype="float32": np.linspace(*a).astype(dtype),
           lambda rng: [Sample((0, 1, 5)), Sample((2.0, -3.0, 4), {"dtype": "float64"}), Sample((0, 1, 1))],
           grad=False),
    OpInfo("linspace_int", paddle.linspace, lambda *a, dtype: np.trunc(np.linspace(*a)).astype(dtype),
           lambda rng: [Sample((0, 10, 5), {"dtype": "int64"})], grad=False),
    OpInfo("eye", paddle.eye, lambda n, m=None, dtype="float32": np.eye(n, m, dtype=dtype),
           lambda rng: [Sample((3,)), Sample((2, 4), {"dtype": "int32"})], grad=False),
    OpInfo("diag", paddle.diag, diag_ref, diag_samples),
    OpInfo("diag_embed", paddle.diag_embed, diag_embed_ref, diag_embed_samples, double_grad=True),
    OpInfo("tril", paddle.tril, lambda x, diagonal=0: np.tril(x, diagonal), triangle_samples, double_grad=True),
    OpInfo("triu", paddle.triu, lambda x, diagonal=0: np.triu(x, diagonal), triangle_samples),
    OpInfo("meshgrid", lambda *xs: paddle.stack(paddle.meshgrid(*xs)),
           lambda *xs: np.stack(np.meshgrid(*xs, indexing="ij")),
           lambda rng: [Sample((r(rng, 2), r(rng, 3))), Sample((r(rng, 2), r(rng, 1), r(rng, 3)))]),
    # random numbers
    OpInfo("rand", seeded(paddle.rand), lambda shape: np_rng().uniform(0, 1, shape).astype(np.float32),
           lambda rng: [Sample(([2, 3],))], grad=False, dtypes=("float32",)),
    OpInfo("uniform", seeded(paddle.uniform),
           lambda shape, dtype, min, max: np_rng().uniform(min, max, shape).astype(dtype),  # noqa: A006
           lambda rng: [Sample(([3, 2], "float64", -2.0, 5.0))], grad=False, dtypes=("float32",)),
    OpInfo("uniform_own_seed", lambda shape, seed: paddle.uniform(shape, seed=seed),
           lambda shape, seed: np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32),
           lambda rng: [Sample(([4], 11))], grad=False, dtypes=("float32",)),
    OpInfo("randn", seeded(paddle.randn), lambda shape: np_rng().normal(0, 1, shape).astype(np.float32),
           lambda rng: [Sample(([2, 3],))], grad=False, dtypes=("float32",)),
    OpInfo("standard_normal", seeded(paddle.standard_normal),
           lambda shape, dtype: np_rng().normal(0, 1, shape).astype(dtype),
           lambda rng: [Sample(([4], "float64"))], grad=False, dtypes=("float32",)),
    OpInfo("normal", seeded(paddle.normal),
           lambda mean, std, shape: np_rng().normal(mean, std, shape).astype(np.float32),
           lambda rng: [Sample((1.0, 2.0, [3, 2]))], grad=False, dtypes=("float32",)),
    OpInfo("normal_tensors", seeded(paddle.normal), normal_tensor_ref,
           lambda rng: [Sample((r(rng, 3, 1), pos(rng, 4)))]),
    OpInfo("randint", seeded(paddle.randint),
           lambda low, high, shape: np_rng().integers(low, high, shape).astype(np.int64),
           lambda rng: [Sample((-3, 8, [2, 5]))], grad=False),
    OpInfo("randperm", seeded(paddle.randperm), lambda n: np_rng().permutation(n).astype(np.int64),
           lambda rng: [Sample((7,))], grad=False),
    OpInfo("bernoulli", seeded(paddle.bernoulli), lambda x: (np_rng().random(x.shape) < x).astype(x.dtype),
           lambda rng: [Sample((rng.random((3, 4)),))], grad=False),
    OpInfo("multinomial", seeded(paddle.multinomial), multinomial_ref,
           lambda rng: [Sample((pos(rng, 5), 8, True), {}, "with replacement"),
                        Sample((pos(rng, 3, 6), 4), {}, "without replacement, rows")],
           grad=False),
]  # fmt: skip
