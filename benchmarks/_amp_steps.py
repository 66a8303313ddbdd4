"""What amp_mlp.py and amp_lenet.py share: one training step of a model in float32 and under each AMP setting
(O1/O2 x float16/bfloat16), timed side by side, each AMP step against the float32 step of the same model.

An AMP step is the whole loop a user writes: forward under auto_cast, the GradScaler's scale / step / update
(float16; bfloat16 needs no loss scaling), O2 with decorate's float16 parameters and float32 master weights.
Target (benchmarks/README.md): every AMP step within 1.3x the float32 step.
"""

from __future__ import annotations

from collections.abc import Callable

import harness

SETTINGS = (("O1", "float16"), ("O2", "float16"), ("O1", "bfloat16"), ("O2", "bfloat16"))
TARGET = 1.3


def amp_step(paddle, make_model, x_np, y_np, level=None, dtype="float16", lr=0.01) -> Callable[[], None]:
    """One SGD step of make_model(paddle) on (x, y): float32 (level None) or under AMP at level/dtype."""
    paddle.seed(0)
    model = make_model(paddle)
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=model.parameters())
    if level == "O2":
        model, opt = paddle.amp.decorate(model, opt, level="O2", dtype=dtype)
    x, y = paddle.to_tensor(x_np), paddle.to_tensor(y_np)
    loss_fn = paddle.nn.functional.cross_entropy
    if level is None:

        def step() -> None:
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()

        return step
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0) if dtype == "float16" else None

    def amp_train_step() -> None:
        with paddle.amp.auto_cast(level=level, dtype=dtype):
            logits = model(x)
        loss = loss_fn(logits.astype("float32"), y)
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        opt.clear_grad()

    return amp_train_step


def run(title: str, make_model, x_np, y_np, min_time: float = 0.1, repeats: int = 7) -> dict[str, float]:
    import minipaddle as paddle

    contenders = {"float32": amp_step(paddle, make_model, x_np, y_np)}
    for level, dtype in SETTINGS:
        contenders[f"{level} {dtype}"] = amp_step(paddle, make_model, x_np, y_np, level, dtype)
    medians = harness.compare(title, contenders, "float32", min_time=min_time, repeats=repeats)
    worst = max(medians[k] / medians["float32"] for k in medians if k != "float32")
    verdict = "met" if worst <= TARGET else "NOT met"
    print(f"target: every AMP step <= {TARGET}x the float32 step; worst {worst:.2f}x: {verdict}")
    return medians
