"""Paddle 2.6's remaining Tensor-API names: renorm, polar, cdist, as_strided (paddle.* and Tensor methods);
the Tensor-only methods fill_diagonal_, fill_diagonal_tensor(_), copy_, detach_, to, matrix_power, multi_dot,
householder_product and the storage attributes (strides, offset, data_ptr, layout, is_dense ...).

renorm, polar, cdist and householder_product are compositions of ops (their gradients follow); as_strided and
fill_diagonal have ops of their own (ops/tensor_extra.py).
"""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Place, Tensor
from minipaddle.tensor import attribute, creation, indexing, linalg, manipulation, manipulation_extra, math
from minipaddle.tensor.checks import check_bool, check_float_tensor, check_number, check_tensor, normalize_axis

__all__ = ["renorm", "polar", "cdist", "as_strided"]


def _int(v, fn: str, arg: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    return int(v)


def _int_list(v, fn: str, arg: str) -> list:
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"{fn}: {arg} must be a list or tuple of ints, got {type(v).__name__}")
    return [_int(s, fn, f"{arg}[{i}]") for i, s in enumerate(v)]


# ---- paddle.* functions (also Tensor methods) ---------------------------------------------------------------------


def renorm(x, p, axis, max_norm) -> Tensor:
    """Rescale each slice of x along `axis` whose p-norm exceeds max_norm to have p-norm max_norm.

    The slice x[..., i, ...] (index i on `axis`) is multiplied by max_norm / norm_i when its p-norm norm_i (over all
    the other axes) is larger than max_norm, and left unchanged otherwise.

    Args:
        x (Tensor): float32 or float64, at least 1-D.
        p (float): the order of the norm (> 0).
        axis (int): the axis whose slices are renormalized (negative counts from the end).
        max_norm (float): the largest p-norm a slice keeps.

    Returns:
        Tensor: x's shape and dtype.

    Example:
        >>> paddle.renorm(paddle.to_tensor([[3.0, 4.0], [0.3, 0.4]]), p=2, axis=0, max_norm=1.0)
        >>> # [[0.6, 0.8], [0.3, 0.4]]
    """
    fn = "renorm"
    check_float_tensor(x, fn)
    p = float(check_number(p, fn, "p"))
    max_norm = float(check_number(max_norm, fn, "max_norm"))
    if x.ndim == 0:
        raise ValueError(f"{fn}: x must have at least 1 dimension to take slices along axis, got a 0-D tensor")
    if not 0 < p < np.inf:
        raise ValueError(f"{fn}: p must be a positive finite number, got {p}")
    axis = normalize_axis(axis, x.ndim, fn)
    others = tuple(i for i in range(x.ndim) if i != axis)
    norm = ops.pow(ops.sum(ops.pow(ops.abs(x), p), others, True), 1.0 / p)
    too_large = ops.greater_than(norm, ops.full_like(norm, max_norm, None))
    safe = ops.where(too_large, norm, ops.full_like(norm, 1.0, None))  # no division by a small, unused norm
    factor = ops.where(too_large, ops.divide(ops.full_like(norm, max_norm, None), safe), ops.full_like(norm, 1, None))
    return ops.multiply(x, factor)


def polar(abs, angle, name=None) -> Tensor:  # noqa: A002 (Paddle's names)
    """The complex tensor with magnitude `abs` and phase `angle`: abs * (cos(angle) + i sin(angle)).

    Args:
        abs (Tensor): float32 or float64 magnitudes.
        angle (Tensor): float32 or float64 phases in radians (broadcast against abs).

    Returns:
        Tensor: complex64 for float32 inputs, complex128 when either is float64.

    Example:
        >>> paddle.polar(paddle.to_tensor([2.0]), paddle.to_tensor([np.pi / 2]))    # [~0+2j]
    """
    check_float_tensor(abs, "polar", "abs")
    check_float_tensor(angle, "polar", "angle")
    return attribute.complex(math.multiply(abs, math.cos(angle)), math.multiply(abs, math.sin(angle)))


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
        cross = linalg.matmul(x, y, transpose_y=True)
        squared = math.add(math.add(math.scale(cross, -2.0), manipulation_extra.moveaxis(y_norm, -1, -2)), x_norm)
        return math.sqrt(math.clip(squared, min=0.0))
    differences = math.subtract(manipulation.unsqueeze(x, -2), manipulation.unsqueeze(y, -3))
    return linalg.norm(differences, p=p, axis=-1)


def as_strided(x, shape, stride, offset=0, name=None) -> Tensor:
    """A view of x's storage with the given shape and strides: element [i0, i1, ...] of the result is element
    offset/itemsize + i0*stride[0] + i1*stride[1] + ... of x read in row-major order. It shares x's storage
    (writes to either are seen by both); elements may be read more than once, and their gradients add up.

    Args:
        x (Tensor): the tensor to view.
        shape (list[int]): the result's shape.
        stride (list[int]): the step in elements along each dimension (non-negative, one per dimension of shape).
        offset (int): where the view starts, in BYTES (as Paddle's storage offset): a multiple of x's element size.

    Returns:
        Tensor: `shape`, x's dtype.

    Example:
        >>> x = paddle.arange(6, dtype='float32')
        >>> paddle.as_strided(x, [2, 3], [1, 1])    # [[0, 1, 2], [1, 2, 3]]
    """
    fn = "as_strided"
    check_tensor(x, fn)
    shape, stride = _int_list(shape, fn, "shape"), _int_list(stride, fn, "stride")
    offset = _int(offset, fn, "offset")
    if len(shape) != len(stride):
        raise ValueError(f"{fn}: shape and stride must have the same length, got {shape} and {stride}")
    if any(s < 0 for s in shape) or any(s < 0 for s in stride):
        raise ValueError(f"{fn}: shape and stride must be non-negative, got {shape} and {stride}")
    itemsize = x.element_size()
    if offset < 0 or offset % itemsize:
        raise ValueError(f"{fn}: offset is in bytes and must be a non-negative multiple of the element size "
                         f"{itemsize}, got {offset}")  # fmt: skip
    start = offset // itemsize
    if 0 not in shape:
        last = start + sum((n - 1) * s for n, s in zip(shape, stride))
        if last >= x.size:
            raise ValueError(f"{fn}: the view with shape {shape}, stride {stride} and offset {offset} reads element "
                             f"{last}, past the {x.size} elements of x")  # fmt: skip
    return ops.as_strided(x, shape, stride, start)


# ---- Tensor-only methods -----------------------------------------------------------------------------------------


def _write_back(x, compute, name):
    from minipaddle.tensor.inplace import write_back  # (inplace.py imports this module for renorm_)

    return write_back(x, compute, name)


def fill_diagonal_(x, value, offset=0, wrap=False, name=None) -> Tensor:
    """Fill x's diagonal with `value` in place (the filled elements get no gradient); returns x.

    For a matrix, the diagonal moved by `offset` (> 0 above); a tall matrix with wrap=True gets the diagonal again
    below each square block, as numpy.fill_diagonal. For more dimensions, the elements [i, i, ..., i].

    Example:
        >>> paddle.zeros([2, 3]).fill_diagonal_(1.0, offset=1)    # [[0, 1, 0], [0, 0, 1]]
    """
    fn = "fill_diagonal_"
    check_tensor(x, fn)
    value = check_number(value, fn, "value")
    offset, wrap = _int(offset, fn, "offset"), check_bool(wrap, fn, "wrap")
    if x.ndim < 2:
        raise ValueError(f"{fn}: x must have at least 2 dimensions, got shape {x.shape}")
    return _write_back(x, lambda old: ops.fill_diagonal(old, value, offset, wrap), fn)


def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None) -> Tensor:
    """x with its diagonal over dims (dim1, dim2), moved by `offset`, replaced by y.

    y has x's shape without dim1 and dim2, followed by the diagonal's length (the shape of
    paddle.diagonal(x, offset, dim1, dim2)), and x's dtype.

    Example:
        >>> paddle.zeros([2, 3]).fill_diagonal_tensor(paddle.to_tensor([1.0, 2.0]))    # [[1, 0, 0], [0, 2, 0]]
    """
    return _fill_diagonal_tensor(x, y, offset, dim1, dim2, "fill_diagonal_tensor")


def _fill_diagonal_tensor(x, y, offset, dim1, dim2, fn: str) -> Tensor:
    check_tensor(x, fn)
    check_tensor(y, fn, "y")
    if x.ndim < 2:
        raise ValueError(f"{fn}: x must have at least 2 dimensions, got shape {x.shape}")
    offset = _int(offset, fn, "offset")
    d1, d2 = normalize_axis(dim1, x.ndim, fn), normalize_axis(dim2, x.ndim, fn)
    if d1 == d2:
        raise ValueError(f"{fn}: dim1 and dim2 must differ, got {dim1} and {dim2}")
    if y.dtype is not x.dtype:
        raise TypeError(f"{fn}: y must have x's dtype {x.dtype.name}, got {y.dtype.name}")
    want = manipulation_extra.diagonal(x, offset, d1, d2).shape
    if y.shape != want:
        raise ValueError(f"{fn}: y must have the diagonal's shape {want}, got {y.shape}")
    return manipulation_extra.diagonal_scatter(x, y, offset, d1, d2)


def fill_diagonal_tensor_(x, y, offset=0, dim1=0, dim2=1, name=None) -> Tensor:
    """In-place fill_diagonal_tensor: writes y onto x's diagonal; returns x."""
    fn = "fill_diagonal_tensor_"
    return _write_back(x, lambda old: _fill_diagonal_tensor(old, y, offset, dim1, dim2, fn), fn)


def copy_(self, src, blocking) -> None:
    """Copy src's values into this tensor (Paddle's `x.copy_(src, blocking)`); returns None, as Paddle.

    Not recorded by autograd (this tensor keeps its own history, as in Paddle). With src's shape, the values are
    written into this tensor's storage, so its views see them; with another shape, this tensor takes a copy of src
    with src's shape. blocking is accepted for the GPU's sake and means nothing on the CPU.
    """
    fn = "copy_"
    check_tensor(src, fn, "src")
    check_bool(blocking, fn, "blocking")
    if src.dtype is not self.dtype:
        raise TypeError(f"{fn}: src must have this tensor's dtype {self.dtype.name}, got {src.dtype.name}")
    if src.shape == self.shape:
        with no_grad():
            apply_inplace(get_op("assign"), self, (src,))
    else:  # Paddle resizes the tensor to src's shape: new storage, leaving the old views behind
        self._data = np.array(src._data)
        self._version = [self._version[0] + 1]


def detach_(self) -> Tensor:
    """Cut this tensor from the graph in place: it becomes a leaf with stop_gradient=True; returns it."""
    self._node, self._out_index, self._view = None, 0, None
    self.stop_gradient = True
    return self


_TO_DTYPES = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "complex64",
              "complex128", "bool")  # fmt: skip


def to(self, *args, **kwargs) -> Tensor:
    """Convert this tensor's dtype (and device: only the CPU exists here) IN PLACE, returning the tensor itself,
    as Paddle 2.6 does. Three forms:

        x.to(dtype, blocking=None)
        x.to(device, dtype=None, blocking=None)
        x.to(other, blocking=None)     # other's dtype

    The conversion is not recorded by autograd (the tensor keeps its history, as in Paddle).

    Example:
        >>> x = paddle.to_tensor([1, 2, 3])
        >>> x.to('float32') is x    # True; x is now float32
    """
    fn = "Tensor.to"
    if not 0 < len(args) + len(kwargs) <= 3:
        raise TypeError(f"{fn}: expected 1 to 3 arguments ((dtype, blocking), (device, dtype, blocking) or "
                        f"(other, blocking)), got {len(args) + len(kwargs)}")  # fmt: skip
    unknown = set(kwargs) - {"device", "dtype", "blocking", "other"}
    if unknown:
        raise TypeError(f"{fn}: got an unexpected keyword argument {sorted(unknown)[0]!r}")
    device = dtype = None
    blocking = kwargs.get("blocking")
    if args:
        first, rest = args[0], args[1:]
        if isinstance(first, Tensor):
            dtype = first.dtype
        elif isinstance(first, (dtypes.DType, np.dtype)) or (isinstance(first, str) and first.lower() in _TO_DTYPES):
            dtype = first
        else:
            device = first
            dtype = rest[0] if rest else kwargs.get("dtype")
            rest = rest[1:]
        if rest:
            blocking = rest[0]
    else:
        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        if device is None and dtype is None and kwargs.get("other") is not None:
            dtype = check_tensor(kwargs["other"], fn, "other").dtype
    if blocking is not None:
        check_bool(blocking, fn, "blocking")
    if device is not None:
        _check_cpu(device, fn)
    if dtype is not None:
        target = dtypes.to_dtype(dtype)
        if target is not self.dtype:  # the cast values replace the storage (new storage: old views left behind)
            self._data = manipulation.cast(self.detach(), target)._data
            self._version = [self._version[0] + 1]
    return self


def _check_cpu(device, fn: str) -> None:
    if isinstance(device, Place):
        if not device.is_cpu_place():
            raise ValueError(f"{fn}: minipaddle runs on the CPU only, got the place {device}")
        return
    if not isinstance(device, str):
        raise ValueError(f"{fn}: device must be a str or paddle.CPUPlace(), got {type(device).__name__}")
    if device.lower().split(":")[0] != "cpu":
        raise ValueError(f"{fn}: minipaddle runs on the CPU only, so the device must be 'cpu', got {device!r}")


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
        v_h = manipulation_extra.moveaxis(math.conj(v), -1, -2)
        updated = math.subtract(right, math.multiply(linalg.matmul(linalg.matmul(right, v), v_h), t))
        q = manipulation.concat([indexing.getitem(q, (Ellipsis, slice(0, i))), updated], axis=-1)
    return indexing.getitem(q, (Ellipsis, slice(0, n)))


# ---- storage attributes of a dense CPU tensor (as Paddle 2.6 reports them) ---------------------------------------


def _strides(self) -> list:
    """The step in elements between neighbours along each dimension (views such as x.T have others)."""
    return [s // self._data.itemsize for s in self._data.strides]


def get_strides(self) -> list:
    """The strides in elements, as the `strides` attribute."""
    return _strides(self)


def _offset(self) -> int:
    """Where this tensor starts in its storage, in bytes (nonzero for views such as x[1])."""
    root = self._data
    while isinstance(root.base, np.ndarray):
        root = root.base
    return int(self._data.__array_interface__["data"][0] - root.__array_interface__["data"][0])


def data_ptr(self) -> int:
    """The address of the tensor's first element."""
    return int(self._data.__array_interface__["data"][0])


def is_same_shape(self, y) -> bool:
    """Whether y has this tensor's shape."""
    if not isinstance(y, Tensor):
        raise ValueError(f"Tensor.is_same_shape: y must be a Tensor, got {type(y).__name__}")
    return self.shape == y.shape


def is_dense(self) -> bool:
    """True: minipaddle tensors are dense."""
    return True


def _false(self) -> bool:
    return False


def _layout(self) -> str:
    """The data layout Paddle reports for a dense tensor: 'NCHW'."""
    return "NCHW"


METHODS = {
    "fill_diagonal_": fill_diagonal_,
    "fill_diagonal_tensor": fill_diagonal_tensor,
    "fill_diagonal_tensor_": fill_diagonal_tensor_,
    "copy_": copy_,
    "detach_": detach_,
    "to": to,
    "matrix_power": linalg.matrix_power,
    "multi_dot": linalg.multi_dot,
    "householder_product": householder_product,
    "get_strides": get_strides,
    "data_ptr": data_ptr,
    "is_same_shape": is_same_shape,
    "is_dense": is_dense,
    # a dense tensor on one CPU is none of these
    "is_dist": _false,
    "is_sparse": _false,
    "is_sparse_coo": _false,
    "is_sparse_csr": _false,
    "is_selected_rows": _false,
}
PROPERTIES = {"strides": property(_strides), "offset": property(_offset), "layout": property(_layout)}
