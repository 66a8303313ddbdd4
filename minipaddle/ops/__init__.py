"""Every op, defined once (DESIGN.md, wall 2). Importing this package registers them all in core.op.OPS.

Grad rules call sibling ops through this package (`ops.multiply(g, y)`), so the modules can refer to each
other in any order. The names gathered here are the raw op functions, listed in each module's `__all__`:
they check nothing; the public functions in `minipaddle.tensor` and `minipaddle.nn.functional` check.
A new op module adds one line below.
"""

from minipaddle.ops.activation import *  # noqa: F403
from minipaddle.ops.broadcast import *  # noqa: F403
from minipaddle.ops.compare import *  # noqa: F403
from minipaddle.ops.constant import *  # noqa: F403
from minipaddle.ops.debug import *  # noqa: F403
from minipaddle.ops.elementwise import *  # noqa: F403
from minipaddle.ops.linalg import *  # noqa: F403
from minipaddle.ops.manipulation import *  # noqa: F403
from minipaddle.ops.reduce import *  # noqa: F403
