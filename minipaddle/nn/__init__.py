"""paddle.nn: layers, losses and their functional forms, initializers and gradient clipping.

Layer classes live in nn/layer/ (one line per module in nn/layer/__init__.py), their functions in
nn/functional/. `__all__` is gathered from what is imported here, so a new module needs only its import line.
"""

import types as _types

from minipaddle.nn import functional, initializer, quant, utils
from minipaddle.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from minipaddle.nn.decode import BeamSearchDecoder, dynamic_decode
from minipaddle.nn.layer import *  # noqa: F403

__all__ = ["functional", "initializer", "utils"] + [
    _n for _n, _v in list(globals().items()) if not _n.startswith("_") and not isinstance(_v, _types.ModuleType)
]
