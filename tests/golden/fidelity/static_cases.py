"""Static mode as user code drives it, written once and run with either library (`paddle` is passed in): the
Executor's feed and fetch_list forms, float64 layers, gradient clipping inside minimize, composite functions'
gradients, create_parameter's names. Each case returns plain JSON values; an error is recorded as its kind only.

make_static_golden.py runs run_all(paddle 2.6) into static.json; tests/static/test_user_code_golden.py runs it with
minipaddle and compares.
"""

import warnings

import numpy as np


def _executor_program(paddle):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        y = x * 2
        z = y + 1
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    return main, exe, y, z


def _outcome(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn()
        except (TypeError, ValueError, RuntimeError) as err:
            return {"error": type(err).__name__ if isinstance(err, TypeError) else "ValueError/RuntimeError"}
    return {
        "value": value,
        "warnings": sorted({str(w.message) for w in caught if "not found in program" in str(w.message)}),
    }


def executor_cases(paddle):
    main, exe, y, z = _executor_program(paddle)
    feed = {"x": np.ones([2, 3], "float32")}

    def shapes(fetch_list, **kw):
        return lambda: [list(np.asarray(a).shape) for a in exe.run(main, feed=kw.pop("feed", feed),
                                                                    fetch_list=fetch_list, **kw)]  # fmt: skip

    return {
        "unused_feed_key": _outcome(shapes([y], feed={**feed, "unused": np.ones(2, "float32")})),
        "nested_lists": _outcome(shapes([[y], (z,)])),
        "mixed_nesting": _outcome(shapes([y, [z, y]])),
        "two_levels": _outcome(shapes([[y, [y]]])),
        "single_variable": _outcome(shapes(y)),
        "single_name": _outcome(shapes(y.name)),
        "tuple": _outcome(shapes((y, z))),
        "int_entry": _outcome(shapes([3])),
        "none": _outcome(shapes(None)),
        "scope": _outcome(shapes([y], scope=paddle.static.Scope())),
        "use_prune": _outcome(shapes([y], use_prune=True)),
        "return_numpy_false": _outcome(
            lambda: [np.asarray(a).tolist() for a in exe.run(main, feed=feed, fetch_list=[z], return_numpy=False)]
        ),
        # paddle checks a fed array's dtype (np.ones gives float64) and converts a Python list to the variable's
        "feed_float64_array": _outcome(shapes([y], feed={"x": np.ones([2, 3])})),
        "feed_int32_array": _outcome(shapes([y], feed={"x": np.ones([2, 3], "int32")})),
        "feed_nested_int_list": _outcome(
            lambda: [str(a.dtype) for a in exe.run(main, feed={"x": [[1, 2, 3], [4, 5, 6]]}, fetch_list=[y])]
        ),
        "feed_list_of_one_dict": _outcome(shapes([y], feed=[feed])),  # one feed dict per place, as paddle allows
        "return_merged": _outcome(shapes([y], return_merged=False)),  # not an argument of paddle 2.6's run
        "closed_executor": _outcome(lambda: _run_closed(paddle, main, feed, y)),
    }


def _run_closed(paddle, main, feed, y):
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.close()
    return [list(a.shape) for a in exe.run(main, feed=feed, fetch_list=[y])]


def float64_layers(paddle):
    paddle.set_default_dtype("float64")
    try:
        out = {}
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [1, 2, 4, 4, 4], "float64")
            for cls, args in [("Conv3D", (2, 3, 3)), ("Conv3DTranspose", (2, 3, 3)), ("Conv2D", (2, 3, 3)),
                              ("Linear", (4, 3)), ("BatchNorm3D", (2,)), ("Embedding", (5, 3)), ("LayerNorm", (4,)),
                              ("GRU", (4, 3)), ("PReLU", ())]:  # fmt: skip
                out[cls] = sorted(str(p.dtype) for p in getattr(paddle.nn, cls)(*args).parameters())
            c = paddle.nn.Conv3D(2, 3, 3)(x)
            t = paddle.nn.Conv3DTranspose(2, 3, 3)(x)
            s = paddle.static.nn.conv3d(x, 3, 3)
        exe = paddle.static.Executor()
        exe.run(startup)
        out["run"] = [str(a.dtype) for a in exe.run(main, feed={"x": np.ones([1, 2, 4, 4, 4])}, fetch_list=[c, t, s])]
        return out
    finally:
        paddle.set_default_dtype("float32")


def clipped_minimize(paddle, kind):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [4, 3], "float32")
        lin = paddle.nn.Linear(3, 2, weight_attr=paddle.nn.initializer.Constant(0.5),
                               bias_attr=paddle.nn.initializer.Constant(0.1))  # fmt: skip
        loss = (lin(x) * 10).mean()
        clip = {"value": lambda: paddle.nn.ClipGradByValue(0.05), "norm": lambda: paddle.nn.ClipGradByNorm(0.1),
                "global": lambda: paddle.nn.ClipGradByGlobalNorm(0.1)}[kind]()  # fmt: skip
        paddle.optimizer.SGD(learning_rate=1.0, grad_clip=clip).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    for _ in range(2):
        exe.run(main, feed={"x": np.arange(12, dtype="float32").reshape(4, 3) / 10})
    scope = paddle.static.global_scope()
    return [np.asarray(scope.find_var(p.name).get_tensor()).round(5).tolist() for p in lin.parameters()]


def composite_gradients(paddle):
    rng = np.random.default_rng(0)
    feed = {"a": rng.normal(size=(2, 3)), "b": rng.normal(size=(3, 4)), "c": rng.normal(size=(4, 2))}
    out = {}
    for name, fn in [("multi_dot", lambda a, b, c: paddle.linalg.multi_dot([a, b, c])),
                     ("linear", lambda a, b, c: paddle.nn.functional.linear(a, b)),
                     ("cosine_similarity", lambda a, b, c: paddle.nn.functional.cosine_similarity(a, a * 2 + 1)),
                     ("logsumexp", lambda a, b, c: paddle.logsumexp(a, axis=1)),
                     ("norm", lambda a, b, c: paddle.linalg.norm(b, p="fro"))]:  # fmt: skip
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            vs = []
            for k, shape in (("a", [2, 3]), ("b", [3, 4]), ("c", [4, 2])):
                v = paddle.static.data(k, shape, "float64")
                v.stop_gradient = False
                vs.append(v)
            y = fn(*vs).sum()
            grads = paddle.static.gradients([y], vs)
        fetch = [y] + [g for g in grads if g is not None]
        values = paddle.static.Executor().run(main, feed=feed, fetch_list=fetch)
        out[name] = {
            "y": float(np.asarray(values[0]).round(6)),
            "grads": [np.asarray(g).round(6).tolist() for g in values[1:]],
            "none": [g is None for g in grads],
        }
    return out


def parameter_names(paddle):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        named = paddle.static.create_parameter(shape=[2, 3], dtype="float32", name="w")
        by_attr = paddle.static.create_parameter(shape=[2], dtype="float32", name="v", attr=paddle.ParamAttr(name="u"))
        bias = paddle.static.create_parameter(shape=[2], dtype="float32", name="b", is_bias=True)
    return [named.name, by_attr.name, bias.name, sorted(main.global_block().vars)]


def run_all(paddle):
    paddle.enable_static()
    try:
        return {
            "executor": executor_cases(paddle),
            "float64_layers": float64_layers(paddle),
            "clip": {k: clipped_minimize(paddle, k) for k in ("value", "norm", "global")},
            "composite_gradients": composite_gradients(paddle),
            "parameter_names": parameter_names(paddle),
        }
    finally:
        paddle.disable_static()
