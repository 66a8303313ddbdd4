"""paddle.profiler.timer: the Benchmark that times steps and DataLoader reads, as paddle 2.6's hapi, Profiler and
DataLoader use it.

`benchmark()` is the one process-wide Benchmark. `Profiler.start()` calls its `begin()` (a new timing Event on a
stack, so an evaluation inside training times on its own), `Profiler.step(num_samples)` its `step()`, and
`Profiler.step_info(unit)` its `step_info()`: " reader_cost: … s batch_cost: … s ips: … samples/s", averaged
since the last call. The DataLoader's iterators call `check_if_need_record`, `before_reader` and `after_reader`
around each batch, which gives reader_cost (and pauses the timing while another dataset is read). `end()` prints a
"Perf Summary" of avg/max/min over the steps after the first 10 (the warm-up), when there were more.

Written after paddle 2.6's module, with one change: a value updates both the maximum and the minimum (paddle's
`elif` leaves the minimum at inf while each step is slower than the last).
"""

from __future__ import annotations

import timeit
from collections import OrderedDict


class Stack:
    """A last-in, first-out list of timing Events."""

    def __init__(self) -> None:
        self.items = []

    def push(self, item) -> None:
        self.items.append(item)

    def pop(self):
        return self.items.pop()

    def is_empty(self) -> bool:
        return len(self.items) == 0

    def peek(self):
        return self.items[-1] if self.items else None


class TimeAverager:
    """The running average of costs (and samples) since the last reset."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._total_iters = 0
        self._total_time = 0
        self._total_samples = 0

    def record(self, usetime: float, num_samples=None) -> None:
        self._total_iters += 1
        self._total_time += usetime
        if num_samples:
            self._total_samples += num_samples

    def get_average(self) -> float:
        return self._total_time / float(self._total_iters) if self._total_iters else 0

    def get_ips_average(self) -> float:
        if not self._total_samples or self._total_iters == 0:
            return 0
        return float(self._total_samples) / self._total_time

    def get_step_average(self) -> float:
        return float(self._total_iters) / self._total_time if self._total_iters else 0


class Event:
    """The costs of one timed task (a training run, an evaluation inside it): averages since the last step_info,
    and max/min/total over the steps after the first `skip_iter`."""

    def __init__(self) -> None:
        self.reader_cost_averager = TimeAverager()
        self.batch_cost_averager = TimeAverager()
        self.total_samples = 0
        self.total_iters = 0
        self.skip_iter = 10
        self.reader_records = {"max": 0, "min": float("inf"), "total": 0}
        self.batch_records = {"max": 0, "min": float("inf"), "total": 0}
        self.speed_records = {"max": 0, "min": float("inf")}
        self.reader = None
        self.need_record = True
        self.speed_mode = "samples/s"  # "steps/s" once a step comes without num_samples
        self.speed_unit = "samples/s"

    def reset(self) -> None:
        self.reader_cost_averager.reset()
        self.batch_cost_averager.reset()

    def record_reader(self, usetime: float) -> None:
        self.reader_cost_averager.record(usetime)
        if self.total_iters >= self.skip_iter:
            _update_records(usetime, self.reader_records)

    def record_batch(self, usetime: float, num_samples=None) -> None:
        if num_samples is None:
            self.speed_mode = self.speed_unit = "steps/s"
        self.batch_cost_averager.record(usetime, num_samples)
        self.total_iters += 1
        if self.total_iters >= self.skip_iter:
            _update_records(usetime, self.batch_records)
            if self.speed_mode == "samples/s":
                current_speed = float(num_samples) / usetime
                self.total_samples += num_samples
            else:
                current_speed = 1.0 / usetime
            _update_records(current_speed, self.speed_records)

    def reader_average(self) -> float:
        return self.reader_cost_averager.get_average()

    def batch_average(self) -> float:
        return self.batch_cost_averager.get_average()

    def speed_average(self) -> float:
        if self.speed_mode == "samples/s":
            return self.batch_cost_averager.get_ips_average()
        return self.batch_cost_averager.get_step_average()

    def get_summary(self) -> dict:
        """avg/max/min of reader_cost, batch_cost and ips over the counted steps ({} without more than skip_iter)."""
        if self.total_iters <= self.skip_iter:
            return {}
        counted = self.total_iters - self.skip_iter
        reader_avg = self.reader_records["total"] / float(counted)
        batch_avg = self.batch_records["total"] / float(counted)
        if self.speed_mode == "samples/s":
            speed_avg = float(self.total_samples) / self.batch_records["total"]
        else:
            speed_avg = float(counted) / self.batch_records["total"]
        return {
            "reader_summary": {"max": self.reader_records["max"], "min": self.reader_records["min"], "avg": reader_avg},
            "batch_summary": {"max": self.batch_records["max"], "min": self.batch_records["min"], "avg": batch_avg},
            "ips_summary": {"max": self.speed_records["max"], "min": self.speed_records["min"], "avg": speed_avg},
            "reader_ratio": (reader_avg / batch_avg) * 100,
        }


def _update_records(value: float, records: dict) -> None:
    records["max"] = max(records["max"], value)
    records["min"] = min(records["min"], value)
    if "total" in records:
        records["total"] += value


class Hook:
    """A Benchmark hook: called at begin, end, around each reader call and after each step."""

    def begin(self, benchmark) -> None:
        pass

    def end(self, benchmark) -> None:
        pass

    def before_reader(self, benchmark) -> None:
        pass

    def after_reader(self, benchmark) -> None:
        pass

    def after_step(self, benchmark) -> None:
        pass


class TimerHook(Hook):
    """Times the steps and the reader calls into the current Event, and prints the summary at the end."""

    def __init__(self) -> None:
        self.start_time = timeit.default_timer()
        self.start_reader = timeit.default_timer()

    def begin(self, benchmark) -> None:
        benchmark.events.push(Event())
        benchmark.current_event = benchmark.events.peek()
        self.start_time = timeit.default_timer()

    def before_reader(self, benchmark) -> None:
        self.start_reader = timeit.default_timer()

    def after_reader(self, benchmark) -> None:
        reader_cost = timeit.default_timer() - self.start_reader
        event = benchmark.current_event
        if event is None or not event.need_record or reader_cost == 0:
            return
        event.record_reader(reader_cost)

    def after_step(self, benchmark) -> None:
        event = benchmark.current_event
        if event is None or not event.need_record:
            return
        event.record_batch(timeit.default_timer() - self.start_time, benchmark.num_samples)
        self.start_time = timeit.default_timer()

    def end(self, benchmark) -> None:
        if benchmark.events.is_empty():
            return
        summary = perf_summary(benchmark.current_event)
        if summary:
            print(summary)
        benchmark.events.pop()
        benchmark.current_event = benchmark.events.peek()
        self.start_time = timeit.default_timer()


def perf_summary(event: Event) -> str:
    """paddle's "Perf Summary" table of an Event, or "" when it has no counted steps."""
    summary = event.get_summary()
    if not summary:
        return ""
    lines = ["Perf Summary".center(100, "=")]
    if summary["reader_ratio"] != 0:
        lines.append(f"Reader Ratio: {summary['reader_ratio']:.3f}%")
    lines.append(f"Time Unit: s, IPS Unit: {event.speed_unit}")
    lines.append(_row("", "avg", "max", "min"))
    rows = [("batch_cost", "batch_summary"), ("ips", "ips_summary")]
    if summary["reader_summary"]["avg"] != 0:  # no reader_cost row when no DataLoader was read
        rows.insert(0, ("reader_cost", "reader_summary"))
    for item, key in rows:
        stats = summary[key]
        lines.append(_row(item, *(f"{stats[k]:.5f}" for k in ("avg", "max", "min"))))
    return "\n".join(lines)


def _row(*cells: str) -> str:
    return " ".join(["|"] + [x for c in cells for x in (c.center(15), "|")])


class Benchmark:
    """The statistics of a model's speed: `begin`, `step` and `end` time the steps, and the DataLoader calls
    `before_reader` and `after_reader` to time the reads."""

    def __init__(self) -> None:
        self.num_samples = None
        self.hooks = OrderedDict(timer_hook=TimerHook())
        self.current_event = None
        self.events = Stack()

    def step(self, num_samples=None) -> None:
        """Close the current step (called by Profiler.step)."""
        self.num_samples = num_samples
        self.after_step()

    def step_info(self, unit: str) -> str:
        """The averages since the last call: reader_cost, batch_cost and ips."""
        event = self.current_event
        message = ""
        reader_average = event.reader_average()
        batch_average = event.batch_average()
        if reader_average:
            message += f" reader_cost: {reader_average:.5f} s"
        if batch_average:
            event.speed_unit = "steps/s" if event.speed_mode == "steps/s" else unit + "/s"
            message += f" batch_cost: {batch_average:.5f} s"
        speed_average = event.speed_average()
        if speed_average:
            message += f" ips: {speed_average:.3f} {event.speed_unit}"
        event.reset()
        return message

    def begin(self) -> None:
        for hook in self.hooks.values():
            hook.begin(self)

    def before_reader(self) -> None:
        for hook in self.hooks.values():
            hook.before_reader(self)

    def after_reader(self) -> None:
        for hook in self.hooks.values():
            hook.after_reader(self)

    def after_step(self) -> None:
        for hook in self.hooks.values():
            hook.after_step(self)

    def end(self) -> None:
        for hook in self.hooks.values():
            hook.end(self)

    def check_if_need_record(self, reader) -> None:
        """Pause the timing while a DataLoader over another dataset is read (an evaluation inside training that
        did not call begin), and go on when the first one is read again."""
        event = self.current_event
        if event is None:
            return
        if event.need_record:
            if event.reader is None:
                event.reader = reader
            elif _dataset(event.reader) is not _dataset(reader):
                event.need_record = False
        elif _dataset(event.reader) is _dataset(reader):
            event.need_record = True
            self.hooks["timer_hook"].start_time = timeit.default_timer()


def _dataset(reader):
    return getattr(reader, "_dataset", None)


_benchmark_ = Benchmark()


def benchmark() -> Benchmark:
    """The process-wide Benchmark."""
    return _benchmark_
