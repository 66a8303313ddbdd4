"""The tour's mixed-precision section: LeNet's cast map under O1 and under O2 side by side, what each op ran in,
and the GradScaler's loss scale over a few steps with one overflowing step skipped.

O1 casts on the fly (white-list ops in float16; a gray op with a float32 input, such as the bias add after a
conv, promotes to float32); O2 first casts the parameters to float16 (paddle.amp.decorate), so nearly every op
runs in float16. Both run on copies of the tour's network: decorate casts parameters in place.
"""

from __future__ import annotations

import copy
import io
from html import escape

_IMAGES = 2  # images per forward: the maps show the ops, not the batch


def _forward(net, level: str, images):
    """The cast log and output of one forward of `net` under auto_cast(level) (O2: on a decorated copy)."""
    import minipaddle as paddle

    model = copy.deepcopy(net)
    if level == "O2":
        model = paddle.amp.decorate(model, level="O2")
    with paddle.amp.cast_log() as log, paddle.amp.auto_cast(level=level):
        out = model(images)
    return log, out


def _scale_run(net, images, labels, steps: int = 6, overflow_at: int = 3):
    """A GradScaler over `steps` SGD steps on a copy of `net`; step `overflow_at`'s input is scaled by 1e6, so
    its float16 activations overflow and the scaler skips that step and halves the scale."""
    import numpy as np

    import minipaddle as paddle

    model = copy.deepcopy(net)
    opt = paddle.optimizer.SGD(learning_rate=1e-3, parameters=model.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0, incr_every_n_steps=2)
    for step in range(steps):
        x = images * (1e6 if step == overflow_at else 1.0)
        with np.errstate(all="ignore"), paddle.amp.auto_cast():  # (the overflow is the point: no warnings)
            loss = paddle.nn.functional.cross_entropy(model(x).astype("float32"), labels)
            scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.clear_grad()
    return scaler


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _dtype_table(o1, o2) -> str:
    """Each op (Paddle's name, in the order it ran) and the dtype it ran in under O1 and under O2 (the same
    network runs the same ops at both levels; AMP's own casts are left out)."""
    ran = [[(r.paddle_op, r.dtype) for r in log if r.list != "keep"] for log in (o1, o2)]
    rows = "".join(f"<tr><td>{escape(op)}</td><td>{escape(str(d1))}</td><td>{escape(str(d2))}</td></tr>"
                   for (op, d1), (_, d2) in zip(*ran))  # fmt: skip
    return f'<table class="facts"><tr><th>op</th><th>O1</th><th>O2</th></tr>{rows}</table>'


def amp_tour_section(net) -> tuple:
    """(title, html) of the section for the trained LeNet `net`."""
    import numpy as np

    import minipaddle as paddle
    import viz

    rng = np.random.default_rng(0)
    images = paddle.to_tensor(rng.standard_normal((_IMAGES, 1, 28, 28)).astype("float32"))
    labels = paddle.to_tensor(rng.integers(0, 10, (_IMAGES, 1)))
    logs, maps = {}, []
    for level in ("O1", "O2"):
        log, out = _forward(net, level, images)
        logs[level] = log
        drawing = viz.draw_amp(out.astype("float32").mean(), level=level).inline_html()
        maps.append(f"<h3>{level}</h3>{drawing}")
    scaler = _scale_run(net, images, labels)
    skipped = [r.step for r in scaler.history if r.found_inf]
    html = (
        "".join(maps)
        + "<h3>What each op ran in</h3>"
        + _dtype_table(logs["O1"], logs["O2"])
        + f"<h3>The loss scale (viz.plot_loss_scale): step {skipped} overflowed and was skipped</h3>"
        + _svg(viz.plot_loss_scale(scaler))
    )
    title = "Mixed precision: LeNet's cast map under O1 and O2 (viz.draw_amp) and the GradScaler's loss scale"
    return title, html
