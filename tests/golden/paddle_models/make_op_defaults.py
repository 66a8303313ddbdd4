"""Write minipaddle/static/paddle_op_defaults.py: the attributes paddle 2.6.2 gives each op it writes into a
.pdmodel (its values when the op is built with default arguments). minipaddle's writer starts every op from these,
because Paddle's loaders (jit.load builds a backward from them) need every attribute an op has.

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
    '"""The attributes paddle 2.6.2 gives each op it writes into a .pdmodel, as built with default arguments\n'
    "(recorded by tests/golden/paddle_models/make_op_defaults.py). static/pdmodel.py starts every op it\n"
    'writes from these: Paddle\'s loaders need every attribute an op has (jit.load builds a backward)."""\n\n'
)  # the Python stack at build time: not part of the op


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
    return F.softmax(c + paddle.nn.functional.avg_pool2d(x, 2).mean())


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
            attrs[n] = (kind, list(value) if isinstance(value, tuple) else value)
        defaults.setdefault(op.type, attrs)
    with open(TARGET, "w") as f:
        f.write(HEADER)
        f.write("# op type: {attribute: (Paddle's AttrType name, value)}\n")
        f.write("ATTR_DEFAULTS = " + pprint.pformat(defaults, width=116, sort_dicts=True) + "\n\n")
        f.write("# op type: (input slots, output slots): Paddle writes every slot, an absent input as an empty one\n")
        f.write("SLOTS = " + pprint.pformat(slots, width=116, sort_dicts=True) + "\n")
    print(sorted(defaults))


if __name__ == "__main__":
    main()
