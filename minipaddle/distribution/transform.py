"""Transforms: invertible (or not) maps y = f(x) with their log-det-Jacobians, to build TransformedDistribution.

A transform knows its domain and codomain (minipaddle.distribution.variable: event rank and constraint),
`forward`, `inverse`, `forward_log_det_jacobian`, `inverse_log_det_jacobian`, `forward_shape` and
`inverse_shape`. Calling one on a Distribution wraps it in a TransformedDistribution; on a Transform, chains
the two; on a Tensor, applies forward.
"""

from __future__ import annotations

import enum
import math
import typing

import minipaddle.nn.functional as F
from minipaddle.core.tensor import Tensor
from minipaddle.distribution import constraint, distribution, variable
from minipaddle.tensor.creation import ones, zeros
from minipaddle.tensor.manipulation import stack, unstack
from minipaddle.tensor.math import abs as tensor_abs
from minipaddle.tensor.math import broadcast_shape

__all__ = [
    "Transform",
    "AbsTransform",
    "AffineTransform",
    "ChainTransform",
    "ExpTransform",
    "IndependentTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "StackTransform",
    "StickBreakingTransform",
    "TanhTransform",
]


class Type(enum.Enum):
    """What kind of map a transform is."""

    BIJECTION = "bijection"  # injective and surjective
    INJECTION = "injection"  # injective only
    SURJECTION = "surjection"  # surjective only
    OTHER = "other"  # neither

    @classmethod
    def is_injective(cls, _type):
        return _type in (cls.BIJECTION, cls.INJECTION)


def _check_value(value, name, event_rank, type_message):
    """The argument check of Transform's four public maps: a Tensor with at least `event_rank` axes. Paddle
    words the TypeError differently in each map, so the caller passes its own `type_message`."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{type_message}, but got {type(value)}.")
    if value.dim() < event_rank:
        raise ValueError(f"The dimensions of {name}({value.dim()}) should be grater than or equal to {event_rank}")


def _check_shape(shape):
    if not isinstance(shape, typing.Sequence):
        raise TypeError(f"Expected shape is Sequence[int] type, but got {type(shape)}.")


class Transform:
    r"""Base class of transforms :math:`y = f(x)`.

    Subclasses define `_forward`, `_inverse`, one of `_forward_log_det_jacobian` /
    `_inverse_log_det_jacobian`, where shapes change `_forward_shape` / `_inverse_shape`, and `_domain` /
    `_codomain` where they are not the real line (the default). Only injective transforms have a forward
    log-det-Jacobian.
    """

    _type = Type.INJECTION

    def __init__(self):
        super().__init__()

    @classmethod
    def _is_injective(cls):
        return Type.is_injective(cls._type)

    def __call__(self, input):  # noqa: A002 (Paddle's name)
        from minipaddle.distribution import transformed_distribution

        if isinstance(input, distribution.Distribution):
            return transformed_distribution.TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def forward(self, x):
        """y = f(x)."""
        _check_value(x, "x", self._domain.event_rank, "Expected 'x' is a Tensor or Real")
        return self._forward(x)

    def inverse(self, y):
        """x = f^{-1}(y)."""
        _check_value(y, "y", self._codomain.event_rank, "Expected 'y' is a Tensor or Real")
        return self._inverse(y)

    def forward_log_det_jacobian(self, x):
        """log|det J_f(x)|."""
        _check_value(x, "x", self._domain.event_rank, "Expected 'y' is a Tensor or Real")  # (sic), as Paddle
        if not self._is_injective():
            raise NotImplementedError("forward_log_det_jacobian can't be implemented for non-injectivetransforms.")
        return self._call_forward_log_det_jacobian(x)

    def inverse_log_det_jacobian(self, y):
        """log|det J_{f^{-1}}(y)|."""
        _check_value(y, "y", self._codomain.event_rank, "Expected 'y' is a Tensor")
        return self._call_inverse_log_det_jacobian(y)

    def forward_shape(self, shape):
        """The shape of f(x) for x of `shape`."""
        _check_shape(shape)
        return self._forward_shape(shape)

    def inverse_shape(self, shape):
        """The shape of f^{-1}(y) for y of `shape`."""
        _check_shape(shape)
        return self._inverse_shape(shape)

    @property
    def _domain(self):
        return variable.real

    @property
    def _codomain(self):
        return variable.real

    def _forward(self, x):
        raise NotImplementedError("Forward not implemented")

    def _inverse(self, y):
        raise NotImplementedError("Inverse not implemented")

    def _call_forward_log_det_jacobian(self, x):
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        if hasattr(self, "_inverse_log_det_jacobian"):
            return -self._inverse_log_det_jacobian(self.forward(x))
        raise NotImplementedError(
            "Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian is implemented. One of them is required."
        )

    def _call_inverse_log_det_jacobian(self, y):
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        if hasattr(self, "_forward_log_det_jacobian"):
            return -self._forward_log_det_jacobian(self._inverse(y))
        raise NotImplementedError(
            "Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian is implemented. One of them is required"
        )

    def _forward_shape(self, shape):
        return shape

    def _inverse_shape(self, shape):
        return shape


class AbsTransform(Transform):
    r"""y = |x|. Not injective: `inverse` returns the pair (-y, y), and the inverse log-det-Jacobian the
    pair (0, 0)."""

    _type = Type.SURJECTION

    def _forward(self, x):
        return x.abs()

    def _inverse(self, y):
        return -y, y

    def _inverse_log_det_jacobian(self, y):
        zero = zeros([], dtype=y.dtype)
        return zero, zero

    @property
    def _codomain(self):
        return variable.positive


class AffineTransform(Transform):
    r"""y = loc + scale * x.

    Args:
        loc (Tensor): the shift.
        scale (Tensor): the scale.
    """

    _type = Type.BIJECTION

    def __init__(self, loc, scale):
        if not isinstance(loc, Tensor):
            raise TypeError(f"Expected 'loc' is a Tensor, but got {type(loc)}")
        if not isinstance(scale, Tensor):
            raise TypeError(f"Expected scale is a Tensor, but got {type(scale)}")
        self._loc = loc
        self._scale = scale
        super().__init__()

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _forward(self, x):
        return self._loc + self._scale * x

    def _inverse(self, y):
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x):
        return tensor_abs(self._scale).log()

    def _forward_shape(self, shape):
        return tuple(broadcast_shape(broadcast_shape(shape, self._loc.shape), self._scale.shape))

    _inverse_shape = _forward_shape  # broadcasting with loc and scale is the same rule both ways


class ChainTransform(Transform):
    r"""The composition of `transforms`, applied first to last.

    Args:
        transforms (Sequence[Transform]): the transforms.
    """

    def __init__(self, transforms):
        if not isinstance(transforms, typing.Sequence):
            raise TypeError(f"Expected type of 'transforms' is Sequence, but got {type(transforms)}")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("All elements of transforms should be Transform type.")
        self.transforms = transforms
        super().__init__()

    def _is_injective(self):
        return all(t._is_injective() for t in self.transforms)

    def _forward(self, x):
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y):
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x):
        value = 0.0
        event_rank = self._domain.event_rank
        for t in self.transforms:
            value += distribution.sum_rightmost(t.forward_log_det_jacobian(x), event_rank - t._domain.event_rank)
            x = t.forward(x)
            event_rank += t._codomain.event_rank - t._domain.event_rank
        return value

    def _forward_shape(self, shape):
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return shape

    def _inverse_shape(self, shape):
        for t in self.transforms:
            shape = t.inverse_shape(shape)
        return shape

    @property
    def _domain(self):
        domain = self.transforms[0]._domain
        event_rank = self.transforms[-1]._codomain.event_rank
        for t in reversed(self.transforms):
            event_rank -= t._codomain.event_rank - t._domain.event_rank
            event_rank = max(event_rank, t._domain.event_rank)
        return variable.Independent(domain, event_rank - domain.event_rank)

    @property
    def _codomain(self):
        codomain = self.transforms[-1]._codomain
        event_rank = self.transforms[0]._domain.event_rank
        for t in self.transforms:
            event_rank += t._codomain.event_rank - t._domain.event_rank
            event_rank = max(event_rank, t._codomain.event_rank)
        return variable.Independent(codomain, event_rank - codomain.event_rank)


class ExpTransform(Transform):
    r"""y = exp(x)."""

    _type = Type.BIJECTION

    @property
    def _codomain(self):
        return variable.positive

    def _forward(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def _forward_log_det_jacobian(self, x):
        return x


class IndependentTransform(Transform):
    r"""`base` with its rightmost `reinterpreted_batch_rank` batch axes read as event axes: the
    log-det-Jacobian is summed over them.

    Args:
        base (Transform): the base transform.
        reinterpreted_batch_rank (int): how many axes, > 0.
    """

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Transform):
            raise TypeError(f"Expected 'base' is Transform type, but get {type(base)}")
        if reinterpreted_batch_rank <= 0:
            raise ValueError(
                f"Expected 'reinterpreted_batch_rank' is grater than zero, but got {reinterpreted_batch_rank}"
            )
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__()

    def _is_injective(self):
        return self._base._is_injective()

    def _forward(self, x):
        if x.dim() < self._domain.event_rank:
            raise ValueError("Input dimensions is less than event dimensions.")
        return self._base.forward(x)

    def _inverse(self, y):
        if y.dim() < self._codomain.event_rank:
            raise ValueError("Input dimensions is less than event dimensions.")
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x):
        return self._base.forward_log_det_jacobian(x).sum(list(range(-self._reinterpreted_batch_rank, 0)))

    def _forward_shape(self, shape):
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape):
        return self._base.inverse_shape(shape)

    @property
    def _domain(self):
        return variable.Independent(self._base._domain, self._reinterpreted_batch_rank)

    @property
    def _codomain(self):
        return variable.Independent(self._base._codomain, self._reinterpreted_batch_rank)


class PowerTransform(Transform):
    r"""y = x ** power.

    Args:
        power (Tensor): the exponent.
    """

    _type = Type.BIJECTION

    def __init__(self, power):
        if not isinstance(power, Tensor):
            raise TypeError(f"Expected 'power' is a tensor, but got {type(power)}")
        self._power = power
        super().__init__()

    @property
    def power(self):
        return self._power

    @property
    def _codomain(self):
        return variable.positive

    def _forward(self, x):
        return x.pow(self._power)

    def _inverse(self, y):
        return y.pow(1 / self._power)

    def _forward_log_det_jacobian(self, x):
        return (self._power * x.pow(self._power - 1)).abs().log()

    def _forward_shape(self, shape):
        return tuple(broadcast_shape(shape, self._power.shape))

    _inverse_shape = _forward_shape  # broadcasting with power is the same rule both ways


class ReshapeTransform(Transform):
    r"""Reshape the event: the trailing `in_event_shape` axes become `out_event_shape` (same size).

    Args:
        in_event_shape (Sequence[int]): the input event shape.
        out_event_shape (Sequence[int]): the output event shape.
    """

    _type = Type.BIJECTION

    def __init__(self, in_event_shape, out_event_shape):
        if not isinstance(in_event_shape, typing.Sequence) or not isinstance(out_event_shape, typing.Sequence):
            raise TypeError(
                "Expected type of 'in_event_shape' and 'out_event_shape' is Squence[int], "
                f"but got 'in_event_shape': {in_event_shape}, 'out_event_shape': {out_event_shape}"
            )
        in_size = math.prod(in_event_shape)
        out_size = math.prod(out_event_shape)
        if in_size != out_size:
            raise ValueError(
                f"The numel of 'in_event_shape' should be 'out_event_shape', but got {in_size}!={out_size}"
            )
        self._in_event_shape = tuple(in_event_shape)
        self._out_event_shape = tuple(out_event_shape)
        super().__init__()

    @property
    def in_event_shape(self):
        return self._in_event_shape

    @property
    def out_event_shape(self):
        return self._out_event_shape

    @property
    def _domain(self):
        return variable.Independent(variable.real, len(self._in_event_shape))

    @property
    def _codomain(self):
        return variable.Independent(variable.real, len(self._out_event_shape))

    def _forward(self, x):
        return x.reshape(list(tuple(x.shape)[: x.dim() - len(self._in_event_shape)] + self._out_event_shape))

    def _inverse(self, y):
        return y.reshape(list(tuple(y.shape)[: y.dim() - len(self._out_event_shape)] + self._in_event_shape))

    def _forward_shape(self, shape):
        return self._swap_event(shape, self._in_event_shape, self._out_event_shape, "Expected length of 'shape'")

    def _inverse_shape(self, shape):
        return self._swap_event(shape, self._out_event_shape, self._in_event_shape, "Expected 'shape' length")

    @staticmethod
    def _swap_event(shape, old, new, what):
        if len(shape) < len(old):
            raise ValueError(f"{what} is not less than {len(old)}, but got {len(shape)}")
        tail = tuple(shape[len(shape) - len(old) :])
        if tail != tuple(old):
            raise ValueError(f"Event shape mismatch, expected: {old}, but got {tail}")
        return tuple(shape[: len(shape) - len(old)]) + new

    def _forward_log_det_jacobian(self, x):
        shape = x.shape[: x.dim() - len(self._in_event_shape)]
        return zeros(shape, dtype=x.dtype)


class SigmoidTransform(Transform):
    r"""y = sigmoid(x), onto (0, 1)."""

    @property
    def _codomain(self):
        return variable.Variable(False, 0, constraint.Range(0.0, 1.0))

    def _forward(self, x):
        return F.sigmoid(x)

    def _inverse(self, y):
        return y.log() - (-y).log1p()

    def _forward_log_det_jacobian(self, x):
        return -F.softplus(-x) - F.softplus(x)


class SoftmaxTransform(Transform):
    r"""y = softmax(x) over the last axis (not injective: no log-det-Jacobian); inverse: log(y)."""

    _type = Type.OTHER

    @property
    def _domain(self):
        return variable.Independent(variable.real, 1)

    @property
    def _codomain(self):
        return variable.Variable(False, 1, constraint.simplex)

    def _forward(self, x):
        x = (x - x.max(-1, keepdim=True)).exp()
        return x / x.sum(-1, keepdim=True)

    def _inverse(self, y):
        return y.log()

    def _forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError(f"Expected length of shape is grater than 1, but got {len(shape)}")
        return shape

    _inverse_shape = _forward_shape  # softmax keeps the shape; both ways need the last axis


class StackTransform(Transform):
    r"""Apply transforms[i] to the i-th slice of the input along `axis`.

    Args:
        transforms (Sequence[Transform]): one transform per slice.
        axis (int, optional): the axis. Defaults to 0.
    """

    def __init__(self, transforms, axis=0):
        if not transforms or not isinstance(transforms, typing.Sequence):
            raise TypeError(f"Expected 'transforms' is Sequence[Transform], but got {type(transforms)}.")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("Expected all element in transforms is Transform Type.")
        if not isinstance(axis, int):
            raise TypeError(f"Expected 'axis' is int, but got{type(axis)}.")
        self._transforms = transforms
        self._axis = axis

    def _is_injective(self):
        return all(t._is_injective() for t in self._transforms)

    @property
    def transforms(self):
        return self._transforms

    @property
    def axis(self):
        return self._axis

    def _forward(self, x):
        return self._map_slices(x, "forward")

    def _inverse(self, y):
        return self._map_slices(y, "inverse")

    def _forward_log_det_jacobian(self, x):
        return self._map_slices(x, "forward_log_det_jacobian")

    def _map_slices(self, v, method: str):
        """`method` of transforms[i] on the i-th slice of v along the axis, restacked."""
        if not (-v.dim() <= self._axis < v.dim()):
            raise ValueError(f"Input dimensions {v.dim()} should be grater than stack transform axis {self._axis}.")
        if v.shape[self._axis] != len(self._transforms):
            raise ValueError(f"Input size along {self._axis} should be equal to the length of transforms.")
        slices = unstack(v, self._axis)
        return stack([getattr(t, method)(s) for t, s in zip(self._transforms, slices)], self._axis)

    @property
    def _domain(self):
        return variable.Stack([t._domain for t in self._transforms], self._axis)

    @property
    def _codomain(self):
        return variable.Stack([t._codomain for t in self._transforms], self._axis)


class StickBreakingTransform(Transform):
    r"""Map an unconstrained vector of size K onto the simplex of size K + 1 by stick breaking."""

    _type = Type.BIJECTION

    def _offset(self, k):
        return k + 1 - ones([k]).cumsum(-1)

    def _forward(self, x):
        offset = self._offset(x.shape[-1])
        z = F.sigmoid(x - offset.log())
        z_cumprod = (1 - z).cumprod(-1)
        pad = [0] * 2 * (len(x.shape) - 1)
        return F.pad(z, pad + [0, 1], value=1) * F.pad(z_cumprod, pad + [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = y.shape[-1] - ones([y_crop.shape[-1]]).cumsum(-1)
        sf = 1 - y_crop.cumsum(-1)
        return y_crop.log() - sf.log() + offset.log()

    def _forward_log_det_jacobian(self, x):
        y = self.forward(x)
        x = x - self._offset(x.shape[-1]).log()
        return (-x + F.log_sigmoid(x) + y[..., :-1].log()).sum(-1)

    def _forward_shape(self, shape):
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return tuple(shape[:-1]) + (shape[-1] + 1,)

    def _inverse_shape(self, shape):
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return tuple(shape[:-1]) + (shape[-1] - 1,)

    @property
    def _domain(self):
        return variable.Independent(variable.real, 1)

    @property
    def _codomain(self):
        return variable.Variable(False, 1, constraint.simplex)


class TanhTransform(Transform):
    r"""y = tanh(x), onto (-1, 1)."""

    _type = Type.BIJECTION

    @property
    def _codomain(self):
        return variable.Variable(False, 0, constraint.Range(-1.0, 1.0))

    def _forward(self, x):
        return x.tanh()

    def _inverse(self, y):
        return y.atanh()

    def _forward_log_det_jacobian(self, x):
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))
