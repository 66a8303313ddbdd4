"""The dtype sweep, run with either library (`paddle` passed in): for every op-table entry that is a public function
of paddle's, call it on its first sample with the float inputs cast to each dtype, in dynamic and static mode, and
note the output dtypes (or that it raised).

The cases (which function, which sample) are exported from minipaddle's op table by export_dtype_cases.py into
dtype_cases.json, so paddle runs exactly the calls minipaddle does; make_dtype_golden.py records paddle 2.6's
answers into dtype_sweep.json; tests/ops/test_dtype_sweep.py compares.
"""

import numpy as np

DTYPES = ("float16", "float32", "float64", "int32", "int64", "bool", "complex64")


def decode(a, dtype):
    """A JSON-encoded argument, with float arrays cast to `dtype`."""
    if isinstance(a, dict) and "array" in a:
        arr = np.asarray(a["array"], dtype=a["dtype"])
        if arr.dtype.kind == "f":
            arr = (arr > 0) if dtype == "bool" else arr.astype(dtype)
        return arr
    if isinstance(a, dict) and "list" in a:
        return [decode(e, dtype) for e in a["list"]]
    return a


def resolve(paddle, path):
    obj = paddle
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _dtypes_of(out):
    outs = out if isinstance(out, (list, tuple)) else [out]
    return [str(o.dtype).replace("paddle.", "") if hasattr(o, "dtype") else type(o).__name__ for o in outs]


def dynamic_call(paddle, case, dtype):
    fn = resolve(paddle, case["path"])
    args = [paddle.to_tensor(a) if isinstance(a, np.ndarray) else
            [paddle.to_tensor(e) for e in a] if isinstance(a, list) and a and isinstance(a[0], np.ndarray) else a
            for a in (decode(x, dtype) for x in case["args"])]  # fmt: skip
    return _dtypes_of(fn(*args, **case["kwargs"]))


def _static_program(paddle, case, dtype):
    """(main, startup, feed, outputs) of the case's call built in static mode (static mode must be on)."""
    fn = resolve(paddle, case["path"])
    main, startup = paddle.static.Program(), paddle.static.Program()
    names = iter(f"in{k}" for k in range(100))
    feed = {}

    def declare(a):
        if isinstance(a, np.ndarray):
            name = next(names)
            feed[name] = a
            return paddle.static.data(name, list(a.shape), str(a.dtype))
        if isinstance(a, list) and a and isinstance(a[0], np.ndarray):
            return [declare(e) for e in a]
        return a

    with paddle.static.program_guard(main, startup):
        out = fn(*[declare(decode(x, dtype)) for x in case["args"]], **case["kwargs"])
    return main, startup, feed, out


def static_call(paddle, case, dtype):
    return _dtypes_of(_static_program(paddle, case, dtype)[3])


def static_run(paddle, case, dtype):
    """The dtypes the Executor's run of the static Program returns (static mode must be on): where a library declares
    one dtype when it builds the Program, and its kernel computes another, or refuses only when it runs."""
    main, startup, feed, out = _static_program(paddle, case, dtype)
    outs = [o for o in (out if isinstance(out, (list, tuple)) else [out]) if hasattr(o, "dtype")]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    return [str(a.dtype) for a in exe.run(main, feed=feed, fetch_list=outs)]


def sweep(paddle, case):
    """{mode: {dtype: [output dtypes] or "error"}} for one case."""
    import warnings

    out = {"dynamic": {}, "static": {}}
    for dtype in DTYPES:
        for mode, call in (("dynamic", dynamic_call), ("static", static_call)):
            if mode == "static":
                paddle.enable_static()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    out[mode][dtype] = call(paddle, case, dtype)
            except Exception:  # noqa: BLE001  (any refusal counts as "error": the kind is not compared)
                out[mode][dtype] = "error"
            finally:
                if mode == "static":
                    paddle.disable_static()
    return out
