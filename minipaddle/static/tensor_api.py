"""`paddle.X` for the modules of the static floor that translate Paddle's ops into minipaddle's.

Reading a Paddle `.pdmodel` builds each of its ops with the public API (`paddle.matmul`, `F.conv2d`, ...), as a
user's code would. Those functions live on the tensor and nn floors, below static, but `import minipaddle` is the
top package, a floor above: so the translators name them through this namespace instead. `tensor_api.reshape` is
`paddle.reshape`, `tensor_api.nn.functional.relu` is `paddle.nn.functional.relu`.
"""

from __future__ import annotations

from types import SimpleNamespace

import minipaddle.nn.functional as functional
from minipaddle.tensor import attribute, creation, indexing, linalg, logic, manipulation, math, random, search

# Where paddle's tensor functions are defined, searched in this order (a name is defined in one of them).
_MODULES = (math, manipulation, creation, indexing, linalg, logic, search, attribute, random)

nn = SimpleNamespace(functional=functional)


def __getattr__(name: str):
    for module in _MODULES:
        value = getattr(module, name, None)
        if callable(value):
            return value
    raise AttributeError(f"minipaddle.static.tensor_api: no tensor function {name!r} on the tensor floor")
