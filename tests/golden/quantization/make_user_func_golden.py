"""Record paddle 2.6.2's static quant_aware with user functions (weight_quantize_func, act_quantize_func,
weight_preprocess_func, act_preprocess_func with optimizer_func and executor: QuantizationTransformPass(V2)
._insert_func) on a small CNN (run with /work/paddle-venv/bin/python from the repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_user_func_golden.py

The function is PACT, as in paddle's own test (test/quantization/test_user_defined_quantization.py): a learned
clipping threshold alpha, trained by optimizer_func's Momentum. Flows (FLOWS), each from the same start weights
and data: quant_aware(train, for_test=False) on the Program that already has SGD's backward and updates,
the test Program (below), STEPS training steps. Writes user_func.json (per flow: every op of the
training Program with its role, the test Program's ops) and user_func.npz (per flow and step: the loss and each
alpha; the trained weights; the test Program's logits), twice: as paddle runs (`{flow}/...`), and with its
conv2d_grad / mul_grad pointed at the inputs their forward ops read (`{flow}/fixed/...`). Paddle's _insert_func
points the grad op at the function's output, and its backward renaming (_transform_backward) then finds no
weight among the grad op's inputs (the function's output is not persistable) or no dequantized name to rename,
so the grad op reads float values its forward op never saw: the un-quantized image, or the un-quantized
preprocessed value. minipaddle's gradients come from the forward ops' grad rules, so they read what the forward
read: the fixed run is what minipaddle must equal to float32 rounding; paddle's own run differs by the effect of
quantization on the weight gradients.

Paddle 2.6.2's quant_aware(for_test=True) cannot take a user function: its sub-graphs are made with
all_sub_graphs(), whose for_test defaults to False, so _insert_func treats the test graph as a training graph,
minimizes the function's Program and looks for gradients the test Program does not have (AssertionError: Cannot
find the target node (conv2d_0.tmp_0@GRAD)). The test Program is recorded as quant_aware(for_test=True) would
make it with its graph's for_test kept: its passes, in its order and with its arguments, applied to
IrGraph(test, for_test=True) (what paddle's own test does with the pass).

The image has stop_gradient False, as in paddle's test (its activation gets a gradient for _insert_func to
rewire).
"""

import json
import os
import sys

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.base.framework import IrGraph, core
from paddle.static.quantization import quant_aware
from paddle.static.quantization.quanter import _parse_configs
from paddle.static.quantization.quantization_pass import (
    AddQuantDequantForResidual,
    OutScaleForTrainingPass,
    QuantizationTransformPass,
    QuantizationTransformPassV2,
)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_quant_aware_golden import op_rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS, BATCH = 3, 4
ALPHA = {"act": 1.0, "weight": 0.2}  # (start thresholds that clip: activations ~N(0, 1), weights ~0.3)
FLOWS = {  # name: (config, {hook: kind of pact})
    "act_preprocess": (None, {"act_preprocess_func": "act"}),
    "weight_quantize": (None, {"weight_quantize_func": "weight"}),
    "weight_preprocess_act_quantize": (None, {"weight_preprocess_func": "weight", "act_quantize_func": "act"}),
    "legacy_act_preprocess": ({"onnx_format": False}, {"act_preprocess_func": "act"}),
}


def pact(start):
    def pact_func(x):
        alpha = paddle.static.create_parameter(
            [1], "float32", name=x.name + "_pact", default_initializer=paddle.nn.initializer.Constant(start)
        )
        x = paddle.subtract(x, paddle.nn.functional.relu(paddle.subtract(x, alpha)))
        return paddle.add(x, paddle.nn.functional.relu(paddle.subtract(-alpha, x)))

    return pact_func


def network():
    """The network tests/quantization/test_user_functions.py builds in minipaddle."""
    x = paddle.static.data("image", [-1, 1, 6, 6], "float32")
    x.stop_gradient = False  # (see the module docstring)
    label = paddle.static.data("label", [-1, 1], "int64")
    c = paddle.static.nn.conv2d(x, 2, 3, act="relu")
    f = paddle.static.nn.fc(paddle.flatten(c, 1), 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(f, label))
    return f, loss


def test_program(program, place, config, scope, **kw):
    """quant_aware(program, for_test=True)'s passes on a graph that stays a test graph (module docstring)."""
    config = _parse_configs(config or {})
    graph = IrGraph(core.Graph(program.desc), for_test=True)
    transform = QuantizationTransformPassV2 if config["onnx_format"] else QuantizationTransformPass
    transform(
        scope=scope, place=place, weight_bits=8, activation_bits=8,
        activation_quantize_type=config["activation_quantize_type"],
        weight_quantize_type=config["weight_quantize_type"], window_size=config["window_size"],
        moving_rate=config["moving_rate"], quantizable_op_type=config["quantize_op_types"],
        skip_pattern=config["not_quant_pattern"], is_test=True, **kw,
    ).apply(graph)  # fmt: skip
    AddQuantDequantForResidual(scope=scope, place=place, quant_bits=8, is_test=True).apply(graph)
    OutScaleForTrainingPass(scope=scope, place=place, moving_rate=config["moving_rate"], is_test=True).apply(graph)
    return graph.to_program()


def all_rows(program):
    rows = op_rows(program, forward_only=False)
    for row, op in zip(rows, program.global_block().ops):
        row["role"] = int(op.attr("op_role"))
    return rows


def grad_ops_read_forward_inputs(program):
    """Point each conv2d_grad / mul_grad at the inputs its forward op reads (see the module docstring)."""
    block = program.global_block()
    forward = {op.output(slot)[0]: op for op in block.ops for slot in ("Output", "Out")
               if op.type in ("conv2d", "mul") and slot in op.output_names}  # fmt: skip
    for op in block.ops:
        if op.type in ("conv2d_grad", "mul_grad"):
            out_grad = op.input("Output@GRAD" if op.type == "conv2d_grad" else "Out@GRAD")[0]
            fwd = forward[out_grad[: -len("@GRAD")]]
            for slot in ("Input", "Filter") if op.type == "conv2d_grad" else ("X", "Y"):
                old, new = op.input(slot)[0], fwd.input(slot)[0]
                if old != new:
                    op._rename_input(old, new)


def run(flow, config, hooks, fix, exe, place, arrays, params):
    """One flow: quant_aware, the test Program, STEPS steps; returns the two Programs (values into `arrays`)."""
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup), paddle.utils.unique_name.guard():
        logits, loss = network()
        test_p = main_p.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    for name, value in params.items():
        scope.find_var(name).get_tensor().set(value, place)
    funcs = {hook: pact(ALPHA[kind]) for hook, kind in hooks.items()}
    kw = dict(scope=scope, optimizer_func=lambda: paddle.optimizer.Momentum(0.05, 0.9), executor=exe, **funcs)
    with paddle.static.scope_guard(scope):
        train = quant_aware(main_p, place, config, for_test=False, return_program=True, **kw)
        test = test_program(test_p, place, config, **kw)
    if fix:
        grad_ops_read_forward_inputs(train)
    key = f"{flow}/fixed" if fix else flow
    alphas = sorted(v.name for v in train.list_vars() if v.name.endswith("_pact"))
    for step in range(STEPS):
        feed = {"image": arrays["images"][step], "label": arrays["labels"][step]}
        (lv,) = exe.run(train, feed=feed, fetch_list=[loss.name], scope=scope)
        arrays[f"{key}/step{step}/loss"] = np.array(lv)
        for a in alphas:
            arrays[f"{key}/step{step}/{a}"] = np.array(scope.find_var(a).get_tensor())
    for p in params:
        arrays[f"{key}/trained/{p}"] = np.array(scope.find_var(p).get_tensor())
    feed = {"image": arrays["images"][STEPS], "label": arrays["labels"][STEPS]}
    (arrays[f"{key}/test/logits"],) = exe.run(test, feed=feed, fetch_list=[logits.name], scope=scope)
    return train, test, alphas


def main():
    paddle.enable_static()
    paddle.seed(27)
    rng = np.random.default_rng(27)
    place = paddle.CPUPlace()
    exe = paddle.static.Executor(place)
    text, arrays = {}, {}
    arrays["images"] = rng.normal(size=(STEPS + 1, BATCH, 1, 6, 6)).astype("float32")
    arrays["labels"] = rng.integers(0, 3, size=(STEPS + 1, BATCH, 1)).astype("int64")
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup), paddle.utils.unique_name.guard():
        network()
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    params = {p.name: np.array(scope.find_var(p.name).get_tensor()) for p in main_p.all_parameters()}
    arrays.update({f"param/{k}": v for k, v in params.items()})
    text["params"] = list(params)
    for flow, (config, hooks) in FLOWS.items():
        train, test, alphas = run(flow, config, hooks, False, exe, place, arrays, params)
        text[flow] = {"hooks": hooks, "train": all_rows(train), "test": op_rows(test), "alphas": alphas}
        run(flow, config, hooks, True, exe, place, arrays, params)
    with open(os.path.join(HERE, "user_func.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "user_func.npz"), **arrays)
    print(len(arrays), "arrays;", {f: (len(text[f]["train"]), len(text[f]["test"])) for f in FLOWS})


if __name__ == "__main__":
    main()
