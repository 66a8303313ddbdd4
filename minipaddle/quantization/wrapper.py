"""ObserveWrapper: a leaf layer with an observer on its input (or, with observe_input=False, its output)."""

from __future__ import annotations

from minipaddle.nn.layer.layers import Layer

__all__ = ["ObserveWrapper"]


class ObserveWrapper(Layer):
    """`observed` with `observer` applied to its input first (observe_input=True, Paddle's default) or to its output."""

    def __init__(self, observer, observed, observe_input=True):
        super().__init__()
        self._observer = observer
        self._observed = observed
        self._observe_input = observe_input

    def forward(self, *inputs, **kwargs):
        if self._observe_input:
            return self._observed(self._observer(*inputs, **kwargs), **kwargs)
        return self._observer(self._observed(*inputs, **kwargs), **kwargs)
