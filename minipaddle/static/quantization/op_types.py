"""Paddle's names for minipaddle's static ops, as the quantization passes need them.

Paddle's passes (paddle/static/quantization/quant_config.py) choose ops by Paddle op type and read inputs by slot
(`conv2d: Input, Filter`; `mul: X, Y`). A minipaddle Program holds minipaddle's own ops (`matmul` where Paddle has
`mul` or `matmul_v2`, `add` for `elementwise_add`, `max_pool` for `pool2d`) with their own slots (`x`, `w`). This
table says which Paddle type (and slot) each minipaddle op and input stands for, so the passes accept Paddle's
op-type lists and order the inserted ops as Paddle's do (Paddle visits an op's inputs by slot name: Filter before
Input, X before Y).
"""

from __future__ import annotations

# minipaddle op type -> the Paddle op types it stands for (the first is the name it is written as)
PADDLE_TYPES = {
    "conv2d": ("conv2d", "depthwise_conv2d"),
    "conv2d_transpose": ("conv2d_transpose",),
    "matmul": ("matmul_v2", "mul", "matmul"),
    "add": ("elementwise_add",),
    "subtract": ("elementwise_sub",),
    "multiply": ("elementwise_mul",),
    "max_pool": ("pool2d",),
    "avg_pool": ("pool2d",),
    "reshape": ("reshape2", "flatten_contiguous_range"),
    "mean": ("reduce_mean",),
    "sum": ("reduce_sum",),
    "relu": ("relu",),
    "relu6": ("relu6",),
    "leaky_relu": ("leaky_relu",),
    "tanh": ("tanh",),
    "sigmoid": ("sigmoid",),
    "softmax": ("softmax",),
    "gelu": ("gelu",),
    "concat": ("concat",),
    "transpose": ("transpose2",),
    "batch_norm": ("batch_norm",),
    "layer_norm": ("layer_norm",),
    "dropout": ("dropout",),
    "scale": ("scale",),
    "neg": ("scale",),  # (Paddle writes -x as scale(x, -1))
    "cast": ("cast",),
    "assign": ("assign",),
    "equal": ("equal",),
    "not_equal": ("not_equal",),
}

# Paddle's slot names of the inputs of the ops that carry weights (minipaddle slot -> Paddle slot)
PADDLE_SLOTS = {
    "conv2d": {"x": "Input", "w": "Filter"},
    "conv2d_transpose": {"x": "Input", "w": "Filter"},
    "matmul": {"x": "X", "y": "Y"},
}

# Paddle's name of an op's first output (for `Output0_threshold` / `Out0_threshold`)
PADDLE_OUTPUT_SLOT = {"conv2d": "Output", "conv2d_transpose": "Output", "batch_norm": "Y", "layer_norm": "Y"}

# quant_config.py: the ops that can carry weights, and the teller set of the output-scale passes
SUPPORT_WEIGHT_QUANTIZATION_OPS = ("conv2d", "depthwise_conv2d", "conv2d_transpose", "mul", "matmul", "matmul_v2")
SUPPORT_ACT_QUANTIZATION_OPS = (  # (the part of Paddle's list that minipaddle has ops for)
    "mul",
    "matmul",
    "matmul_v2",
    "pool2d",
    "elementwise_add",
    "concat",
    "softmax",
    "transpose",
    "equal",
    "not_equal",
    "reshape",
    "reshape2",
    "transpose2",
    "elementwise_sub",
    "relu",
    "relu6",
    "leaky_relu",
    "tanh",
    "dropout",
    "batch_norm",
    "layer_norm",
    "sigmoid",
    "elementwise_mul",
    "flatten_contiguous_range",
    "gelu",
    "assign",
    "cast",
    "reduce_mean",
    "reduce_sum",
    "scale",
)
SUPPORT_QUANTIZATION_OPS = SUPPORT_WEIGHT_QUANTIZATION_OPS + SUPPORT_ACT_QUANTIZATION_OPS
# Paddle's whole SUPPORT_ACT_QUANTIZATION_OP_DICT (quant_aware's config accepts these names; those minipaddle has
# no op for match nothing in a minipaddle Program)
PADDLE_ACT_QUANTIZATION_OPS = (
    "mul", "matmul", "matmul_v2", "pool2d", "elementwise_add", "concat", "softmax", "argmax", "transpose", "equal",
    "gather", "greater_equal", "greater_than", "less_equal", "less_than", "mean", "not_equal", "reshape", "reshape2",
    "transpose2", "nearest_interp", "trilinear_interp", "slice", "squeeze", "elementwise_sub", "relu", "relu6",
    "leaky_relu", "prelu", "tanh", "swish", "dropout", "batch_norm", "layer_norm", "sigmoid", "elementwise_mul",
    "elementwise_pow", "hard_swish", "hard_sigmoid", "gru", "lstm", "pad2d", "pad3d", "flatten", "flatten2",
    "unsqueeze2", "flatten_contiguous_range", "split", "squeeze2", "nearest_interp_v2", "bilinear_interp",
    "bilinear_interp_v2", "fill_constant_batch_size_like", "arg_max", "abs", "assign", "cast", "clip", "box_coder",
    "crop", "cumsum", "expand_v2", "fill_any_like", "fill_constant", "gelu", "instance_norm", "lookup_table",
    "lookup_table_v2", "norm", "p_norm", "pow", "reduce_mean", "stack", "top_k_v2", "logical_and", "logical_not",
    "meshgrid", "roi_align", "strided_slice", "where", "grid_sampler", "tile", "group_norm", "reduce_sum", "square",
    "softplus", "shuffle_channel", "reduce_max", "scale",
)  # fmt: skip

# weights quantized per channel along axis 1 ([in, out] matrices, transposed convolutions); others along 0
CHANNELWISE_AXIS1 = ("conv2d_transpose", "mul", "matmul", "matmul_v2")


def paddle_type(op) -> str:
    """The Paddle type an OpDesc is written as ('' for an op with no Paddle counterpart in these tables)."""
    return PADDLE_TYPES.get(op.type, ("",))[0]


def is_one_of(op, paddle_types) -> bool:
    """Whether a minipaddle op stands for one of `paddle_types` (Paddle op type names)."""
    return any(t in paddle_types for t in PADDLE_TYPES.get(op.type, ()))


def weight_quant_axis(op) -> int:
    """The channel axis of a weight read by `op`: 1 for matmul (Paddle's mul/matmul_v2) unless it reads y
    transposed, and for conv2d_transpose; 0 for conv2d."""
    if op.type == "matmul":
        return 0 if op.attrs.get("transpose_y") else 1
    return 1 if op.type == "conv2d_transpose" else 0


def inputs_in_paddle_order(op) -> list:
    """(slot, name) of the op's inputs in the order Paddle's passes visit them (by Paddle slot name)."""
    slots = PADDLE_SLOTS.get(op.type, {})
    pairs = [(slot, n) for slot, names in op.inputs.items() for n in names if n is not None]
    return sorted(pairs, key=lambda p: slots.get(p[0], p[0]))
