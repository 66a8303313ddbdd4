"""paddle.nn.functional: the functional form of every layer."""

import types as _types

from minipaddle.nn.functional.activation import *  # noqa: F403
from minipaddle.nn.functional.attention import *  # noqa: F403
from minipaddle.nn.functional.common import *  # noqa: F403
from minipaddle.nn.functional.conv import *  # noqa: F403
from minipaddle.nn.functional.distance import *  # noqa: F403
from minipaddle.nn.functional.dropout import *  # noqa: F403
from minipaddle.nn.functional.input import *  # noqa: F403
from minipaddle.nn.functional.linear import *  # noqa: F403
from minipaddle.nn.functional.loss import *  # noqa: F403
from minipaddle.nn.functional.margin_loss import *  # noqa: F403
from minipaddle.nn.functional.norm import *  # noqa: F403
from minipaddle.nn.functional.pooling import *  # noqa: F403
from minipaddle.nn.functional.rnnt import *  # noqa: F403
from minipaddle.nn.functional.sequence import *  # noqa: F403
from minipaddle.nn.functional.unpool import *  # noqa: F403
from minipaddle.nn.functional.vision import *  # noqa: F403
from minipaddle.tensor.creation import diag_embed  # noqa: F401 (paddle.nn.functional.diag_embed is paddle.diag_embed)

# every function imported above (not the modules): a new module needs only its import line
__all__ = [_n for _n, _v in list(globals().items()) if not _n.startswith("_") and not isinstance(_v, _types.ModuleType)]
