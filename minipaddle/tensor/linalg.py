"""Linear algebra of the public API (paddle.tensor.linalg): matrix and vector products, norms and distances,
cross products, inverse, cholesky, condition numbers, histogram; outer, inner, tensordot, cdist; and
Tensor.householder_product.

det, matrix_power and multi_dot are reached through paddle.linalg (minipaddle/linalg.py), as in Paddle.
"""

from __future__ import annotations

import builtins
import math
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.ops.linalg import transposed_shapes
from minipaddle.tensor import creation, indexing, manipulation
from minipaddle.tensor import math as tensor_math
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    _int_arg,
    check_bool,
    check_broadcast,
    check_float_tensor,
    check_int,
    check_not_empty,
    check_number,
    check_tensor,
    normalize_axes,
    normalize_axis,
)
from minipaddle.tensor.dtype_support import check_accepted
from minipaddle.tensor.math import binary_operands

__all__ = [
    "matmul",
    "mm",
    "bmm",
    "dot",
    "mv",
    "norm",
    "dist",
    "cross",
    "inverse",
    "cholesky",
    "cond",
    "histogram",
    "outer",
    "inner",
    "tensordot",
    "cdist",
]


def matmul(x, y, transpose_x: bool = False, transpose_y: bool = False, name=None) -> Tensor:
    """Matrix product with numpy's rules: 1-D operands are vectors, leading dimensions broadcast as batches.

    Example:
        >>> paddle.matmul(paddle.ones([2, 3]), paddle.ones([3, 4])).shape
        [2, 4]
    """
    check_tensor(x, "matmul", "x")
    check_tensor(y, "matmul", "y")
    transpose_x = check_bool(transpose_x, "matmul", "transpose_x")
    transpose_y = check_bool(transpose_y, "matmul", "transpose_y")
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(f"matmul: both operands need at least 1 dimension, got shapes {x.shape} and {y.shape}")
    xs, ys = transposed_shapes(x.shape, y.shape, transpose_x, transpose_y)
    k_y = ys[0] if len(ys) == 1 else ys[-2]
    if xs[-1] != k_y and -1 not in (xs[-1], k_y):  # -1: a size known when the Program runs (the kernel checks)
        raise ValueError(
            f"matmul: x has shape {x.shape} and y has shape {y.shape}"
            f"{' (transposed)' if transpose_x or transpose_y else ''}; x's last dimension ({xs[-1]}) "
            f"must equal y's {'first' if len(ys) == 1 else 'second-to-last'} ({k_y})"
        )
    x, y = binary_operands(x, y, "matmul")
    return ops.matmul(x, y, bool(transpose_x), bool(transpose_y))


def mm(input, mat2, name=None) -> Tensor:  # noqa: A002 (Paddle's name)
    return matmul(input, mat2)


def bmm(x, y, name=None) -> Tensor:
    """Batched matrix product of x [b, m, k] and y [b, k, n] (no broadcasting of the batch).

    Example:
        >>> paddle.bmm(paddle.ones([2, 3, 4]), paddle.ones([2, 4, 5])).shape    # [2, 3, 5]
    """
    check_tensor(x, "bmm", "x")
    check_tensor(y, "bmm", "y")
    if x.ndim != 3 or y.ndim != 3:
        raise ValueError(f"bmm: x and y must be 3-D [batch, rows, cols], got shapes {x.shape} and {y.shape}")
    if x.shape[0] != y.shape[0] and min(x.shape[0], y.shape[0]) >= 0:  # -1: not known yet (static mode)
        raise ValueError(f"bmm: x and y must have the same batch size, got {x.shape[0]} and {y.shape[0]}")
    if x.shape[2] != y.shape[1]:
        raise ValueError(
            f"bmm: x has shape {x.shape} and y has shape {y.shape}; x's columns ({x.shape[2]}) must equal "
            f"y's rows ({y.shape[1]})"
        )
    x, y = binary_operands(x, y, "bmm")
    return ops.matmul(x, y)


def dot(x, y, name=None) -> Tensor:
    """The inner product of vectors: 1-D x and y give a 0-d tensor; 2-D [n, k] give the n row-wise products.

    Example:
        >>> paddle.dot(paddle.to_tensor([1., 2.]), paddle.to_tensor([3., 4.]))    # 11.
    """
    check_tensor(x, "dot", "x")
    check_tensor(y, "dot", "y")
    if x.ndim not in (1, 2) or x.shape != y.shape:  # (paddle 2.6's infer-meta: PreconditionNotMet)
        raise PreconditionNotMetError(
            f"dot: x and y must be 1-D or 2-D with the same shape, got {x.shape} and {y.shape}"
        )
    x, y = binary_operands(x, y, "dot")
    out = ops.sum(ops.multiply(x, y), (x.ndim - 1,), False)
    return ops.cast(out, x.dtype) if x.dtype == dtypes.int32 else out  # paddle's dot keeps int32 (sum gives int64)


def mv(x, vec, name=None) -> Tensor:
    """The product of the matrix x [m, n] and the vector vec [n], a vector [m].

    Example:
        >>> paddle.mv(paddle.ones([2, 3]), paddle.to_tensor([1., 2., 3.]))    # [6., 6.]
    """
    check_tensor(x, "mv", "x")
    check_tensor(vec, "mv", "vec")
    if x.ndim != 2 or vec.ndim != 1:
        raise ValueError(f"mv: x must be 2-D and vec 1-D, got shapes {x.shape} and {vec.shape}")
    if x.shape[1] != vec.shape[0]:
        raise ValueError(f"mv: x has shape {x.shape} and vec {vec.shape}; x's columns must equal vec's length")
    x, vec = binary_operands(x, vec, "mv")
    return ops.matmul(x, vec)


# ---- norms and distances ---------------------------------------------------------------------------------------


def _float(x: Tensor) -> Tensor:
    return x if (x.dtype.is_floating or x.dtype.is_complex) else ops.cast(x, dtypes.default_float())


def _vector_norm(x: Tensor, p, axes, keepdim: bool) -> Tensor:
    """The p-norm of x's elements over `axes` (None: all), p any number including +-inf and 0."""
    if x.dtype.is_complex:  # every norm reads only the magnitudes
        x = ops.abs(x)
    if p == 0:  # the count of nonzero elements (no gradient, as in Paddle)
        return ops.sum(ops.cast(ops.not_equal(x, 0.0), x.dtype), axes, keepdim)
    if p == 2:
        return ops.sqrt(ops.sum(ops.multiply(x, x), axes, keepdim))
    magnitude = ops.abs(x)
    if p == math.inf:
        return ops.max(magnitude, axes, keepdim)
    if p == -math.inf:
        return ops.min(magnitude, axes, keepdim)
    if p == 1:
        return ops.sum(magnitude, axes, keepdim)
    return ops.pow(ops.sum(ops.pow(magnitude, p), axes, keepdim), 1.0 / p)


def _check_p(p, fn: str):
    if isinstance(p, str):
        if p != "fro":
            raise ValueError(f"{fn}: the only string value of p is 'fro', got {p!r}")
        return 2
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"{fn}: p must be a number or 'fro', got {type(p).__name__}")
    return float(p)


def norm(x, p="fro", axis=None, keepdim=False, name=None) -> Tensor:
    """The p-norm of x over `axis`: 'fro' (the default) and 2 are sqrt(sum |x|^2), inf the largest |x|, -inf
    the smallest, 0 the count of nonzeros, any other p (sum |x|^p)^(1/p).

    Args:
        x (Tensor): the input (integers are computed in the default float dtype).
        p (float|str): the order. axis (int|list|None): one axis, two axes, or None for all elements.
        keepdim (bool): keep the reduced axes as size 1.

    Example:
        >>> paddle.norm(paddle.to_tensor([[3., 4.], [0., 0.]]), p=2, axis=1)    # [5., 0.]
    """
    check_not_empty(check_tensor(x, "norm"), "norm")
    check_accepted(x, "frobenius_norm" if p == "fro" else "p_norm", "x", "norm")  # paddle checks as the op it runs
    p = _check_p(p, "norm")
    if isinstance(axis, (list, tuple)) and len(axis) > 2:
        raise ValueError(f"norm: axis must be an int or a list of one or two ints, got {list(axis)}")
    axes = normalize_axes(axis, x.ndim, "norm")
    return _vector_norm(_float(x), p, axes, check_bool(keepdim, "norm", "keepdim"))


def dist(x, y, p=2, name=None) -> Tensor:
    """The p-norm of x - y over all elements (x and y broadcast), a 0-d tensor.

    Example:
        >>> paddle.dist(paddle.to_tensor([1., 2.]), paddle.to_tensor([4., 6.]))    # 5.
    """
    check_tensor(x, "dist", "x")
    check_tensor(y, "dist", "y")
    p = _check_p(check_number(p, "dist", "p"), "dist")
    x, y = binary_operands(x, y, "dist")
    check_broadcast(x, y, "dist")
    return _vector_norm(_float(ops.subtract(x, y)), p, None, False)


# ---- cross product, inverse, cholesky --------------------------------------------------------------------------


def cross(x, y, axis=9, name=None) -> Tensor:
    """The cross product of 3-vectors along `axis` (x and y have the same shape). The default axis (9, as in
    Paddle, or None) means the first axis of size 3.

    Example:
        >>> paddle.cross(paddle.to_tensor([1., 0., 0.]), paddle.to_tensor([0., 1., 0.]))    # [0., 0., 1.]
    """
    check_tensor(x, "cross", "x")
    check_tensor(y, "cross", "y")
    if x.shape != y.shape:
        raise ValueError(f"cross: x and y must have the same shape, got {x.shape} and {y.shape}")
    if axis is None or axis == 9:
        axis = next((i for i, d in enumerate(x.shape) if d == 3), None)
        if axis is None:
            raise ValueError(f"cross: x of shape {x.shape} has no dimension of size 3")
    axis = normalize_axis(axis, x.ndim, "cross")
    if x.shape[axis] != 3:
        raise ValueError(f"cross: dimension {axis} of x must have size 3, got shape {x.shape}")
    x, y = binary_operands(x, y, "cross")
    return ops.cross(x, y, axis)


def _check_square(x, fn: str) -> Tensor:
    check_tensor(x, fn)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{fn}: x must be a square matrix or a batch of them [..., n, n], got shape {x.shape}")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"{fn}: x must be a float or complex tensor, got {x.dtype.name}")
    return x


def inverse(x, name=None) -> Tensor:
    """The inverse of a square matrix (or of each in a batch [..., n, n]). ValueError when singular.

    Example:
        >>> paddle.inverse(paddle.to_tensor([[2., 0.], [0., 4.]]))    # [[0.5, 0.], [0., 0.25]]
    """
    return ops.inverse(_check_square(x, "inverse"))


def cholesky(x, upper=False, name=None) -> Tensor:
    """The Cholesky factor of a symmetric positive-definite matrix: lower L with L @ L^T = x, or upper U = L^T
    with upper=True. ValueError when x is not positive definite. Batches [..., n, n] work too.

    Example:
        >>> paddle.cholesky(paddle.to_tensor([[4., 2.], [2., 3.]]))    # [[2., 0.], [1., 1.4142]]
    """
    return ops.cholesky(_check_square(x, "cholesky"), check_bool(upper, "cholesky", "upper"))


def _matrix_norm(a: Tensor, p) -> Tensor:
    rows, cols = a.ndim - 2, a.ndim - 1
    if p == "fro":
        return _vector_norm(a, 2, (rows, cols), False)
    if p == "nuc":
        return ops.sum(ops.svdvals(a), (a.ndim - 2,), False)
    pick = ops.max if p > 0 else ops.min
    if builtins.abs(p) == 1:  # the largest (smallest) column sum
        return pick(ops.sum(ops.abs(a), (rows,), False), (rows,), False)
    return pick(ops.sum(ops.abs(a), (cols,), False), (rows,), False)  # +-inf: row sums


def cond(x, p=None, name=None) -> Tensor:
    """The condition number of a matrix (or each in a batch): how much x amplifies relative errors.

    p None or 2 is the ratio of the largest to the smallest singular value (-2: the inverse ratio); p 'fro',
    'nuc', 1, -1, inf or -inf is norm(x, p) * norm(inverse(x), p) for square x.

    Example:
        >>> paddle.linalg.cond(paddle.to_tensor([[4., 2.], [2., 3.]]))    # 3.8664
    """
    check_tensor(x, "cond")
    if x.ndim < 2:
        raise ValueError(f"cond: x must be a matrix or a batch of matrices, got shape {x.shape}")
    x = _float(x)
    if p is None or (not isinstance(p, str) and p in (2, -2)):
        s = ops.svdvals(x)
        last = (s.ndim - 1,)
        big, small = ops.max(s, last, False), ops.min(s, last, False)
        return ops.divide(small, big) if p == -2 else ops.divide(big, small)
    if p not in ("fro", "nuc", 1, -1, math.inf, -math.inf):
        raise ValueError(f"cond: p must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {p!r}")
    _check_square(x, "cond")
    return ops.multiply(_matrix_norm(x, p), _matrix_norm(ops.inverse(x), p))


def histogram(input, bins=100, min=0, max=0, name=None) -> Tensor:  # noqa: A002 (Paddle's names)
    """Counts of input's elements in `bins` equal-width bins over [min, max] (int64, no gradient).

    min == max == 0 uses the data's smallest and largest values; elements outside [min, max] are not counted.

    Example:
        >>> paddle.histogram(paddle.to_tensor([1., 2., 1.]), bins=4, min=0, max=3)    # [0, 2, 1, 0]
    """
    check_tensor(input, "histogram", "input")
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"histogram: bins must be a positive int, got {bins!r}")
    # ints, as paddle 2.6's histogram op holds them (a float range is refused there too)
    lo, hi = check_int(min, "histogram", "min"), check_int(max, "histogram", "max")
    if hi < lo:
        raise ValueError(f"histogram: max must be larger than or equal to min, got min={lo} and max={hi}")
    return ops.histogram(input, int(bins), lo, hi)


# ---- reached through paddle.linalg -----------------------------------------------------------------------------


def det(x, name=None) -> Tensor:
    """The determinant of a square matrix (or of each in a batch [..., n, n]).

    Example:
        >>> paddle.linalg.det(paddle.to_tensor([[2., 1.], [1., 3.]]))    # 5.
    """
    return ops.det(_check_square(x, "det"))


def matrix_power(x, n, name=None) -> Tensor:
    """x multiplied by itself n times (n an int; 0 gives the identity, negative n powers of the inverse).

    Example:
        >>> paddle.linalg.matrix_power(paddle.to_tensor([[1., 1.], [0., 1.]]), 3)    # [[1., 3.], [0., 1.]]
    """
    x = _check_square(x, "matrix_power")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"matrix_power: n must be an int, got {type(n).__name__}")
    n = check_int(n, "matrix_power", "n", -(2**31), 2**31 - 1)  # paddle 2.6's attribute n is an int32
    if n == 0:
        eye = ops.eye(x.shape[-1], x.shape[-1], x.dtype.np)
        return ops.expand(eye, tuple(x.shape))
    base = ops.inverse(x) if n < 0 else x
    result = None
    n = builtins.abs(int(n))
    while n:  # square-and-multiply: about log2(n) products
        if n & 1:
            result = base if result is None else ops.matmul(result, base)
        n >>= 1
        if n:
            base = ops.matmul(base, base)
    return result


def multi_dot(x, name=None) -> Tensor:
    """The product of a list of matrices, x[0] @ x[1] @ ... (the first may be a vector, as may the last).

    Example:
        >>> paddle.linalg.multi_dot([paddle.ones([2, 3]), paddle.ones([3, 4]), paddle.ones([4])])    # [12., 12.]
    """
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"multi_dot: x must be a list of at least 2 Tensors, got {type(x).__name__}")
    if len(x) < 2:
        raise ValueError(f"multi_dot: x must be a list of at least 2 Tensors, got {x!r}")
    out = x[0]
    for t in x[1:]:
        out = matmul(out, t)
    return out


# ---- products --------------------------------------------------------------------------------------------------


def outer(x, y, name=None) -> Tensor:
    """The outer product: x and y are flattened, out[i, j] = x[i] * y[j].

    Example:
        >>> paddle.outer(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 10.0]))  # [[1., 10.], [2., 20.]]
    """
    check_not_empty(check_tensor(x, "outer"), "outer")
    check_not_empty(check_tensor(y, "outer", "y"), "outer", "y")
    x, y = binary_operands(x, y, "outer")
    return ops.multiply(ops.reshape(x, (-1, 1)), ops.reshape(y, (1, -1)))


def inner(x, y, name=None) -> Tensor:
    """The inner product over the last axes: out has shape x.shape[:-1] + y.shape[:-1] (a 0-d operand scales).

    Example:
        >>> paddle.inner(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0]))    # 11.
    """
    check_tensor(x, "inner")
    check_tensor(y, "inner", "y")
    x, y = binary_operands(x, y, "inner")
    if x.ndim == 0 or y.ndim == 0:
        return ops.multiply(x, y)
    k = x.shape[-1]
    if y.shape[-1] != k:
        raise ValueError(f"inner: the last dimensions must match, got shapes {x.shape} and {y.shape}")
    out = ops.matmul(ops.reshape(x, (-1, k)), ops.reshape(y, (-1, k)), False, True)
    return ops.reshape(out, tuple(x.shape[:-1]) + tuple(y.shape[:-1]))


def _tensordot_axes(axes, x: Tensor, y: Tensor) -> tuple[list, list]:
    fn = "tensordot"
    if isinstance(axes, Tensor):
        axes = axes.tolist()
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if not 0 <= n <= min(x.ndim, y.ndim):
            raise ValueError(f"tensordot: axes={n} must be between 0 and the smaller rank ({min(x.ndim, y.ndim)})")
        return list(range(x.ndim - n, x.ndim)), list(range(n))
    if not isinstance(axes, (list, tuple)):
        raise TypeError(f"{fn}: axes must be an int, a list of ints or a pair of lists, got {type(axes).__name__}")
    if all(isinstance(a, (int, np.integer)) for a in axes):
        ax, ay = list(axes), list(axes)  # one list: the same axes of x and y
    else:
        if len(axes) == 1:
            axes = [axes[0], axes[0]]
        if len(axes) != 2:
            raise ValueError(f"{fn}: axes must be a pair of lists, got {axes}")
        ax, ay = list(axes[0]), list(axes[1])
        if len(ax) < len(ay):  # the shorter list is completed from the longer one
            ax += ay[len(ax) :]
        ay += ax[len(ay) :]
    ax = [normalize_axis(_int_arg(a, fn, "axes"), x.ndim, fn) for a in ax]
    ay = [normalize_axis(_int_arg(a, fn, "axes"), y.ndim, fn) for a in ay]
    if len(set(ax)) != len(ax) or len(set(ay)) != len(ay):
        raise ValueError(f"{fn}: axes name a dimension twice: {ax} of x, {ay} of y")
    return ax, ay


def tensordot(x, y, axes=2, name=None) -> Tensor:
    """Sum the products of x and y over the paired axes: axes=n pairs x's last n with y's first n; a pair of
    lists pairs them one by one. The result has x's free axes, then y's.

    Example:
        >>> paddle.tensordot(paddle.ones([2, 3]), paddle.ones([3, 4]), axes=1).shape    # [2, 4]
    """
    check_tensor(x, "tensordot")
    check_tensor(y, "tensordot", "y")
    x, y = binary_operands(x, y, "tensordot")
    ax, ay = _tensordot_axes(axes, x, y)
    for a, b in zip(ax, ay):
        if x.shape[a] != y.shape[b]:
            if x.shape[a] == 1:  # a size-1 axis broadcasts: sum the other operand over its axis first
                y = ops.sum(y, (b,), True)
            elif y.shape[b] == 1:
                x = ops.sum(x, (a,), True)
            else:
                raise ValueError(f"tensordot: x's dimension {a} (size {x.shape[a]}) and y's dimension {b} "
                                 f"(size {y.shape[b]}) must have the same size")  # fmt: skip
    free_x = [i for i in range(x.ndim) if i not in ax]
    free_y = [i for i in range(y.ndim) if i not in ay]
    k = int(np.prod([x.shape[a] for a in ax]))
    xt = ops.reshape(ops.transpose(x, tuple(free_x + ax)), (-1, k))
    yt = ops.reshape(ops.transpose(y, tuple(ay + free_y)), (k, -1))
    out = ops.matmul(xt, yt)
    return ops.reshape(out, tuple(x.shape[i] for i in free_x) + tuple(y.shape[i] for i in free_y))


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None) -> Tensor:
    """The p-norm distance between each row vector of x and each row vector of y.

    Args:
        x (Tensor): [..., P, M], float32 or float64.
        y (Tensor): [..., R, M], the same dtype; the batch dimensions broadcast.
        p (float): the order of the norm, >= 0 (0 counts differing entries, inf takes the largest).
        compute_mode (str): 'use_mm_for_euclid_dist_if_necessary' (the default: for p = 2 with P or R above 25, use
            |x|^2 + |y|^2 - 2 x y^T, fast but less exact), 'use_mm_for_euclid_dist' (always that for p = 2) or
            'donot_use_mm_for_euclid_dist' (always the direct differences).

    Returns:
        Tensor: [..., P, R] (as in Paddle, [P, R] without batch dimensions when P or R is 0).

    Example:
        >>> paddle.cdist(paddle.to_tensor([[0.0, 0.0]]), paddle.to_tensor([[3.0, 4.0], [1.0, 0.0]]))    # [[5., 1.]]
    """
    fn = "cdist"
    check_float_tensor(x, fn)
    check_float_tensor(y, fn, "y")
    if x.dtype is not y.dtype:
        raise TypeError(f"{fn}: x and y must have the same dtype, got {x.dtype.name} and {y.dtype.name}")
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"{fn}: p must be a float or an int, got {type(p).__name__}")
    if compute_mode not in _CDIST_MODES:
        raise ValueError(
            f"{fn}: compute_mode must be one of {', '.join(map(repr, _CDIST_MODES))}, got {compute_mode!r}"
        )
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError(f"{fn}: x and y must have at least 2 dimensions, got shapes {x.shape} and {y.shape}")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"{fn}: x and y must have the same last dimension, got shapes {x.shape} and {y.shape}")
    if not p >= 0:
        raise ValueError(f"{fn}: p must be >= 0, got {p}")
    p = float(p)
    r1, r2 = x.shape[-2], y.shape[-2]
    if r1 == 0 or r2 == 0 or x.shape[-1] == 0:  # no pairs, or no coordinates to differ in
        return creation.zeros([r1, r2], x.dtype)
    if p == 2.0 and (compute_mode == _CDIST_MODES[1] or (compute_mode == _CDIST_MODES[0] and max(r1, r2) > 25)):
        x_norm = ops.sum(ops.multiply(x, x), (x.ndim - 1,), True)  # [..., P, 1]
        y_norm = ops.sum(ops.multiply(y, y), (y.ndim - 1,), True)  # [..., R, 1]
        cross = matmul(x, y, transpose_y=True)
        squared = tensor_math.add(
            tensor_math.add(tensor_math.scale(cross, -2.0), manipulation.moveaxis(y_norm, -1, -2)), x_norm
        )
        return tensor_math.sqrt(tensor_math.clip(squared, min=0.0))
    differences = tensor_math.subtract(manipulation.unsqueeze(x, -2), manipulation.unsqueeze(y, -3))
    return norm(differences, p=p, axis=-1)


def householder_product(x, tau, name=None) -> Tensor:
    """The first n columns of the product H_1 H_2 ... H_k of Householder reflections H_i = I - tau_i v_i v_i^H, where
    v_i is column i of x below the diagonal with 1 on it (the form LAPACK's geqrf returns Q in).

    Args:
        x (Tensor): [..., m, n] with m >= n; float32, float64, complex64 or complex128.
        tau (Tensor): [..., k] with k <= n, x's dtype and batch dimensions.

    Returns:
        Tensor: [..., m, n], x's dtype.

    Example:
        >>> x = paddle.to_tensor([[1.0, 0.0], [0.5, 1.0], [0.25, 0.5]])
        >>> paddle.linalg.householder_product(x, paddle.to_tensor([1.5, 0.5]))
    """
    fn = "householder_product"
    check_tensor(x, fn)
    check_tensor(tau, fn, "tau")
    for arg, t in (("x", x), ("tau", tau)):
        if not (t.dtype.is_floating or t.dtype.is_complex) or t.dtype.name in ("float16", "bfloat16"):
            raise TypeError(f"{fn}: {arg} must be float32, float64, complex64 or complex128, got {t.dtype.name}")
    if x.dtype is not tau.dtype:
        raise TypeError(f"{fn}: x and tau must have the same dtype, got {x.dtype.name} and {tau.dtype.name}")
    if x.ndim < 2 or tau.ndim != x.ndim - 1:
        raise ValueError(f"{fn}: x must have at least 2 dimensions and tau one fewer, got shapes {x.shape} and "
                         f"{tau.shape}")  # fmt: skip
    m, n = x.shape[-2:]
    if m < n or tau.shape[-1] > n or tau.shape[:-1] != x.shape[:-2]:
        raise ValueError(f"{fn}: x must be [..., m, n] with m >= n and tau [..., k] with k <= n and x's batch "
                         f"dimensions, got shapes {x.shape} and {tau.shape}")  # fmt: skip
    batch = tuple(x.shape[:-2])
    q = ops.expand(ops.eye(m, m, x.dtype.np), batch + (m, m))
    for i in range(tau.shape[-1]):  # one reflection per step (k steps, each a vectorized product)
        below = indexing.getitem(x, (Ellipsis, slice(i + 1, None), slice(i, i + 1)))  # [..., m-i-1, 1]
        v = manipulation.concat([creation.ones(list(batch) + [1, 1], x.dtype), below], axis=-2)  # [..., m-i, 1]
        right = indexing.getitem(q, (Ellipsis, slice(i, None)))  # [..., m, m-i]
        t = manipulation.reshape(indexing.getitem(tau, (Ellipsis, slice(i, i + 1))), list(batch) + [1, 1])
        v_h = manipulation.moveaxis(tensor_math.conj(v), -1, -2)
        updated = tensor_math.subtract(right, tensor_math.multiply(matmul(matmul(right, v), v_h), t))
        q = manipulation.concat([indexing.getitem(q, (Ellipsis, slice(0, i))), updated], axis=-1)
    return indexing.getitem(q, (Ellipsis, slice(0, n)))
