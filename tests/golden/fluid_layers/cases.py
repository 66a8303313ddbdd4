"""The static-mode cases of tests/static/test_fluid_layers.py, written once for both libraries: `run_all(paddle)`
builds each Program with the given paddle (the real 2.6 one in make_golden.py, minipaddle in the test), runs it
with deterministic parameters and returns {name: array}.

Loaded by file path (from the generator and from the test), so it imports nothing from the repo.
"""

import numpy as np

RNG_SEED = 7


def _run(paddle, build, feed, runs=1, scope_values=None):
    """Build with `build(paddle) -> {label: Variable}` in fresh Programs, run the startup Program, set
    scope_values, run the main Program `runs` times; return {label_i: array} for each run i."""
    S = paddle.static
    main, startup = S.Program(), S.Program()
    scope = S.Scope()
    with S.program_guard(main, startup), paddle.utils.unique_name.guard():
        fetch = build(paddle)
    exe = S.Executor(paddle.CPUPlace())
    out = {}
    with S.scope_guard(scope):
        exe.run(startup)
        for name, value in (scope_values or {}).items():
            scope.find_var(name).get_tensor().set(value, paddle.CPUPlace())
        labels = list(fetch)
        for i in range(runs):
            feed_i = feed(i) if callable(feed) else feed
            values = exe.run(main, feed=feed_i, fetch_list=[fetch[k] for k in labels])
            out.update({f"{k}_{i}": np.asarray(v) for k, v in zip(labels, values)})
    return out


def _grads(paddle, loss, params):
    pairs = dict((p.name, g) for p, g in paddle.static.append_backward(loss))
    return {f"grad_{name}": pairs[name] for name in params}


def weight_norm_cases(paddle):
    rng = np.random.default_rng(RNG_SEED)
    x = rng.standard_normal((2, 3)).astype("float32")
    w = rng.standard_normal((3, 4)).astype("float32")
    out = {}
    for dim in (None, 0, 1):

        def build(p, dim=dim):
            xv = p.static.data("x", [-1, 3], "float32")
            init = p.nn.initializer.Assign(w)
            attr = p.static.WeightNormParamAttr(dim=dim, name="wn", initializer=init)
            y = p.static.nn.fc(xv, 4, weight_attr=attr)
            loss = p.sum(p.multiply(y, p.to_tensor(np.arange(8, dtype="float32").reshape(2, 4))))
            fetch = {"y": y, "g": p.static.default_main_program().global_block().var("wn_g")}
            if (
                dim is None
            ):  # Paddle 2.6's backward fails for a dim (its sum op gets v's grad [3, 4] and one [3] or [4])
                fetch.update(_grads(p, loss, ["wn_g", "wn_v"]))
            return fetch

        res = _run(paddle, build, {"x": x})
        out.update({f"wn_{dim}_{k}": v for k, v in res.items()})
    return out


def auc_cases(paddle):
    rng = np.random.default_rng(RNG_SEED)
    batches = []
    for _ in range(4):
        prob = rng.random((7, 1)).astype("float32")
        batches.append({"p": np.concatenate([1 - prob, prob], 1), "l": rng.integers(0, 2, (7, 1)).astype("int64")})
    out = {}
    for num_thresholds, slide_steps in ((7, 2), (4095, 1), (15, 0)):

        def build(p, t=num_thresholds, s=slide_steps):
            pv = p.static.data("p", [-1, 2], "float32")
            lv = p.static.data("l", [-1, 1], "int64")
            auc, batch_auc, states = p.static.auc(pv, lv, num_thresholds=t, slide_steps=s)
            return {"auc": auc, "batch_auc": batch_auc, "pos": states[0], "neg": states[1], "gpos": states[2]}

        res = _run(paddle, build, lambda i: batches[i], runs=4)
        out.update({f"auc_{num_thresholds}_{slide_steps}_{k}": v for k, v in res.items()})
    return out


def layer_cases(paddle):
    rng = np.random.default_rng(RNG_SEED)
    x, y = rng.standard_normal((3, 2)).astype("float32"), rng.standard_normal((3, 4)).astype("float32")
    bw = rng.standard_normal((5, 2, 4)).astype("float32")
    seq = rng.standard_normal((2, 5, 3)).astype("float32")
    filt = rng.standard_normal((3, 3)).astype("float32")
    weight = rng.standard_normal((4, 3, 2)).astype("float32")
    u, v = rng.standard_normal(4).astype("float32"), rng.standard_normal(6).astype("float32")
    u1, v1 = rng.standard_normal(3).astype("float32"), rng.standard_normal(8).astype("float32")
    upstream = rng.standard_normal((3, 5)).astype("float32")

    def build(p):
        A = p.nn.initializer.Assign
        xv, yv = p.static.data("x", [-1, 2], "float32"), p.static.data("y", [-1, 4], "float32")
        bil = p.static.nn.bilinear_tensor_product(
            xv,
            yv,
            5,
            act="tanh",
            param_attr=p.ParamAttr(initializer=A(bw)),
            bias_attr=p.ParamAttr(initializer=p.nn.initializer.Constant(0.1)),
        )
        sv = p.static.data("seq", [2, 5, 3], "float32")
        rc = p.static.nn.row_conv(sv, 2, param_attr=p.ParamAttr(initializer=A(filt)))
        wv = p.static.data("w", [4, 3, 2], "float32")
        sn0 = p.static.nn.spectral_norm(wv, dim=0, power_iters=1)
        sn1 = p.static.nn.spectral_norm(wv, dim=1, power_iters=3, eps=1e-6)
        loss = p.add(p.sum(p.multiply(bil, p.to_tensor(upstream))), p.sum(p.multiply(rc, rc)))
        fetch = {"bil": bil, "rc": rc, "sn0": sn0, "sn1": sn1}
        fetch.update(_grads(p, loss, ["bilinear_tensor_product_0.w_0", "bilinear_tensor_product_0.b_0",
                                      "row_conv_0.w_0"]))  # fmt: skip
        return fetch

    feed = {"x": x, "y": y, "seq": seq, "w": weight}
    scope_values = {"spectral_norm_0.w_0": u, "spectral_norm_0.w_1": v, "spectral_norm_1.w_0": u1,
                    "spectral_norm_1.w_1": v1}  # fmt: skip
    return _run(paddle, build, feed, scope_values=scope_values)


def run_all(paddle):
    paddle.enable_static()
    try:
        return {**weight_norm_cases(paddle), **auc_cases(paddle), **layer_cases(paddle)}
    finally:
        paddle.disable_static()
