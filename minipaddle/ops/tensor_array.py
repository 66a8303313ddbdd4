"""Ops on tensor arrays (Paddle's LoDTensorArray): the list a converted loop appends to while the Program runs.

In dynamic mode Paddle's tensor array is a Python list; in a Program it is a variable that `write_to_array`
grows. minipaddle keeps a Program's tensor array dense: ONE array of shape [n, *element_shape], element k in row k
(so the Executor, the while loop's history and the gradients all handle it as any other value; its elements share
one shape and dtype, which is what stacking them needs anyway). The ops, by Paddle's names:

    create_array(dtype, shape)          an empty array (n = 0) of elements of `shape`
    write_to_array(array, x, i)         a copy of array with x as element i (i == n appends)
    read_from_array(array, i)           element i
    lod_array_length(array)             n, as an int64 Tensor of shape [1]
    tensor_array_to_tensor(array)       the elements stacked or concatenated along `axis` (and each one's size)

The gradients are the adjoint pairs: writing x at i is read back at i (and the array's own rows pass through,
without row i: `write_to_array_grad`); reading at i writes the gradient into zeros at i; stacking unstacks
(`tensor_array_to_tensor_grad`). Each pair is written with the other, so double backward works too.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = [
    "create_array",
    "write_to_array",
    "read_from_array",
    "lod_array_length",
    "write_to_array_grad",
    "tensor_array_to_tensor",
    "tensor_array_to_tensor_grad",
]


def _index(i, n: int, op: str, allow_end: bool) -> int:
    """The position a [1]-shaped (or 0-d) integer index names, checked against the array's length n."""
    a = np.asarray(i)
    if a.size != 1 or a.dtype.kind not in "iu":
        raise TypeError(f"{op}: the index i must be one integer, got dtype {a.dtype} and shape {list(a.shape)}")
    k = int(a.reshape(-1)[0])
    if k < 0 or k > n or (k == n and not allow_end):
        limit = f"0..{n}" if allow_end else (f"0..{n - 1}" if n else "none")
        raise IndexError(f"{op}: index {k} is out of range for a tensor array of {n} elements (valid: {limit})")
    return k


def _element_meta(array: Meta, op: str) -> tuple:
    if len(array.shape) == 0:
        raise ValueError(f"{op}: a tensor array has a leading element axis; got a 0-d value")
    return tuple(array.shape[1:])


def _merged(a: tuple, b: tuple) -> tuple:
    return tuple(x if x == y else -1 for x, y in zip(a, b))


@register
class CreateArray(OpDef):
    """An empty tensor array of `dtype` elements of `shape` (sizes unknown when building are 0 in the empty value:
    the first write gives the array its element shape)."""

    name = "create_array"
    differentiable = False
    saves_inputs = False

    def kernel(self, dtype, shape):
        return np.zeros((0, *[max(int(d), 0) for d in shape]), dtype=dtype)

    def infer_meta(self, dtype, shape) -> Meta:
        return Meta((-1, *[int(d) for d in shape]), dtypes.from_numpy(np.dtype(dtype)))


def create_array(dtype: str, shape) -> Tensor:
    return apply(CreateArray, (), {"dtype": dtype, "shape": tuple(int(d) for d in shape)})


@register
class WriteToArray(OpDef):
    """A copy of `array` with `x` as element i; i == len(array) appends."""

    name = "write_to_array"

    def kernel(self, array, x, i):
        n = array.shape[0]
        k = _index(i, n, self.name, allow_end=True)
        if x.dtype != array.dtype:
            raise TypeError(f"{self.name}: the array holds {array.dtype} elements but x is {x.dtype}")
        if n == 0:  # an empty array takes its element shape from the first write
            return x[None].copy()
        if x.shape != array.shape[1:]:
            raise ValueError(
                f"{self.name}: the array's elements have shape {list(array.shape[1:])} but x has shape "
                f"{list(x.shape)}; minipaddle's tensor arrays hold elements of one shape"
            )
        out = np.concatenate([array, x[None]]) if k == n else array.copy()
        if k < n:
            out[k] = x
        return out

    def grad(self, node, g):
        array, x, i = node.inputs
        return write_to_array_grad(g, array, i), read_from_array(g, i), None

    def infer_meta(self, array: Meta, x: Meta, i: Meta) -> Meta:
        element = _element_meta(array, self.name)
        if array.dtype != x.dtype:
            raise TypeError(f"{self.name}: the array holds {array.dtype.name} elements but x is {x.dtype.name}")
        if len(element) != len(x.shape):
            raise ValueError(
                f"{self.name}: the array's elements have shape {list(element)} but x has shape {list(x.shape)}; "
                "minipaddle's tensor arrays hold elements of one shape"
            )
        return Meta((-1, *_merged(element, tuple(x.shape))), array.dtype)


def write_to_array(array: Tensor, x: Tensor, i: Tensor) -> Tensor:
    return apply(WriteToArray, (array, x, i))


@register
class WriteToArrayGrad(OpDef):
    """The gradient write_to_array passes to its array: g's first len(array) rows, with row i zeroed (that element
    was overwritten). `array` is read for its length only."""

    name = "write_to_array_grad"

    def kernel(self, g, array, i):
        n = array.shape[0]
        k = _index(i, g.shape[0], self.name, allow_end=False)
        out = g[:n].copy()
        if k < n:
            out[k] = 0
        return out

    def grad(self, node, gg):
        g, _, i = node.inputs
        return write_to_array(gg, full_zeros_element(g, i), i), None, None

    def infer_meta(self, g: Meta, array: Meta, i: Meta) -> Meta:
        return Meta((-1, *g.shape[1:]), g.dtype)


def write_to_array_grad(g: Tensor, array: Tensor, i: Tensor) -> Tensor:
    return apply(WriteToArrayGrad, (g, array, i))


def full_zeros_element(array: Tensor, i: Tensor) -> Tensor:
    """Zeros shaped like one element of `array`."""
    return ops.full_like(read_from_array(array, i), 0.0)


@register
class ReadFromArray(OpDef):
    """Element i of the array (a copy)."""

    name = "read_from_array"

    def kernel(self, array, i):
        return array[_index(i, array.shape[0], self.name, allow_end=False)].copy()

    def grad(self, node, g):
        array, i = node.inputs
        return write_to_array(ops.full_like(array, 0.0), g, i), None

    def infer_meta(self, array: Meta, i: Meta) -> Meta:
        return Meta(_element_meta(array, self.name), array.dtype)


def read_from_array(array: Tensor, i: Tensor) -> Tensor:
    return apply(ReadFromArray, (array, i))


@register
class LodArrayLength(OpDef):
    """The number of elements, as an int64 Tensor of shape [1] (Paddle's array_length)."""

    name = "lod_array_length"
    differentiable = False
    saves_inputs = False

    def kernel(self, array):
        return np.asarray([array.shape[0]], dtype=np.int64)

    def infer_meta(self, array: Meta) -> Meta:
        return Meta((1,), dtypes.to_dtype("int64"))


def lod_array_length(array: Tensor) -> Tensor:
    return apply(LodArrayLength, (array,))


def _check_axis(axis: int, rank: int, op: str) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"{op}: axis {axis} is out of range for a result of rank {rank}")
    return axis % rank


@register
class TensorArrayToTensor(OpDef):
    """The elements joined along `axis`: stacked (a new axis) or concatenated; OutIndex holds each element's size
    along axis (int64, as paddle 2.6's dynamic tensor_array_to_tensor gives it)."""

    name = "tensor_array_to_tensor"
    saves_inputs = False
    none_for_unused_outputs = True

    def kernel(self, array, axis, use_stack):
        n = array.shape[0]
        if n == 0:
            raise ValueError(f"{self.name}: the tensor array is empty; there is nothing to stack or concatenate")
        rank = array.ndim if use_stack else array.ndim - 1
        ax = _check_axis(axis, rank, self.name)
        moved = np.moveaxis(array, 0, ax)
        size = array.shape[1 + ax] if 1 + ax < array.ndim else 1
        if not use_stack:
            moved = moved.reshape(moved.shape[:ax] + (n * size,) + moved.shape[ax + 2 :])
        return np.ascontiguousarray(moved), np.full(n, size, dtype=np.int64)

    def grad(self, node, g, g_index):
        if g is None:
            return (None,)
        return (tensor_array_to_tensor_grad(g, node.inputs[0], node.attrs["axis"], node.attrs["use_stack"]),)

    def infer_meta(self, array: Meta, axis, use_stack) -> tuple:
        element = list(_element_meta(array, self.name))
        rank = len(element) + 1 if use_stack else len(element)
        ax = _check_axis(axis, rank, self.name)
        shape = element[:ax] + [-1] + element[ax:] if use_stack else element[:ax] + [-1] + element[ax + 1 :]
        return Meta(tuple(shape), array.dtype), Meta((-1,), dtypes.to_dtype("int64"))


def tensor_array_to_tensor(array: Tensor, axis: int, use_stack: bool) -> tuple:
    return apply(TensorArrayToTensor, (array,), {"axis": axis, "use_stack": bool(use_stack)})


@register
class TensorArrayToTensorGrad(OpDef):
    """tensor_array_to_tensor's gradient: g cut back into the array's rows (`array` is read for its shape only)."""

    name = "tensor_array_to_tensor_grad"

    def kernel(self, g, array, axis, use_stack):
        n = array.shape[0]
        rank = array.ndim if use_stack else array.ndim - 1
        ax = _check_axis(axis, rank, self.name)
        if not use_stack:
            g = g.reshape(g.shape[:ax] + (n, array.shape[1 + ax]) + g.shape[ax + 1 :])
        return np.ascontiguousarray(np.moveaxis(g, ax, 0))

    def grad(self, node, gg):
        out, _ = tensor_array_to_tensor(gg, node.attrs["axis"], node.attrs["use_stack"])
        return out, None

    def infer_meta(self, g: Meta, array: Meta, axis, use_stack) -> Meta:
        return Meta(tuple(array.shape), g.dtype)


def tensor_array_to_tensor_grad(g: Tensor, array: Tensor, axis: int, use_stack: bool) -> Tensor:
    return apply(TensorArrayToTensorGrad, (g, array), {"axis": axis, "use_stack": bool(use_stack)})
