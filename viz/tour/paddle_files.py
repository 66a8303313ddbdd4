"""The tour's section on real Paddle files: a LeNet that paddle 2.6.2's `jit.save` wrote (the golden model of
tests/golden/paddle_models/models, recorded by make_golden.py there), opened with minipaddle's
`paddle.static.load_inference_model`, run on the input paddle ran it on, compared with paddle's own output, and
drawn with viz.draw_program: what Netron shows, but run too.
"""

from __future__ import annotations

import os
from html import escape

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden", "paddle_models",
                      "models")  # fmt: skip


def paddle_files_tour_section(prefix: str = os.path.join(MODELS, "lenet")) -> tuple[str, str]:
    """(title, HTML): the Paddle-written model at `prefix` (.pdmodel, .pdiparams, and .io.npz: the input fed and
    paddle's outputs), loaded and run by minipaddle, and its Program drawn."""
    import numpy as np

    import minipaddle as paddle
    from viz.program import draw_program

    recorded = np.load(prefix + ".io.npz")
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            outs = exe.run(program, feed={f: recorded[f"input:{f}"] for f in feeds}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    gap = max(float(np.abs(got - recorded[f"output:{i}"]).max()) for i, got in enumerate(outs))
    kinds = sorted({op.type for op in program.global_block().ops})
    name = os.path.basename(prefix)
    html = (
        f"<p class='note'>{escape(name)}.pdmodel (Paddle's ProgramDesc protobuf), {escape(name)}.pdiparams and "
        f"{escape(name)}.pdiparams.info, written by paddle 2.6.2's <code>paddle.jit.save</code>; "
        "<code>tests/golden/paddle_models/make_golden.py</code> records them again.</p>"
        "<pre>"
        + escape(
            f"program, feeds, fetches = paddle.static.load_inference_model({name!r}, exe)\n"
            f"feeds {feeds}, fetches {[getattr(f, 'name', f) for f in fetches]}\n"
            f"{len(program.global_block().ops)} minipaddle ops: {', '.join(kinds)}\n"
            f"outputs on paddle's input differ from paddle 2.6.2's by at most {gap:.1e}",
            quote=False,
        )
        + "</pre>"
        + draw_program(program, show_vars=False).inline_html()
    )
    return f"A model real Paddle saved: {name} from paddle.jit.save, run and drawn (viz.draw_program)", html
