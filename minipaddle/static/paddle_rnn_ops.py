"""The ops a recurrent network is written with, in the translation table (static/paddle_ops.py), and Paddle's
fused `rnn` op over a time axis known only at run time, read as while loops.

minipaddle's nn.RNN/LSTM/GRU run their cell once per time step (nn/layer/rnn.py): `unstack` splits the input
into its steps, the cell's ops compute each step, `stack` joins the outputs. Paddle 2.6 has both ops under the
same names, with X/Y slots: unstack(X) -> Y (one per step; `num` says how many), stack(X...) -> Y.
"""

from __future__ import annotations

from minipaddle.static import tensor_api as paddle
from minipaddle.static.control_flow import while_loop
from minipaddle.static.paddle_ops import _rnn as _unrolled_rnn
from minipaddle.static.paddle_ops import _rnn_cell_run, reads, writes

__all__: list = []


@writes("unstack")
def _w_unstack(op, var_of):
    outs = list(op.outputs["Out"])
    return "unstack", {"X": op.inputs["x"][:1]}, {"Y": outs}, {"axis": int(op.attrs["axis"]), "num": len(outs)}


@writes("stack")
def _w_stack(op, var_of):
    names = [n for ns in op.inputs.values() for n in ns]
    return "stack", {"X": names}, {"Y": op.outputs["Out"][:1]}, {"axis": int(op.attrs["axis"])}


@reads("unstack")
def _unstack(op):
    return {"Y": list(paddle.unstack(op.x("X"), axis=op.attr("axis", 0)))}


# ---- Paddle's fused rnn op over a time axis known only at run time ----------------------------------------------


@reads("rnn")
def _rnn(op):
    """Paddle's `rnn` op. With a known number of time steps it is unrolled (paddle_ops._rnn: one cell's ops per
    step, as minipaddle's own nn.LSTM writes them). A model saved with InputSpec [None, None, ...] has a time axis
    known only when it runs: then each cell runs as a minipaddle while_loop over the steps, its state in the loop
    variables and its outputs gathered into a [T, N, hidden] buffer (step t's output added at row t), so the
    Program runs on sequences of any length."""
    if op.x("Input").shape[0] >= 0:
        return _unrolled_rnn(op)
    mode = op.attr("mode", "LSTM")
    directions = 2 if op.attr("is_bidirec", False) else 1
    layers, weights = op.attr("num_layers", 1), op.xs("WeightList")
    cells = layers * directions
    states = op.xs("PreState")
    h0, c0 = states[0], states[1] if mode == "LSTM" else None
    lengths = op.x("SequenceLength")
    seq = op.x("Input")  # [T, N, input] (time major)
    hs, cs = [None] * cells, [None] * cells
    for layer in range(layers):
        outs = []
        for d in range(directions):
            cell = layer * directions + d
            w = (weights[2 * cell], weights[2 * cell + 1], weights[2 * cells + 2 * cell],
                 weights[2 * cells + 2 * cell + 1])  # fmt: skip
            c = c0[cell] if c0 is not None else None
            out, hs[cell], cs[cell] = _cell_loop(mode, seq, h0[cell], c, w, lengths, reverse=d == 1)
            outs.append(out)
        seq = outs[0] if directions == 1 else paddle.concat(outs, axis=-1)
    state = [paddle.stack(hs, axis=0)] + ([paddle.stack(cs, axis=0)] if mode == "LSTM" else [])
    return {"Out": seq, "State": state}


def _cell_loop(mode: str, seq, h, c, weights: tuple, lengths, reverse: bool) -> tuple:
    """(outputs [T, N, hidden], last h, last c) of one cell over seq [T, N, input] as a while_loop; the backward
    cell of a bidirectional layer takes step T-1-t at iteration t."""
    hidden = weights[1].shape[1]
    ones = paddle.full_like(paddle.sum(seq, axis=[1, 2], keepdim=True), 1.0)  # [T, 1, 1]
    rows = paddle.cumsum(ones, axis=0) - 1.0  # each step's own index, to place its output at its row
    steps = paddle.cast(paddle.sum(ones), "int64")
    buffer = paddle.full_like(paddle.sum(seq, axis=-1, keepdim=True), 0.0) + paddle.zeros([hidden], seq.dtype)
    t = paddle.zeros([1], "int64")
    carried = [t, h, buffer] + ([c] if c is not None else [])

    def body(t, h, buffer, *rest):
        at = steps - 1 - t if reverse else t
        xt = paddle.squeeze(paddle.gather(seq, at, axis=0), 0)
        mask = None
        if lengths is not None:  # [N, 1]: 1 where step `at` is inside the sequence
            mask = paddle.unsqueeze(paddle.cast(lengths > at, seq.dtype), -1)
        (out,), h, c = _rnn_cell_run(mode, [xt], h, rest[0] if rest else None, *weights, [mask])
        row = paddle.cast(rows == paddle.cast(at, seq.dtype), seq.dtype)  # [T, 1, 1]: 1 at row `at`
        return [t + 1, h, buffer + row * paddle.unsqueeze(out, 0)] + ([c] if rest else [])

    _, h, buffer, *rest = while_loop(lambda t, *_: t < steps, body, carried)
    return buffer, h, rest[0] if rest else None
