"""The Tensor: a numpy array plus what autograd needs to know about it.

A Tensor holds
- `_data`: the numpy array (only kernels compute with it; see DESIGN.md, wall 1);
- `stop_gradient`: True when no gradient should flow into it (Paddle's spelling of `not requires_grad`);
- `grad`: the accumulated gradient, itself a Tensor (paddle 2.6), or None;
- `_node`, `_out_index`: the GradNode that made it and which of that node's outputs it is (None for leaves);
- `_version`: a one-element list shared with every view of the same storage; in-place ops bump it, and backward
  compares it with the value saved when the tensor was used, to refuse a gradient computed from changed data;
- `_view`: for a view (the output of an op with `view = True`), a `View` record (core/view.py): what it views and
  how, and the storage version its gradient history belongs to (core/dispatch.py and core/inplace.py keep it in step).

Methods that compute (`+`, `.sum()`, `.backward()`, ...) are bound onto Tensor by `minipaddle/tensor_methods.py`,
above the core, so this file imports nothing that builds on it.
"""

from __future__ import annotations

import copy

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.place import CPU, CPUPlace, Place  # noqa: F401  (Place and CPUPlace are also read from here)
from minipaddle.core.state import unique_name


class Tensor:
    """A multi-dimensional array that can record how it was computed. Create one with `paddle.to_tensor`."""

    __slots__ = (
        "_data",
        "stop_gradient",
        "_grad",
        "_node",
        "_out_index",
        "_version",
        "_view",
        "__dict__",
        "__weakref__",
    )

    # numpy defers to our operators (x_numpy + tensor -> Tensor.__radd__) instead of broadcasting element-wise.
    __array_priority__ = 100

    # What most tensors never change, as class-level defaults: a tensor that sets one keeps its own value in its
    # __dict__, and the others pay nothing for it (a Tensor is made for every op's output).
    _name = None  # named lazily (see `name`)
    persistable = False
    _hooks = None  # {key: hook(grad)} from register_hook on a leaf
    _backward_hooks = None  # {key: hook()} called once the leaf's gradient is accumulated (autograd.py)
    _retain_grads = False
    _grad_cleared = False  # clear_grad's zeros not yet written into .grad (tensor_methods.clear_grad): see `grad`
    # A gradient whose array holds no -0.0 (a matrix product's result: numpy's sums start from +0.0), so 0 + it has
    # its own bits: a cleared .grad may take the array as its storage instead of adding it to the zeros (autograd)
    _no_negative_zero = False
    _selected_rows = None  # a sparse gradient's rows, a bool mask (Paddle's SelectedRows: ops/nn_common.py)

    def __init__(self, data: np.ndarray, stop_gradient: bool = True, node=None, out_index: int = 0, version=None):
        self._data = data
        self.stop_gradient = stop_gradient
        self._grad = None
        self._node = node
        self._out_index = out_index
        self._version = [0] if version is None else version
        self._view = None

    # ---- what the tensor is ----

    @property
    def shape(self) -> list[int]:
        return list(self._data.shape)

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.from_numpy(self._data.dtype)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return int(self._data.size)

    @property
    def place(self) -> Place:
        return CPU

    @property
    def name(self) -> str:
        if self._name is None:  # named lazily: most tensors are never asked
            self._name = unique_name("generated_tensor")
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value

    @property
    def is_leaf(self) -> bool:
        """A leaf was made by the user, not by an op that recorded a gradient node."""
        return self._node is None

    @property
    def inplace_version(self) -> int:
        """How many times this tensor's storage was changed in place."""
        return self._version[0]

    @property
    def grad_fn(self):
        """The GradNode that produced this tensor, or None for a leaf: the entry to the autograd graph."""
        return self._node

    # ---- the gradient ----

    @property
    def grad(self):
        """The gradient accumulated by backward (a Tensor), or None before any backward reached this tensor."""
        if self._grad_cleared:  # zeros clear_grad left unwritten (no one held the gradient then): written now
            self.write_cleared_grad()
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"Tensor.grad: expected a Tensor or None, got {type(value).__name__}")
        self._grad_cleared = False
        self._grad = value

    def write_cleared_grad(self) -> None:
        """Write the zeros of a clear_grad that left them unwritten into `.grad`'s storage."""
        self._grad_cleared = False
        self._grad._data.fill(0)
        self._grad._bump_version()

    def _bump_version(self) -> None:
        """Record an in-place change; every view sharing this storage sees the new version."""
        self._version[0] += 1

    # ---- leaving the framework ----

    def numpy(self) -> np.ndarray:
        """The data as a numpy array (shared storage, as in Paddle's CPU tensors)."""
        return self._data

    def __array__(self, dtype=None, copy=None):
        if dtype is not None and dtype != self._data.dtype:
            return self._data.astype(dtype)
        return self._data.copy() if copy else self._data

    def item(self, *args):
        """The value of a one-element tensor as a Python number (or of the element at `args`)."""
        if args:
            try:
                return self._data.item(*args)
            except (IndexError, OverflowError, TypeError):  # numpy says it without naming the call
                raise IndexError(f"Tensor.item: index {list(args)} is out of range for shape {self.shape}") from None
        if self._data.size != 1:
            raise ValueError(
                f"Tensor.item: only a tensor with one element can be converted to a Python scalar, "
                f"but this one has shape {self.shape}"
            )
        return self._data.item()

    def tolist(self):
        return self._data.tolist()


class Parameter(Tensor):
    """A trainable Tensor owned by a Layer (Paddle's EagerParamBase): stop_gradient=False, persistable=True.

    `trainable` is the flip side of stop_gradient (setting one sets the other). `optimize_attr` holds the
    per-parameter learning-rate factor from ParamAttr; `regularizer` and `need_clip` are read by optimizers.
    """

    __slots__ = ()

    def __init__(self, data: np.ndarray, name: str | None = None, trainable: bool = True) -> None:
        super().__init__(data, stop_gradient=not trainable)
        self.persistable = True
        self._name = name
        self.optimize_attr = {"learning_rate": 1.0}
        self.regularizer = None
        self.need_clip = True
        self.do_model_average = None

    def initialize(self) -> None:
        """Run the initializer a LazyGuard deferred (nn/initializer/lazy_init.py); once only."""
        init = self.__dict__.pop("_init_func", None)
        if init is None:
            raise RuntimeError(f"initialize: parameter {self.name} has no deferred initializer (it was not made "
                               "under paddle.LazyGuard, or initialize() already ran)")  # fmt: skip
        init(self)

    def _is_initialized(self) -> bool:
        """False for a parameter made under LazyGuard until initialize() runs."""
        return "_init_func" not in self.__dict__

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self.stop_gradient = not value

    def __deepcopy__(self, memo):
        """A new Parameter with copied values and attributes (not the gradient), named `<name>_deepcopy_<n>`
        as paddle 2.6 names it: `copy.deepcopy(layer)` gives every parameter a fresh name."""
        new = Parameter(self._data.copy(), self.name + unique_name("_deepcopy"), self.trainable)
        memo[id(self)] = new
        # (not the name: the copy has its own; not the gradient hooks: they belong to the original's training; not
        # the gradient, so not clear_grad's note about it)
        own = {k: v for k, v in self.__dict__.items()
               if k not in ("_name", "_hooks", "_backward_hooks", "_grad_cleared")}  # fmt: skip
        new.__dict__.update(copy.deepcopy(own, memo))
        return new
