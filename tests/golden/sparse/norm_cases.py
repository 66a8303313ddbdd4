"""paddle.sparse.nn.BatchNorm on a COO tensor [N, D, H, W, C] (it normalizes the stored values channel by channel),
run with either library (`paddle` passed in); make_norm_golden.py records run_all(paddle 2.6) into norm.json and
tests/sparse/test_sparse_norm.py compares: outputs, running statistics and gradients over a train/eval sequence."""

import warnings

import numpy as np


def _coo(paddle, seed, nnz=9, channels=3):
    rng = np.random.default_rng(seed)
    flat = rng.choice(2 * 4 * 3 * 3, size=nnz, replace=False)
    indices = np.stack(np.unravel_index(flat, (2, 4, 3, 3)))
    values = rng.standard_normal((nnz, channels)) * 2 + 1
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values), [2, 4, 3, 3, channels])
    x.stop_gradient = False
    return x


def _step(paddle, bn, x, seed):
    out = bn(x)
    g = np.random.default_rng(seed).standard_normal(out.values().shape)
    (out.values() * paddle.to_tensor(g)).sum().backward()
    rec = {"indices_kept": out.indices().numpy().tolist() == x.indices().numpy().tolist(),
           "values": out.values().numpy().tolist(), "x_grad": x.grad.values().numpy().tolist(),
           "mean": bn._mean.numpy().tolist(), "variance": bn._variance.numpy().tolist()}  # fmt: skip
    for p in (bn.weight, bn.bias):
        rec[p.name.split(".")[-1][0] + "_grad"] = p.grad.numpy().tolist()
        p.clear_gradient()
    return rec


def run_all(paddle):
    paddle.set_default_dtype("float64")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = {}
            bn = paddle.sparse.nn.BatchNorm(3, momentum=0.8)
            rng = np.random.default_rng(5)
            bn.weight.set_value(paddle.to_tensor(rng.standard_normal(3)))
            bn.bias.set_value(paddle.to_tensor(rng.standard_normal(3)))
            out["train_1"] = _step(paddle, bn, _coo(paddle, 1), 11)
            out["train_2"] = _step(paddle, bn, _coo(paddle, 2), 12)
            bn.eval()
            out["eval_after_train"] = _step(paddle, bn, _coo(paddle, 3), 13)
            fresh = paddle.sparse.nn.BatchNorm(3)
            fresh.eval()
            out["eval_fresh"] = _step(paddle, fresh, _coo(paddle, 4), 14)
            fixed = paddle.sparse.nn.BatchNorm(3, use_global_stats=True)
            out["global_stats_in_training"] = _step(paddle, fixed, _coo(paddle, 5), 15)
            out["params"] = sorted(k for k in bn.state_dict())
            try:
                paddle.sparse.nn.BatchNorm(3, data_format="NCDHW")(_coo(paddle, 6))
                out["bad_format"] = "ok"
            except Exception as e:  # noqa: BLE001  (the kind is what is recorded)
                out["bad_format"] = type(e).__name__
            return out
    finally:
        paddle.set_default_dtype("float32")
