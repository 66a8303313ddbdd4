"""paddle.profiler.timer's Benchmark on a fake clock, run with either library (`paddle` passed in): step_info
strings, the printed Perf Summary, and the pause while another dataset is read; make_timer_golden.py records
run_all(paddle 2.6) into timer.json, tests/profiler/test_timer.py compares."""

import contextlib
import importlib
import io


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Reader:
    def __init__(self, dataset) -> None:
        self._dataset = dataset


def _run(timer, costs, reads=None, num_samples=8, info_every=4):
    """Steps of the given costs (seconds; reads: each step's reader cost, part of it); step_info every few steps."""
    clock = _Clock()
    timer.timeit.default_timer = clock
    bench = timer.Benchmark()
    reader = _Reader("train")
    infos = []
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.begin()
        for i, cost in enumerate(costs):
            if reads is not None:
                bench.check_if_need_record(reader)
                bench.before_reader()
                clock.now += reads[i]
                bench.after_reader()
                clock.now += cost - reads[i]
            else:
                clock.now += cost
            bench.step(num_samples)
            if (i + 1) % info_every == 0:
                infos.append(bench.step_info("images"))
        bench.end()
    return {"infos": infos, "printed": out.getvalue()}


def run_all(paddle):
    timer = importlib.import_module(paddle.__name__ + ".profiler.timer")  # either library's module

    saved = timer.timeit.default_timer
    try:
        up_down = [0.5, 0.25, 0.75, 0.5] * 4
        out = {
            "steps_only": _run(timer, up_down),
            "steps_per_second": _run(timer, up_down, num_samples=None),
            "with_reader": _run(timer, up_down, reads=[0.125, 0.25] * 8),
            "ten_steps_no_summary": _run(timer, [0.5] * 10),
        }
        # an evaluation over another dataset inside training pauses the training's timing
        clock = _Clock()
        timer.timeit.default_timer = clock
        bench = timer.Benchmark()
        train, evaluate = _Reader("train"), _Reader("eval")
        bench.begin()
        states = []
        for reader in (train, train, evaluate, evaluate, train):
            bench.check_if_need_record(reader)
            states.append(bench.current_event.need_record)
            clock.now += 0.5
            bench.step(4)
        out["pause_for_other_dataset"] = {"need_record": states, "info": bench.step_info("samples")}
        with contextlib.redirect_stdout(io.StringIO()):
            bench.end()
        out["global_is_one"] = timer.benchmark() is timer.benchmark()
    finally:
        timer.timeit.default_timer = saved
    return out
