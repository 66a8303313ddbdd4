"""paddle.nn.layer: the Layer base class, containers and every layer class. Each module adds one line here;
`__all__` gathers the classes (not the modules) so that paddle.nn can star-import them."""

import types as _types

from minipaddle.nn.layer.activation import *  # noqa: F403
from minipaddle.nn.layer.common import *  # noqa: F403
from minipaddle.nn.layer.container import *  # noqa: F403
from minipaddle.nn.layer.conv import *  # noqa: F403
from minipaddle.nn.layer.distance import *  # noqa: F403
from minipaddle.nn.layer.dropout import *  # noqa: F403
from minipaddle.nn.layer.embedding import *  # noqa: F403
from minipaddle.nn.layer.layers import *  # noqa: F403
from minipaddle.nn.layer.linear import *  # noqa: F403
from minipaddle.nn.layer.loss import *  # noqa: F403
from minipaddle.nn.layer.norm import *  # noqa: F403
from minipaddle.nn.layer.pooling import *  # noqa: F403
from minipaddle.nn.layer.rnn import *  # noqa: F403
from minipaddle.nn.layer.rnnt import *  # noqa: F403
from minipaddle.nn.layer.transformer import *  # noqa: F403

__all__ = [_n for _n, _v in list(globals().items()) if not _n.startswith("_") and not isinstance(_v, _types.ModuleType)]
