"""Record what real Paddle 2.6 computes for activations, losses, norms and the other "nn core" functions and
layers, as golden cases for tests/nn/test_core_golden.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/nn/make_golden.py

It writes cases.json (what to call, with which keyword arguments) and arrays.npz (inputs, outputs, cotangents
and gradients) next to this file. A function case calls paddle.nn.functional.<fn>(*args, **kwargs); a layer case
builds paddle.nn.<layer>(**init), loads the given state, runs it (once or more, in train or eval mode) and records
the outputs, the gradients of sum(out * cot) for the float inputs and parameters, and the state afterwards.
Float inputs are float64 so that both frameworks are compared to rounding, except where a case says float32.
"""

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)


def r(*shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape)


def prob(*shape):
    return rng.uniform(0.05, 0.95, size=shape)


def ints(high, *shape):
    return rng.integers(0, high, size=shape).astype("int64")


def dist(*shape):
    p = rng.uniform(0.1, 1.0, size=shape)
    return p / p.sum(axis=-1, keepdims=True)


def T(a):
    """A tensor argument; float ones get gradients."""
    return ("tensor", np.asarray(a))


def C(a):
    """A constant tensor argument: no gradient asked for (where Paddle's gradient for it is missing or partial)."""
    return ("constant", np.asarray(a))


# (case name, function name, positional args, keyword args)
FUNCTIONS = [
    # ---- activations ----
    *[
        (f"{n}", n, [T(r(3, 5))], {})
        for n in (
            "relu",
            "relu6",
            "elu",
            "selu",
            "celu",
            "gelu",
            "silu",
            "swish",
            "mish",
            "sigmoid",
            "log_sigmoid",
            "hardsigmoid",
            "hardswish",
            "hardtanh",
            "hardshrink",
            "softshrink",
            "tanhshrink",
            "softplus",
            "softsign",
            "leaky_relu",
            "thresholded_relu",
            "tanh",
        )
    ],
    ("gelu_approximate", "gelu", [T(r(3, 5))], {"approximate": True}),
    ("elu_alpha", "elu", [T(r(3, 5))], {"alpha": 0.5}),
    ("celu_alpha", "celu", [T(r(3, 5))], {"alpha": 2.0}),
    ("leaky_relu_slope", "leaky_relu", [T(r(3, 5))], {"negative_slope": 0.2}),
    ("softplus_beta", "softplus", [T(r(3, 5) * 8)], {"beta": 2.0, "threshold": 5.0}),
    ("hardtanh_range", "hardtanh", [T(r(3, 5))], {"min": -0.5, "max": 1.5}),
    ("hardsigmoid_slope", "hardsigmoid", [T(r(3, 5))], {"slope": 0.2, "offset": 0.4}),
    ("softshrink_t", "softshrink", [T(r(3, 5))], {"threshold": 1.0}),
    ("thresholded_relu_t", "thresholded_relu", [T(r(3, 5))], {"threshold": 0.5}),
    ("prelu_shared", "prelu", [T(r(2, 3, 4)), T(np.array([0.3]))], {}),
    ("prelu_channels", "prelu", [T(r(2, 3, 4)), T(np.array([0.1, 0.2, 0.3]))], {}),
    ("prelu_nhwc", "prelu", [T(r(2, 4, 4, 3)), T(np.array([0.1, 0.2, 0.3]))], {"data_format": "NHWC"}),
    ("maxout", "maxout", [T(r(2, 6, 3, 3))], {"groups": 2}),
    ("maxout_last", "maxout", [T(r(2, 3, 3, 6))], {"groups": 3, "axis": -1}),
    ("glu", "glu", [T(r(3, 6))], {}),
    ("softmax_axis0", "softmax", [T(r(3, 4))], {"axis": 0}),
    ("log_softmax", "log_softmax", [T(r(3, 4))], {}),
    # ---- linear, embedding, one_hot, similarity ----
    ("linear", "linear", [T(r(4, 3)), T(r(3, 2)), T(r(2))], {}),
    ("linear_3d_nobias", "linear", [T(r(2, 4, 3)), T(r(3, 5))], {}),
    ("bilinear", "bilinear", [T(r(4, 2)), T(r(4, 3)), T(r(5, 2, 3)), T(r(1, 5))], {}),
    ("embedding", "embedding", [T(np.array([[1, 3, 1], [0, 2, 3]])), T(r(4, 3))], {}),
    ("embedding_padding", "embedding", [T(np.array([[1, 3, 1], [0, 2, 3]])), T(r(4, 3))], {"padding_idx": 1}),
    ("one_hot", "one_hot", [T(np.array([0, 3, 1]))], {"num_classes": 4}),
    ("label_smooth", "label_smooth", [T(np.eye(4)[[0, 2, 1]])], {"epsilon": 0.2}),
    ("cosine_similarity", "cosine_similarity", [T(r(3, 4)), T(r(3, 4))], {}),
    ("cosine_similarity_axis", "cosine_similarity", [T(r(3, 4)), T(r(3, 4))], {"axis": 0}),
    ("pairwise_distance", "pairwise_distance", [T(r(3, 4)), T(r(3, 4))], {}),
    ("pairwise_distance_p1", "pairwise_distance", [T(r(3, 4)), T(r(3, 4))], {"p": 1.0, "keepdim": True}),
    ("normalize", "normalize", [T(r(3, 4))], {}),
    ("normalize_p1_axis0", "normalize", [T(r(3, 4))], {"p": 1, "axis": 0}),
    # ---- normalization ----
    ("layer_norm", "layer_norm", [T(r(2, 3, 4)), [4], T(r(4)), T(r(4))], {}),
    ("layer_norm_2d", "layer_norm", [T(r(2, 3, 4)), [3, 4], T(r(12)), T(r(12))], {"epsilon": 1e-3}),
    ("instance_norm", "instance_norm", [T(r(2, 3, 4, 4))], {"weight": T(r(3)), "bias": T(r(3))}),
    ("local_response_norm", "local_response_norm", [T(r(2, 5, 3, 3))], {"size": 3}),
    (
        "local_response_norm_even",
        "local_response_norm",
        [T(r(2, 6, 4))],
        {"size": 4, "alpha": 0.1, "beta": 0.5, "k": 2.0},
    ),
    # ---- losses ----
    ("cross_entropy", "cross_entropy", [T(r(4, 5)), T(ints(5, 4))], {}),
    ("cross_entropy_label_n1", "cross_entropy", [T(r(4, 5)), T(ints(5, 4, 1))], {"reduction": "none"}),
    ("cross_entropy_none", "cross_entropy", [T(r(4, 5)), T(ints(5, 4))], {"reduction": "none"}),
    ("cross_entropy_sum", "cross_entropy", [T(r(4, 5)), T(ints(5, 4))], {"reduction": "sum"}),
    ("cross_entropy_soft", "cross_entropy", [T(r(4, 5)), T(dist(4, 5))], {"soft_label": True}),
    (
        "cross_entropy_soft_none",
        "cross_entropy",
        [T(r(4, 5)), T(dist(4, 5))],
        {"soft_label": True, "reduction": "none"},
    ),
    ("cross_entropy_weight", "cross_entropy", [T(r(4, 5)), T(ints(5, 4))], {"weight": T(prob(5))}),
    ("cross_entropy_ignore", "cross_entropy", [T(r(4, 5)), T(np.array([1, 3, 3, 0]))], {"ignore_index": 3}),
    (
        "cross_entropy_ignore_weight",
        "cross_entropy",
        [T(r(4, 5)), T(np.array([1, 3, 3, 0]))],
        {"ignore_index": 3, "weight": T(prob(5))},
    ),
    ("cross_entropy_axis1", "cross_entropy", [T(r(2, 5, 3)), T(ints(5, 2, 3))], {"axis": 1}),
    ("cross_entropy_3d", "cross_entropy", [T(r(2, 3, 5)), T(ints(5, 2, 3))], {"reduction": "none"}),
    ("cross_entropy_probs", "cross_entropy", [T(dist(4, 5)), T(ints(5, 4))], {"use_softmax": False}),
    ("cross_entropy_smoothing", "cross_entropy", [T(r(4, 5)), T(ints(5, 4))], {"label_smoothing": 0.1}),
    (
        "cross_entropy_smoothing_none",
        "cross_entropy",
        [T(r(4, 5)), T(ints(5, 4))],
        {"label_smoothing": 0.1, "reduction": "none"},
    ),
    ("softmax_with_cross_entropy", "softmax_with_cross_entropy", [T(r(4, 5)), T(ints(5, 4, 1))], {}),
    (
        "softmax_with_cross_entropy_soft",
        "softmax_with_cross_entropy",
        [T(r(4, 5)), T(dist(4, 5))],
        {"soft_label": True},
    ),
    ("nll_loss", "nll_loss", [T(np.log(dist(4, 5))), T(ints(5, 4))], {}),
    (
        "nll_loss_weight_ignore",
        "nll_loss",
        [T(np.log(dist(4, 5))), T(np.array([1, 2, 2, 4]))],
        {"weight": T(prob(5)), "ignore_index": 2},
    ),
    (
        "nll_loss_none_4d",
        "nll_loss",
        [T(np.log(dist(2, 3, 2, 2).transpose(0, 3, 1, 2).copy())), T(ints(2, 2, 3, 2))],
        {"reduction": "none"},
    ),
    (
        "nll_loss_sum_3d",
        "nll_loss",
        [T(np.log(dist(2, 3, 4).transpose(0, 2, 1).copy())), T(ints(4, 2, 3))],
        {"reduction": "sum"},
    ),
    ("mse_loss", "mse_loss", [T(r(3, 4)), T(r(3, 4))], {}),
    ("mse_loss_none", "mse_loss", [T(r(3, 4)), T(r(3, 4))], {"reduction": "none"}),
    ("l1_loss_sum", "l1_loss", [T(r(3, 4)), T(r(3, 4))], {"reduction": "sum"}),
    ("smooth_l1_loss", "smooth_l1_loss", [T(r(3, 4)), T(r(3, 4))], {}),
    ("smooth_l1_loss_delta", "smooth_l1_loss", [T(r(3, 4)), T(r(3, 4))], {"delta": 0.5, "reduction": "none"}),
    ("square_error_cost", "square_error_cost", [T(r(3, 4)), T(r(3, 4))], {}),
    ("binary_cross_entropy", "binary_cross_entropy", [T(prob(3, 4)), T(ints(2, 3, 4).astype("float64"))], {}),
    (
        "binary_cross_entropy_weight",
        "binary_cross_entropy",
        [T(prob(3, 4)), T(prob(3, 4))],
        {"weight": T(prob(3, 4)), "reduction": "sum"},
    ),
    ("bce_with_logits", "binary_cross_entropy_with_logits", [T(r(3, 4) * 3), T(ints(2, 3, 4).astype("float64"))], {}),
    (
        "bce_with_logits_pos_weight",
        "binary_cross_entropy_with_logits",
        [T(r(3, 4) * 3), T(prob(3, 4))],
        {"pos_weight": T(prob(4) * 3), "weight": T(prob(3, 4)), "reduction": "none"},
    ),
    ("sigmoid_focal_loss", "sigmoid_focal_loss", [T(r(3, 4) * 3), C(ints(2, 3, 4).astype("float64"))], {}),
    (
        "sigmoid_focal_loss_norm",
        "sigmoid_focal_loss",
        [T(r(3, 4) * 3), C(ints(2, 3, 4).astype("float64"))],
        {"normalizer": T(np.array([3.0])), "reduction": "mean", "gamma": 1.5},
    ),
    ("kl_div", "kl_div", [T(np.log(dist(3, 4))), T(dist(3, 4))], {}),
    ("kl_div_batchmean", "kl_div", [T(np.log(dist(3, 4))), T(dist(3, 4))], {"reduction": "batchmean"}),
    ("kl_div_none", "kl_div", [T(r(3, 4)), T(np.where(prob(3, 4) > 0.5, prob(3, 4), 0.0))], {"reduction": "none"}),
    (
        "margin_ranking_loss",
        "margin_ranking_loss",
        [T(r(5)), T(r(5)), T(np.array([1.0, -1.0, 1.0, 1.0, -1.0]))],
        {"margin": 0.3},
    ),
    ("log_loss", "log_loss", [T(prob(4, 1).astype("float32")), T(ints(2, 4, 1).astype("float32"))], {}),
    ("dice_loss", "dice_loss", [T(dist(2, 3, 4)), T(ints(4, 2, 3, 1))], {}),
    (
        "ctc_loss",
        "ctc_loss",
        [
            T(r(6, 3, 5)),
            T(np.array([[1, 2, 2], [3, 0, 0], [4, 1, 0]], "int32")),
            T(np.array([6, 4, 5])),
            T(np.array([3, 1, 2])),
        ],
        {},
    ),
    (
        "ctc_loss_none_blank",
        "ctc_loss",
        [T(r(5, 2, 4)), T(np.array([[0, 1], [2, 2]], "int32")), T(np.array([5, 5])), T(np.array([2, 2]))],
        {"blank": 3, "reduction": "none"},
    ),
    (
        "ctc_loss_norm_by_times",
        "ctc_loss",
        [T(r(5, 2, 4)), T(np.array([[1, 2], [3, 0]], "int32")), T(np.array([5, 3])), T(np.array([2, 1]))],
        {"reduction": "sum", "norm_by_times": True},
    ),
    ("hsigmoid_loss", "hsigmoid_loss", [T(r(4, 3)), T(np.array([0, 5, 3, 2])), 6, T(r(5, 3)), T(r(5, 1))], {}),
    (
        "hsigmoid_loss_custom",
        "hsigmoid_loss",
        [
            T(r(4, 3)),
            T(np.array([0, 5, 3, 2])),
            6,
            T(r(6, 3)),
            T(r(6, 1)),
            T(np.array([[0, 2, -1], [1, 3, 4], [0, -1, -1], [2, 4, 1]])),
            T(np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 0, 1]])),
        ],
        {},
    ),
    (
        "npair_loss",
        "npair_loss",
        [T(r(4, 3).astype("float32")), T(r(4, 3).astype("float32")), T(np.array([1.0, 2.0, 1.0, 3.0], "float32"))],
        {},
    ),
]


# the margin, embedding and likelihood losses of paddle 2.6 (beyond the 2.0 API)
FUNCTIONS += [
    ("hinge_embedding_loss", "hinge_embedding_loss", [T(r(3, 4)), C(np.where(prob(3, 4) > 0.5, 1.0, -1.0))], {}),
    ("cosine_embedding_loss", "cosine_embedding_loss", [T(r(4, 3)), T(r(4, 3)), C(np.array([1, -1, -1, 1]))],
     {"margin": 0.2, "reduction": "sum"}),
    ("triplet_margin_loss", "triplet_margin_loss", [T(r(4, 3)), T(r(4, 3)), T(r(4, 3))], {"swap": True}),
    ("triplet_margin_loss_p1", "triplet_margin_loss", [T(r(4, 3)), T(r(4, 3)), T(r(4, 3))],
     {"p": 1, "margin": 3.0, "reduction": "none"}),
    ("triplet_margin_with_distance_loss", "triplet_margin_with_distance_loss", [T(r(4, 3)), T(r(4, 3)), T(r(4, 3))],
     {"margin": 2.0}),
    ("multi_margin_loss", "multi_margin_loss", [T(r(4, 5)), T(ints(5, 4))], {}),
    ("multi_margin_loss_weight_p2", "multi_margin_loss", [T(r(4, 5)), T(ints(5, 4))],
     {"p": 2, "margin": 0.5, "weight": T(prob(5)), "reduction": "none"}),
    ("soft_margin_loss", "soft_margin_loss", [T(r(3, 4)), C(np.where(prob(3, 4) > 0.5, 1.0, -1.0))], {}),
    ("multi_label_soft_margin_loss", "multi_label_soft_margin_loss", [T(r(3, 4)), C(ints(2, 3, 4).astype(float))],
     {"weight": T(prob(3, 4)), "reduction": "none"}),
    ("gaussian_nll_loss", "gaussian_nll_loss", [T(r(3, 4)), T(r(3, 4)), C(prob(3, 4))], {"full": True}),
    ("gaussian_nll_loss_var_last1", "gaussian_nll_loss", [T(r(3, 4)), T(r(3, 4)), C(prob(3, 1))],
     {"reduction": "none"}),
    ("poisson_nll_loss", "poisson_nll_loss", [T(r(3, 4)), C(ints(5, 3, 4).astype(float))], {}),
    ("poisson_nll_loss_rate_full", "poisson_nll_loss", [T(prob(3, 4) * 3), C(ints(5, 3, 4).astype(float))],
     {"log_input": False, "full": True, "reduction": "sum"}),
    ("rrelu_eval", "rrelu", [T(r(3, 5))], {"training": False}),
]  # fmt: skip


# (case name, layer class, init kwargs, mode, number of calls, inputs)
LAYERS = [
    ("batch_norm_1d_train", "BatchNorm1D", {"num_features": 3}, "train", 2, [r(5, 3)]),
    ("batch_norm_1d_ncl_train", "BatchNorm1D", {"num_features": 3}, "train", 1, [r(4, 3, 5)]),
    ("batch_norm_2d_train", "BatchNorm2D", {"num_features": 3, "momentum": 0.8}, "train", 2, [r(4, 3, 2, 2)]),
    ("batch_norm_2d_eval", "BatchNorm2D", {"num_features": 3}, "eval", 1, [r(4, 3, 2, 2)]),
    ("batch_norm_2d_nhwc", "BatchNorm2D", {"num_features": 3, "data_format": "NHWC"}, "train", 1, [r(2, 2, 2, 3)]),
    (
        "batch_norm_3d_global",
        "BatchNorm3D",
        {"num_features": 2, "use_global_stats": True},
        "train",
        1,
        [r(2, 2, 2, 2, 2)],
    ),
    ("batch_norm_fluid_train", "BatchNorm", {"num_channels": 3, "act": "relu"}, "train", 1, [r(4, 3, 2)]),
    ("group_norm", "GroupNorm", {"num_groups": 2, "num_channels": 4}, "train", 1, [r(2, 4, 3, 3)]),
    (
        "group_norm_nhwc",
        "GroupNorm",
        {"num_groups": 3, "num_channels": 6, "data_format": "NHWC"},
        "train",
        1,
        [r(2, 2, 2, 6)],
    ),
    ("instance_norm_1d", "InstanceNorm1D", {"num_features": 3}, "train", 1, [r(2, 3, 5)]),
    ("layer_norm_layer", "LayerNorm", {"normalized_shape": [3, 4]}, "train", 1, [r(2, 3, 4)]),
    ("prelu_layer", "PReLU", {"num_parameters": 3, "init": 0.1}, "train", 1, [r(2, 3, 4)]),
    # Paddle's spectral_norm_grad kernel is the true gradient only for a uniform upstream gradient (it weights
    # u v^T by sum(W) / sigma instead of sum(grad * W) / sigma), so these cases use cot = 1; see nn.SpectralNorm.
    ("spectral_norm", "SpectralNorm", {"weight_shape": [3, 4], "power_iters": 2}, "train", 1, [r(3, 4)]),
    ("spectral_norm_dim1", "SpectralNorm", {"weight_shape": [2, 3, 2], "dim": 1}, "train", 1, [r(2, 3, 2)]),
    ("linear_layer", "Linear", {"in_features": 3, "out_features": 2}, "train", 1, [r(4, 3)]),
    (
        "embedding_layer_padding",
        "Embedding",
        {"num_embeddings": 5, "embedding_dim": 2, "padding_idx": 0},
        "train",
        1,
        [np.array([[0, 1, 4], [4, 4, 2]])],
    ),
]


def as_tensor(a, grad):
    t = paddle.to_tensor(a)
    if grad and t.dtype in (paddle.float32, paddle.float64):
        t.stop_gradient = False
    return t


def outputs_of(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def record_function(name, fn, args, kwargs, arrays, cases):
    tensors, call_args, call_kwargs = [], [], {}
    for i, a in enumerate(args):
        if isinstance(a, tuple) and a[0] in ("tensor", "constant"):
            t = as_tensor(a[1], a[0] == "tensor")
            arrays[f"{name}.arg{i}"] = a[1]
            tensors.append((f"arg{i}", t))
            call_args.append(t)
        else:
            call_args.append(a)
    plain_kwargs, tensor_kwargs = {}, []
    for k, v in kwargs.items():
        if isinstance(v, tuple) and v[0] == "tensor":
            t = as_tensor(v[1], True)
            arrays[f"{name}.kw.{k}"] = v[1]
            tensors.append((f"kw.{k}", t))
            call_kwargs[k] = t
            tensor_kwargs.append(k)
        else:
            call_kwargs[k] = v
            plain_kwargs[k] = v
    outs = outputs_of(getattr(paddle.nn.functional, fn)(*call_args, **call_kwargs))
    loss = 0
    for j, o in enumerate(outs):
        arrays[f"{name}.out{j}"] = o.numpy()
        if not o.stop_gradient:
            cot = rng.uniform(0.5, 1.5, size=o.shape)
            arrays[f"{name}.cot{j}"] = cot
            loss = loss + (o * paddle.to_tensor(cot, dtype=o.dtype)).sum()
    diff = [(k, t) for k, t in tensors if not t.stop_gradient]
    if diff and not isinstance(loss, int):
        grads = paddle.grad([loss], [t for _, t in diff], allow_unused=True)
        for (k, _), g in zip(diff, grads):
            if g is not None:
                arrays[f"{name}.grad.{k}"] = g.numpy()
    cases[name] = {
        "kind": "function",
        "fn": fn,
        "args": [{a[0]: f"arg{i}"} if isinstance(a, tuple) else {"value": a} for i, a in enumerate(args)],
        "kwargs": plain_kwargs,
        "tensor_kwargs": tensor_kwargs,
        "outputs": len(outs),
    }


def record_layer(name, cls, init, mode, calls, inputs, arrays, cases):
    layer = getattr(paddle.nn, cls)(**init)
    layer.to(dtype="float64")
    state = {}
    for key, value in layer.state_dict().items():  # fresh random values, so nothing depends on Paddle's RNG
        arr = value.numpy()
        if key.endswith("_variance"):
            new = rng.uniform(0.5, 1.5, size=arr.shape)
        elif key.endswith("_mean") or arr.dtype.kind == "f":
            new = rng.uniform(-1, 1, size=arr.shape)
        else:
            new = arr
        state[key] = new
        arrays[f"{name}.state.{key}"] = new
    layer.set_state_dict({k: paddle.to_tensor(v) for k, v in state.items()})
    layer.train() if mode == "train" else layer.eval()
    for i, a in enumerate(inputs):
        arrays[f"{name}.in{i}"] = a
    for c in range(calls):
        xs = [as_tensor(a, True) for a in inputs]
        out = layer(*xs)
        arrays[f"{name}.call{c}.out"] = out.numpy()
        cot = np.ones(out.shape) if cls == "SpectralNorm" else rng.uniform(0.5, 1.5, size=out.shape)
        arrays[f"{name}.call{c}.cot"] = cot
        params = [(k, p) for k, p in layer.named_parameters() if not p.stop_gradient]
        wrt = [x for x in xs if not x.stop_gradient] + [p for _, p in params]
        grads = paddle.grad([(out * paddle.to_tensor(cot)).sum()], wrt, allow_unused=True)
        names = [f"in{i}" for i, x in enumerate(xs) if not x.stop_gradient] + [k for k, _ in params]
        for k, g in zip(names, grads):
            if g is not None:
                arrays[f"{name}.call{c}.grad.{k}"] = g.numpy()
    for key, value in layer.state_dict().items():
        arrays[f"{name}.after.{key}"] = value.numpy()
    cases[name] = {
        "kind": "layer",
        "layer": cls,
        "init": init,
        "mode": mode,
        "calls": calls,
        "inputs": len(inputs),
        "state": list(state),
    }


def main():
    arrays, cases = {}, {}
    for name, fn, args, kwargs in FUNCTIONS:
        record_function(name, fn, args, kwargs, arrays, cases)
    for name, cls, init, mode, calls, inputs in LAYERS:
        record_layer(name, cls, init, mode, calls, inputs, arrays, cases)
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": cases}, f, indent=1, sort_keys=True)
    print(f"wrote {len(cases)} cases")


if __name__ == "__main__":
    main()
