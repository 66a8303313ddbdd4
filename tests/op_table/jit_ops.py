"""Op-table section: the ops of dynamic-to-static (shape, assert, run_program and its grad, run_program_grad) and
the ops whose sizes come from Tensors (full/reshape/expand/tile_with_..., a batch-agnostic converted model's;
runtime_slice, x[:n] with n a Tensor; runtime_split, paddle.split(x, [n, -1]) with n a Tensor; runtime_source /
runtime_random_source, arange / eye / linspace / uniform ... with such sizes)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, r, unary_samples


@paddle.jit.to_static
def _converted(x):
    """A converted function: each call is one run_program op; its gradient is one run_program_grad op."""
    if x.mean() > 0:
        y = paddle.tanh(x) * 2
    else:
        y = x * x + 1
    return y


def _np_converted(x):
    return np.tanh(x) * 2 if x.mean() > 0 else x * x + 1


def _size(n: int) -> np.ndarray:
    return np.asarray(n, dtype=np.int64)  # a 0-d int Tensor in the table: a data variable in the static check


def _full_samples(rng):
    return [
        Sample((_size(3), _size(2)), {"template": (None, 4, None)}, "two sizes"),
        Sample((np.asarray([2, 5], np.int32),), {"template": (None, None)}, "one shape tensor"),
    ]


def _reshape_samples(rng):
    return [
        Sample((r(rng, 3, 4, 2), _size(3)), {"template": (None, -1)}, "[n, -1]"),
        Sample((r(rng, 3, 4, 2), _size(2)), {"template": (0, None, 4)}, "0 copies"),
        Sample((r(rng, 2, 6), np.asarray([3, 4], np.int64)), {"template": (None, None)}, "shape tensor"),
    ]


def _expand_samples(rng):
    return [
        Sample((r(rng, 1, 3), _size(4)), {"template": (None, 3)}, "grow axis 0"),
        Sample((r(rng, 3, 1), _size(2), _size(5)), {"template": (None, -1, None)}, "lead axis, keep, grow"),
    ]


def _tile_samples(rng):
    return [
        Sample((r(rng, 2, 3), _size(3)), {"template": (None, 1)}, "repeat rows"),
        Sample((r(rng, 2, 3), _size(2), _size(2)), {"template": (None, 1, None)}, "longer reps"),
    ]


def _tile_ref(x, *sizes, template):
    it = iter(int(s) for s in sizes)
    return np.tile(x, [next(it) if t is None else t for t in template])


def _template_ref(template, sizes):
    flat = iter(int(v) for s in sizes for v in np.asarray(s).reshape(-1))
    return [next(flat) if t is None else t for t in template]


def _expand_ref(x, *sizes, template):
    shape = _template_ref(template, sizes)
    lead = len(shape) - x.ndim
    return np.broadcast_to(x, [x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape)])


ENTRIES: list[OpInfo] = [
    OpInfo("full_with_shape", lambda *sizes, template: ops.full_with_shape(sizes, template, 2.5, "float64"),
           lambda *sizes, template: np.full(_template_ref(template, sizes), 2.5), _full_samples, grad=False),
    OpInfo("reshape_with_shape", lambda x, *sizes, template: ops.reshape_with_shape(x, sizes, template),
           lambda x, *sizes, template: x.reshape([x.shape[i] if d == 0 else d
                                                  for i, d in enumerate(_template_ref(template, sizes))]),
           _reshape_samples, double_grad=True),
    OpInfo("expand_with_shape", lambda x, *sizes, template: ops.expand_with_shape(x, sizes, template),
           _expand_ref, _expand_samples, double_grad=True),
    OpInfo("tile_with_repeats", lambda x, *sizes, template: ops.tile_with_repeats(x, sizes, template),
           _tile_ref, _tile_samples, double_grad=True),
    OpInfo("tile_with_repeats_grad",
           lambda g, x, *sizes, template: ops.tile_with_repeats_grad(g, x, sizes, template),
           lambda g, x, *sizes, template: g.reshape(3, 2, 1, 3).sum(axis=(0, 2)),
           lambda rng: [Sample((r(rng, 6, 3), r(rng, 2, 3), _size(3)), {"template": (None, 1)}, "rows")],
           double_grad=True, no_grad_args=(1,)),
]  # fmt: skip


def _slice_ref(x, *bounds, axes, spans):
    return x[tuple(_slice_index(x.ndim, bounds, axes, spans))]


def _slice_samples(rng):
    t = ops.FROM_INPUT
    return [
        Sample((r(rng, 5, 3), _size(3)), {"axes": (0,), "spans": ((None, t, None),)}, "x[:n]"),
        Sample((r(rng, 5, 4), _size(1), _size(-1)), {"axes": (0,), "spans": ((t, t, None),)}, "x[i:-1]"),
        Sample((r(rng, 4, 6), _size(4), _size(2)), {"axes": (1,), "spans": ((t, None, t),)}, "x[:, n::k]"),
        Sample((r(rng, 6, 3), _size(9)), {"axes": (0,), "spans": ((t, None, -2),)}, "x[n::-2] clamps"),
    ]


def _slice_grad_ref(g, x, *bounds, axes, spans):
    out = np.zeros_like(x)
    out[tuple(_slice_index(x.ndim, bounds, axes, spans))] = g
    return out


def _set_ref(x, v, *bounds, axes, spans):
    out = x.copy()
    out[tuple(_slice_index(x.ndim, bounds, axes, spans))] = v
    return out


def _slice_index(ndim, bounds, axes, spans):
    values = iter(int(b) for b in bounds)
    index = [slice(None)] * ndim
    for axis, span in zip(axes, spans):
        index[axis] = slice(*(next(values) if b == ops.FROM_INPUT else b for b in span))
    return index


def _split(x, *sizes, axis, sections):
    """Each part's own sum of squares, times its place (a concat of the parts, as split's entry joins them, has no
    static gradient when their sizes are known only at run time)."""
    parts = ops.runtime_split(x, sizes, axis, sections)
    return paddle.stack([(p * p).sum() * (i + 1.0) for i, p in enumerate(parts)])


def _split_ref(x, *sizes, axis, sections):
    given = iter(int(n) for n in sizes)
    parts = [next(given) if s is None else s for s in sections]
    parts = [x.shape[axis] - (sum(parts) + 1) if s == -1 else s for s in parts]
    return np.stack([(p * p).sum() * (i + 1.0) for i, p in enumerate(np.split(x, np.cumsum(parts)[:-1], axis))])


ENTRIES += [
    OpInfo("runtime_split", _split, _split_ref,
           lambda rng: [Sample((r(rng, 2, 7), _size(2)), {"axis": 1, "sections": (None, -1, 1)}, "[n, -1, 1]"),
                        Sample((r(rng, 5, 2), _size(1), _size(-1)), {"axis": 0, "sections": (None, 3, None)},
                               "a Tensor -1")]),
    OpInfo("split_like", lambda g, *likes, axis: paddle.stack([(p * p).sum() * (i + 1.0) for i, p in
                                                                enumerate(ops.split_like(g, likes, axis))]),
           lambda g, *likes, axis: np.stack([(p * p).sum() * (i + 1.0) for i, p in enumerate(
               np.split(g, np.cumsum([like.shape[axis] for like in likes])[:-1], axis))]),
           lambda rng: [Sample((r(rng, 2, 6), r(rng, 2, 1), r(rng, 2, 3), r(rng, 2, 2)), {"axis": 1})],
           no_grad_args=(1, 2, 3)),
    OpInfo("runtime_slice", lambda x, *b, axes, spans: ops.runtime_slice(x, b, axes, spans), _slice_ref,
           _slice_samples, double_grad=True),
    OpInfo("runtime_set_value", lambda x, v, *b, axes, spans: ops.runtime_set_value(x, v, b, axes, spans),
           _set_ref,
           lambda rng: [Sample((r(rng, 5, 3), r(rng, 2, 3), _size(1), _size(3)),
                               {"axes": (0,), "spans": ((ops.FROM_INPUT, ops.FROM_INPUT, None),)}, "x[i:j] = v"),
                        Sample((r(rng, 4, 3), r(rng, 1, 3), _size(2)),
                               {"axes": (0,), "spans": ((None, ops.FROM_INPUT, None),)}, "x[:n] = row")],
           double_grad=True),
    OpInfo("runtime_slice_grad", lambda g, x, *b, axes, spans: ops.runtime_slice_grad(g, x, b, axes, spans),
           _slice_grad_ref,
           lambda rng: [Sample((r(rng, 2, 3), r(rng, 5, 3), _size(1), _size(3)),
                               {"axes": (0,), "spans": ((ops.FROM_INPUT, ops.FROM_INPUT, None),)}, "x[i:j]")],
           double_grad=True, no_grad_args=(1,)),
]  # fmt: skip


def _source(*values, source, attrs, names, out):
    return ops.runtime_source(source, attrs, out, scalars=dict(zip(names, values)))


def _source_ref(*values, source, attrs, names, out):
    filled = {**attrs, **{n: int(v) for n, v in zip(names, values)}}
    dtype = filled.pop("dtype")
    if source == "eye":
        return np.eye(filled["num_rows"], filled["num_columns"], dtype=dtype)
    if source == "linspace":
        return np.linspace(filled["start"], filled["stop"], filled["num"]).astype(dtype)
    return np.arange(filled["start"], filled["end"], filled["step"]).astype(dtype)


def _source_samples(rng):
    f32, i64 = np.dtype("float32"), np.dtype("int64")
    return [
        Sample(
            (_size(5),),
            {"source": "arange", "attrs": {"start": 0, "step": 1, "dtype": i64}, "names": ("end",), "out": (-1,)},
            "arange(n)",
        ),  # fmt: skip
        Sample(
            (_size(1), _size(9)),
            {"source": "arange", "attrs": {"step": 3, "dtype": f32}, "names": ("start", "end"), "out": (-1,)},
            "arange(i, n, 3)",
        ),  # fmt: skip
        Sample(
            (_size(3), _size(4)),
            {"source": "eye", "attrs": {"dtype": f32}, "names": ("num_rows", "num_columns"), "out": (-1, -1)},
            "eye(n, m)",
        ),  # fmt: skip
        Sample(
            (_size(4),),
            {"source": "linspace", "attrs": {"start": 0.0, "stop": 1.0, "dtype": f32}, "names": ("num",), "out": (-1,)},
            "linspace(0, 1, n)",
        ),  # fmt: skip
    ]


def _seeded_uniform(*sizes, template):
    paddle.seed(3)
    attrs = {"shape": template, "dtype": np.dtype("float32"), "min": -2.0, "max": 2.0}
    return ops.runtime_source("uniform", attrs, [-1 if t is None else t for t in template], sizes, sized="shape")


def _seeded_uniform_ref(*sizes, template):
    return np.random.default_rng(3).uniform(-2.0, 2.0, _template_ref(template, sizes)).astype(np.float32)


ENTRIES += [
    OpInfo("runtime_source", _source, _source_ref, _source_samples, grad=False, dtypes=("float32",)),
    OpInfo("runtime_random_source", _seeded_uniform, _seeded_uniform_ref, _full_samples, grad=False,
           dtypes=("float32",)),
]  # fmt: skip

ENTRIES += [
    OpInfo("shape", ops.shape_of, lambda x: np.asarray(x.shape, np.int32), unary_samples(r), grad=False),
    OpInfo(
        "assert",
        lambda x: ops.assert_true(paddle.greater_than(x, paddle.full_like(x, -5.0))),
        lambda x: x > -5.0,
        unary_samples(r),
        grad=False,
    ),  # fmt: skip
    OpInfo("run_program", _converted, _np_converted, unary_samples(r), static=False),
]
