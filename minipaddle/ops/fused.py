"""Fused ops: several ops' work in one, made by the static passes (minipaddle/static/passes/).

fc is what `fuse_fc` turns `matmul(x, w) -> add(b) [-> relu | sigmoid | tanh]` into: the same arithmetic, one
op instead of three, so a Program runs fewer steps and keeps fewer intermediate arrays alive.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import OPS, Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.low_precision import gemm

__all__ = ["fc"]  # the raw op functions; ops/__init__.py gathers them

FC_ACTIVATIONS = ("relu", "sigmoid", "tanh")  # each has a grad rule that reads only its output


class _OutputOf:
    """What an activation's grad rule reads (`node.output(0)`), for fc's activation applied to fc's output."""

    def __init__(self, y) -> None:
        self.y = y

    def output(self, i: int = 0):
        return self.y


@register
class FC(OpDef):
    """y = activation(x @ w + b): x [..., in], w [in, out], b broadcastable to [..., out] or None."""

    name = "fc"
    saves_outputs = True  # the activation's gradient reads y

    def kernel(self, x, w, b, activation=None):
        out = gemm(x, w)
        if b is not None:
            out = out + b
        return out if activation is None else OPS[activation].kernel(out)

    def grad(self, node, g):
        x, w, b = node.inputs
        activation = node.attrs["activation"]
        if activation is not None:  # back through the activation first, with its own grad rule
            (g,) = OPS[activation].grad(_OutputOf(node.output(0)), g)
        in_features, out_features = w.shape
        gx = ops.matmul(g, w, False, True) if node.needs_grad(0) else None
        gw = None
        if node.needs_grad(1):  # every row of x, against every row of g: flatten the leading axes
            x2 = ops.reshape(x, (-1, in_features))
            gw = ops.matmul(x2, ops.reshape(g, (-1, out_features)), True, False)
        gb = ops.unbroadcast(g, b.shape) if b is not None and node.needs_grad(2) else None
        return gx, gw, gb

    def infer_meta(self, x: Meta, w: Meta, b: Meta | None, activation=None) -> Meta:
        fits = len(w.shape) == 2 and len(x.shape) >= 1 and x.shape[-1] in (w.shape[0], -1)
        if not fits:
            raise ValueError(f"fc: x has shape {list(x.shape)} and w has shape {list(w.shape)}; w must be 2-D "
                             "[in, out] with in equal to x's last dimension")  # fmt: skip
        if activation is not None and activation not in FC_ACTIVATIONS:
            raise ValueError(f"fc: activation must be None or one of {FC_ACTIVATIONS}, got {activation!r}")
        return Meta(tuple(x.shape[:-1]) + (w.shape[1],), x.dtype)


def fc(x: Tensor, w: Tensor, b: Tensor | None = None, activation: str | None = None) -> Tensor:
    """activation(x @ w + b) in one op (b may be None; activation None, 'relu', 'sigmoid' or 'tanh')."""
    return apply(FC, (x, w, b), {"activation": activation})
