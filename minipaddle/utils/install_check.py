"""paddle.utils.run_check: check that the installation works by training a tiny model, dynamic and static."""

from __future__ import annotations

import numpy as np

from minipaddle import static
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import CPUPlace
from minipaddle.nn import Linear
from minipaddle.optimizer import SGD
from minipaddle.tensor.creation import to_tensor

__all__ = ["run_check"]


def _train_step_dynamic(data: np.ndarray) -> float:
    linear = Linear(2, 1)
    opt = SGD(learning_rate=0.01, parameters=linear.parameters())
    loss = linear(to_tensor(data)).mean()
    loss.backward()
    opt.step()
    return float(loss)


def _train_step_static(data: np.ndarray) -> float:
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [-1, 2], "float32")
        loss = static.nn.fc(x, 1).mean()
        SGD(learning_rate=0.01).minimize(loss)
    exe = static.Executor(CPUPlace())
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
    print("Running verify PaddlePaddle program ... ")
    data = np.ones((2, 2), dtype="float32")
    was_static = not in_dynamic_mode()
    if was_static:
        static.disable_static()
    try:
        losses = [_train_step_dynamic(data)]
        static.enable_static()
        try:
            losses.append(_train_step_static(data))
        finally:
            static.disable_static()
    finally:
        if was_static:
            static.enable_static()
    if not all(np.isfinite(losses)):
        raise RuntimeError(f"run_check: the check model's loss is not finite ({losses}); minipaddle is broken")
    print("PaddlePaddle works well on 1 CPU.")
    print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.")
