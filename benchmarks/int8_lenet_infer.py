"""Workload `int8_lenet_infer`: one inference step of LeNet on a batch of 64 digits, float32 against int8.

LeNet (paddle.vision.models.LeNet) is trained briefly on the embedded digits, calibrated with PTQ (AbsmaxObserver on
activations and weights), converted, saved with its quantize_linear / dequantize_linear ops, and turned into a real
int8 Program by static/passes/int8.py (int8 weights, exact int32 products, rescaled outputs). Both Programs are
loaded with paddle.static.load_inference_model and run with Executor.run. Contenders, side by side:

- float32   the float inference Program
- int8      the int8 Program (quantize the input of each conv / matmul, integer product, rescale)

The table's floor is float32. Printed under it: both accuracies on the test digits and both `.pdiparams` sizes.
Targets (issue 14): int8 at most 1.5x the float32 step; its accuracy within 1 point of float32; its parameters at
most 30% of the float32 file.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable

import harness
import numpy as np

BATCH = 64


def digits(train_samples: int = 3000, test_samples: int = 1000) -> tuple:
    """((x_train, y_train), (x_test, y_test)) from minipaddle's embedded digits, normalized to [-1, 1]."""
    import minipaddle as paddle

    transform = paddle.vision.transforms.Normalize(mean=[127.5], std=[127.5], data_format="CHW")

    def arrays(mode, n):
        data = paddle.vision.datasets.EmbeddedDigits(mode=mode, transform=transform, num_samples=n)
        xs, ys = zip(*[data[i] for i in range(len(data))])
        return np.stack(xs).astype("float32"), np.stack(ys).reshape(-1).astype("int64")

    return arrays("train", train_samples), arrays("test", test_samples)


def train_lenet(x, y, epochs: int = 1, batch: int = 64, seed: int = 0):
    """A LeNet trained with Adam (lr 0.001) for `epochs` passes over (x, y)."""
    import minipaddle as paddle

    paddle.seed(seed)
    net = paddle.vision.models.LeNet()
    opt = paddle.optimizer.Adam(learning_rate=0.001, parameters=net.parameters())
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for i in range(0, len(x), batch):
            idx = order[i : i + batch]
            logits = net(paddle.to_tensor(x[idx]))
            loss = paddle.nn.functional.cross_entropy(logits, paddle.to_tensor(y[idx].reshape(-1, 1)))
            loss.backward()
            opt.step()
            opt.clear_grad()
    net.eval()
    return net


def save_float_and_int8(net, calibration, folder: str) -> tuple:
    """Save `net` as float32 and, after PTQ on the calibration batches and the int8 pass, as int8:
    the two path prefixes."""
    import minipaddle as paddle

    spec = [paddle.static.InputSpec([None, 1, 28, 28], "float32", "image")]
    fp32, qdq, int8 = (os.path.join(folder, n) for n in ("lenet_fp32", "lenet_qdq", "lenet_int8"))
    paddle.jit.save(net, fp32, input_spec=spec)
    Q = paddle.quantization
    ptq = Q.PTQ(Q.QuantConfig(activation=Q.observers.AbsmaxObserver(), weight=Q.observers.AbsmaxObserver()))
    observed = ptq.quantize(net)
    for batch in calibration:
        observed(paddle.to_tensor(batch))
    paddle.jit.save(ptq.convert(observed), qdq, input_spec=spec)
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(qdq, exe)
        program8 = paddle.static.passes.convert_to_int8(program, keep=fetches)
        paddle.static.save_inference_model(int8, [program8.global_block().var(feeds[0])], fetches, exe,
                                           program=program8)  # fmt: skip
    finally:
        paddle.disable_static()
    return fp32, int8


def inference_step(prefix: str, x: np.ndarray) -> Callable[[], np.ndarray]:
    """A function running the saved model at `prefix` on x (in static mode, with its own scope)."""
    import minipaddle as paddle

    scope = paddle.static.Scope()
    paddle.enable_static()
    try:
        with paddle.static.scope_guard(scope):
            exe = paddle.static.Executor()
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    finally:
        paddle.disable_static()

    def step() -> np.ndarray:
        paddle.enable_static()
        try:
            with paddle.static.scope_guard(scope):
                return exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)[0]
        finally:
            paddle.disable_static()

    return step


def _counted_step(paddle, which: str) -> Callable[[], np.ndarray]:
    """The float32 or int8 step of a LeNet trained briefly (300 digits: under callgrind training is slow, and the
    step's instructions do not depend on how well the weights are trained), for benchmarks/instructions.py."""
    (xtr, ytr), (xte, _) = digits(300, BATCH)
    folder = tempfile.mkdtemp(prefix="int8_lenet_counted_")
    fp32, int8 = save_float_and_int8(train_lenet(xtr, ytr), [xtr[:250]], folder)
    return inference_step(fp32 if which == "float32" else int8, xte[:BATCH])


def float32_step(paddle) -> Callable[[], np.ndarray]:
    return _counted_step(paddle, "float32")


def int8_step(paddle) -> Callable[[], np.ndarray]:
    return _counted_step(paddle, "int8")


def run(min_time: float = 0.2, repeats: int = 7, train_samples: int = 3000, test_samples: int = 1000) -> dict:
    (xtr, ytr), (xte, yte) = digits(train_samples, test_samples)
    net = train_lenet(xtr, ytr)
    folder = tempfile.mkdtemp(prefix="int8_lenet_")
    fp32, int8 = save_float_and_int8(net, [xtr[i : i + 250] for i in range(0, 1000, 250)], folder)
    batch = xte[:BATCH]
    medians = harness.compare(
        f"int8_lenet_infer: LeNet inference on {BATCH} digits, float32 and int8 Programs",
        {"float32": inference_step(fp32, batch), "int8": inference_step(int8, batch)},
        floor_label="float32",
        min_time=min_time,
        repeats=repeats,
    )
    harness.Target("int8 <= 1.5 x float32", "int8", "float32", 1.5, "int8 / float32").report(medians)
    accuracy = {n: float((inference_step(p, xte)().argmax(1) == yte).mean()) for n, p in (("float32", fp32),
                                                                                        ("int8", int8))}  # fmt: skip
    sizes = {n: os.path.getsize(p + ".pdiparams") for n, p in (("float32", fp32), ("int8", int8))}
    print(
        f"accuracy on {len(yte)} test digits: float32 {accuracy['float32']:.2%}, int8 {accuracy['int8']:.2%} "
        f"(target: within 1 point: {'met' if abs(accuracy['int8'] - accuracy['float32']) <= 0.01 else 'NOT met'})"
    )
    ratio = sizes["int8"] / sizes["float32"]
    print(f".pdiparams: float32 {sizes['float32']:,} bytes, int8 {sizes['int8']:,} bytes = {ratio:.0%} "
          f"(target <= 30%: {'met' if ratio <= 0.30 else 'NOT met'})")  # fmt: skip
    return {**medians, "accuracy": accuracy, "sizes": sizes}


def main(argv: list[str] | None = None) -> dict:
    parser = harness.option_parser(__doc__, min_time=0.2, choices=("minipaddle",), default="minipaddle",
                                   framework_help=None)  # fmt: skip
    args = parser.parse_args(argv)
    return run(min_time=args.min_time, repeats=args.repeats)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main(sys.argv[1:])
