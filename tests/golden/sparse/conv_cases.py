"""Sparse convolution and pooling (paddle.sparse.nn.functional conv2d/conv3d/subm_conv2d/subm_conv3d/max_pool3d
and their Layers) on small COO inputs, run with either library (`paddle` passed in); make_conv_golden.py records
run_all(paddle 2.6) into conv.json and tests/sparse/test_sparse_conv.py compares: shape, output indices in their
order, values, and the gradients of the input's values and of the weight (float64)."""

import numpy as np


def _inputs(spatial, channels, nnz, seed):
    rng = np.random.default_rng(seed)
    batch = 2
    flat = rng.choice(batch * int(np.prod(spatial)), size=nnz, replace=False)  # unsorted, as user data comes
    indices = np.stack(np.unravel_index(flat, (batch, *spatial)))
    values = rng.standard_normal((nnz, channels))
    return indices, values, [batch, *spatial, channels]


def _coo(paddle, indices, values, shape):
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values), shape)
    x.stop_gradient = False
    return x


def _record(paddle, out, x, weight, seed):
    # a fixed, position-dependent cotangent so the gradients see each output entry's own weight
    g = np.random.default_rng(seed + 1).standard_normal(out.values().shape)
    (out.values() * paddle.to_tensor(g)).sum().backward()
    rec = {"shape": list(out.shape), "indices": out.indices().numpy().tolist(), "values": out.values().numpy().tolist(),
           "x_grad": x.grad.values().numpy().tolist()}  # fmt: skip
    if weight is not None:
        rec["w_grad"] = weight.grad.numpy().tolist()
    return rec


CONV = [
    # (name, dims, spatial, kernel, kwargs)
    ("conv2d_plain", 2, [5, 4], [3, 3], {}),
    ("conv2d_padded", 2, [5, 4], [3, 3], {"padding": 1}),
    ("conv2d_strided", 2, [6, 5], [3, 2], {"stride": 2, "padding": [1, 0]}),
    ("conv2d_dilated", 2, [6, 6], [3, 3], {"dilation": 2, "padding": 2}),
    ("conv2d_same_string", 2, [5, 4], [3, 3], {"padding": "SAME"}),
    ("conv2d_bias", 2, [4, 4], [2, 2], {"bias": True}),
    ("conv3d_plain", 3, [4, 4, 3], [3, 3, 3], {}),
    ("conv3d_padded", 3, [4, 4, 3], [3, 3, 3], {"padding": 1}),
    ("conv3d_strided", 3, [5, 4, 4], [2, 3, 3], {"stride": [2, 1, 2], "padding": [0, 1, 1]}),
    ("conv3d_bias", 3, [3, 4, 3], [1, 3, 3], {"bias": True, "padding": [0, 1, 1]}),
    ("subm2d_centered", 2, [5, 4], [3, 3], {"subm": True, "padding": 1}),
    ("subm2d_no_padding", 2, [5, 4], [3, 3], {"subm": True}),
    ("subm2d_strided", 2, [5, 4], [3, 3], {"subm": True, "padding": 1, "stride": 2}),
    ("subm2d_even_kernel", 2, [5, 4], [2, 2], {"subm": True}),
    ("subm2d_dilated", 2, [6, 6], [3, 3], {"subm": True, "dilation": 2, "padding": 2}),
    ("subm3d_centered", 3, [4, 4, 3], [3, 3, 3], {"subm": True, "padding": 1, "bias": True}),
    ("subm3d_no_padding", 3, [4, 4, 3], [3, 3, 3], {"subm": True}),
]


def _conv(paddle, dims, spatial, kernel, kw, seed):
    F = paddle.sparse.nn.functional
    kw = dict(kw)
    subm, with_bias = kw.pop("subm", False), kw.pop("bias", False)
    indices, values, shape = _inputs(spatial, 3, 7 + 2 * dims, seed)
    x = _coo(paddle, indices, values, shape)
    rng = np.random.default_rng(seed + 2)
    weight = paddle.to_tensor(rng.standard_normal((*kernel, 3, 4)), stop_gradient=False)
    bias = paddle.to_tensor(rng.standard_normal(4), stop_gradient=False) if with_bias else None
    fn = {(2, False): F.conv2d, (3, False): F.conv3d, (2, True): F.subm_conv2d, (3, True): F.subm_conv3d}[dims, subm]
    out = fn(x, weight, bias=bias, **kw)
    rec = _record(paddle, out, x, weight, seed)
    if bias is not None:
        rec["b_grad"] = bias.grad.numpy().tolist()
    return rec


POOL = [
    ("pool_plain", [4, 4, 4], {"kernel_size": 2}),
    ("pool_overlap", [5, 4, 4], {"kernel_size": 3, "stride": 1, "padding": 1}),
    ("pool_strided", [5, 5, 4], {"kernel_size": [3, 2, 2], "stride": [2, 2, 1], "padding": [1, 0, 0]}),
]


def _pool(paddle, spatial, kw, seed):
    indices, values, shape = _inputs(spatial, 3, 14, seed)
    x = _coo(paddle, indices, values, shape)
    out = paddle.sparse.nn.functional.max_pool3d(x, **kw)
    return _record(paddle, out, x, None, seed)


def _layers(paddle):
    """The Layers' parameter shapes, and a forward with weights set from numpy (their initializers draw from each
    library's own generator)."""
    nn = paddle.sparse.nn
    made = {
        "Conv3D": nn.Conv3D(3, 4, 3, padding=1),
        "SubmConv3D": nn.SubmConv3D(3, 4, [1, 3, 3], padding=[0, 1, 1], bias_attr=False),
        "Conv2D": nn.Conv2D(3, 4, [3, 2], stride=2),
        "SubmConv2D": nn.SubmConv2D(3, 4, 3, padding=1, key="k"),
    }
    out = {}
    for seed, (name, layer) in enumerate(made.items()):
        dims = 3 if name.endswith("3D") else 2
        spatial = [4, 4, 3] if dims == 3 else [5, 4]
        indices, values, shape = _inputs(spatial, 3, 9, 40 + seed)
        rng = np.random.default_rng(50 + seed)
        params = {}
        for pname, p in layer.named_parameters():
            v = rng.standard_normal(p.shape)
            p.set_value(paddle.to_tensor(v, dtype=p.dtype))
            params[pname] = list(p.shape)
        x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values, dtype="float32"), shape)
        y = layer(x)
        out[name] = {"params": params, "shape": list(y.shape), "indices": y.indices().numpy().tolist(),
                     "values": y.values().numpy().tolist(), "dtype": str(y.dtype).split(".")[-1]}  # fmt: skip
    pool = nn.MaxPool3D(kernel_size=2, stride=2)
    indices, values, shape = _inputs([4, 4, 4], 2, 12, 60)
    y = pool(paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values), shape))
    out["MaxPool3D"] = {"shape": list(y.shape), "indices": y.indices().numpy().tolist(),
                        "values": y.values().numpy().tolist()}  # fmt: skip
    return out


def _outcome(f):
    try:
        f()
        return "ok"
    except Exception as e:  # noqa: BLE001  (the kind is what is recorded)
        return type(e).__name__


def _refusals(paddle):
    F = paddle.sparse.nn.functional
    indices, values, shape = _inputs([4, 4], 3, 5, 70)
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values), shape)
    w = paddle.to_tensor(np.ones((3, 3, 3, 2)))
    return {
        "groups": _outcome(lambda: F.conv2d(x, w, groups=3)),
        "data_format": _outcome(lambda: F.conv2d(x, w, data_format="NCHW")),
        "rank": _outcome(lambda: F.conv3d(x, paddle.to_tensor(np.ones((3, 3, 3, 3, 2))))),
        "dtypes_differ": _outcome(lambda: F.conv2d(x, w.astype("float32"))),
        "pool_data_format": _outcome(lambda: F.max_pool3d(x, 2, data_format="NCDHW")),
    }


def run_all(paddle):
    out = {name: _conv(paddle, dims, spatial, kernel, kw, seed)
           for seed, (name, dims, spatial, kernel, kw) in enumerate(CONV)}  # fmt: skip
    out.update({name: _pool(paddle, spatial, kw, 20 + seed) for seed, (name, spatial, kw) in enumerate(POOL)})
    out["layers"] = _layers(paddle)
    out["refusals"] = _refusals(paddle)
    return out
