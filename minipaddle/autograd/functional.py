"""paddle.autograd.jacobian and hessian: derivative matrices, computed lazily one row at a time.

`jacobian(ys, xs)` returns a Jacobian object right away, without differentiating. Indexing it (`J[i]`, `J[:, j]`,
`J[:]`) computes only the rows it needs, each row one backward pass (`paddle.grad(ys[i], xs, create_graph=True)`),
and caches them. The object knows its `shape`; arithmetic (`J + 1`, `J @ v`) and any Tensor attribute
(`J.numpy()`) act on the full matrix. Because rows are built with create_graph=True, a Jacobian is itself
differentiable, which is how `hessian` is made: the Jacobian of the Jacobian.

Shapes (the public ones; a 0-d ys or xs contributes no dimension):
- not batched: ys and xs 0-D or 1-D; J has shape ys.shape + xs.shape, J[i, j] = d ys[i] / d xs[j].
- batch_axis=0: ys [B] or [B, M], xs [B] or [B, N], every sample independent of the others; J has shape
  [B] + ys.shape[1:] + xs.shape[1:], J[b, i, j] = d ys[b, i] / d xs[b, j].
"""

from __future__ import annotations

from collections.abc import Sequence

from minipaddle import ops
from minipaddle.core.autograd import grad
from minipaddle.core.tensor import Tensor

__all__ = ["Jacobian", "Hessian", "jacobian", "hessian"]


def _index_tuple(index, shape: list) -> tuple:
    """The index as ints and slices, one per dimension of `shape` (missing trailing ones are full slices)."""
    index = tuple(index) if isinstance(index, tuple) else (index,)
    if len(index) > len(shape):
        raise IndexError(f"Jacobian: too many indices ({len(index)}) for a Jacobian of shape {shape}")
    for i, size in zip(index, shape):
        if i is Ellipsis:
            raise IndexError("Jacobian: Ellipsis index currently is not supported")
        if not isinstance(i, (int, slice)) or isinstance(i, bool):
            raise TypeError(f"Jacobian: only ints and slices may index a Jacobian, got {type(i).__name__}")
        if isinstance(i, int) and not -size <= i < size:
            raise IndexError(f"Jacobian: index {i} is out of range for a dimension of size {size} (shape {shape})")
    return index + (slice(None),) * (len(shape) - len(index))


class Jacobian:
    """The Jacobian matrix of ys with respect to xs, evaluated row by row on demand (see the module docstring).

    Made by paddle.autograd.jacobian; index it (J[0], J[:, 1:3], J[:]) to get Tensors.
    """

    def __init__(self, ys, xs, is_batched: bool = False) -> None:
        if isinstance(ys, Jacobian):
            ys = ys._evaluate_all()
        if not isinstance(ys, Tensor) or not isinstance(xs, Tensor):
            raise TypeError(f"jacobian: ys and xs must be Tensors, got {type(ys).__name__} and {type(xs).__name__}")
        low, high = (1, 2) if is_batched else (0, 1)
        for arg, t in (("ys", ys), ("xs", xs)):
            if not low <= t.ndim <= high:
                mode = "is_batched=True" if is_batched else "is_batched=False"
                raise ValueError(f"{arg}.ndim should be {low} or {high} when {mode} but got {t.ndim}")
        if is_batched and ys.shape[0] != xs.shape[0]:
            raise ValueError(f"jacobian: ys and xs must have the same batch size, got {ys.shape} and {xs.shape}")
        self._ys, self._xs, self._is_batched = ys, xs, is_batched
        # Inside, ys and xs are matrices: [M] x [N] (not batched) or [B, M] x [B, N]; a public 0-d / 1-D ys or xs
        # drops its (size 1) dimension from the public shape, which _kept records per inner dimension.
        if is_batched:
            self._rows = ys if ys.ndim == 2 else ops.reshape(ys, (-1, 1))
            self._kept = (True, ys.ndim == 2, xs.ndim == 2)
            self._lazy_axis = 1
        else:
            self._rows = ops.reshape(ys, (-1,))
            self._kept = (ys.ndim == 1, xs.ndim == 1)
            self._lazy_axis = 0
        self._cache: dict[int, Tensor] = {}

    @property
    def shape(self) -> list:
        """The public shape: ys.shape + xs.shape, or [B] + ys.shape[1:] + xs.shape[1:] when batched."""
        if self._is_batched:
            return [self._xs.shape[0], *self._ys.shape[1:], *self._xs.shape[1:]]
        return [*self._ys.shape, *self._xs.shape]

    def _row(self, k: int) -> Tensor:
        """Row k of the inner matrix (the derivatives of output k), computed once: [N] or [B, N]."""
        if k not in self._cache:
            y = ops.index_view(self._rows, (slice(None), k) if self._is_batched else (k,))
            (g,) = grad([y], [self._xs], create_graph=True, allow_unused=True)
            if g is None:  # ys does not depend on xs
                g = ops.full_like(self._xs, 0)
            self._cache[k] = ops.reshape(g, (self._xs.shape[0], -1) if self._is_batched else (-1,))
        return self._cache[k]

    def __getitem__(self, index) -> Tensor:
        if not self.shape:
            raise IndexError("0-D tensor can not be indexed.")
        public = iter(_index_tuple(index, self.shape))
        inner = [next(public) if kept else 0 for kept in self._kept]
        lazy = inner[self._lazy_axis]
        if isinstance(lazy, int):
            part = self._row(lazy % self._rows.shape[self._lazy_axis])
            del inner[self._lazy_axis]
        else:
            rows = range(*lazy.indices(self._rows.shape[self._lazy_axis]))
            part = ops.stack([self._row(k) for k in rows], self._lazy_axis)
            inner[self._lazy_axis] = slice(None)
        return ops.index_view(part, tuple(inner))

    def _evaluate_all(self) -> Tensor:
        """The whole matrix, as a Tensor of the public shape."""
        if not self.shape:
            return ops.reshape(self._row(0), ())
        return self[:]

    def __getattr__(self, name: str):
        if name.startswith("_"):  # not found among this object's own attributes
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(shape={self.shape})"


def _full(v):
    return v._evaluate_all() if isinstance(v, Jacobian) else v


def _binary(name: str):
    def method(self, other):
        return getattr(self._evaluate_all(), name)(_full(other))

    method.__name__ = name
    return method


for _name in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__mod__", "__floordiv__", "__matmul__",
              "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):  # fmt: skip
    setattr(Jacobian, _name, _binary(_name))
Jacobian.__hash__ = None  # __eq__ compares values elementwise, as a Tensor's does


class Hessian(Jacobian):
    """The Hessian matrix of a scalar ys (one per sample when batched): the Jacobian of its gradient."""


def jacobian(ys, xs, batch_axis=None):
    """The Jacobian of ys with respect to xs, as lazily evaluated Jacobian objects.

    Args:
        ys (Tensor|tuple[Tensor]): outputs, each 0-D or 1-D ([B] or [B, M] with batch_axis=0).
        xs (Tensor|tuple[Tensor]): inputs that ys was computed from (stop_gradient=False), same rank rules.
        batch_axis (int|None): None, or 0 when dimension 0 is a batch of independent samples.

    Returns:
        Jacobian, a tuple of them (when one of ys, xs is a tuple: one per element), or a tuple of tuples
        (both tuples: J[i][j] for ys[i] and xs[j]).

    Example:
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> J = paddle.autograd.jacobian(x * x, x)
        >>> J.shape, J[:].tolist()
        ([2, 2], [[2.0, 0.0], [0.0, 4.0]])
    """
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    batched = batch_axis is not None
    ys_many, xs_many = isinstance(ys, Sequence), isinstance(xs, Sequence)
    if ys_many and xs_many:
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if ys_many:
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if xs_many:
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def _as_hessian(j: Jacobian) -> Hessian:
    j.__class__ = Hessian
    return j


def hessian(ys, xs, batch_axis=None):
    """The Hessian of a scalar ys (one scalar per sample with batch_axis=0) with respect to xs, lazily evaluated.

    Args:
        ys (Tensor): one element ([B] or [B, 1] when batched).
        xs (Tensor|tuple[Tensor]): 0-D or 1-D inputs ([B] or [B, N] when batched).
        batch_axis (int|None): None or 0.

    Returns:
        Hessian of shape xs.shape + xs.shape ([B, N, N] when batched), or for a tuple xs a tuple of tuples:
        H[i][j] holds the mixed derivatives d2 ys / d xs[i] d xs[j].

    Example:
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> paddle.autograd.hessian((x ** 3).sum(), x)[:].tolist()
        [[6.0, 0.0], [0.0, 12.0]]
    """
    if not isinstance(ys, Tensor):
        raise TypeError(f"hessian: ys must be a Tensor, got {type(ys).__name__}")
    if batch_axis is None:
        if ys.size > 1:
            raise ValueError(f"Only support ys.numel()({ys.size})==1 when batch_axis is None.")
        ys = ops.reshape(ys, ())
    elif isinstance(batch_axis, int) and not isinstance(batch_axis, bool):
        if ys.ndim == 0 or ys.size // ys.shape[0] > 1:
            raise ValueError(f"Only support ys[0].numel()==1 when batch_axis is int, got ys of shape {ys.shape}")
        if batch_axis != 0:
            raise ValueError("Only support batch_axis=0 yet.")
        ys = ops.reshape(ys, (-1,))
    else:
        raise ValueError(f"batch_axis should be None or int, but got {type(batch_axis)}.")
    first = jacobian(ys, xs, batch_axis)
    if not isinstance(xs, Sequence):
        return _as_hessian(jacobian(first, xs, batch_axis))
    return tuple(tuple(_as_hessian(h) for h in jacobian(j, xs, batch_axis)) for j in first)
