"""The static-mode cases of tests/static/test_ctr_metric_bundle.py, written once for both libraries: each group
builds a Program with the given paddle (the real 2.6 one in make_golden.py, minipaddle in the test), runs it three
times on different batches and returns {name: array} of the six running sums after each run.

Loaded by file path (from the generator and from the test), so it imports nothing from the repo.
"""

import numpy as np

RNG_SEED = 11
RUNS = 3
SUMS = ("sqrerr", "abserr", "prob", "q", "pos_num", "ins_num")


def _run(paddle, build, feed):
    """Build with `build(paddle) -> six Variables` in fresh Programs, run the startup Program once and the main
    Program RUNS times with feed(i); return {sum_i: array}."""
    S = paddle.static
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup), paddle.utils.unique_name.guard():
        fetch = build(paddle)
    exe = S.Executor(paddle.CPUPlace())
    out = {}
    with S.scope_guard(S.Scope()):
        exe.run(startup)
        for i in range(RUNS):
            values = exe.run(main, feed=feed(i), fetch_list=list(fetch))
            out.update({f"{k}_{i}": np.asarray(v) for k, v in zip(SUMS, values)})
    return out


def _batches(width_shape, tags=None):
    rng = np.random.default_rng(RNG_SEED)
    batches = []
    for i, n in enumerate((5, 3, 6)):
        shape = (n, *width_shape)
        batch = {"x": rng.random(shape).astype("float32"), "l": rng.integers(0, 2, shape).astype("float32")}
        if tags is not None:
            batch["w"] = np.full((n, 1), tags[i], "float32")
            batch["w"][1:] = 1 - tags[i]  # only the first row counts
        batches.append(batch)
    return batches


def bundle_cases(paddle):
    out = {}
    for label, shape, tags in (("plain", [1], None), ("flat", [], None), ("tagged", [1], (1.0, 0.0, 2.0))):
        batches = _batches(shape, tags)

        def build(p, shape=shape, tags=tags):
            x = p.static.data("x", [-1, *shape], "float32")
            lv = p.static.data("l", [-1, *shape], "float32")
            w = None if tags is None else p.static.data("w", [-1, 1], "float32")
            return p.static.ctr_metric_bundle(x, lv, w)

        res = _run(paddle, build, lambda i, batches=batches: batches[i])
        out.update({f"{label}_{k}": v for k, v in res.items()})
    return out


def run_all(paddle):
    paddle.enable_static()
    try:
        return bundle_cases(paddle)
    finally:
        paddle.disable_static()
