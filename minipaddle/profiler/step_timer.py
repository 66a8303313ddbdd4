"""The step timer behind `Profiler.step_info()` and `timer_only=True`: the cost of each step and the throughput.

As in paddle 2.6: `step(num_samples)` closes a step; `step_info()` averages the steps since its last call
(" batch_cost: 0.01234 s ips: 81.037 samples/s", throughput in steps/s when no num_samples was given);
`stop()` prints a "Perf Summary" of avg/max/min over the steps after the first 10 (the warm-up) when there were
more than 10. (Paddle also times the DataLoader as reader_cost; minipaddle's DataLoader is not timed.)
"""

from __future__ import annotations

import timeit

SKIP_STEPS = 10  # the steps left out of the Perf Summary, as paddle 2.6


class StepTimer:
    def __init__(self) -> None:
        self.start_time = timeit.default_timer()
        self.speed_mode = "samples/s"
        self.reset_average()
        self.steps = 0
        self.batch = {"max": 0.0, "min": float("inf"), "total": 0.0}
        self.speed = {"max": 0.0, "min": float("inf")}
        self.total_samples = 0

    def reset_average(self) -> None:
        self.avg_steps, self.avg_time, self.avg_samples = 0, 0.0, 0

    def begin(self) -> None:
        self.start_time = timeit.default_timer()

    def step(self, num_samples: int | None) -> None:
        cost = timeit.default_timer() - self.start_time
        if num_samples is None:
            self.speed_mode = "steps/s"
        self.avg_steps += 1
        self.avg_time += cost
        self.avg_samples += num_samples or 0
        self.steps += 1
        if self.steps >= SKIP_STEPS:
            _update(self.batch, cost)
            if self.speed_mode == "samples/s":
                self.total_samples += num_samples
                _update(self.speed, num_samples / cost if cost else 0.0)
            else:
                _update(self.speed, 1.0 / cost if cost else 0.0)
        self.start_time = timeit.default_timer()

    def step_info(self, unit: str) -> str:
        message = ""
        unit_text = "steps/s" if self.speed_mode == "steps/s" else f"{unit}/s"
        if self.avg_steps:
            message += f" batch_cost: {self.avg_time / self.avg_steps:.5f} s"
            if self.speed_mode == "samples/s":
                speed = self.avg_samples / self.avg_time if self.avg_samples and self.avg_time else 0
            else:
                speed = self.avg_steps / self.avg_time if self.avg_time else 0
            if speed:
                message += f" ips: {speed:.3f} {unit_text}"
        self.reset_average()
        return message

    def perf_summary(self) -> str:
        """Paddle's "Perf Summary" table, or "" when there were no more than SKIP_STEPS steps."""
        if self.steps <= SKIP_STEPS or self.batch["total"] == 0:
            return ""
        counted = self.steps - SKIP_STEPS
        batch_avg = self.batch["total"] / counted
        if self.speed_mode == "samples/s":
            speed_avg = self.total_samples / self.batch["total"]
        else:
            speed_avg = counted / self.batch["total"]
        lines = ["Perf Summary".center(100, "="), f"Time Unit: s, IPS Unit: {self.speed_mode}"]
        lines.append(" ".join(["|", "".center(15), "|", "avg".center(15), "|", "max".center(15), "|",
                               "min".center(15), "|"]))  # fmt: skip
        for item, avg, rec in (("batch_cost", batch_avg, self.batch), ("ips", speed_avg, self.speed)):
            cells = [f"{avg:.5f}", f"{rec['max']:.5f}", f"{rec['min']:.5f}"]
            lines.append(" ".join(["|", item.center(15)] + [x for c in cells for x in ("|", c.center(15))] + ["|"]))
        return "\n".join(lines)


def _update(record: dict, value: float) -> None:
    if value > record["max"]:
        record["max"] = value
    if value < record["min"]:
        record["min"] = value
    if "total" in record:
        record["total"] += value
