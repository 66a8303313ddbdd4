"""The predictor: a saved model loaded once, optimized by the IR passes, run many times.

    create_predictor(config)
      ir_graph_build_pass   load the Program and its weights (static.load_inference_model) into the
                            predictor's own Scope
      ir_analysis_pass      run the IR passes of config.pass_builder() in order (inference/passes/)
      inference_op_replace_pass  max_pool with an unread mask -> max_pool_infer
      memory_optimize_pass  with enable_memory_optim(): temporaries share buffers
      ir_graph_to_program   compile the final Program once into the Executor's flat plan

    predictor.run()         feed the input handles' arrays, run the plan, fill the output handles

Each step is recorded in `predictor.pass_log()` (name, ops before and after, what it did, and with
switch_ir_debug(True) the Program after it), which is what viz.draw_passes draws. Clones and PredictorPool
members share the optimized Program, its plan and the weights; each has its own handles and intermediate
arrays, so they run in threads at once.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from dataclasses import dataclass, field

import numpy as np

from minipaddle.core.state import op_hook
from minipaddle.core.tensor import Tensor as PaddleTensor
from minipaddle.inference.buffers import Buffers
from minipaddle.inference.config import Config
from minipaddle.inference.handle import Tensor
from minipaddle.inference.passes import (
    IR_PASSES,
    UNMATCHED,
    PassContext,
    inference_op_replace_pass,
    memory_optimize_pass,
)
from minipaddle.inference.profile import ProfileHook, profile_report
from minipaddle.static.executor import Executor, Scope, compile_block, run_plan, scope_guard
from minipaddle.static.files import arrays_to_bytes, atomic_write
from minipaddle.static.io import load_inference_model
from minipaddle.static.serialize import program_to_bytes

__all__ = ["PassStep", "Predictor", "PredictorPool", "create_predictor"]

_LOAD_LOCK = threading.Lock()  # scope_guard's stack is shared: one load at a time


@dataclass
class PassStep:
    """One stage of a predictor's optimization: which pass, the op counts around it, what it did."""

    name: str
    ops_before: int
    ops_after: int
    seconds: float = 0.0
    notes: list = field(default_factory=list)
    program: object = None  # the Program after this step (kept with Config.switch_ir_debug(True))
    ran: bool = True  # False for a pass in the list that has nothing to match in minipaddle

    def __repr__(self) -> str:
        what = "; ".join(self.notes) if self.notes else ("" if self.ran else "nothing to match")
        return f"PassStep({self.name}: {self.ops_before} -> {self.ops_after} ops{', ' + what if what else ''})"


def _op_count(program) -> int:
    return len(program.global_block().ops)


def _read(path: str, what: str) -> bytes:
    if not path or not os.path.isfile(path):
        raise RuntimeError(f"create_predictor: (NotFound) Cannot open {what} {path!r}, please confirm whether the "
                           "file is normal.")  # fmt: skip
    with open(path, "rb") as f:
        return f.read()


class _Model:
    """What a predictor and its clones share: the optimized Program, its plan, the weights, the pass log."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.scope = Scope()
        log = config._glog_info
        t0 = time.perf_counter()
        if config.model_from_memory():
            model, params = config._buffers
        else:
            prog_file, params_file = config._model_files()
            model, params = _read(prog_file, "the model file"), _read(params_file, "the params file")
        with _LOAD_LOCK, scope_guard(self.scope):
            program, feeds, fetches = load_inference_model(None, Executor(), model_filename=model,
                                                           params_filename=params)  # fmt: skip
        self.feeds = list(feeds)
        self.fetches = [v.name for v in fetches]
        loaded = PassStep("ir_graph_build_pass", 0, _op_count(program), time.perf_counter() - t0,
                          [f"{_op_count(program)} ops loaded"], program if config._ir_debug else None)  # fmt: skip
        self.steps = [loaded]
        if log:
            print("--- Running analysis [ir_graph_build_pass]", file=sys.stderr)
        if config._ir_optim:
            if log:
                print("--- Running analysis [ir_analysis_pass]", file=sys.stderr)
            for name in config.pass_builder().all_passes():
                program = self._run_pass(name, IR_PASSES.get(name), program, log)
        if log:
            print("--- Running analysis [inference_op_replace_pass]", file=sys.stderr)
        program = self._run_pass("inference_op_replace_pass", inference_op_replace_pass, program, False)
        if config._memory_optim:
            if log:
                print("--- Running analysis [memory_optimize_pass]", file=sys.stderr)
            program = self._run_pass("memory_optimize_pass", memory_optimize_pass, program, False)
        self.program = program
        self.plan = compile_block(program, 0)
        if config._save_optim_model and config._optim_cache_dir:
            self._save_optimized(config._optim_cache_dir)
        if log:
            print("--- Running analysis [ir_graph_to_program_pass]", file=sys.stderr)

    def _run_pass(self, name: str, fn, program, log: bool):
        before = _op_count(program)
        if fn is None:  # one of paddle's passes with nothing to match here (passes.UNMATCHED says why)
            self.steps.append(PassStep(name, before, before, 0.0, [UNMATCHED[name]], None, ran=False))
            return program
        if log:
            print(f"--- Running IR pass [{name}]", file=sys.stderr)
        ctx = PassContext(self.scope, self.fetches)
        t0 = time.perf_counter()
        new = fn(program, ctx)
        debug = self.config._ir_debug or self.config.pass_builder()._debug
        self.steps.append(PassStep(name, before, _op_count(new), time.perf_counter() - t0, ctx.notes,
                                   new if debug else None))  # fmt: skip
        return new

    def _save_optimized(self, directory: str) -> None:
        os.makedirs(directory, exist_ok=True)
        block = self.program.global_block()
        values = {n: np.asarray(self.scope.vars[n]) for n, v in block.vars.items()
                  if v.persistable and n in self.scope.vars}  # fmt: skip
        atomic_write(os.path.join(directory, "_optimized.pdiparams"), arrays_to_bytes(values))
        atomic_write(os.path.join(directory, "_optimized.pdmodel"), program_to_bytes(self.program, self.feeds,
                                                                                      self.fetches))  # fmt: skip


class Predictor:
    """Runs one optimized inference model. Make it with create_predictor(config)."""

    def __init__(self, model: _Model) -> None:
        self._model = model
        block = model.program.global_block()
        self._inputs = {n: Tensor(n, block.var(n).dtype.np, True) for n in model.feeds}
        self._outputs = {n: Tensor(n, block.var(n).dtype.np, False) for n in model.fetches}
        self._env: dict | None = None  # the last run's arrays (paddle keeps them in the predictor's scope)
        self._hooks: list = []
        straight = all(step.sub_plans is None for step in model.plan)  # control flow runs through run_plan
        reuse = model.config._memory_optim and straight
        self._buffers = Buffers(model.plan, model.fetches, frozenset(model.scope.vars)) if reuse else None
        self._profile: dict = {}  # op type -> OpStats, with Config.enable_profile()
        if model.config._profile:  # paddle prints the report when the predictor is destroyed
            weakref.finalize(self, _print_report, self._profile)

    # ---- names and handles --------------------------------------------------------------------------------------

    def get_input_names(self) -> list:
        return list(self._model.feeds)

    def get_output_names(self) -> list:
        return list(self._model.fetches)

    def get_input_handle(self, name: str) -> Tensor:
        if name not in self._inputs:
            raise ValueError(f"Predictor.get_input_handle: no input {name!r}; the inputs are {self.get_input_names()}")
        return self._inputs[name]

    def get_output_handle(self, name: str) -> Tensor:
        if name not in self._outputs:
            raise ValueError(f"Predictor.get_output_handle: no output {name!r}; the outputs are "
                             f"{self.get_output_names()}")  # fmt: skip
        return self._outputs[name]

    # ---- running ------------------------------------------------------------------------------------------------

    def run(self, inputs=None):
        """Run the model on the input handles' arrays; the results go to the output handles. Returns None.

        run(list_of_paddle_Tensors) instead takes the inputs in get_input_names() order and returns the outputs
        as a list of paddle Tensors (paddle 2.6's wrapper overload)."""
        if inputs is not None:
            if not isinstance(inputs, (list, tuple)) or len(inputs) != len(self._inputs):
                raise ValueError(f"Predictor.run: expected a list of {len(self._inputs)} Tensors (one per input "
                                 f"{self.get_input_names()}), got {inputs!r}")  # fmt: skip
            for name, t in zip(self._model.feeds, inputs):
                arr = t.numpy() if isinstance(t, PaddleTensor) else t
                if not isinstance(arr, np.ndarray):
                    raise TypeError(f"Predictor.run: inputs must be paddle Tensors, got {type(t).__name__}")
                self._inputs[name].copy_from_cpu(arr)
        self._run()
        if inputs is not None:
            return [PaddleTensor(self._outputs[n]._array) for n in self._model.fetches]
        return None

    def _run(self) -> None:
        model = self._model
        self._env = None  # the last run's arrays go now, not after this run has made its own
        env = dict(model.scope.vars)
        block = model.program.global_block()
        for name, h in self._inputs.items():
            if h._array is None:
                raise RuntimeError(f"Predictor.run: input {name!r} has no data; call "
                                   f"get_input_handle({name!r}).copy_from_cpu(array) first")  # fmt: skip
            shape = block.var(name).shape
            arr = h._array
            if arr.ndim != len(shape) or not _fits(shape, arr.shape):
                raise ValueError(f"Predictor.run: input {name!r} has shape {list(arr.shape)}, but the model takes "
                                 f"{list(shape)} (-1: any size)")  # fmt: skip
            env[name] = arr
        with _math_threads(model.config._math_threads):
            if model.config._profile:  # the timer on this thread's op door, for this run only
                with op_hook(ProfileHook(self._profile)):
                    self._run_plan(env)
            else:
                self._run_plan(env)
        for name, h in self._outputs.items():
            h._array = env[name]
            h._shape = list(env[name].shape)
        self._env = env

    def _run_plan(self, env: dict) -> None:
        if self._buffers is not None and not self._hooks and not self._model.config._profile:
            signature = tuple((env[n].shape, env[n].dtype) for n in self._model.feeds)
            self._buffers.run(env, signature)  # the fused ops write into the reused arrays (inference/buffers.py)
            return
        if not self._hooks:
            run_plan(self._model.plan, env)
            return
        for step in self._model.plan:  # one step at a time, for the output hooks
            run_plan([step], env)
            for hook in self._hooks:
                for name in step.desc.output_names():
                    if name in env:
                        hook(step.desc.type, name, PaddleTensor(env[name]))

    def register_output_hook(self, hookfunc) -> None:
        """Call hookfunc(op_type, var_name, tensor) after every op with each result it wrote."""
        if not callable(hookfunc):
            raise TypeError(f"Predictor.register_output_hook: hookfunc must be callable, got {type(hookfunc).__name__}")
        self._hooks.append(hookfunc)

    def clone(self, stream=None) -> Predictor:
        """Another predictor on the same optimized model and weights, with its own handles and buffers."""
        return Predictor(self._model)

    def clear_intermediate_tensor(self) -> None:
        """Drop the last run's intermediate arrays (the outputs stay in their handles)."""
        self._env = None

    def try_shrink_memory(self) -> int:
        """Release the last run's intermediate arrays; returns how many bytes they held."""
        if self._env is None:
            return 0
        held = {id(a): a.nbytes for n, a in self._env.items()
                if n not in self._model.scope.vars and isinstance(a, np.ndarray)}  # fmt: skip
        outputs = {id(h._array) for h in (*self._inputs.values(), *self._outputs.values())}
        self._env = None
        return int(sum(b for i, b in held.items() if i not in outputs))

    # ---- introspection (minipaddle's) ---------------------------------------------------------------------------

    def pass_log(self) -> list:
        """The optimization steps, each a PassStep (name, ops before/after, notes, Program with ir_debug)."""
        return list(self._model.steps)

    def optimized_program(self):
        """The Program this predictor runs (after the passes)."""
        return self._model.program

    def profile_report(self) -> str:
        """With Config.enable_profile(): paddle's profiling report of the runs so far (what is printed when the
        predictor is destroyed)."""
        if not self._model.config._profile:
            raise RuntimeError("Predictor.profile_report: call config.enable_profile() before create_predictor")
        return profile_report(self._profile)

    def __repr__(self) -> str:
        return f"<paddle.inference.Predictor inputs={self.get_input_names()} outputs={self.get_output_names()}>"


def _fits(declared: tuple, shape: tuple) -> bool:
    """Whether an input's shape is the declared one, -1 taking any size (a loop: no generator call every run)."""
    for d, s in zip(declared, shape):
        if d != -1 and d != s:
            return False
    return True


def _print_report(stats: dict) -> None:
    if stats:  # a predictor that never ran has nothing to report
        print(profile_report(stats), end="", flush=True)


class _math_threads:
    """Limit the BLAS library to n threads while the predictor computes (threadpoolctl), then restore it."""

    _controllers = None

    def __init__(self, n: int) -> None:
        self.n = n
        self.saved: list = []

    def __enter__(self):
        if _math_threads._controllers is None:
            from threadpoolctl import ThreadpoolController

            _math_threads._controllers = [c for c in ThreadpoolController().lib_controllers if c.user_api == "blas"]
        for c in _math_threads._controllers:
            current = c.get_num_threads()
            if current != self.n:
                self.saved.append((c, current))
                c.set_num_threads(self.n)
        return self

    def __exit__(self, *exc) -> None:
        for c, n in self.saved:
            c.set_num_threads(n)


def create_predictor(config: Config) -> Predictor:
    """Load and optimize the model `config` names; one Config backs one predictor (use clone() or a
    PredictorPool for more).

    Example:
        >>> predictor = paddle.inference.create_predictor(paddle.inference.Config("m.pdmodel", "m.pdiparams"))
    """
    if not isinstance(config, Config):
        raise TypeError(f"create_predictor: config must be a paddle.inference.Config, got {type(config).__name__}")
    if config._used:
        raise ValueError("create_predictor: (InvalidArgument) Note: Each config can only be used for one predictor.")
    predictor = Predictor(_Model(config))
    config._used = True
    return predictor


class PredictorPool:
    """`size` predictors on one model (the first made from config, the others its clones), for serving from
    several threads: each thread takes its own with retrive(i)."""

    def __init__(self, config: Config, size: int = 1) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"PredictorPool: size must be an int >= 1, got {size!r}")
        first = create_predictor(config)
        self._predictors = [first] + [first.clone() for _ in range(size - 1)]

    def retrive(self, idx: int) -> Predictor:
        """The idx-th predictor (paddle's spelling)."""
        if isinstance(idx, bool) or not isinstance(idx, int) or not 0 <= idx < len(self._predictors):
            raise IndexError(f"PredictorPool.retrive: idx must be from 0 to {len(self._predictors) - 1}, got {idx!r}")
        return self._predictors[idx]
