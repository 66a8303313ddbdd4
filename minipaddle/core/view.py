"""The record a view keeps of what it views (core/dispatch.py makes it, core/inplace.py keeps it in step).

A view (the output of an op with `view = True`, e.g. reshape or a basic index) shares its base's storage and version
counter. Its record says what it views and how, and the storage version its gradient history belongs to: when the
base, or another view of it, is changed in place, the counter moves on, the record falls behind, and the door
re-derives the view's history before the view is used again (dispatch._renew_view).
"""

from __future__ import annotations


class View:
    """`base`: the Tensor viewed; `op`, `attrs`: the view op that made this view from it; `version`: the storage
    version this view's gradient history was recorded at."""

    __slots__ = ("base", "op", "attrs", "version")

    def __init__(self, base, op, attrs: dict, version: int) -> None:
        self.base = base
        self.op = op
        self.attrs = attrs
        self.version = version

    def __repr__(self) -> str:
        return f"<View {self.op.name} of a tensor of shape {self.base.shape} at version {self.version}>"
