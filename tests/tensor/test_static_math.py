"""The math API in static mode, with an unknown batch dimension: the same calls build a Program whose run
matches dynamic mode."""

import numpy as np

import minipaddle as paddle

CALLS = {
    "unary": lambda x: paddle.erf(paddle.sin(x)) + paddle.square(paddle.floor(x)),
    "clip_cumsum": lambda x: paddle.cumsum(paddle.clip(x, -0.5, 0.5), axis=1),
    "reductions": lambda x: paddle.logsumexp(x, axis=1) + paddle.prod(x, axis=1) + paddle.std(x, axis=1),
    "amax_all": lambda x: paddle.cast(paddle.all(x > -5.0, axis=1), "float64") * paddle.amax(x, axis=1),
    "search": lambda x: paddle.cast(paddle.argmax(x, axis=1), "float64") + paddle.topk(x, 2)[0][:, 0],
    "sort_median": lambda x: paddle.sort(x, axis=1)[:, 0] + paddle.median(x, axis=1),
    "linalg": lambda x: paddle.norm(x, p=3, axis=1) + paddle.mv(x, paddle.ones([4], "float64")),
    "triangles": lambda x: paddle.tril(paddle.matmul(x, x, transpose_x=True)).sum(axis=0),
    "logic": lambda x: paddle.cast(paddle.logical_and(x > 0, paddle.isfinite(x)), "float64").sum(axis=1),
    "division": lambda x: paddle.remainder(x, paddle.full([4], 0.3, "float64")),
}


def test_static_programs_with_an_unknown_batch_match_dynamic_mode():
    data = np.random.default_rng(0).uniform(-1, 1, (5, 4))
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 4], "float64")
            outs = {name: fn(x) for name, fn in CALLS.items()}
        fetched = paddle.static.Executor().run(main, feed={"x": data}, fetch_list=list(outs.values()))
    finally:
        paddle.disable_static()
    for (name, fn), value in zip(CALLS.items(), fetched):
        np.testing.assert_allclose(value, fn(paddle.to_tensor(data)).numpy(), rtol=1e-12, err_msg=name)
