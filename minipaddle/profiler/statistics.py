"""The numbers behind the profiler's tables and pictures, computed from a list of events (profiler/events.py).

    step_time(events)      the time of the recorded steps (ProfileStep events, merged): the 100% of every ratio
    type_times(events)     per event type: calls and time (overlaps counted once)
    phase_items(events)    ProfileStep, Forward, Backward, Optimization: the outermost events of each
    op_items(events)       per op name: calls, total/avg/max/min, and the same per phase (forward, backward, ...)
    layer_items(events)    per Layer call path: the time of its forward and the time of the ops it ran itself
    user_items(events)     per RecordEvent name

Times are in nanoseconds. These are the profiler's public numbers: viz.plot_profile draws them.
"""

from __future__ import annotations

from minipaddle.profiler.events import Event, TracerEventType

USER_TYPES = (TracerEventType.PythonUserDefined, TracerEventType.UserDefined)


class Item:
    """Calls and times (ns) of one row: `total`, `avg`, `max`, `min`; `detail` holds sub-rows by name."""

    __slots__ = ("name", "calls", "total", "max", "min", "detail", "self_ops", "depth")

    def __init__(self, name: str, depth: int = 0) -> None:
        self.name = name
        self.calls = 0
        self.total = 0
        self.max = 0
        self.min = float("inf")
        self.detail: dict[str, Item] = {}
        self.self_ops = 0  # layer rows: the time of the ops this Layer ran itself (not in a sublayer)
        self.depth = depth

    def add(self, duration: int) -> None:
        self.calls += 1
        self.total += duration
        self.max = max(self.max, duration)
        self.min = min(self.min, duration)

    @property
    def avg(self) -> float:
        return self.total / self.calls if self.calls else 0.0

    def __repr__(self) -> str:
        return f"Item({self.name!r}, calls={self.calls}, total={self.total / 1e6:.3f} ms)"


def merged_time(events) -> int:
    """The length of the union of the events' intervals: time covered by nested or overlapping events counts once."""
    total, end = 0, None
    for e in sorted(events, key=lambda e: e.start):
        if end is None or e.start > end:
            total += e.end - e.start
            end = e.end
        elif e.end > end:
            total += e.end - end
            end = e.end
    return total


def outermost(events) -> list[Event]:
    """The events not inside another of the list (a Layer called inside another Layer is inside it)."""
    out, end = [], None
    for e in sorted(events, key=lambda e: (e.start, -e.end)):
        if end is None or e.start >= end:
            out.append(e)
            end = e.end
    return out


def step_time(events) -> int:
    return merged_time([e for e in events if e.type is TracerEventType.ProfileStep])


def type_times(events) -> dict:
    """{TracerEventType: (calls, time)}; for the phases, calls and time of the outermost events."""
    by_type: dict = {}
    for e in events:
        by_type.setdefault(e.type, []).append(e)
    out = {}
    for kind, group in by_type.items():
        if kind in (TracerEventType.Forward, TracerEventType.Backward, TracerEventType.Optimization):
            group = outermost(group)
        out[kind] = (len(group), merged_time(group))
    return out


def phase_items(events) -> dict[str, Item]:
    """The rows of Paddle's Model Summary: ProfileStep, Dataloader, Forward, Backward, Optimization (those seen)."""
    items = {}
    for kind in ("ProfileStep", "Dataloader", "Forward", "Backward", "Optimization"):
        group = outermost([e for e in events if e.type.name == kind])
        if group:
            item = items[kind] = Item(kind)
            for e in group:
                item.add(e.duration)
    return items


def op_items(events, thread=None) -> dict[str, Item]:
    """Per op: calls and times, with a detail row per phase it ran in ("matmul forward", "matmul backward")."""
    items: dict[str, Item] = {}
    for e in events:
        if e.type is not TracerEventType.Operator or (thread is not None and e.thread != thread):
            continue
        item = items.get(e.name) or items.setdefault(e.name, Item(e.name))
        item.add(e.duration)
        sub = f"{e.name} {e.phase.lower() or 'other'}"
        (item.detail.get(sub) or item.detail.setdefault(sub, Item(sub, 1))).add(e.duration)
    return items


def layer_items(events) -> dict[tuple, Item]:
    """Per Layer call path and class, in the order first called: the Forward time (calls, total, ...) and, in
    `self_ops`, the time of the ops run directly in it. The model called from the top has the path ''."""
    items: dict[tuple, Item] = {}
    for e in sorted((e for e in events if e.type is TracerEventType.Forward), key=lambda e: e.start):
        key = (e.layer, e.name)
        if key not in items:
            depth = e.layer.count(".") + 1 if e.layer else 0
            items[key] = Item(f"{e.layer} ({e.name})" if e.layer else e.name, depth)
        items[key].add(e.duration)
    by_path = {}
    for (path, _), item in items.items():
        by_path.setdefault(path, item)
    for e in events:
        if e.type is TracerEventType.Operator and e.phase == "Forward" and e.layer in by_path:
            by_path[e.layer].self_ops += e.duration
    return items


def user_items(events, thread=None) -> dict[str, Item]:
    items: dict[str, Item] = {}
    for e in events:
        if e.type in USER_TYPES and (thread is None or e.thread == thread):
            (items.get(e.name) or items.setdefault(e.name, Item(e.name))).add(e.duration)
    return items
