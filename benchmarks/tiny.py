"""Workload `tiny`: the fixed cost of one autograd step.

One step is `loss = (x * w).sum(); loss.backward(); w.clear_grad()` on 8 float32 values. The arithmetic is
nothing, so the time is the framework's own overhead per op: dispatch, building the graph, running backward,
accumulating and clearing the gradient. Contenders, timed side by side in one process:

- minipaddle   the step written against the Paddle 2.x API (`import minipaddle as paddle`)
- numpy        the same math by hand: the floor no framework on numpy can beat
- torch        PyTorch eager autograd on the CPU, when `import torch` works
- paddle       PaddlePaddle itself, when `import paddle` works (it does not in the project venv; run this file
               with a Python that has paddlepaddle 2.6: `python benchmarks/tiny.py --framework paddle`)

Target (benchmarks/README.md): minipaddle no slower per step than torch.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable

import harness
import numpy as np

N = 8
FRAMEWORKS = ("minipaddle", "numpy", "torch", "paddle")


def paddle_api_step(paddle) -> Callable[[], None]:
    """The step in Paddle 2.x code. `paddle` is minipaddle or PaddlePaddle itself: the same lines run on both."""
    x = paddle.to_tensor(np.ones(N, "float32"))
    w = paddle.to_tensor(np.random.rand(N).astype("float32"), stop_gradient=False)

    def step() -> None:
        loss = (x * w).sum()
        loss.backward()
        w.clear_grad()

    return step


def numpy_step() -> Callable[[], None]:
    """The same step by hand: what backward() computes, with no graph and no bookkeeping."""
    x = np.ones(N, "float32")
    w = np.random.rand(N).astype("float32")
    grad = np.zeros_like(w)  # w.grad

    def step() -> None:
        loss = (x * w).sum()  # forward
        seed = np.ones_like(loss)  # backward starts from d(loss)/d(loss) = 1
        grad[...] += x * seed  # sum passes the seed on to every element; mul multiplies it by x; accumulate
        grad[:] = 0  # clear_grad()

    return step


def torch_step(torch) -> Callable[[], None]:
    """The same step in PyTorch eager mode on the CPU."""
    x = torch.ones(N, dtype=torch.float32)
    w = torch.rand(N, dtype=torch.float32, requires_grad=True)

    def step() -> None:
        loss = (x * w).sum()
        loss.backward()
        w.grad = None  # what optimizer.zero_grad() does by default

    return step


def _import(name: str):
    """(module, None), or (None, why not): 'not installed', or the error that a broken import raised."""
    try:
        return importlib.import_module(name), None
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None, "not installed"
        return None, f"import failed: {type(exc).__name__}: {exc}"
    except Exception as exc:
        return None, f"import failed: {type(exc).__name__}: {exc}"


def run(frameworks: tuple[str, ...] = FRAMEWORKS, min_time: float = 0.05, repeats: int = 7) -> dict[str, float]:
    """Time the chosen frameworks (the numpy floor always) and print the table. Returns {label: seconds/step}."""
    contenders: dict[str, Callable[[], None]] = {}
    skipped: dict[str, str] = {}
    for name in frameworks:
        if name == "numpy":
            continue
        module, why_not = _import(name)
        if module is None:
            skipped[name] = why_not
            if name == "paddle" and why_not == "not installed":
                skipped[name] += " (time it in a venv with paddlepaddle: python benchmarks/tiny.py --framework paddle)"
            continue
        try:
            contenders[name] = torch_step(module) if name == "torch" else paddle_api_step(module)
        except Exception as exc:
            skipped[name] = f"failed to set up: {type(exc).__name__}: {exc}"
    contenders["numpy"] = numpy_step()

    medians = harness.compare(
        f"tiny: (x * w).sum(), backward, clear_grad on {N} float32",
        contenders,
        floor_label="numpy",
        min_time=min_time,
        repeats=repeats,
        skipped=skipped,
    )
    if "minipaddle" in medians and "torch" in medians:
        ratio = medians["minipaddle"] / medians["torch"]
        verdict = "met" if ratio <= 1.0 else "NOT met"
        print(f"target minipaddle <= torch: minipaddle / torch = {ratio:.2f}  ({verdict})")
    return medians


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--framework",
        choices=("all", *FRAMEWORKS),
        default="all",
        help="time only this one (beside the numpy floor); 'all' times every one that imports",
    )
    parser.add_argument("--min-time", type=float, default=0.05, help="seconds per timed batch (default 0.05)")
    parser.add_argument("--repeats", type=int, default=7, help="timed batches per contender (default 7)")
    args = parser.parse_args(argv)
    frameworks = FRAMEWORKS if args.framework == "all" else (args.framework,)
    return run(frameworks, min_time=args.min_time, repeats=args.repeats)


if __name__ == "__main__":
    main(sys.argv[1:])
