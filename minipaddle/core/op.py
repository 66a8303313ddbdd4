"""What an op is: the OpDef base class and the registry of every op.

An op is defined once (DESIGN.md, wall 2), in `minipaddle/ops/`, as a subclass of OpDef:

    @register
    class Tanh(UnaryOp):
        name = "tanh"
        saves_outputs = True                     # the grad rule reads y, not x
        def kernel(self, x):                     # numpy in, numpy out
            return np.tanh(x)
        def grad(self, node, g):                 # written with minipaddle ops, so it can itself be differentiated
            y = node.output(0)
            return (multiply(g, rsub(1.0, multiply(y, y))),)

The dispatcher (core/dispatch.py) finds ops here and never imports `ops/`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from minipaddle.core import dtype as dtypes


class Meta(NamedTuple):
    """What static mode knows about a value before running: its shape (-1 = unknown) and dtype."""

    shape: tuple
    dtype: dtypes.DType


class OpDef:
    """One operator: kernel, grad rule, shape/dtype rule and AMP category, in one place.

    Class attributes say what the op needs, so the door does no work an op does not ask for:
    - `amp`: the op's AMP category under paddle 2.6's default lists (minipaddle/ops/amp_names.py, the one table from
      minipaddle's ops to Paddle's op names, gives it; tests/amp checks every op): 'white' (runs in float16 or
      bfloat16), 'black' (float32 under O1), 'fp32' (float32 under O1 and O2: no low-precision kernel), 'promote'
      (follows the inputs: float32 if any is), 'keep' (never cast: cast itself, optimizer updates).
    - `saves_inputs` / `saves_outputs`: whether the grad rule reads input / output values. Saved tensors are
      checked against in-place changes before backward uses them.
    - `view`: the output shares storage with input 0 (reshape, transpose), so they share a version counter.
    - `differentiable`: False for ops with no gradient (comparisons, argmax).
    - `random`: the kernel draws random numbers, so its result is not a function of its inputs (constant
      folding must not evaluate it at build time).
    - `none_for_unused_outputs`: the grad rule accepts None for an output no gradient reached (instead of zeros),
      so it can skip that output's part of the work (softmax_with_cross_entropy's unused softmax).
    """

    name = ""
    amp = "promote"
    saves_inputs = True
    saves_outputs = False
    view = False
    differentiable = True
    none_for_unused_outputs = False
    random = False

    def kernel(self, *arrays, **attrs):
        """Compute the outputs (a numpy array or a tuple of them) from numpy arrays."""
        raise TypeError(f"op {self.name!r} defines no kernel")

    # Optional: `kernel_into(self, out, *arrays, **attrs)` writes the result straight into `out` (the target of an
    # in-place op: `x.add_(y)`, an optimizer update, gradient accumulation), saving a temporary and a copy. The
    # door uses it when nothing is recorded for autograd; `kernel` stays the definition.
    kernel_into = None
    # Optional: `kernel_into_pair(self, outs, *arrays, **attrs)` writes an op's two outputs straight into the two
    # arrays `outs` (core/inplace.apply_inplace_pair: an optimizer's master weight and its float16 parameter) and
    # returns True, or returns False having written nothing when these attrs do not make two outputs.
    kernel_into_pair = None

    def grad(self, node, *grads):
        """Given the gradients of the outputs (Tensors), return one gradient (Tensor or None) per input."""
        raise RuntimeError(f"op {self.name!r} has no gradient rule")

    def infer_meta(self, *metas: Meta, **attrs) -> Meta | tuple:
        """Static mode: the output shape(s)/dtype(s).

        The default runs the kernel on small zero arrays twice, reading each unknown (-1) size first as 1,
        then as 2: an output size that follows along is unknown too. Ops whose shapes the kernel cannot find
        this way (data-dependent sizes) or whose kernel fails on zeros override this.
        """
        first = _abstract_run(self, metas, attrs, 1)
        if not any(m is not None and -1 in m.shape for m in metas):
            return first
        second = _abstract_run(self, metas, attrs, 2)
        merged = tuple(
            Meta(tuple(a if a == b else -1 for a, b in zip(m1.shape, m2.shape)), m1.dtype)
            for m1, m2 in zip(_as_tuple(first), _as_tuple(second))
        )
        return merged if isinstance(first, tuple) and not isinstance(first, Meta) else merged[0]

    def __repr__(self) -> str:
        return f"<op {self.name}>"


def _as_tuple(m) -> tuple:
    return (m,) if isinstance(m, Meta) else m


def _abstract_run(op: OpDef, metas, attrs: dict, unknown: int):
    """Run the kernel on zeros shaped like `metas`, each -1 read as `unknown`; return the output Meta(s)."""
    arrays = [None if m is None else np.zeros([unknown if d < 0 else d for d in m.shape], m.dtype.np) for m in metas]
    with np.errstate(all="ignore"):
        out = op.kernel(*arrays, **attrs)
    if isinstance(out, tuple):
        return tuple(Meta(np.shape(o), dtypes.from_numpy(np.asarray(o).dtype)) for o in out)
    return Meta(np.shape(out), dtypes.from_numpy(np.asarray(out).dtype))


OPS: dict[str, OpDef] = {}


def register(cls):
    """Class decorator: instantiate the op once and file it under its name. Returns the instance."""
    op = cls()
    if not op.name:
        raise ValueError(f"{cls.__name__} needs a `name`")
    if op.name in OPS:
        raise ValueError(f"op {op.name!r} is defined twice ({type(OPS[op.name]).__name__} and {cls.__name__})")
    OPS[op.name] = op
    return op


def get_op(name: str) -> OpDef:
    try:
        return OPS[name]
    except KeyError:
        raise KeyError(f"no op named {name!r}; known ops: {', '.join(sorted(OPS))}") from None
