"""Workload `lenet_predictor`: LeNet inference on a batch of 64 images by paddle.inference's predictor.

paddle.vision.models.LeNet (Conv2D(1,6,3,padding=1)-ReLU-MaxPool-Conv2D(6,16,5)-ReLU-MaxPool-Linear 400-120-84-10)
saved with paddle.jit.save, loaded by `paddle.inference.create_predictor` with the IR passes and memory reuse on,
timed feeding a fixed batch and copying the logits out. Contenders, in one process:

- minipaddle predictor   Config + create_predictor (passes: conv+bias+relu -> conv2d_fusion, matmul+add -> fc)
- minipaddle dynamic     the same LeNet's forward in dynamic mode under no_grad (the floor the passes must beat)
- onnxruntime            the same model exported with paddle.onnx.export, run by onnxruntime on the CPU
- paddle predictor       paddle 2.6's CPU predictor (oneDNN on, its default) on its own jit.save'd LeNet: this
                         script run by /work/paddle-venv/bin/python (or $PADDLE_PYTHON) with --framework paddle, in a
                         subprocess; its figure is timed apart (not interleaved) and printed under the table.

Target (issue 15): the predictor at most 0.8x minipaddle's dynamic forward, and at most paddle 2.6's predictor.
lenet_predictor_b1.py is the same at batch 1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable

import harness
import numpy as np

BATCH = 64
PADDLE_PYTHON = os.environ.get("PADDLE_PYTHON", "/work/paddle-venv/bin/python")


def images(batch: int) -> np.ndarray:
    return np.random.default_rng(0).standard_normal((batch, 1, 28, 28)).astype("float32")


def saved_lenet(paddle, directory: str) -> str:
    """jit.save a LeNet (same lines on minipaddle and paddle); returns the path prefix."""
    paddle.seed(0)
    net = paddle.vision.models.LeNet()
    net.eval()
    prefix = os.path.join(directory, "lenet")
    paddle.jit.save(net, prefix, input_spec=[paddle.static.InputSpec([None, 1, 28, 28], "float32", "x")])
    return prefix


def predictor_step(paddle, prefix: str, batch: int) -> Callable[[], np.ndarray]:
    config = paddle.inference.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.enable_memory_optim()
    config.disable_glog_info()
    predictor = paddle.inference.create_predictor(config)
    x = images(batch)
    inp = predictor.get_input_handle(predictor.get_input_names()[0])
    out = predictor.get_output_handle(predictor.get_output_names()[0])

    def step() -> np.ndarray:
        inp.reshape(list(x.shape))
        inp.copy_from_cpu(x)
        predictor.run()
        return out.copy_to_cpu()

    return step


def dynamic_step(paddle, batch: int) -> Callable[[], np.ndarray]:
    paddle.seed(0)
    net = paddle.vision.models.LeNet()
    net.eval()
    x = paddle.to_tensor(images(batch))

    def step() -> np.ndarray:
        with paddle.no_grad():
            return net(x).numpy()

    return step


def onnxruntime_step(paddle, directory: str, batch: int) -> Callable[[], np.ndarray]:
    import onnxruntime as ort

    paddle.seed(0)
    net = paddle.vision.models.LeNet()
    net.eval()
    spec = [paddle.static.InputSpec([None, 1, 28, 28], "float32", "x")]
    path = paddle.onnx.export(net, os.path.join(directory, "lenet"), spec, opset_version=11)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    feed = {sess.get_inputs()[0].name: images(batch)}
    return lambda: sess.run(None, feed)[0]


def paddle_figure(batch: int, min_time: float, repeats: int) -> tuple:
    """(seconds per step, None) from paddle 2.6's predictor in a subprocess, or (None, why not)."""
    if not os.path.exists(PADDLE_PYTHON):
        return None, f"no paddle python at {PADDLE_PYTHON}"
    cmd = [PADDLE_PYTHON, __file__, "--framework", "paddle", "--batch", str(batch), "--min-time", str(min_time),
           "--repeats", str(repeats), "--json"]  # fmt: skip
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "paddle's run timed out"
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        return None, f"paddle's run failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}"
    return json.loads(lines[-1])["paddle predictor"], None


def run_paddle(batch: int, min_time: float, repeats: int) -> dict:
    """Inside paddle's own Python: time its predictor only."""
    import numpy.random  # noqa: F401  (paddle 2.6 wants numpy.random imported first)
    import paddle

    with tempfile.TemporaryDirectory() as d:
        step = predictor_step(paddle, saved_lenet(paddle, d), batch)
        medians = harness.compare(f"lenet_predictor (paddle 2.6), batch {batch}", {"paddle predictor": step},
                                  floor_label="paddle predictor", min_time=min_time, repeats=repeats)  # fmt: skip
    return medians


def run(batch: int = BATCH, min_time: float = 0.2, repeats: int = 7) -> dict[str, float]:
    import minipaddle as paddle

    with tempfile.TemporaryDirectory() as d:
        contenders = {
            "minipaddle predictor": predictor_step(paddle, saved_lenet(paddle, d), batch),
            "minipaddle dynamic": dynamic_step(paddle, batch),
        }
        skipped = {}
        try:
            contenders["onnxruntime"] = onnxruntime_step(paddle, d, batch)
        except ImportError as e:
            skipped["onnxruntime"] = f"not installed ({e})"
        np.testing.assert_allclose(
            contenders["minipaddle predictor"](), contenders["minipaddle dynamic"](), rtol=1e-5, atol=1e-5
        )  # fmt: skip  (the same model, or the race means nothing)
        medians = harness.compare(f"lenet_predictor: LeNet inference, batch {batch}", contenders,
                                  floor_label="minipaddle dynamic", min_time=min_time, repeats=repeats,
                                  skipped=skipped)  # fmt: skip
    harness.Target("predictor <= 0.8 x dynamic", "minipaddle predictor", "minipaddle dynamic", 0.8,
                   "predictor / dynamic").report(medians)  # fmt: skip
    figure, why_not = paddle_figure(batch, min_time, repeats)
    if figure is None:
        print(f"paddle 2.6 predictor: {why_not}")
    else:
        medians["paddle predictor"] = figure
        print(f"paddle 2.6 predictor (oneDNN, timed apart): {figure * 1e3:.3f} ms")
        harness.Target("predictor <= paddle 2.6's predictor", "minipaddle predictor", "paddle predictor", 1.0,
                       "minipaddle / paddle").report(medians)  # fmt: skip
    return medians


def main(argv: list[str] | None = None, batch: int = BATCH) -> dict[str, float]:
    parser = harness.option_parser(__doc__, min_time=0.2, choices=("minipaddle", "paddle"), default="minipaddle",
                                   framework_help=None)  # fmt: skip
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--json", action="store_true", help="print the medians as one JSON line")
    args = parser.parse_args(argv)
    if args.framework == "paddle":
        medians = run_paddle(args.batch, args.min_time, args.repeats)
    else:
        medians = run(args.batch, args.min_time, args.repeats)
    if args.json:
        print(json.dumps(medians))
    return medians


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
