"""Workload `static_mlp`: the `mlp` training step built once as a static Program and run by the Executor.

The same model, loss and SGD step as benchmarks/mlp.py, from the same weights, in three forms timed side by
side: minipaddle's dynamic mode, minipaddle's static mode (enable_static, program_guard, optimizer.minimize,
Executor.run with a compiled plan), and the numpy floor. In static mode every op was dispatched once, when
the Program was built; a run is a loop over bound kernels. Paddle itself is timed in static mode with
`python benchmarks/static_mlp.py --framework paddle`.

Target (benchmarks/README.md): a static step at most 0.8x the dynamic step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import harness
import numpy as np
from mlp import BATCH, CLASSES, LR, SIZES, data, init_weights, numpy_step, paddle_api_step


def static_step(paddle) -> Callable[[], None]:
    """The step as a Program, in Paddle 2.x static-mode code (runs on minipaddle and on PaddlePaddle)."""
    nn = paddle.nn
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, SIZES[0]], "float32")
            y = paddle.static.data("y", [-1], "int64")
            model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
            loss = nn.CrossEntropyLoss()(model(x), y)
            paddle.optimizer.SGD(learning_rate=LR).minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            exe.run(startup)
        for p, value in zip(model.parameters(), init_weights()):
            scope.find_var(p.name).get_tensor().set(value, paddle.CPUPlace())
    finally:
        paddle.disable_static()
    x_np, y_np = data()
    feed = {"x": x_np, "y": y_np}

    def step() -> None:
        paddle.enable_static()  # PaddlePaddle runs a Program only in static mode (minipaddle runs it in either)
        exe.run(main, feed=feed, fetch_list=[loss], scope=scope)
        paddle.disable_static()

    step.scope, step.parameters = scope, [p.name for p in model.parameters()]
    return step


def run(framework: str = "minipaddle", min_time: float = 0.2, repeats: int = 7) -> dict[str, float]:
    """Time the framework's dynamic and static steps beside the numpy floor. Returns {label: seconds/step}."""
    module, why_not = harness.import_framework(framework)
    contenders: dict[str, Callable[[], None]] = {}
    skipped = {}
    if module is None:
        skipped[framework] = why_not
    else:
        contenders[f"{framework} dynamic"] = paddle_api_step(module)
        contenders[f"{framework} static"] = static_step(module)
    contenders["numpy"] = numpy_step()
    medians = harness.compare(
        f"static_mlp: the mlp step ({'-'.join(map(str, (*SIZES, CLASSES)))}, batch {BATCH}) as a static Program",
        contenders,
        floor_label="numpy",
        min_time=min_time,
        repeats=repeats,
        skipped=skipped,
    )
    dynamic, static = f"{framework} dynamic", f"{framework} static"
    harness.Target("static <= 0.8 x dynamic", static, dynamic, 0.8, "static / dynamic").report(medians)
    return medians


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = harness.option_parser(
        __doc__, min_time=0.2, choices=("minipaddle", "paddle"), default="minipaddle", framework_help=None
    )
    args = parser.parse_args(argv)
    return run(args.framework, min_time=args.min_time, repeats=args.repeats)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main(sys.argv[1:])
