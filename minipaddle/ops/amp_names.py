"""The one table from minipaddle's ops to Paddle's op names, which AMP's lists are written in.

Paddle's tracer names ops by their legacy ("fluid") names when it applies the AMP lists: `paddle.add` is
`elementwise_add`, `paddle.matmul` is `matmul_v2`, `paddle.sum` is `reduce_sum`. minipaddle's ops (OpDef.name)
follow the Python API instead. This table says, for each minipaddle op whose name differs, which Paddle op it is;
an op not listed has Paddle's name already (relu, softmax, conv2d, ...). A few ops stand for several Paddle ops,
told apart by an attribute (`interpolate` with mode='bilinear' is `bilinear_interp_v2`).

Each OpDef's `amp` attribute is the category this table and paddle 2.6's lists give it (tests/amp checks that they
agree for every op), so the AMP category can be read off an op without the lists:
- 'white': in the white list: runs in the low dtype (float16 or bfloat16);
- 'black': in the float16 black list: float32 under O1, the low dtype under O2;
- 'fp32': no low-precision kernel: float32 under O1 and O2 (paddle's EXTRA_BLACK_LIST, and the ops minipaddle
  cannot compute in float16 or bfloat16 because numpy has no such kernels: linear algebra and FFTs; Paddle treats
  the ops a device has no low-precision kernel for the same way, its `unsupported_list`);
- 'promote': every other op: follows its inputs (float32 if any floating input is float32);
- 'keep': never cast by AMP (the cast op itself, and the optimizers' update ops, which keep each parameter's and
  accumulator's dtype; Paddle's optimizers run outside the AMP rules too).
"""

from __future__ import annotations

from minipaddle.ops.amp_lists import EXTRA_BLACK_LIST, FP16_BLACK_LIST, FP16_WHITE_LIST

__all__ = ["PADDLE_OP_NAMES", "KEEP_OPS", "UNSUPPORTED_LOW_PRECISION", "paddle_op_name", "amp_category"]

PADDLE_OP_NAMES = {
    # element-wise binary ops keep their 1.x names
    "add": "elementwise_add",
    "subtract": "elementwise_sub",
    "multiply": "elementwise_mul",
    "divide": "elementwise_div",
    "maximum": "elementwise_max",
    "minimum": "elementwise_min",
    "remainder": "elementwise_mod",
    "floor_divide": "elementwise_floordiv",
    "fmax": "elementwise_fmax",
    "fmin": "elementwise_fmin",
    "heaviside": "elementwise_heaviside",
    # products and reductions
    "matmul": "matmul_v2",
    "sum": "reduce_sum",
    "mean": "reduce_mean",
    "prod": "reduce_prod",
    "max": "reduce_max",
    "min": "reduce_min",
    "amax": "reduce_amax",
    "amin": "reduce_amin",
    "all": "reduce_all",
    "any": "reduce_any",
    # manipulation
    "reshape": "reshape2",
    "transpose": "transpose2",
    "expand": "expand_v2",
    "full_with_shape": "fill_constant",
    "reshape_with_shape": "reshape2",
    "expand_with_shape": "expand_v2",
    "tile_with_repeats": "tile",
    "tile_with_repeats_grad": "tile_grad",
    "broadcast_like": "expand_as_v2",
    "getitem": "slice",
    "index_view": "slice",
    "one_hot": "one_hot_v2",
    "embedding": "lookup_table_v2",
    "topk_indices": "top_k_v2",
    "argmax": "arg_max",
    "argmin": "arg_min",
    "full_like": "fill_any_like",
    "arange": "range",
    "gaussian": "gaussian_random",
    "uniform": "uniform_random",
    "isnan": "isnan_v2",
    "isinf": "isinf_v2",
    "isfinite": "isfinite_v2",
    # activations spelled differently
    "hardswish": "hard_swish",
    "hardsigmoid": "hard_sigmoid",
    "binary_cross_entropy": "bce_loss",
    # minipaddle's transposed convolutions are the input gradients of convolutions
    "conv2d_grad_input": "conv2d_transpose",
    "conv3d_grad_input": "conv3d_transpose",
    "adaptive_avg_pool": "pool2d",
    "adaptive_max_pool": "max_pool2d_with_index",  # paddle's adaptive max pooling always computes the mask
}


def _pool_name(attrs: dict) -> str:
    return "pool3d" if len(attrs.get("kernel_size", ())) == 3 else "pool2d"


# Ops whose Paddle name depends on an attribute.
_BY_ATTRS = {
    "interpolate": lambda attrs: f"{attrs.get('mode', 'nearest')}_interp_v2",
    "max_pool": _pool_name,  # max_pool2d without return_mask is paddle's pool2d
    "avg_pool": _pool_name,
}

# The ops AMP never casts (category 'keep').
KEEP_OPS = {
    "cast",
    "sgd",
    "momentum_velocity",
    "momentum_param",
    "adam_param",
    "sparse_adam_param",
    "adamax_param",
    "adamax_inf_norm",
    "adagrad_moment",
    "adagrad_param",
    "adadelta_direction",
    "rmsprop_moment",
    "rmsprop_param",
    "lamb_param",
    "ema",
    "ema_square",
    "lazy_ema",
    "lazy_ema_square",
    "check_finite_and_unscale",  # loss scaling: each gradient keeps its dtype
    "update_loss_scaling",
}


# minipaddle's ops without a float16/bfloat16 kernel (numpy's linalg and fft upcast or refuse them): Paddle's
# `unsupported_list` on this device. They run in float32 whatever the lists say.
UNSUPPORTED_LOW_PRECISION = {
    "cholesky", "cholesky_solve", "det", "eig", "eigh", "eigvals", "inverse", "lstsq", "lu", "lu_unpack",
    "matrix_rank", "qr", "slogdet", "solve", "svd", "svdvals", "triangular_solve",
    "fft_c2c", "fft_c2r", "fft_r2c", "warprnnt", "complex",
}  # fmt: skip


def paddle_op_name(name: str, attrs: dict | None = None) -> str:
    """Paddle's name for minipaddle's op `name` (called with these `attrs`), as AMP's lists spell it.

    Example:
        >>> paddle_op_name('add')
        'elementwise_add'
    """
    by_attrs = _BY_ATTRS.get(name)
    if by_attrs is not None:
        return by_attrs(attrs or {})
    return PADDLE_OP_NAMES.get(name, name)


def amp_category(name: str, attrs: dict | None = None) -> str:
    """The AMP category of minipaddle's op `name` under paddle 2.6's default lists (see the module docstring)."""
    if name in KEEP_OPS:
        return "keep"
    paddle_name = paddle_op_name(name, attrs)
    if paddle_name in FP16_WHITE_LIST:
        return "white"
    if paddle_name in EXTRA_BLACK_LIST or name in UNSUPPORTED_LOW_PRECISION:
        return "fp32"
    if paddle_name in FP16_BLACK_LIST:
        return "black"
    return "promote"
