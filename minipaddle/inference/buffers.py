"""enable_memory_optim's buffers: the fused ops and the pools write their results (and their scratch: a chunk of
im2col columns, a pool's first pass) into arrays the predictor keeps and reuses, planned from a liveness table.

The first run at a set of input shapes records: every array a buffered op asks for (its result, its scratch),
and for every array the last step that reads it, following views to the array that owns the memory (a reshape of
a conv's result keeps that result alive). From that table each request gets a slot: one array that several
requests share when their lifetimes do not overlap (the scratch of conv1 and conv2, conv1's result and fc2's).
Later runs at the same shapes hand those slots to the kernels: no allocation for those ops at all. A result the
predictor hands out (a fetched output, or a view of one) never goes into a slot, as the user may keep it.
LeNet at batch 64 (2.1 MB of slots; 5.0 MB when the columns were built for the whole batch):

    step  op              asks for                       lives until step   slot
    0     conv2d_fusion   scratch [16,10,784]            0                  0  (a chunk of 16 images' columns)
    0     conv2d_fusion   result  [64,6,784]             1 (pool1 reads it) 1
    1     max_pool_infer  scratch [64,6,14,28]           1                  0  (0 is free again)
    1     max_pool_infer  result  [64,14,14,6]           2                  2
    2     conv2d_fusion   scratch [8,10,10,5,5,6]        2                  0
    ...

Each buffered step also keeps its weights' GEMM form (Layout), made at the first run rather than every run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minipaddle.core.kernel import check_finite, kernel_error, run_kernel
from minipaddle.core.state import PROCESS
from minipaddle.ops.fused import conv2d_fusion_into, fc_into, max_pool_infer_into

__all__ = ["BUFFERED_OPS", "Buffers", "Layout", "Request"]

_ERRORS = (ValueError, TypeError, IndexError, ArithmeticError, MemoryError)

# op type -> its kernel taking `result` and `scratch` allocators (each (shape, dtype) -> a writable array) and
# `layout` (make -> the weights' GEMM form, made once: see Layout)
BUFFERED_OPS = {
    "fc": lambda args, attrs, result, scratch, layout: fc_into(*args, **attrs, result=result),
    "conv2d_fusion": lambda args, attrs, result, scratch, layout: conv2d_fusion_into(
        *args, **attrs, result=result, scratch=scratch, layout=layout
    ),
    "max_pool_infer": lambda args, attrs, result, scratch, layout: max_pool_infer_into(
        *args, **attrs, result=result, scratch=scratch
    ),
}


class Layout:
    """One step's weights in the form its GEMM takes (conv2's filter as [kh*kw*C, O], conv1's with its bias as one
    more column), made at the first run and kept while the step reads the same weight arrays: a weight replaced
    in the predictor's scope (a new array) makes it again. The weights it was made from are set read-only, so a
    write into them in place raises instead of leaving the kept form stale. It was remade every run: LeNet's
    conv2 filter re-layout is a copy of 2400 numbers and 5 numpy calls a step."""

    def __init__(self) -> None:
        self.sources: tuple = ()  # the weights the kept form was made from
        self.reading: tuple = ()  # the weights the step reads at this run (set before its kernel runs)
        self.array = None

    def __call__(self, make):
        if self.array is None or not _same(self.sources, self.reading):
            self.array = make()
            self.sources = sources = self.reading
            for a in sources:
                if isinstance(a, np.ndarray):
                    a.flags.writeable = False
        return self.array


@dataclass
class Request:
    """One array a buffered op asked for in the recording run: a row of the liveness table."""

    step: int
    kind: str  # "result" or "scratch"
    shape: tuple
    dtype: np.dtype
    last_read: int = -1  # the last step reading it (or a view of it); the step itself for scratch
    handed_out: bool = False  # fetched (or a view of it is): never in a slot
    slot: int | None = None
    view: np.ndarray | None = None  # the slot's first nbytes as this request's shape, made once

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize


def _same(kept: tuple, sources: tuple) -> bool:
    """Whether the two tuples hold the same objects (a loop: no generator call on every run)."""
    if len(kept) != len(sources):
        return False
    for a, b in zip(kept, sources):
        if a is not b:
            return False
    return True


def _owner(a):
    """What owns `a`'s memory: the end of its chain of bases (as_strided puts a non-array object in the chain)."""
    while True:
        base = getattr(a, "base", None)
        if base is None:
            return a
        a = base


class Buffers:
    """One predictor's reused arrays for one plan (straight-line, as the predictor's optimized Programs are)."""

    def __init__(self, plan: list, fetches: list, weights=frozenset()) -> None:
        self.plan = plan
        self.fetches = list(fetches)
        self.signature = None  # the input shapes the table was recorded at
        self.table: list[Request] = []
        self.slots: list[np.ndarray] = []  # 1-D arrays, each as large as its largest request
        self.by_step: dict[int, list] = {}  # step -> its requests, in the order its kernel asks
        # A kept GEMM form only where every input but x is a weight of the scope (`weights`) that no step writes:
        # an array an op computes each run may come in the same slot with new numbers, which identity cannot tell.
        constants = set(weights).difference(n for step in plan for n in step.writes)
        self.layouts = {i: Layout() for i, step in enumerate(plan) if step.desc.type in BUFFERED_OPS
                        and all(n is None or n in constants for n in step.reads[1:])}  # fmt: skip
        self.layout_of = [self.layouts.get(i) for i in range(len(plan))]  # by step, indexed in the run loop

    def run(self, env: dict, signature: tuple) -> None:
        """Run the plan on env; records the table first at new input shapes, reuses the slots after."""
        if signature != self.signature:
            self._record(env)
            self.signature = signature
        else:
            self._replay(env)

    def held_bytes(self) -> int:
        return sum(s.nbytes for s in self.slots)

    # ---- the recording run: the liveness table, then the slots --------------------------------------------------

    def _record(self, env: dict) -> None:
        table: list[Request] = []
        owned: dict[int, Request] = {}  # id of an array a request got -> the request
        keep: list = []  # the requested arrays, alive until planned (their ids stay unique)

        def asker(step: int, kind: str):
            def give(shape, dtype):
                arr = np.empty(shape, dtype)
                req = Request(step, kind, tuple(shape), np.dtype(dtype), last_read=step)
                table.append(req)
                owned[id(arr)] = req
                keep.append(arr)
                return arr

            return give

        for i, step in enumerate(self.plan):
            args = [None if n is None else env[n] for n in step.reads]
            for a in args:
                if isinstance(a, np.ndarray):
                    req = owned.get(id(_owner(a)))
                    if req is not None:
                        req.last_read = i
            buffered = BUFFERED_OPS.get(step.desc.type)
            if buffered is None:
                self._store(step, run_kernel(step.op, args, step.attrs, step.where), env)
            else:
                result, scratch = asker(i, "result"), asker(i, "scratch")
                self._store(step, self._call(buffered, step, args, result, scratch, self.layout_of[i]), env)
        for name in self.fetches:
            req = owned.get(id(_owner(env[name])))
            if req is not None:
                req.handed_out = True
        self.table = table
        self._assign_slots()

    def _assign_slots(self) -> None:
        """Greedy by first step: a request takes a slot of its dtype whose occupants all died before it starts."""
        ends: list[int] = []  # per slot: the last step its latest occupant is read at
        sizes: list[int] = []
        dtypes: list = []
        for req in self.table:
            if req.handed_out:
                continue
            size = req.nbytes // req.dtype.itemsize
            free = [s for s in range(len(ends)) if ends[s] < req.step and dtypes[s] == req.dtype]
            # best fit: the smallest free slot already large enough, else the largest free one (it grows)
            fits = [s for s in free if sizes[s] >= size]
            slot = min(fits, key=lambda s: sizes[s]) if fits else (max(free, key=lambda s: sizes[s]) if free else None)
            if slot is None:
                slot = len(ends)
                ends.append(-1)
                sizes.append(0)
                dtypes.append(req.dtype)
            ends[slot] = req.last_read
            sizes[slot] = max(sizes[slot], size)
            req.slot = slot
        self.slots = [np.empty(n, d) for n, d in zip(sizes, dtypes)]
        self.by_step: dict[int, list] = {}
        for req in self.table:
            if req.slot is not None:
                req.view = self.slots[req.slot][: req.nbytes // req.dtype.itemsize].reshape(req.shape)
            self.by_step.setdefault(req.step, []).append(req)

    # ---- later runs: the kernels write into the slots -----------------------------------------------------------

    def _replay(self, env: dict) -> None:
        by_step = self.by_step
        for i, step in enumerate(self.plan):
            args = [None if n is None else env[n] for n in step.reads]
            buffered = BUFFERED_OPS.get(step.desc.type)
            if buffered is None:
                out = run_kernel(step.op, args, step.attrs, step.where)
            else:
                reqs = iter(by_step.get(i, ()))

                def give(shape, dtype, reqs=reqs):
                    req = next(reqs, None)
                    shape = tuple(shape)
                    if req is None or req.view is None or req.shape != shape or req.dtype != dtype:
                        return np.empty(shape, dtype)  # not planned (handed out, or asked differently): a new one
                    return req.view

                out = self._call(buffered, step, args, give, give, self.layout_of[i])
            if type(out) is tuple:  # (Buffers._store, written out: a call less per step)
                for name, value in zip(step.writes, out):
                    env[name] = value
            else:
                env[step.writes[0]] = out

    @staticmethod
    def _call(buffered, step, args, result, scratch, layout):
        if layout is not None:
            layout.reading = tuple(args[1:])  # what the kept GEMM form is made from (all but x)
        try:
            out = buffered(args, step.attrs, result, scratch, layout)
        except _ERRORS as e:
            raise kernel_error(step.where, e, arrays=args) from e
        if PROCESS.check_nan_inf:
            check_finite(step.where, out)
        return out

    @staticmethod
    def _store(step, out, env: dict) -> None:
        if type(out) is tuple:
            for name, value in zip(step.writes, out):
                env[name] = value
        else:
            env[step.writes[0]] = out
