"""Losses in the translation table (static/paddle_ops.py): Paddle's fused `softmax_with_cross_entropy` (what
F.cross_entropy writes, in paddle 2.6 as in minipaddle), both ways.

Paddle's op: Logits, Label -> Softmax, Loss, with soft_label, use_softmax, ignore_index, numeric_stable_mode and
axis; minipaddle's op of the same name has the same attributes (numeric_stable_mode aside: minipaddle's kernel is
always the stable one) and gives (softmax, loss) as its two outputs.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.static.paddle_ops import reads, writes

__all__: list = []


@writes("softmax_with_cross_entropy")
def _w_softmax_with_cross_entropy(op, var_of):
    prob, loss = op.outputs["Out"][:2]
    a = op.attrs
    attrs = {"soft_label": bool(a["soft_label"]), "use_softmax": bool(a["use_softmax"]),
             "ignore_index": int(a["ignore_index"]), "axis": int(a["axis"]), "numeric_stable_mode": True}  # fmt: skip
    inputs = {"Logits": op.inputs["logits"][:1], "Label": op.inputs["label"][:1]}
    return "softmax_with_cross_entropy", inputs, {"Softmax": [prob], "Loss": [loss]}, attrs


@reads("softmax_with_cross_entropy")
def _softmax_with_cross_entropy(op):
    prob, loss = ops.softmax_with_cross_entropy(
        op.x("Logits"), op.x("Label"), bool(op.attr("soft_label", False)), bool(op.attr("use_softmax", True)),
        int(op.attr("ignore_index", -100)), int(op.attr("axis", -1)))  # fmt: skip
    return {"Softmax": prob, "Loss": loss}
