"""Which dtypes each public function accepts, as paddle 2.6 declares them: its `check_variable_and_dtype(x, 'x',
[...], 'acos')` lists, function by function and argument by argument, in one table.

`check_tensor(x, fn, arg)` (tensor/checks.py), `binary_operands` (tensor/math.py) and the pooling/conv input check
look each argument up here, so the rule holds in dynamic and static mode alike and every public function that names
itself in its checks gets it without a line of its own. A dtype outside the list is a TypeError naming the
function, the argument, the dtype and the accepted ones, as paddle's check says it:

    >>> paddle.acos(paddle.to_tensor([1, 2]))
    TypeError: acos: the data type of 'x' must be one of ['float16', 'bfloat16', 'float32', 'float64', 'complex64',
    'complex128'], but received int64

Where the lists come from: paddle 2.6.2's refusals recorded by the dtype sweep (tests/golden/fidelity/, the
messages by make_dtype_refusals.py). paddle checks these lists in static mode only; in dynamic mode its kernels
refuse what they have no kernel for, which on its CPU build is more (float16, mostly) and in places less (its complex
kernels are newer than some lists). So a list here is paddle's static one plus the dtypes paddle's dynamic mode
computes too (said in the comment above the entry): minipaddle, which has one device and computes float16 in numpy
as paddle's GPU build does, accepts the same dtypes in both modes. What is left different is listed, with the
reason, in tests/golden/fidelity/dtype_known_differences.json. `uint16` in paddle's lists is its storage name for
bfloat16.
"""

from __future__ import annotations

from minipaddle.core.dtype import ALL_DTYPES
from minipaddle.core.state import in_dynamic_mode

F32_64 = ("float32", "float64")
F16_32_64 = ("float16", "float32", "float64")
FLOATS = ("float16", "bfloat16", "float32", "float64")
FLOATS_COMPLEX = FLOATS + ("complex64", "complex128")
INTS_F32_64 = ("int32", "int64") + F32_64
INTS_F16_32_64 = ("int32", "int64") + F16_32_64
INTS_FLOATS = ("int32", "int64") + FLOATS
INTS_FLOATS_COMPLEX = INTS_FLOATS + ("complex64", "complex128")
BOOL_INTS_FLOATS = ("bool",) + INTS_FLOATS
COMPARABLE = ("bool", "uint8", "int8", "int16") + INTS_FLOATS
FLATTENABLE = ("uint8", "int8", "int16") + INTS_FLOATS
SCALABLE = FLATTENABLE + ("complex64", "complex128")

# {public function (as it names itself in its checks): {argument: accepted dtype names}}
ACCEPTED: dict[str, dict[str, tuple]] = {
    "abs": {"x": INTS_FLOATS_COMPLEX},
    "acos": {"x": FLOATS_COMPLEX},
    "acosh": {"x": FLOATS_COMPLEX},
    "adaptive_max_pool1d": {"x": F32_64},
    "adaptive_max_pool2d": {"x": F32_64},
    "adaptive_max_pool3d": {"x": F32_64},
    "addmm": {"input": FLOATS},
    "affine_grid": {"theta": F32_64},
    "allclose": {"x": F16_32_64},
    "amax": {"x": INTS_F32_64},
    "amin": {"x": INTS_F32_64},
    "angle": {"x": FLOATS_COMPLEX},
    "argmax": {"x": INTS_FLOATS + ("uint8", "int16")},
    "argmin": {"x": INTS_FLOATS + ("uint8", "int16")},
    "argsort": {"x": INTS_F16_32_64 + ("uint8", "int16")},
    "as_complex": {"x": F32_64},
    "asin": {"x": FLOATS_COMPLEX},
    "asinh": {"x": FLOATS_COMPLEX},
    "atan": {"x": FLOATS_COMPLEX},
    "atanh": {"x": FLOATS_COMPLEX},
    "bilinear": {"x1": F32_64},
    "binary_cross_entropy_with_logits": {"logit": F32_64},
    "box_coder": {"prior_box": F32_64},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "broadcast_to": {"x": BOOL_INTS_FLOATS + ("complex64", "complex128")},
    "cdist": {"x": F32_64},
    "ceil": {"x": FLOATS},
    "channel_shuffle": {"x": F32_64},
    "clip": {"x": INTS_FLOATS},
    # checked by paddle's meshgrid
    "combinations": {"x": INTS_FLOATS},
    "cos": {"x": F16_32_64 + ("complex64", "complex128")},
    "cosh": {"x": FLOATS_COMPLEX},
    "cosine_embedding_loss": {"input1": F32_64},
    # checked by paddle's sqrt
    "cosine_similarity": {"x1": FLOATS},
    # checked by paddle's crop_tensor
    "crop": {"x": INTS_F32_64},
    "cross": {"x": INTS_FLOATS},
    # checked by paddle's warpctc
    "ctc_loss": {"log_probs": F32_64},
    "cumsum": {"x": INTS_FLOATS},
    # bool, float16, complex64, complex128 too: paddle's dynamic kernels take them
    "deg2rad": {"x": INTS_F32_64 + ("bool", "float16", "complex64", "complex128")},
    "det": {"x": F16_32_64},
    # checked by paddle's diag_v2
    "diag": {"x": INTS_FLOATS},
    "diag_embed": {"input": INTS_F16_32_64},
    "diagflat": {"x": INTS_F16_32_64},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "diagonal": {"x": BOOL_INTS_FLOATS + ("complex64", "complex128")},
    "dice_loss": {"input": F32_64},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "diff": {"x": INTS_F16_32_64 + ("bool", "complex64", "complex128")},
    "dist": {"x": FLOATS},
    "dot": {"x": INTS_FLOATS_COMPLEX},
    # paddle checks the operands' common dtype (as 'dtype'); complex64, complex128 too: its dynamic kernels take them
    "einsum": {"operands": F32_64 + ("complex64", "complex128")},
    "equal": {"x": COMPARABLE, "y": COMPARABLE},
    "exp": {"x": INTS_FLOATS_COMPLEX},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "expand": {"x": BOOL_INTS_FLOATS + ("complex64", "complex128")},
    "expand_as": {"x": BOOL_INTS_FLOATS},
    "expm1": {"x": INTS_FLOATS_COMPLEX},
    # bool, complex64, complex128 too: paddle's dynamic kernels take them
    "flatten": {"x": FLATTENABLE + ("bool", "complex64", "complex128")},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "flip": {"x": INTS_F16_32_64 + ("bool", "complex64", "complex128")},
    "floor": {"x": FLOATS},
    # checked by paddle's elementwise_floordiv
    "floor_divide": {"x": BOOL_INTS_FLOATS, "y": BOOL_INTS_FLOATS},
    "fold": {"x": F32_64 + ("complex64", "complex128")},
    # paddle.norm with p='fro'
    "frobenius_norm": {"x": F32_64},
    "gather": {"x": INTS_FLOATS + ("uint8", "int16")},
    # complex64, complex128 too: paddle's dynamic kernels take them; checked by paddle's gather_np
    "gather_nd": {"x": BOOL_INTS_FLOATS + ("int16", "complex64", "complex128")},
    "greater_equal": {"x": COMPARABLE, "y": COMPARABLE},
    "greater_than": {"x": COMPARABLE, "y": COMPARABLE},
    "grid_sample": {"x": F32_64},
    "hinge_embedding_loss": {"input": F32_64},
    "histogram": {"input": INTS_F32_64},
    "hsigmoid_loss": {"input": F32_64},
    # checked by paddle's sqrt
    "hypot": {"x": FLOATS},
    "i0": {"x": F32_64},
    "i0e": {"x": F32_64},
    "i1": {"x": F32_64},
    "i1e": {"x": F32_64},
    "index_add": {"x": INTS_FLOATS},
    "index_sample": {"x": INTS_FLOATS_COMPLEX},
    "index_select": {"x": INTS_FLOATS_COMPLEX},
    # int32, int64, complex64, complex128 too: paddle's dynamic kernels take them
    "inner": {"x": F16_32_64 + ("int32", "int64", "complex64", "complex128")},
    "inverse": {"x": F32_64},
    "isclose": {"x": F16_32_64 + ("complex64", "complex128")},
    "isfinite": {"x": INTS_FLOATS},
    "isinf": {"x": INTS_FLOATS},
    "isnan": {"x": INTS_FLOATS},
    "kl_div": {"input": F32_64},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "kron": {"x": INTS_F16_32_64 + ("complex64", "complex128")},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "l1_loss": {"input": INTS_F16_32_64 + ("complex64", "complex128")},
    "less_equal": {"x": COMPARABLE, "y": COMPARABLE},
    "less_than": {"x": COMPARABLE, "y": COMPARABLE},
    # int32, int64, complex64, complex128 too: paddle's dynamic kernels take them
    "linear": {"x": FLOATS + ("int32", "int64", "complex64", "complex128")},
    # float64 too: paddle's dynamic kernels take them
    "local_response_norm": {"x": ("float16", "float32", "float64")},
    "log": {"x": INTS_FLOATS},
    "log10": {"x": INTS_FLOATS},
    "log1p": {"x": INTS_FLOATS},
    "log2": {"x": INTS_FLOATS},
    # float64 too: paddle has a float32 kernel only, minipaddle keeps float64 for the op table's gradient check
    "log_loss": {"input": ("float32", "float64")},
    "logsumexp": {"x": FLOATS},
    # checked by paddle's margin_rank_loss
    "margin_ranking_loss": {"input": F32_64},
    # checked by paddle's where
    "masked_fill": {"x": INTS_FLOATS},
    # checked by paddle's mask_select
    "masked_select": {"x": INTS_FLOATS},
    # int32, int64 too: paddle's dynamic kernels take them
    "matmul": {"x": FLOATS_COMPLEX + ("int8", "int32", "int64")},
    "matrix_power": {"x": F32_64},
    "max": {"x": INTS_FLOATS},
    "max_pool1d": {"x": F32_64},
    # checked by paddle's flatten
    "median": {"x": FLATTENABLE},
    "min": {"x": INTS_FLOATS},
    # checked by paddle's elementwise_min
    "minimum": {"x": BOOL_INTS_FLOATS, "y": BOOL_INTS_FLOATS},
    # int32, int64 too: paddle's dynamic kernels take them
    "mse_loss": {"input": F32_64 + ("int32", "int64")},
    # complex64, complex128 too: paddle's dynamic kernels take them; checked by paddle's multilabel_soft_margin_loss
    "multi_label_soft_margin_loss": {"input": F32_64 + ("complex64", "complex128")},
    # int32, int64 too: paddle's dynamic kernels take them
    "multi_margin_loss": {"input": F32_64 + ("int32", "int64")},
    "mv": {"x": F32_64},
    # int64 too: paddle's dynamic kernels take them
    "nanmean": {"x": FLOATS + ("int64",)},
    "nansum": {"x": INTS_F16_32_64},
    # bool too: paddle's dynamic kernels take them; checked by paddle's scale
    "neg": {"x": SCALABLE + ("bool",)},
    "nextafter": {"x": F32_64},
    "nll_loss": {"input": F32_64},
    # checked by paddle's where_index
    "nonzero": {"x": BOOL_INTS_FLOATS + ("int16",)},
    "not_equal": {"x": COMPARABLE, "y": COMPARABLE},
    "npair_loss": {"anchor": F32_64},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "outer": {"x": INTS_F16_32_64 + ("complex64", "complex128")},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "paddle.signal.frame": {"x": INTS_F16_32_64 + ("complex64", "complex128")},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "paddle.signal.overlap_add": {"x": INTS_FLOATS + ("complex64", "complex128")},
    # checked by paddle's PairwiseDistance
    # paddle.norm with another p
    "p_norm": {"x": FLOATS},
    "pairwise_distance": {"x": F16_32_64},
    # int32, int64, complex64, complex128 too: paddle's dynamic kernels take them
    "poisson_nll_loss": {
        "input": FLOATS + ("int32", "int64", "complex64", "complex128"),
        "label": FLOATS + ("int32", "int64", "complex64", "complex128"),
    },
    "polygamma": {"x": F32_64},
    # checked by paddle's elementwise_pow
    "pow": {"x": BOOL_INTS_FLOATS, "y": BOOL_INTS_FLOATS},
    # checked by paddle's reduce_prod
    "prod": {"x": INTS_FLOATS},
    "put_along_axis": {"arr": INTS_FLOATS + ("uint8",)},
    # bool, float16, complex64, complex128 too: paddle's dynamic kernels take them
    "rad2deg": {"x": INTS_F32_64 + ("bool", "float16", "complex64", "complex128")},
    "reciprocal": {"x": FLOATS},
    "relu": {"x": FLOATS},
    # checked by paddle's elementwise_mod
    "remainder": {"x": BOOL_INTS_FLOATS, "y": BOOL_INTS_FLOATS},
    "renorm": {"x": F32_64},
    "repeat_interleave": {"x": INTS_F32_64},
    # complex64, complex128 too: paddle's dynamic kernels take them; checked by paddle's flip
    "reverse": {"x": INTS_F16_32_64 + ("bool", "complex64", "complex128")},
    "roll": {"x": INTS_FLOATS_COMPLEX},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "rot90": {"x": INTS_F16_32_64 + ("bool", "complex64", "complex128")},
    "round": {"x": FLOATS},
    "rsqrt": {"x": FLOATS},
    # bool too: paddle's dynamic kernels take them
    "scale": {"x": SCALABLE + ("bool",)},
    "scatter": {"x": INTS_FLOATS},
    # float16 too: paddle's dynamic kernels take them; checked by paddle's segment_pool
    "segment_max": {"data": INTS_F32_64 + ("float16",)},
    # float16 too: paddle's dynamic kernels take them; checked by paddle's segment_pool
    "segment_mean": {"data": INTS_F32_64 + ("float16",)},
    # float16 too: paddle's dynamic kernels take them; checked by paddle's segment_pool
    "segment_min": {"data": INTS_F32_64 + ("float16",)},
    # float16 too: paddle's dynamic kernels take them; checked by paddle's segment_pool
    "segment_sum": {"data": INTS_F32_64 + ("float16",)},
    "sigmoid": {"x": FLOATS_COMPLEX},
    "sigmoid_focal_loss": {"logit": F32_64},
    "sign": {"x": ("uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")},
    "sin": {"x": FLOATS_COMPLEX},
    "sinh": {"x": FLOATS_COMPLEX},
    # int32, int64 too: paddle's dynamic kernels take them
    "soft_margin_loss": {"input": F32_64 + ("int32", "int64")},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "softsign": {"x": FLOATS + ("complex64", "complex128")},
    "sqrt": {"x": FLOATS},
    "square": {"x": INTS_F16_32_64 + ("complex64", "complex128")},
    # int32, int64 too: paddle's dynamic kernels take them
    "square_error_cost": {"input": F32_64 + ("int32", "int64")},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "stanh": {"x": FLOATS + ("complex64", "complex128")},
    "std": {"x": F16_32_64},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "strided_slice": {"x": BOOL_INTS_FLOATS + ("complex64", "complex128")},
    # bool, complex64, complex128 too: paddle's dynamic kernels take them; checked by paddle's transpose
    "t": {"input": INTS_F16_32_64 + ("bool", "complex64", "complex128")},
    # checked by paddle's flatten; complex64, complex128 too: paddle's dynamic kernels take them
    "take": {"x": SCALABLE},
    "take_along_axis": {"arr": INTS_FLOATS + ("uint8",)},
    "tan": {"x": FLOATS_COMPLEX},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "tanh": {"x": FLOATS + ("complex64", "complex128")},
    # int32, int64, complex64, complex128 too: paddle's dynamic kernels take them
    "tensordot": {"x": F16_32_64 + ("int32", "int64", "complex64", "complex128")},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "tile": {"x": BOOL_INTS_FLOATS + ("complex64", "complex128")},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "trace": {"x": INTS_F16_32_64 + ("complex64", "complex128")},
    "triplet_margin_loss": {"input": F32_64},
    "triplet_margin_with_distance_loss": {"input": F32_64},
    "trunc": {"x": INTS_F32_64},
    "unique": {"x": INTS_FLOATS},
    # complex64, complex128 too: paddle's dynamic kernels take them
    "vander": {"x": INTS_F32_64 + ("complex64", "complex128")},
    "var": {"x": F16_32_64},
    "where": {"x": INTS_FLOATS, "y": INTS_FLOATS},
}


# {public function: {argument: dtypes}} that paddle 2.6's static mode accepts (the Program builds) but its dynamic
# mode refuses because no kernel of its CPU build takes them: not float16 (which its GPU build computes, so
# minipaddle computes it too, see dtype_known_differences.json) but dtypes no paddle kernel computes for the op.
# Refused in dynamic mode only, as paddle, from the dtype sweep's recorded answers (tests/golden/fidelity/).
_B, _C, _I = ("bool",), ("complex64", "complex128"), ("int32", "int64")
NO_CPU_KERNEL: dict[str, dict[str, tuple]] = {
    "add": {"x": _B, "y": _B},
    "bmm": {"x": _B + _C + _I, "y": _B + _C + _I},
    "embedding": {"weight": _B + _C + _I},
    "equal_all": {"x": _C, "y": _C},
    "erf": {"x": _B + _C + _I},
    "floor_divide": {"x": _B, "y": _B},
    "maximum": {"x": _B + _C, "y": _B + _C},
    "minimum": {"x": _B, "y": _B},
    "pad": {"x": _B},
    "pow": {"x": _B},
    "remainder": {"x": _B, "y": _B},
    "scatter_nd": {"updates": _B + _C},
    "scatter_nd_add": {"x": _B + _C},
    "softmax_with_cross_entropy": {"logits": _C + _I},
    "sort": {"x": _B + _C},
    "square": {"x": _C},
}
CHECKED = frozenset(ACCEPTED) | frozenset(NO_CPU_KERNEL)  # the functions check_accepted has something to say for


# The same tables as numpy dtypes that pass check_accepted in every mode, {fn: {arg: frozenset}}, for the callers
# that run on every op of a training step (check_tensor, binary_operands): a dtype in the set needs no call at all.
# An argument without a rule passes every dtype (ANY_DTYPE).
ANY_DTYPE = frozenset(d.np for d in ALL_DTYPES)
PASSING: dict[str, dict[str, frozenset]] = {
    fn: {
        arg: frozenset(d.np for d in ALL_DTYPES if d.name in ACCEPTED.get(fn, {}).get(arg, (d.name,)))
        - frozenset(d.np for d in ALL_DTYPES if d.name in NO_CPU_KERNEL.get(fn, {}).get(arg, ()))
        for arg in {*ACCEPTED.get(fn, {}), *NO_CPU_KERNEL.get(fn, {})}
    }
    for fn in CHECKED
}


def check_accepted(x, fn: str, arg: str, public: str | None = None, kernel_needed: bool = True) -> None:
    """TypeError when paddle 2.6 does not accept x's dtype for argument `arg` of `fn` (a no-op for functions and
    arguments without a list). `public` is the function the user called, when paddle checks under another op's
    name (paddle.norm checks as frobenius_norm or p_norm): the message names both. `kernel_needed=False` skips
    the NO_CPU_KERNEL refusals, for calls paddle runs through another kernel."""
    rule = ACCEPTED.get(fn)
    accepted = None if rule is None else rule.get(arg)
    if accepted is not None and x.dtype.name not in accepted:
        where = fn if public is None else f"{public} (checked as paddle's {fn})"
        raise TypeError(
            f"{where}: the data type of '{arg}' must be one of {list(accepted)}, but received {x.dtype.name}"
        )
    if not kernel_needed or fn not in NO_CPU_KERNEL:  # (the common case costs one lookup, as before this table)
        return
    refused = NO_CPU_KERNEL[fn].get(arg)
    if refused is not None and x.dtype.name in refused and in_dynamic_mode():
        raise TypeError(
            f"{fn}: paddle 2.6 has no kernel for a {x.dtype.name} '{arg}' in dynamic mode (its static mode builds "
            "the Program, and its run fails alike)"
        )
