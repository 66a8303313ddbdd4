"""The static-mode cases of tests/static/test_data_norm.py, written once for both libraries: each group builds
its Programs with the given paddle (the real 2.6 one in make_golden.py, minipaddle in the test), runs them and
returns {name: array}.

Loaded by file path (from the generator and from the test), so it imports nothing from the repo.
"""

import numpy as np

RNG_SEED = 5
STARTS = {"batch_size": 4.0, "batch_sum": 1.0, "batch_square": 2.0}


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


def _with_slots(rng, dtype):
    """[5, 6] with slots of 3 (or 2): some rows' show numbers (columns 0, 2, 3, 4) are exactly zero."""
    x = rng.standard_normal((5, 6)).astype(dtype)
    x[[0, 1, 3], 0] = 0
    x[[2, 3], 3] = 0
    x[4, 2] = 0
    x[:, 4] = 0  # slot (4, 5) of slot_dim 2 is never shown
    return x


def _case(xv, lr=None, **kwargs):
    def build(p):
        x = p.static.data("x", [-1, xv.shape[1]], str(xv.dtype))
        x.stop_gradient = False
        y = p.static.nn.data_norm(x, **kwargs)
        weights = np.arange(1, 1 + xv.size).reshape(xv.shape).astype(xv.dtype) / xv.size
        loss = p.sum(y * p.to_tensor(weights))
        fetch = {"y": y, "gx": p.static.gradients([loss], [x])[0]}
        if lr is None:
            fetch.update({f"g_{v.name}": g for v, g in p.static.append_backward(loss)})
        else:
            p.optimizer.SGD(learning_rate=lr).minimize(loss)
            block = p.static.default_main_program().global_block()
            fetch.update({v.name: v for v in block.all_parameters()})
        return fetch

    return build


def data_norm_cases(paddle):
    rng = np.random.default_rng(RNG_SEED)
    out = {}
    plain = rng.standard_normal((4, 3)).astype("float32")
    slots = _with_slots(rng, "float32")
    slots64 = _with_slots(rng, "float64")
    cases = {
        "default": (plain, {}),
        "f64_starts": (plain.astype("float64") * 3, {"epsilon": 1e-3, "param_attr": STARTS}),
        "relu_nhwc": (plain, {"act": "relu", "data_layout": "NHWC", "param_attr": STARTS, "name": "mine"}),
        "slot3": (slots, {"slot_dim": 3, "param_attr": STARTS}),
        "slot3_default": (slots64, {"slot_dim": 3}),
        "slot2": (slots, {"slot_dim": 2, "param_attr": STARTS}),
        "affine": (slots, {"enable_scale_and_shift": True, "param_attr": dict(STARTS, scale_w=2.0, bias=0.5)}),
        "affine_slot2": (
            slots64,
            {"enable_scale_and_shift": True, "slot_dim": 2, "param_attr": dict(STARTS, scale_w=-1.5, bias=0.25)},
        ),  # fmt: skip
        "affine_defaults": (plain, {"enable_scale_and_shift": True, "param_attr": {}}),
    }
    for label, (xv, kwargs) in cases.items():
        out.update({f"{label}_{k}": v for k, v in _run(paddle, _case(xv, **kwargs), {"x": xv}).items()})
    steps = {
        "sgd": (plain, {}),
        "sgd_slot": (slots, {"slot_dim": 3, "param_attr": STARTS}),
        "sgd_affine": (slots, {"enable_scale_and_shift": True, "param_attr": {}}),
    }
    for label, (xv, kwargs) in steps.items():
        out.update({f"{label}_{k}": v for k, v in _run(paddle, _case(xv, lr=0.5, **kwargs), {"x": xv}).items()})
    return out


def run_all(paddle):
    paddle.enable_static()
    return data_norm_cases(paddle)
