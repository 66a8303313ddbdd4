"""One rule for a binary function given two tensors of different dtypes (docs/feature_map.md, "differs on purpose").

The rule: the second tensor is cast to the first one's dtype, then the function computes as for equal dtypes:
`f(x, y) == f(x, cast(y, x.dtype))`. It is paddle 2.6's rule for the operators (`int_t + float_t` is int64,
`float_t + int_t` float32), applied to the functions too, where paddle 2.6 raises for an int/float mix. It lives in
one place, tensor/math.binary_operands (core/dtype.promote_types), which every binary function calls.

Functions that compute in floats only (losses, convolutions, linear algebra solvers, attention, lerp ...) refuse an
integer tensor with a TypeError naming themselves instead, as paddle 2.6 does: casting a float tensor to the
integer one's dtype would compute something else silently. Which side they refuse is listed here per function.

Every op-table function whose first two arguments are tensors is in exactly one list, so a new binary function
must be classified here (and is then checked both ways round).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minipaddle as paddle
from tests.op_table import OP_TABLE
from tests.reliability.sweep import public_path

# Functions that refuse an int tensor as their first operand; the second operand follows the rule. (mse_loss,
# square_error_cost and soft_margin_loss take ints as paddle 2.6's dynamic mode does: the dtype sweep's verdict.)
REFUSE_INT_FIRST = {
    "nn.functional.prelu", "nn.functional.l1_loss",
    "nn.functional.smooth_l1_loss", "nn.functional.binary_cross_entropy",
    "nn.functional.binary_cross_entropy_with_logits", "nn.functional.sigmoid_focal_loss",
    "nn.functional.margin_ranking_loss", "nn.functional.log_loss", "nn.functional.cosine_embedding_loss",
    "nn.functional.multi_label_soft_margin_loss", "nextafter", "lerp",
    "nn.functional.triplet_margin_loss", "nn.functional.triplet_margin_with_distance_loss",
    "dist", "hypot", "mv", "nn.functional.cosine_similarity", "nn.functional.kl_div",
    "nn.functional.pairwise_distance",  # paddle 2.6's dtype lists (minipaddle/tensor/dtype_support.py)
}  # fmt: skip
# Functions that refuse an int tensor on either side (float-only arithmetic, or same-dtype inputs as in paddle).
REFUSE_INT_EITHER = {
    "isclose", "allclose", "complex", "nn.functional.linear", "nn.functional.conv1d", "nn.functional.conv2d",
    "nn.functional.conv3d", "nn.functional.conv1d_transpose", "nn.functional.conv2d_transpose",
    "nn.functional.conv3d_transpose", "nn.functional.grid_sample", "linalg.solve", "linalg.triangular_solve",
    "linalg.cholesky_solve", "nn.functional.scaled_dot_product_attention", "geometric.send_ue_recv",
    "geometric.send_uv", "cdist", "linalg.householder_product", "nn.functional.bilinear", "nn.functional.npair_loss",
    "bmm",  # paddle 2.6 has no integer bmm kernel (dynamic mode; tensor/dtype_support.NO_CPU_KERNEL)
}  # fmt: skip
# Functions with a dtype rule of their own, documented in their docstrings.
OWN_RULE = {
    "ldexp": "y is an exponent: float64 if either is, else the default float (as paddle 2.6)",
    "nn.functional.soft_margin_loss": "log(1 + exp(-label * input)) as paddle 2.6 writes it: label leads, so an int "
    "input meets a float label in float",
    "addmm": "three tensors: input + alpha * (x @ y), the rule applied pair by pair in that order",
}


def _binary_functions() -> dict:
    """public path -> (fn, sample) for each op-table function whose first two arguments are float tensors."""
    out = {}
    for info in OP_TABLE:
        path = public_path(info.fn)
        if path is None or path in out:
            continue
        sample = info.samples(np.random.default_rng(0))[0]
        floats = [isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in sample.args]
        if floats[:2] == [True, True]:
            out[path] = (info.fn, sample)
    return out


BINARY = _binary_functions()


def _tensor(a):
    if isinstance(a, np.ndarray):
        return paddle.to_tensor(a.astype("float32") if a.dtype.kind == "f" else a)
    return a


def _ints(a: np.ndarray) -> paddle.Tensor:
    """Integers of a's shape with no 0 (so that floor_divide and remainder have something to divide by)."""
    return paddle.to_tensor(np.arange(1, a.size + 1, dtype="int64").reshape(a.shape) % 5 + 1)


def _same(got, want) -> bool:
    g, w = (got, want) if isinstance(got, paddle.Tensor) else (got[0], want[0])
    both = g.numpy().astype("float64"), w.numpy().astype("float64")
    return g.dtype == w.dtype and g.shape == w.shape and np.allclose(*both, equal_nan=True)


def test_every_binary_function_is_classified():
    listed = REFUSE_INT_FIRST | REFUSE_INT_EITHER | set(OWN_RULE)
    assert len(BINARY) > 70 and listed <= set(BINARY), sorted(listed - set(BINARY))


@pytest.mark.parametrize("path", sorted(set(BINARY) - set(OWN_RULE)))
@pytest.mark.parametrize("order", ["int, float", "float, int"])
def test_mixed_int_float_follows_the_one_rule(path, order):
    fn, sample = BINARY[path]
    a, b = sample.args[0], sample.args[1]
    rest = [_tensor(v) for v in sample.args[2:]]
    if order == "int, float":  # y's values truncate to non-zero ints (the rule casts y to int64)
        x, y = _ints(a), paddle.cast(_ints(b), "float32") + 0.25
    else:
        x, y = _tensor(a), _ints(b)
    refuses = path in REFUSE_INT_EITHER or (path in REFUSE_INT_FIRST and order == "int, float")
    name = path.split(".")[-1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if refuses:
            with pytest.raises(TypeError, match=rf"{name}\b"):
                fn(x, y, *rest, **sample.kwargs)
            return
        got = fn(x, y, *rest, **sample.kwargs)
        want = fn(x, paddle.cast(y, x.dtype), *rest, **sample.kwargs)
    assert _same(got, want), f"{path}({order}) does not compute as f(x, cast(y, x.dtype))"
