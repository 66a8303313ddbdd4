"""The ops a recurrent network is written with, in the translation table (static/paddle_ops.py).

minipaddle's nn.RNN/LSTM/GRU run their cell once per time step (nn/layer/rnn.py): `unstack` splits the input
into its steps, the cell's ops compute each step, `stack` joins the outputs. Paddle 2.6 has both ops under the
same names, with X/Y slots: unstack(X) -> Y (one per step; `num` says how many), stack(X...) -> Y.
"""

from __future__ import annotations

from minipaddle.static import tensor_api as paddle
from minipaddle.static.paddle_ops import reads, writes

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
