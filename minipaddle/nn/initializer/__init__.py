"""paddle.nn.initializer: how parameters get their first values.

Pass one to a ParamAttr (`paddle.ParamAttr(initializer=paddle.nn.initializer.Normal(std=0.02))`) or call it
on a parameter (`paddle.nn.initializer.Constant(0.0)(layer.bias)`). Random ones draw from the generator that
`paddle.seed` sets.
"""

from minipaddle.nn.initializer.aliases import (  # noqa: F401 (paddle 2.6 exports these names outside __all__)
    ConstantInitializer,
    MSRAInitializer,
    NormalInitializer,
    NumpyArrayInitializer,
    TruncatedNormalInitializer,
    UniformInitializer,
    XavierInitializer,
)
from minipaddle.nn.initializer.Bilinear import Bilinear  # (the module first, then the class under its name)
from minipaddle.nn.initializer.constant import Assign, Constant
from minipaddle.nn.initializer.initializer import Initializer, calculate_gain, set_global_initializer
from minipaddle.nn.initializer.kaiming import KaimingNormal, KaimingUniform
from minipaddle.nn.initializer.normal import Normal, TruncatedNormal
from minipaddle.nn.initializer.structured import Dirac, Orthogonal
from minipaddle.nn.initializer.uniform import Uniform
from minipaddle.nn.initializer.xavier import XavierNormal, XavierUniform

__all__ = [
    "Bilinear",
    "Constant",
    "KaimingUniform",
    "KaimingNormal",
    "XavierNormal",
    "XavierUniform",
    "Assign",
    "Normal",
    "TruncatedNormal",
    "Uniform",
    "Orthogonal",
    "Dirac",
    "set_global_initializer",
    "calculate_gain",
    "Initializer",
]
