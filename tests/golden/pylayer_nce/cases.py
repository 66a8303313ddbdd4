"""The static-mode cases of tests/static/test_pylayer_nce.py, written once for both libraries: `run_all(paddle)`
builds each Program with the given paddle (the real 2.6 one in make_golden.py, minipaddle in the test), runs it
and returns {name: array}. nce runs with a custom distribution of mass 1 on one class, so its negative samples
are the same in both libraries.

Loaded by file path (from the generator and from the test), so it imports nothing from the repo.
"""

import numpy as np

RNG_SEED = 11


def _run(paddle, build, feed):
    S = paddle.static
    main, startup = S.Program(), S.Program()
    scope = S.Scope()
    with S.program_guard(main, startup), paddle.utils.unique_name.guard():
        fetch = build(paddle)
    exe = S.Executor(paddle.CPUPlace())
    with S.scope_guard(scope):
        exe.run(startup)
        labels = list(fetch)
        values = exe.run(main, feed=feed, fetch_list=[fetch[k] for k in labels])
    return {k: np.asarray(v) for k, v in zip(labels, values)}


def pylayer_cases(paddle):
    rng = np.random.default_rng(RNG_SEED)
    xv = rng.standard_normal((2, 3)).astype("float32")
    yv = rng.standard_normal((2, 3)).astype("float32")

    def two_outputs(p):
        x = p.static.data("x", [-1, 3], "float32")
        y = p.static.data("y", [-1, 3], "float32")
        x.stop_gradient = y.stop_gradient = False
        o1, o2 = p.static.nn.static_pylayer(lambda a, b: (a * b, p.exp(a)), [x, y], lambda d1, d2: (d1 * 3.0, d2 + 1.0))
        loss = p.sum(o1 * 2.0) + p.sum(x)  # o2 unused: backward_fn gets zeros for it
        gx, gy = p.static.gradients([loss], [x, y])
        return {"o1": o1, "o2": o2, "gx": gx, "gy": gy}

    def one_output(p):
        x = p.static.data("x", [-1, 3], "float32")
        x.stop_gradient = False
        out = p.static.nn.static_pylayer(lambda a: p.tanh(a), [x], lambda dy: dy * dy)
        gx = p.static.gradients([p.sum(out * out)], [x])[0]
        return {"out": out, "gx": gx}

    out = {f"two_{k}": v for k, v in _run(paddle, two_outputs, {"x": xv, "y": yv}).items()}
    out.update({f"one_{k}": v for k, v in _run(paddle, one_output, {"x": xv}).items()})
    return out


def nce_cases(paddle):
    rng = np.random.default_rng(RNG_SEED)
    out = {}
    for dtype in ("float32", "float64"):
        xv = rng.standard_normal((3, 4)).astype(dtype)
        lv = rng.integers(0, 6, (3, 2)).astype("int64")
        wv = rng.standard_normal((6, 4)).astype(dtype) / 2
        bv = rng.standard_normal((6, 1)).astype(dtype) / 2
        sw = rng.uniform(0.5, 1.5, (3, 1)).astype(dtype)
        for weighted, bias in ((False, True), (True, False)):

            def build(p, dtype=dtype, weighted=weighted, bias=bias, wv=wv, bv=bv):
                x = p.static.data("x", [-1, 4], dtype)
                x.stop_gradient = False
                label = p.static.data("l", [-1, 2], "int64")
                weight = p.static.data("sw", [-1, 1], dtype) if weighted else None
                dist = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
                init = p.nn.initializer.Assign
                cost = p.static.nn.nce(
                    x,
                    label,
                    6,
                    sample_weight=weight,
                    num_neg_samples=3,
                    sampler="custom_dist",
                    custom_dist=dist,
                    param_attr=p.ParamAttr(initializer=init(wv)),
                    bias_attr=p.ParamAttr(initializer=init(bv)) if bias else False,
                )
                loss = p.sum(cost * p.to_tensor(np.array([[1.0], [2.0], [-1.0]], dtype)))
                fetch = {"cost": cost}
                grads = dict((v.name, g) for v, g in p.static.append_backward(loss))
                fetch["gw"] = grads["nce_0.w_0"]
                if bias:
                    fetch["gb"] = grads["nce_0.b_0"]
                fetch["gx"] = p.static.gradients([loss], [x])[0]
                return fetch

            feed = {"x": xv, "l": lv, **({"sw": sw} if weighted else {})}
            res = _run(paddle, build, feed)
            out.update({f"nce_{dtype}_{weighted}_{bias}_{k}": v for k, v in res.items()})
    return out


def run_all(paddle):
    paddle.enable_static()
    out = {}
    for group in (pylayer_cases, nce_cases):
        out.update(group(paddle))
    return out
