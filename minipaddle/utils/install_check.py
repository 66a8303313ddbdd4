"""paddle.utils.run_check: check that the installation works by training a tiny model, dynamic and static."""

from __future__ import annotations

import numpy as np

__all__ = ["run_check"]


def _train_step_dynamic(paddle, data: np.ndarray) -> float:
    linear = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=linear.parameters())
    loss = linear(paddle.to_tensor(data)).mean()
    loss.backward()
    opt.step()
    return float(loss)


def _train_step_static(paddle, data: np.ndarray) -> float:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 2], "float32")
        loss = paddle.static.nn.fc(x, 1).mean()
        paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    (value,) = exe.run(main, feed={"x": data}, fetch_list=[loss])
    return float(np.asarray(value))


def run_check() -> None:
    """Check the installation: train one step of a tiny linear model in dynamic mode and in static mode, and
    print whether it works, as Paddle's run_check does.

    Example:
        >>> paddle.utils.run_check()
        Running verify PaddlePaddle program ...
        PaddlePaddle works well on 1 CPU.
        PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.
    """
    import minipaddle as paddle  # the whole package, which this module is part of

    print("Running verify PaddlePaddle program ... ")
    data = np.ones((2, 2), dtype="float32")
    was_static = not paddle.in_dynamic_mode()
    if was_static:
        paddle.disable_static()
    try:
        losses = [_train_step_dynamic(paddle, data)]
        paddle.enable_static()
        try:
            losses.append(_train_step_static(paddle, data))
        finally:
            paddle.disable_static()
    finally:
        if was_static:
            paddle.enable_static()
    if not all(np.isfinite(losses)):
        raise RuntimeError(f"run_check: the check model's loss is not finite ({losses}); minipaddle is broken")
    print("PaddlePaddle works well on 1 CPU.")
    print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.")
