"""Write minipaddle/static/paddle_op_defaults.py: the slots and attributes paddle 2.6.2 gives each op it writes into
a .pdmodel (its values when the op is built with default arguments), as one data table. minipaddle's writer starts
every op from these, because Paddle's loaders (jit.load builds a backward from them) need every attribute an op has.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/paddle_models/make_op_defaults.py
    cd /work/main && .venv/bin/ruff format minipaddle/static/paddle_op_defaults.py
"""

import os
import pprint

import numpy as np
import numpy.random  # noqa: F401
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "..", "..", "..", "minipaddle", "static", "paddle_op_defaults.py")
SKIP = {"op_callstack"}
HEADER = (
    '"""The slots and attributes paddle 2.6.2 gives each op it writes into a .pdmodel, as built with default\n'
    "arguments (recorded by tests/golden/paddle_models/make_op_defaults.py): one entry per op type in OPS, the\n"
    "attributes every op has in COMMON_ATTRS. static/pdmodel.py starts every op it writes from `op_defaults(type)`:\n"
    'Paddle\'s loaders need every attribute and slot an op has (jit.load builds a backward from them)."""\n\n'
)  # the Python stack at build time (op_callstack) is not part of the op
READER = '''

def op_defaults(kind: str) -> tuple:
    """(attributes {name: (Paddle's AttrType name, value)}, input slots, output slots) of Paddle's op `kind`; an op
    outside the table gets the common attributes and no slots."""
    entry = OPS.get(kind, {})
    attrs = {**COMMON_ATTRS, **entry.get("attrs", {})}
    return attrs, tuple(entry.get("inputs", ())), tuple(entry.get("outputs", ()))
'''


def build():
    F = paddle.nn.functional
    x = paddle.static.data("x", [None, 4, 8, 8], "float32")
    h = paddle.nn.Conv2D(4, 4, 3, padding=1)(x)
    h = paddle.nn.Conv2D(4, 4, 3, padding=1, groups=4)(h)
    h = paddle.nn.BatchNorm2D(4)(h)
    h = F.max_pool2d(F.relu(h), 2)
    h = paddle.flatten(h, 1)
    h = paddle.nn.Dropout(0.5)(h)
    h = paddle.nn.Linear(64, 8)(h)
    h = paddle.nn.LayerNorm(8)(h)
    h = F.gelu(h) + F.sigmoid(h) - paddle.tanh(h) * paddle.exp(h) / (paddle.sqrt(paddle.abs(h)) + 1)
    h = paddle.clip(F.relu6(h) + F.hardswish(h) + F.leaky_relu(h), -1.0, 1.0)
    h = paddle.rsqrt(paddle.square(h) + 1) + paddle.erf(h) + paddle.log(paddle.abs(h) + 1)
    h = paddle.maximum(h, h * 0.5) + paddle.minimum(h, paddle.assign(np.ones([8], np.float32)))
    h = paddle.reshape(h, [-1, 2, 4])
    h = paddle.transpose(h, [0, 2, 1])
    h = paddle.concat([h, h], axis=1)
    h = paddle.cast(h, "float64")
    h = paddle.cast(h, "float32")
    s = paddle.mean(h, axis=1) + paddle.sum(h, axis=1) + paddle.max(h, axis=1) + paddle.min(h, axis=1)
    s = s + paddle.full_like(s, 1.0) + paddle.floor(s) + paddle.sin(s) + paddle.cos(s) + 1.0 / s
    s = paddle.scale(s, 2.0, 1.0) + paddle.pow(s, 2.0)
    c = paddle.cast(s > 0, "float32") + paddle.cast(s < 0, "float32") + paddle.cast(s == 0, "float32")
    c = c + paddle.cast(s >= 0, "float32") + paddle.cast(s <= 0, "float32") + paddle.cast(s != 0, "float32")
    c = c + paddle.cast(paddle.logical_not(s > 0), "float32")
    out = F.softmax(c + paddle.nn.functional.avg_pool2d(x, 2).mean())
    return out, more_ops(x)


def more_ops(x):
    """Slicing, set_value, embedding, the fused fc, max pooling with its indices, cond and while_loop, hard_sigmoid."""
    F = paddle.nn.functional
    a = x[:, 1:3]  # slice
    b = x[:, ::2]  # strided_slice
    y = x * 1.0
    y = paddle.static.setitem(y, (slice(None), 0), 5.0)  # set_value
    ids = paddle.static.data("ids", [None, 3], "int64")
    e = paddle.nn.Embedding(10, 4)(ids)  # lookup_table_v2
    flat = paddle.flatten(x, 1)
    block = flat.block
    w = paddle.static.create_parameter([4 * 8 * 8, 3], "float32")
    bias = paddle.static.create_parameter([3], "float32")
    fc = block.create_var(name="fc_out", dtype="float32", shape=[-1, 3])
    block.append_op(type="fc", inputs={"Input": [flat], "W": [w], "Bias": [bias]}, outputs={"Out": [fc]},
                    attrs={"in_num_col_dims": 1})  # fmt: skip
    pooled, mask = F.max_pool2d(x, 2, return_mask=True)  # max_pool2d_with_index
    m = paddle.mean(x)
    c = paddle.static.nn.cond(m > 0, lambda: x * 2.0, lambda: x - 1.0)  # conditional_block, select_input
    i = paddle.zeros([1], "int64")
    i, s = paddle.static.nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s + 1.0], [i, paddle.zeros_like(m)])
    u = paddle.unsqueeze(a, 1)
    v = paddle.squeeze(u, 1)
    st = paddle.stack([v, v], axis=0)
    p1, p2 = paddle.split(st, 2, axis=0)
    return [a, b, y, e, fc, pooled, mask, c, i, s, p1, p2, F.hardsigmoid(x), *indexing_and_pools(x)]


def indexing_and_pools(x):
    """cumsum, gather, advanced indexing (gather_nd, where_index, broadcast_tensors, index_put), 3-D pooling (pool3d,
    max_pool3d_with_index), and what a max pool's mask is recomputed with (pad3d, elementwise_floordiv/_mod)."""
    F = paddle.nn.functional
    c = paddle.cumsum(x, axis=1)
    g = x[[0, 1]]  # gather_nd
    picked = paddle.gather(x, paddle.to_tensor(np.array([0, 2])))
    w = x[x > 0]  # where_index
    b = x[[0, 1], [1, 2]]  # broadcast_tensors
    put = paddle.static.setitem(x * 1.0, (slice(None), [0, 2]), 3.0)  # index_put (a write with a list)
    v = paddle.unsqueeze(x, 2)
    p3 = F.avg_pool3d(v, 1)  # pool3d
    m3, i3 = F.max_pool3d(v, 1, return_mask=True)  # max_pool3d_with_index
    pad = F.pad(x, [0, 1, 0, 1], value=-1.0)  # pad3d
    q = paddle.floor_divide(i3, paddle.full_like(i3, 3)) + paddle.remainder(i3, paddle.full_like(i3, 3))
    return [c, g, picked, w, b, put, p3, m3, pad, q, *run_time_sizes(x)]


def run_time_sizes(x):
    """The ops a batch-agnostic model writes (static/paddle_runtime_shapes.py): expand_v2, tile, range, linspace,
    uniform_random, gaussian_random, randint, empty, eye, with sizes from paddle.shape(x)."""
    n = paddle.shape(x)[0]
    e = paddle.expand(x[:1], [2, 4, 8, 8])
    t = paddle.tile(x, [1, 2, 1, 1])
    return [e, t, paddle.arange(n), paddle.linspace(0, 1, n), paddle.rand([n, 2]), paddle.randn([n]),
            paddle.randint(0, 5, [n]), paddle.empty([n]), paddle.eye(3, 4)]  # fmt: skip


def main():
    paddle.enable_static()
    program = paddle.static.Program()
    with paddle.static.program_guard(program, paddle.static.Program()):
        build()
    defaults, slots = {}, {}
    for op in program.global_block().ops:
        slots.setdefault(op.type, (sorted(op.input_names), sorted(op.output_names)))
        attrs = {}
        for n in op.attr_names:
            if n in SKIP:
                continue
            value = op.attr(n)
            kind = str(op.desc.attr_type(n)).split(".")[-1]  # AttrType.INTS -> INTS
            if kind in ("BLOCK", "BLOCKS"):  # a control-flow op's sub-block: the writer sets it
                continue
            if kind == "SCALARS":  # set_value's values (paddle's Scalar objects): the writer sets them
                value = []
            attrs[n] = (kind, list(value) if isinstance(value, tuple) else value)
        defaults.setdefault(op.type, attrs)
    common = {k: v for k, v in defaults["relu"].items()}  # what every op has (relu has nothing else)
    table = {}
    for kind in sorted(defaults):
        assert set(common) <= set(defaults[kind]), f"{kind} lacks some of {sorted(common)}"
        attrs = {k: v for k, v in defaults[kind].items() if k not in common or common[k] != v}
        table[kind] = {"inputs": slots[kind][0], "outputs": slots[kind][1], "attrs": attrs}
    with open(TARGET, "w") as f:
        f.write(HEADER)
        f.write('__all__ = ["COMMON_ATTRS", "OPS", "op_defaults"]\n\n')
        f.write("# every op's attributes: {name: (Paddle's AttrType name, value)}\n")
        f.write("COMMON_ATTRS = " + pprint.pformat(common, width=116, sort_dicts=True) + "\n\n")
        f.write(
            "# op type: its input and output slots (Paddle writes every slot, an absent input as an empty one), and\n"
        )
        f.write("# its attributes besides COMMON_ATTRS\n")
        f.write("OPS = " + pprint.pformat(table, width=116, sort_dicts=True) + "\n")
        f.write(READER)
    print(sorted(defaults))


if __name__ == "__main__":
    main()
