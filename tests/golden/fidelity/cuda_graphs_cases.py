"""paddle.device.cuda.graphs, cuda_graphed_layer and paddle.utils.environments without CUDA, run with either library
(`paddle` passed in); make_cuda_graphs_golden.py records run_all(paddle 2.6) into cuda_graphs.json and
tests/device/test_cuda_graphs.py compares."""

import importlib
import os

VAR = "MINIPADDLE_ENV_CASE"


def _outcome(f):
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001  (the kind and message are what is recorded)
        return [type(e).__name__, str(e)]


def _double(t):
    return t * 2


def _graphs(paddle):
    g = importlib.import_module(paddle.__name__ + ".device.cuda.graphs")
    layered = importlib.import_module(paddle.__name__ + ".device.cuda.cuda_graphed_layer")
    lin = paddle.nn.Linear(2, 3)
    x = paddle.ones([1, 2])

    def wrapped_layer():
        w = g.wrap_cuda_graph(lin)
        return [w.forward._cuda_graph_capture_mode, w.forward._cuda_graph_pool_id,
                bool((w(x).numpy() == lin(x).numpy()).all())]  # fmt: skip

    def wrapped_function():
        w = g.wrap_cuda_graph(_double, mode="global", memory_pool=g.wrap_cuda_graph(lin))
        return [w._cuda_graph_capture_mode, w._cuda_graph_pool_id, w(x).numpy().tolist()]

    def static_wrapped():
        paddle.enable_static()
        try:
            prog = paddle.static.Program()
            with paddle.static.program_guard(prog):
                v = paddle.static.data("x", [2, 2])
                g.wrap_cuda_graph(lambda a: a + 1)(v)
        finally:
            paddle.disable_static()

    def static_bad_pool():
        paddle.enable_static()
        try:
            g.wrap_cuda_graph(lambda a: a, memory_pool="x")
        finally:
            paddle.disable_static()

    return {
        "supported": g.is_cuda_graph_supported(),
        "graph": _outcome(lambda: g.CUDAGraph()),
        "graph_cpu_place": _outcome(lambda: g.CUDAGraph(place=paddle.CPUPlace(), mode="global")),
        "wrapped_layer": _outcome(wrapped_layer),
        "wrapped_function": _outcome(wrapped_function),
        "bad_mode_is_assertion": _caught_as_assertion(lambda: g.wrap_cuda_graph(lin, mode="bad")),
        "new_pool_fails": _outcome(lambda: g.wrap_cuda_graph(lin, memory_pool="new"))[0] != "ok",
        "static_wrapped": _outcome(static_wrapped),
        "static_bad_pool": _outcome(static_bad_pool)[0],
        "transform_empty": _outcome(lambda: g.cuda_graph_transform(paddle.static.Program())),
        "graphed_layer": _outcome(lambda: layered.CUDAGraphedLayer(lin)),
        "graphed_layer_is_layer": issubclass(layered.CUDAGraphedLayer, paddle.nn.Layer),
    }


def _environments(paddle):
    e = importlib.import_module(paddle.__name__ + ".utils.environments")
    out = {}
    os.environ.pop(VAR, None)
    b = e.BooleanEnvironmentVariable(VAR, True)
    out["bool_default"] = [b.get(), repr(b)]
    for v in ["Yes", "0", "off", "ON", "2", ""]:
        os.environ[VAR] = v
        out["bool_" + v] = b.get()
    i = e.IntegerEnvironmentVariable(VAR, 7)
    os.environ[VAR] = "x"
    out["int_not_a_number"] = i.get()
    os.environ[VAR] = "12"
    out["int"] = [i.get(), repr(i)]
    s = e.StringEnvironmentVariable(VAR, "d")
    out["string"] = s.get()
    os.environ.pop(VAR)
    out["string_default"] = s.get()
    with e.EnvironmentVariableGuard(i, 3):
        out["guard_inside"] = os.environ[VAR]
    out["guard_after"] = os.environ.get(VAR)
    b.set(False)
    out["bool_set"] = os.environ[VAR]
    b.delete()
    out["deleted"] = VAR in os.environ
    out["delete_unset"] = _outcome(b.delete)[0]
    bad = [lambda: e.IntegerEnvironmentVariable("A", True), lambda: i.set("1"),
           lambda: e.StringEnvironmentVariable("A", 1), lambda: b.set(1), lambda: e.BooleanEnvironmentVariable("A", 0),
           lambda: s.set(None)]  # fmt: skip
    out["refusals_are_assertions"] = [_caught_as_assertion(f) for f in bad]
    return out


def _caught_as_assertion(f):
    try:
        f()
    except AssertionError:
        return True
    return False


def run_all(paddle):
    return {"graphs": _graphs(paddle), "environments": _environments(paddle)}
