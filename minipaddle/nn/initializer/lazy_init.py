"""paddle.nn.initializer.lazy_init: LazyGuard, deferred parameter initialization.

Inside `with LazyGuard():` a Layer's parameters are created with their shape and dtype but not their values: each
keeps its initializer (nn/param_attr.make_parameter) until `param.initialize()` runs it. Building a big model this
way costs no random draws; a later `initialize()` (after `paddle.seed`, or in another order) decides the values.
Until then a lazy parameter holds zeros (paddle's holds whatever memory it got) and `param._is_initialized()` is
False.
"""

from __future__ import annotations

from minipaddle.core.state import in_dynamic_mode


class LazyInitHelper:
    """The switch make_parameter reads: `state` is True inside a LazyGuard."""

    def __init__(self) -> None:
        self._state = False

    def enable(self) -> None:
        if not in_dynamic_mode():
            raise RuntimeError("LazyGuard: lazy initialization is only available in dynamic mode")
        self._state = True

    def disable(self) -> None:
        self._state = False

    @property
    def state(self) -> bool:
        return self._state


_lazy_init_helper = LazyInitHelper()


def lazy_init_helper() -> LazyInitHelper:
    return _lazy_init_helper


class LazyGuard:
    """Create Layers inside the block with their parameters' initialization deferred.

    Example:
        >>> with paddle.LazyGuard():
        ...     net = paddle.nn.Linear(10, 10)      # w and b are not initialized yet
        >>> for param in net.parameters():
        ...     param.initialize()                 # now they are
    """

    def __enter__(self):
        lazy_init_helper().enable()

    def __exit__(self, *args, **kwargs):
        lazy_init_helper().disable()
