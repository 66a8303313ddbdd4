"""Tensor arrays: paddle.tensor.create_array, array_write, array_read, array_length, tensor_array_to_tensor.

As in Paddle 2.6, a tensor array is a plain Python list of Tensors in dynamic mode; these functions then only
index the list. In static mode (a Program being built, and code converted by to_static) it is a `TensorArray`:
a handle on the Program's current array value, which `array_write` (and `.append`, `.pop`) replaces by the new
value the op gives, so the handle behaves as Paddle's LoDTensorArray variable, updated in place. The values are
dense (ops/tensor_array.py): the elements of one array share one shape and dtype.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = ["TensorArray", "create_array", "array_write", "array_read", "array_length", "tensor_array_to_tensor"]


class TensorArray:
    """A tensor array in a Program (static mode): `var` is its current value, an array of shape [n, *element] (None
    while it is empty and no element has told its shape). `append`, `pop`, `[i]` and `len()` in converted code
    work on it as on a list; `paddle.stack` / `paddle.concat` join its elements."""

    def __init__(self, dtype=None, var=None) -> None:
        self.dtype = None if dtype is None else dtypes.to_dtype(dtype)
        self.var = var
        if var is not None:
            self.dtype = var.dtype

    @property
    def element_shape(self) -> list | None:
        return None if self.var is None else list(self.var.shape[1:])

    def _ready_for(self, x: Tensor) -> None:
        """Make the empty array's value from the first element (its shape; its dtype unless one was given)."""
        if self.var is None:
            dtype = self.dtype if self.dtype is not None else x.dtype
            self.var = ops.create_array(dtype.np.name, tuple(x.shape))
            self.dtype = dtype

    def length(self) -> Tensor:
        """The number of elements: an int64 Tensor of shape [1] (its value is known when the Program runs)."""
        if self.var is None:
            return ops.assign(Tensor(np.zeros([1], np.int64)))
        return ops.lod_array_length(self.var)

    def write(self, x: Tensor, i) -> TensorArray:
        x = _as_element(x, self.dtype, "array_write")
        self._ready_for(x)
        if x.dtype != self.dtype:
            raise TypeError(f"array_write: the array holds {self.dtype.name} elements but x is {x.dtype.name}")
        self.var = ops.write_to_array(self.var, x, _as_index(i, "array_write"))
        return self

    def append(self, x) -> None:
        """`array.append(x)`: x written at the end (Paddle's Variable.append of a LoDTensorArray)."""
        x = _as_element(x, self.dtype, "append")
        self._ready_for(x)
        self.write(x, self.length())

    def extend(self, values) -> None:
        """`array.extend(values)`: each Tensor of the list or tuple `values` appended, in order."""
        if not isinstance(values, (list, tuple)):
            raise TypeError(f"extend: a tensor array is extended by a list or tuple of Tensors, got "
                            f"{type(values).__name__}")  # fmt: skip
        for v in values:
            self.append(v)

    def pop(self, index: int = -1) -> Tensor:
        """`array.pop(index=-1)`: element `index` (a Python int, as in Paddle), removed from the array."""
        if isinstance(index, Tensor):
            raise TypeError("pop: the index of a tensor array's pop must be a Python int (as in Paddle), got a Tensor")
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f"pop: the index must be an int, got {type(index).__name__}")
        self._need_value("pop")
        index = int(index)
        item = self[index]
        if index == -1:
            self.var = self.var[:-1]
        else:
            self.var = ops.concat([self.var[:index], self.var[index + 1 :]], 0)
        return item

    def __getitem__(self, i):
        self._need_value("indexing")
        if isinstance(i, Tensor):
            return ops.read_from_array(self.var, _as_index(i, "array_read"))
        if isinstance(i, (int, np.integer)):  # (negative: counted from the end, known when the Program runs)
            k = _as_index(int(i), "array_read")
            return ops.read_from_array(self.var, ops.add(self.length(), k) if i < 0 else k)
        raise TypeError(f"a tensor array is indexed by an int or an int Tensor, got {type(i).__name__}")

    def _need_value(self, what: str) -> None:
        if self.var is None:
            raise IndexError(f"{what} of an empty tensor array")

    def __len__(self):
        raise TypeError(
            "the length of a tensor array is known only when the Program runs: use paddle.tensor.array_length(a) "
            "(len(a) in code converted by to_static does this)"
        )

    def __iter__(self):
        raise TypeError(
            "a tensor array cannot be iterated while the Program is built; index it with a Tensor inside a loop "
            "(a `for x in a` in code converted by to_static does this)"
        )

    def __repr__(self) -> str:
        what = "empty" if self.var is None else f"value {self.var.name}, elements {self.element_shape}"
        return f"TensorArray({self.dtype.name if self.dtype else 'dtype unknown'}, {what})"


def _as_element(x, dtype, fn: str) -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float, np.number, np.ndarray)):  # numbers, as Paddle's to_static mode allows
        np_dtype = dtype.np if dtype is not None else None
        return ops.assign(Tensor(np.asarray(x, dtype=np_dtype)))
    raise TypeError(f"{fn}: a tensor array holds Tensors, got {type(x).__name__}")


def _as_index(i, fn: str) -> Tensor:
    if isinstance(i, Tensor):
        if i.dtype.np.kind not in "iu":
            raise TypeError(f"{fn}: the index i must be an integer Tensor, got {i.dtype.name}")
        return i
    if isinstance(i, (int, np.integer)):
        return ops.assign(Tensor(np.asarray([int(i)], np.int64)))
    raise TypeError(f"{fn}: the index i must be an int64 Tensor of shape [1], got {type(i).__name__}")


def _dynamic_index(i, fn: str) -> int:
    if not isinstance(i, Tensor):
        raise TypeError(f"{fn}: the index i must be a Tensor in dynamic mode, got {type(i).__name__}")
    if i.shape not in ([1], []):
        raise ValueError(f"{fn}: the index i must have shape [1], got {i.shape}")
    return int(i._data.reshape(-1)[0])


def _check_list(array, fn: str) -> list:
    if not isinstance(array, list):
        raise TypeError(f"{fn}: in dynamic mode the array is a Python list, got {type(array).__name__}")
    return array


def create_array(dtype, initialized_list=None):
    """An array of Tensors, for array_write / array_read (a Python list in dynamic mode).

    Args:
        dtype (str|paddle.dtype): the elements' data type (float32, float64, int32, int64 or bool).
        initialized_list (list|tuple, optional): Tensors the array starts with.

    Returns:
        list|TensorArray: a list in dynamic mode, a TensorArray in static mode.

    Examples:
        .. code-block:: python

            >>> arr = paddle.tensor.create_array('float32')
            >>> arr = paddle.tensor.array_write(paddle.ones([2]), paddle.to_tensor([0]), arr)
    """
    dtype = dtypes.to_dtype(dtype)
    items = []
    if initialized_list is not None:
        if not isinstance(initialized_list, (list, tuple)):
            raise TypeError(
                f"create_array: initialized_list must be a list or tuple, got {type(initialized_list).__name__}"
            )
        items = list(initialized_list)
    for k, v in enumerate(items):
        if not isinstance(v, Tensor):
            raise TypeError(f"create_array: every value of initialized_list must be a Tensor, got {type(v).__name__} "
                            f"at {k}")  # fmt: skip
    if not STATE.static_mode:
        return items
    array = TensorArray(items[0].dtype if items else dtype)
    for v in items:
        array.append(v)
    return array


def array_write(x, i, array=None):
    """Write x at position i of the array (i == its length appends) and return the array.

    Args:
        x (Tensor): the element.
        i (Tensor): an int64 Tensor of shape [1], at most the array's length.
        array (list|TensorArray, optional): the array (None: a new one).

    Returns:
        list|TensorArray: the array, changed in place.
    """
    if not STATE.static_mode:
        if not isinstance(x, Tensor):
            raise TypeError(f"array_write: x must be a Tensor in dynamic mode, got {type(x).__name__}")
        k = _dynamic_index(i, "array_write")
        array = [] if array is None else _check_list(array, "array_write")
        if not 0 <= k <= len(array):
            raise IndexError(f"array_write: index {k} is greater than the length of the array ({len(array)})")
        if k < len(array):
            array[k] = x
        else:
            array.append(x)
        return array
    if not isinstance(x, Tensor):
        raise TypeError(f"array_write: x must be a Variable, got {type(x).__name__}")
    if array is None:
        array = TensorArray(x.dtype)
    if not isinstance(array, TensorArray):
        raise TypeError(f"array_write: array must be a tensor array (create_array), got {type(array).__name__}")
    return array.write(x, i)


def array_read(array, i):
    """The element at position i of the array.

    Args:
        array (list|TensorArray): the array.
        i (Tensor): an int64 Tensor of shape [1].

    Returns:
        Tensor: the element.
    """
    if not STATE.static_mode:
        k = _dynamic_index(i, "array_read")
        return _check_list(array, "array_read")[k]
    if not isinstance(array, TensorArray):
        raise TypeError(f"array_read: array must be a tensor array (create_array), got {type(array).__name__}")
    if not isinstance(i, Tensor):
        raise TypeError(f"array_read: i must be an int64 Tensor of shape [1], got {type(i).__name__}")
    return array[i]


def array_length(array):
    """The number of elements of the array: an int in dynamic mode (as Paddle), an int64 Tensor of shape [1] in
    static mode."""
    if not STATE.static_mode:
        return len(_check_list(array, "array_length"))
    if not isinstance(array, TensorArray):
        raise TypeError(f"array_length: array must be a tensor array (create_array), got {type(array).__name__}")
    return array.length()


def tensor_array_to_tensor(input, axis=1, use_stack=False, name=None):
    """The elements of a tensor array joined along `axis`: concatenated, or stacked when use_stack.

    Args:
        input (list|TensorArray): the array.
        axis (int, optional): the axis to join along. Default 1.
        use_stack (bool, optional): stack along a new axis instead of concatenating. Default False.

    Returns:
        tuple: (the joined Tensor, an int64 Tensor of each element's size along axis).
    """
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"tensor_array_to_tensor: axis must be an int, got {type(axis).__name__}")
    if isinstance(input, TensorArray):
        input._need_value("tensor_array_to_tensor")
        return ops.tensor_array_to_tensor(input.var, int(axis), bool(use_stack))
    if not isinstance(input, list) or not input:
        raise TypeError(
            f"tensor_array_to_tensor: input must be a non-empty list of Tensors or a tensor array, got {input!r}"
        )
    for k, t in enumerate(input):
        if not isinstance(t, Tensor):
            raise TypeError(f"tensor_array_to_tensor: input[{k}] must be a Tensor, got {type(t).__name__}")
    rank = input[0].ndim + (1 if use_stack else 0)
    if not -rank <= axis < rank:
        raise ValueError(f"tensor_array_to_tensor: axis {axis} is out of range for a result of rank {rank}")
    joined = ops.stack(input, axis % rank) if use_stack else ops.concat(input, axis % rank)
    sizes = [t.shape[axis] if -t.ndim <= axis < t.ndim else 1 for t in input]
    return joined, Tensor(np.asarray(sizes, np.int64))
