"""paddle.sparse functions of one sparse tensor: element-wise math on the stored values (zeros stay zeros, so the
pattern is kept), and sum, transpose, reshape, slice, cast, coalesce, which rework the coordinates."""

from __future__ import annotations

import builtins

from minipaddle.core.dtype import int8, int16, int32, int64
from minipaddle.sparse import tensor as st
from minipaddle.sparse.tensor import SparseCooTensor, SparseCsrTensor
from minipaddle.tensor import logic as dense_logic
from minipaddle.tensor import math as dense_math
from minipaddle.tensor import special_math as dense_special_math
from minipaddle.tensor.checks import normalize_axis
from minipaddle.tensor.creation import ones, to_tensor, zeros, zeros_like
from minipaddle.tensor.indexing import index_select
from minipaddle.tensor.indexing import slice as tensor_slice
from minipaddle.tensor.logic import logical_and
from minipaddle.tensor.manipulation import cast as tensor_cast
from minipaddle.tensor.manipulation import stack
from minipaddle.tensor.manipulation import transpose as tensor_transpose
from minipaddle.tensor.math import pow as tensor_pow
from minipaddle.tensor.math import sum as tensor_sum
from minipaddle.tensor.search import nonzero

__all__ = [
    "abs",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cast",
    "coalesce",
    "deg2rad",
    "expm1",
    "isnan",
    "log1p",
    "neg",
    "pow",
    "rad2deg",
    "reshape",
    "sin",
    "sinh",
    "slice",
    "sqrt",
    "square",
    "sum",
    "tan",
    "tanh",
    "transpose",
]


def check_sparse(x, fn: str, arg: str = "x"):
    if not isinstance(x, (SparseCooTensor, SparseCsrTensor)):
        raise TypeError(f"paddle.sparse.{fn}: {arg} must be a sparse tensor (COO or CSR), got {type(x).__name__}")
    return x


def with_values(x, values):
    """A sparse tensor with x's pattern and layout and new `values`."""
    if isinstance(x, SparseCsrTensor):
        return SparseCsrTensor(x.crows(), x.cols(), values, x.shape)
    return SparseCooTensor(x.indices(), values, x.shape)


def _on_values(name: str, dense):
    """The sparse form of the dense function paddle.<name>, `dense`."""

    def fn(x, name=None):
        check_sparse(x, name_)
        return with_values(x, dense(x.values()))

    name_ = name
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"""Element-wise {name} of the stored values of a sparse tensor (COO or CSR); zeros are not visited.

    Args:
        x (SparseCooTensor|SparseCsrTensor): the input.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        A sparse tensor of x's layout and pattern.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 0.5], [1.0, 0.0]]).to_sparse_coo(2)
        >>> paddle.sparse.{name}(x).nnz()
        2
    """
    return fn


abs = _on_values("abs", dense_math.abs)  # noqa: A001 (Paddle's name)
asin = _on_values("asin", dense_math.asin)
asinh = _on_values("asinh", dense_math.asinh)
atan = _on_values("atan", dense_math.atan)
atanh = _on_values("atanh", dense_math.atanh)
deg2rad = _on_values("deg2rad", dense_special_math.deg2rad)
expm1 = _on_values("expm1", dense_math.expm1)
isnan = _on_values("isnan", dense_logic.isnan)
log1p = _on_values("log1p", dense_math.log1p)
neg = _on_values("neg", dense_math.neg)
rad2deg = _on_values("rad2deg", dense_special_math.rad2deg)
sin = _on_values("sin", dense_math.sin)
sinh = _on_values("sinh", dense_math.sinh)
sqrt = _on_values("sqrt", dense_math.sqrt)
square = _on_values("square", dense_math.square)
tan = _on_values("tan", dense_math.tan)
tanh = _on_values("tanh", dense_math.tanh)


def pow(x, factor, name=None):  # noqa: A001 (Paddle's name)
    """x ** factor on the stored values of a sparse tensor; `factor` is a Python number.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse_csr()
        >>> paddle.sparse.pow(x, 2).values().numpy().tolist()
        [4.0, 9.0]
    """
    check_sparse(x, "pow")
    if isinstance(factor, bool) or not isinstance(factor, (int, float)):
        raise TypeError(f"paddle.sparse.pow: factor must be an int or float, got {type(factor).__name__}")
    return with_values(x, tensor_pow(x.values(), factor))


def cast(x, index_dtype=None, value_dtype=None, name=None):
    """Cast the indices (crows and cols for CSR) to `index_dtype` and the values to `value_dtype`; None keeps one.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 2.0]]).to_sparse_coo(2)
        >>> y = paddle.sparse.cast(x, "int32", "float64")
        >>> str(y.indices().dtype), str(y.dtype)
        ('paddle.int32', 'paddle.float64')
    """
    check_sparse(x, "cast")
    if index_dtype is not None:
        probe = tensor_cast(zeros([1], "int64"), index_dtype)
        if probe.dtype not in (int8, int16, int32, int64):
            raise TypeError(f"paddle.sparse.cast: index_dtype must be an integer dtype, got {index_dtype!r}")

    def idx(t):
        return t if index_dtype is None else tensor_cast(t, index_dtype)

    values = x.values() if value_dtype is None else tensor_cast(x.values(), value_dtype)
    if isinstance(x, SparseCsrTensor):
        return SparseCsrTensor(idx(x.crows()), idx(x.cols()), values, x.shape)
    return SparseCooTensor(idx(x.indices()), values, x.shape)


def coalesce(x, name=None):
    """Sort the coordinates of a COO tensor row-major and add the values of repeated coordinates.

    Examples:
        >>> x = paddle.sparse.sparse_coo_tensor([[1, 0, 1], [0, 1, 0]], [1.0, 2.0, 3.0], [2, 2])
        >>> paddle.sparse.coalesce(x).values().numpy().tolist()
        [2.0, 4.0]
    """
    if not isinstance(x, SparseCooTensor):
        raise TypeError(f"paddle.sparse.coalesce: x must be a SparseCooTensor, got {type(x).__name__}")
    return st.coalesce(x)


def sum(x, axis=None, dtype=None, keepdim=False, name=None):  # noqa: A001 (Paddle's name)
    """Sum of a sparse tensor's elements, over all of them (axis=None) or along one axis; the result is sparse.

    A COO input gives COO (one stored element for axis=None, shape [1], or [1, ...] with keepdim). A CSR input
    sums all (shape [1, 1] for 2-D) or along the last axis (always keeping it, as Paddle 2.6 does).

    Args:
        x (SparseCooTensor|SparseCsrTensor): the input.
        axis (int, optional): the axis to reduce; None reduces all.
        dtype (str|paddle.dtype, optional): the result's dtype; by default x's (int32 stays int32).
        keepdim (bool, optional): keep the reduced axis with size 1 (COO only).

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0]]).to_sparse_coo(2)
        >>> paddle.sparse.sum(x, axis=1).to_dense().numpy().tolist()
        [1.0, 5.0]
    """
    check_sparse(x, "sum")
    dtype = x.dtype if dtype is None else dtype  # unlike the dense sum, ints keep their width
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
        raise TypeError(f"paddle.sparse.sum: axis must be an int or None, got {type(axis).__name__}")
    values = x.values()
    if isinstance(x, SparseCsrTensor):
        return _sum_csr(x, axis, dtype)
    if axis is None:
        total = tensor_sum(values, dtype=dtype).reshape([1])
        shape = [1] * x.ndim if keepdim else [1]
        return SparseCooTensor(zeros([len(shape), 1], x.indices().dtype), total, shape)
    axis = normalize_axis(axis, x.ndim, "paddle.sparse.sum")
    sparse_dim = x.sparse_dim()
    if axis >= sparse_dim:
        summed = tensor_sum(values, axis=axis - sparse_dim + 1, dtype=dtype, keepdim=keepdim)
        shape = x.shape[:axis] + ([1] if keepdim else []) + x.shape[axis + 1 :]
        return SparseCooTensor(x.indices(), summed, shape)
    if sparse_dim == 1 and not keepdim:
        raise ValueError(
            "paddle.sparse.sum: reducing the only sparse axis of a COO tensor needs keepdim=True or axis=None"
        )
    values = tensor_cast(values, dtype)
    rows = [x.indices()[i] for i in range(sparse_dim)]
    if keepdim:
        rows[axis] = zeros_like(rows[axis])
        shape = x.shape[:axis] + [1] + x.shape[axis + 1 :]
    else:
        del rows[axis]
        shape = x.shape[:axis] + x.shape[axis + 1 :]
    return st.coalesce(SparseCooTensor(stack(rows), values, shape))


def _sum_csr(x, axis, dtype):
    if axis is not None and axis not in (-1, x.ndim - 1):
        raise ValueError(f"paddle.sparse.sum: a SparseCsrTensor sums with axis None or -1, but received axis={axis}")
    coo = st.csr_to_coo(x)
    if axis is None:
        total = tensor_sum(x.values(), dtype=dtype).reshape([1])
        shape = [1] * x.ndim
        return st.coo_to_csr(SparseCooTensor(zeros([x.ndim, 1], "int64"), total, shape))
    return st.coo_to_csr(sum(coo, axis=-1, dtype=dtype, keepdim=True))


def transpose(x, perm, name=None):
    """Permute the dimensions of a sparse tensor (COO entries keep their order). A COO tensor may only
    permute its sparse dimensions among themselves and its dense ones among themselves.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]).to_sparse_csr()
        >>> paddle.sparse.transpose(x, [1, 0]).shape
        [3, 2]
    """
    check_sparse(x, "transpose")
    perm = [int(p) for p in perm]
    if sorted(perm) != list(range(x.ndim)):
        raise ValueError(f"paddle.sparse.transpose: perm must be a permutation of range({x.ndim}), but received {perm}")
    coo = x._as_coo()
    sparse_dim = coo.sparse_dim()
    if sorted(perm[:sparse_dim]) != list(range(sparse_dim)):
        raise ValueError(
            f"paddle.sparse.transpose: the {sparse_dim} sparse dimensions may only be permuted among themselves, "
            f"but received perm={perm}"
        )
    indices = index_select(coo.indices(), to_tensor(perm[:sparse_dim], dtype="int64"), axis=0)
    values = coo.values()
    if sparse_dim < x.ndim:
        values = tensor_transpose(values, [0] + [p - sparse_dim + 1 for p in perm[sparse_dim:]])
    # COO keeps the entries in their order, as Paddle does; CSR sorts them by converting back.
    return st.same_layout(SparseCooTensor(indices, values, [x.shape[p] for p in perm]), x)


def reshape(x, shape, name=None):
    """Give a sparse tensor a new shape with the same number of elements (-1 infers one dimension, 0 copies
    the input's). A COO tensor keeps its dense dimensions: only the sparse part is reshaped.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]).to_sparse_coo(2)
        >>> paddle.sparse.reshape(x, [3, -1]).shape
        [3, 2]
    """
    check_sparse(x, "reshape")
    shape = _resolve_shape(x.shape, shape)
    coo = x._as_coo()
    sparse_dim = coo.sparse_dim()
    dense = x.shape[sparse_dim:]
    if dense and shape[len(shape) - len(dense) :] != dense:
        raise ValueError(
            f"paddle.sparse.reshape: a COO tensor keeps its dense dimensions {dense}, but the new shape is {shape}"
        )
    sparse_shape = shape[: len(shape) - len(dense)]
    flat = st.linearize(tensor_cast(coo.indices(), "int64"), x.shape[:sparse_dim])
    indices = tensor_cast(st.unravel(flat, sparse_shape), coo.indices().dtype)
    return st.same_layout(SparseCooTensor(indices, coo.values(), shape), x)


def _resolve_shape(old, shape) -> list[int]:
    size = 1
    for d in old:
        size *= d
    shape = [old[i] if d == 0 else int(d) for i, d in enumerate(shape)]
    if shape.count(-1) > 1:
        raise ValueError(f"paddle.sparse.reshape: only one dimension can be -1, but received shape {shape}")
    known = 1
    for d in shape:
        known *= d if d != -1 else 1
    if -1 in shape and known and size % known == 0:
        shape[shape.index(-1)] = size // known
    total = 1
    for d in shape:
        total *= d
    if total != size:
        raise ValueError(
            f"paddle.sparse.reshape: the input's size {size} (shape {old}) does not fit the new shape {shape}"
        )
    return shape


def slice(x, axes, starts, ends, name=None):  # noqa: A001 (Paddle's name)
    """Keep the part [starts[i], ends[i]) of a sparse tensor along each axis of `axes` (Python slicing rules:
    negatives count from the end, out-of-range bounds are clipped).

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]).to_sparse_coo(2)
        >>> paddle.sparse.slice(x, [1], [1], [3]).to_dense().numpy().tolist()
        [[1.0, 0.0], [0.0, 3.0]]
    """
    check_sparse(x, "slice")
    axes, starts, ends = list(axes), list(starts), list(ends)
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(
            f"paddle.sparse.slice: axes, starts and ends must have the same length, "
            f"but received {len(axes)}, {len(starts)} and {len(ends)}"
        )
    coo = x._as_coo()
    sparse_dim = coo.sparse_dim()
    indices, values, shape = tensor_cast(coo.indices(), "int64"), coo.values(), x.shape
    keep = ones([coo.nnz()], "bool")
    offsets = [0] * sparse_dim
    for axis, start, end in zip(axes, starts, ends):
        axis = normalize_axis(int(axis), x.ndim, "paddle.sparse.slice")
        begin, stop, _ = builtins.slice(int(start), int(end)).indices(x.shape[axis])
        stop = max(stop, begin)
        shape = shape[:axis] + [stop - begin] + shape[axis + 1 :]
        if axis < sparse_dim:
            keep = logical_and(keep, (indices[axis] >= begin) & (indices[axis] < stop))
            offsets[axis] = begin
        else:
            values = tensor_slice(values, [axis - sparse_dim + 1], [begin], [stop])
    kept = nonzero(keep).flatten()
    indices = index_select(indices, kept, axis=1) - to_tensor(offsets, dtype="int64").unsqueeze(1)
    out = SparseCooTensor(tensor_cast(indices, coo.indices().dtype), index_select(values, kept, 0), shape)
    return st.same_layout(out, x)
