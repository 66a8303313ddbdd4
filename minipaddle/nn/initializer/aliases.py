"""The initializers under their Paddle 1.x names, still exported by paddle 2.6's paddle.nn.initializer (with their
old arguments: `loc`/`scale` for mean/std, a `seed`, and one class for both Xavier and MSRA (Kaiming) variants).

A nonzero `seed` draws from a fresh generator of that seed, so the values repeat whatever `paddle.seed` says.
Here each old name is a subclass of its new counterpart (in paddle 2.6 it is the other way round).
"""

from __future__ import annotations

from minipaddle.nn.initializer.constant import Assign, Constant
from minipaddle.nn.initializer.kaiming import KaimingNormal, KaimingUniform, _Kaiming
from minipaddle.nn.initializer.normal import Normal, TruncatedNormal
from minipaddle.nn.initializer.uniform import Uniform
from minipaddle.nn.initializer.xavier import XavierNormal, XavierUniform, _Xavier

__all__ = [
    "ConstantInitializer",
    "NormalInitializer",
    "TruncatedNormalInitializer",
    "UniformInitializer",
    "XavierInitializer",
    "MSRAInitializer",
    "NumpyArrayInitializer",
]


class ConstantInitializer(Constant):
    """Constant(value); force_cpu is accepted and has no effect (minipaddle lives on the CPU)."""

    def __init__(self, value=0.0, force_cpu=False):
        super().__init__(value)


class NormalInitializer(Normal):
    """Normal(mean=loc, std=scale), drawn from `seed` when nonzero."""

    def __init__(self, loc=0.0, scale=1.0, seed=0):
        super().__init__(loc, scale)
        self._seed = seed


class TruncatedNormalInitializer(TruncatedNormal):
    """TruncatedNormal(mean=loc, std=scale), drawn from `seed` when nonzero."""

    def __init__(self, loc=0.0, scale=1.0, seed=0):
        super().__init__(loc, scale)
        self._seed = seed


class UniformInitializer(Uniform):
    """Uniform(low, high), drawn from `seed` when nonzero.

    diag_num, diag_step and diag_val are accepted and, as in paddle 2.6's dynamic mode, not used.
    """

    def __init__(self, low=-1.0, high=1.0, seed=0, diag_num=0, diag_step=0, diag_val=1.0):
        super().__init__(low, high)
        self._seed = seed


class XavierInitializer(_Xavier):
    """XavierUniform (uniform=True) or XavierNormal, drawn from `seed` when nonzero."""

    def __init__(self, uniform=True, fan_in=None, fan_out=None, seed=0):
        super().__init__(fan_in, fan_out)
        self._uniform, self._seed = uniform, seed

    def _values(self, shape, dtype):
        return (XavierUniform if self._uniform else XavierNormal)._values(self, shape, dtype)


class MSRAInitializer(_Kaiming):
    """KaimingUniform (uniform=True) or KaimingNormal, drawn from `seed` when nonzero."""

    def __init__(self, uniform=True, fan_in=None, seed=0, negative_slope=0, nonlinearity="relu"):
        super().__init__(fan_in, negative_slope, nonlinearity)
        self._uniform, self._seed = uniform, seed

    def _values(self, shape, dtype):
        return (KaimingUniform if self._uniform else KaimingNormal)._values(self, shape, dtype)


class NumpyArrayInitializer(Assign):
    """Assign(value): the parameter gets the values of a numpy array."""

    def __init__(self, value):
        super().__init__(value)
