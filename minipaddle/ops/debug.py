"""Ops for looking inside a running graph: `print` (static.Print) and `py_func` (static.py_func)."""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = ["print_value", "py_func_call"]


@register
class PrintValue(OpDef):
    """Print x when the op runs (in static mode: every time the Program runs) and pass it on unchanged."""

    name = "print"
    saves_inputs = False

    def kernel(self, x, message="", name="", summarize=20, first_n=-1, phase="forward", show_name=True,
               show_type=True, show_shape=True):  # fmt: skip
        parts = [message] if message else []
        if show_name and name:
            parts.append(f"Variable: {name}")
        if show_type:
            parts.append(f"dtype: {x.dtype}")
        if show_shape:
            parts.append(f"shape: {list(x.shape)}")
        flat = x.reshape(-1)
        shown = flat if summarize < 0 else flat[:summarize]
        parts.append(f"data: {np.array2string(shown, separator=', ')}" + (" ..." if shown.size < flat.size else ""))
        print("  ".join(parts), flush=True)
        return x.copy()

    def grad(self, node, g):
        if node.attrs["phase"] in ("backward", "both"):
            attrs = dict(node.attrs, message=f"{node.attrs['message']} (gradient)".strip(), phase="forward")
            return (apply(self, (g,), attrs),)
        return (g,)

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


def print_value(x: Tensor, **attrs) -> Tensor:
    return apply(PrintValue, (x,), attrs)


@register
class PyFuncCall(OpDef):
    """Call a Python function on numpy arrays inside a Program. The function lives in STATE.py_funcs, not in
    the Program (a Program is data), so a Program holding a py_func cannot be saved (`serializable=False`)."""

    name = "py_func"
    saves_outputs = True

    def kernel(self, *xs, func_id, backward_id=None, out_shapes=(), out_dtypes=(), serializable=False):
        result = STATE.py_funcs[func_id](*xs)
        results = result if isinstance(result, (list, tuple)) else (result,)
        if len(results) != len(out_shapes):
            raise ValueError(f"the Python function returned {len(results)} values for {len(out_shapes)} outputs")
        out = tuple(np.asarray(r, dtype=d).reshape(s if -1 not in s else np.shape(r))
                    for r, s, d in zip(results, out_shapes, out_dtypes))  # fmt: skip
        return out if len(out) > 1 else out[0]

    def grad(self, node, *gs):
        backward_id = node.attrs["backward_id"]
        if backward_id is None:
            raise RuntimeError("py_func: no backward_func was given, so no gradient can flow through this op")
        shapes = tuple(tuple(t.shape) for t in node.inputs)
        dtypes_ = tuple(str(t.dtype.np) for t in node.inputs)
        attrs = {"func_id": backward_id, "backward_id": None, "out_shapes": shapes, "out_dtypes": dtypes_}
        outs = [node.output(i) for i in range(len(gs))]
        grads = apply(PyFuncCall, (*node.inputs, *outs, *gs), attrs)  # backward_func(x..., out..., dout...)
        return grads if isinstance(grads, tuple) else (grads,)

    def infer_meta(self, *xs, out_shapes=(), out_dtypes=(), **attrs):
        metas = tuple(Meta(tuple(s), dtypes.to_dtype(d)) for s, d in zip(out_shapes, out_dtypes))
        return metas if len(metas) > 1 else metas[0]


def py_func_call(xs, attrs: dict):
    return apply(PyFuncCall, tuple(xs), attrs)
