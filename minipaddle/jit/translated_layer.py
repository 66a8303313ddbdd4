"""`paddle.jit.load` and TranslatedLayer: a saved model back as a Layer, callable in dynamic mode.

    loaded = paddle.jit.load("out/model")    # reads out/model.pdmodel, .pdiparams, .pdiparams.info; runs no code
    y = loaded(x)                            # the saved Program, run as one run_program op
    loaded.program()                         # the Program (drawable with viz)

Fine-tuning works: the parameters are Parameters of the TranslatedLayer (`param_0`, `param_1`, ... in the
order of their variable names, as Paddle names them), and gradients reach them through run_program, so an
optimizer changes them. (paddle 2.6.2 promises this in its docs but gives no gradients on CPU; minipaddle keeps
the promise.) The saved Program is the inference one, so train() changes only whether gradients are computed:
dropout stays off and batch norm keeps using the saved statistics.
"""

from __future__ import annotations

import json
import os

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.core.tensor import Parameter, Tensor
from minipaddle.jit.partial_program import ProgramRunner
from minipaddle.jit.saving import INFO_SUFFIX
from minipaddle.nn import Layer
from minipaddle.ops.run_program import run_program
from minipaddle.static.executor import Executor, Scope, scope_guard
from minipaddle.static.input import InputSpec
from minipaddle.static.io import load_inference_model
from minipaddle.static.pickle_reader import is_pickle, restricted_loads
from minipaddle.tensor.creation import to_tensor


def _read(prefix: str) -> tuple:
    """(program, feed names, fetch names, {var name: array}) through paddle.static.load_inference_model."""

    scope = Scope()
    with scope_guard(scope):
        program, feeds, fetches = load_inference_model(prefix, Executor())
    return program, feeds, [v.name for v in fetches], dict(scope.vars)


class TranslatedLayer(Layer):
    """A Layer made from a saved Program (paddle.jit.load). Starts in eval mode, as Paddle's."""

    def __init__(self, programs: dict, arrays: dict, info: dict) -> None:
        super().__init__()
        self._programs = programs
        self._by_var: dict[str, Tensor] = {}
        self._runners: dict = {}
        persistable = sorted({v.name: v for p, _, _ in programs.values() for v in p.list_vars()
                              if v.persistable and v.name in arrays}.items())  # fmt: skip
        n_param = n_buffer = 0
        for name, var in persistable:
            value = np.array(arrays[name])
            if var.is_parameter:
                trainable = info.get(name, {}).get("trainable", var.trainable)
                t = Parameter(value, name=name, trainable=trainable)
                self.add_parameter(f"param_{n_param}", t)
                n_param += 1
            else:
                t = Tensor(value)
                t.name = name
                self.register_buffer(f"buffer_{n_buffer}", t)
                n_buffer += 1
            self._by_var[name] = t
        for method in programs:
            if method != "forward":
                self.__dict__[method] = _Method(self, method)
        self.eval()

    def forward(self, *inputs):
        return self._run("forward", inputs)

    def _run(self, method: str, inputs):

        program, feeds, fetches = self._programs[method]
        if len(inputs) != len(feeds):
            raise TypeError(f"TranslatedLayer.{method}: expected {len(feeds)} inputs ({feeds}), got {len(inputs)}")
        block = program.global_block()
        xs = []
        for name, x in zip(feeds, inputs):
            t = x if isinstance(x, Tensor) else to_tensor(np.asarray(x))
            want = block.var(name).dtype
            if t.dtype != want:
                raise TypeError(f"TranslatedLayer.{method}: input '{name}' is {t.dtype.name}, expected {want.name}")
            xs.append(t)
        pnames = [n for n in self._by_var if block.has_var(n)]
        tensors = xs + [self._by_var[n] for n in pnames]
        need = STATE.grad_enabled and any(not t.stop_gradient for t in tensors)
        wanted = tuple(need and not t.stop_gradient for t in tensors)
        key = (method, self.training, wanted)
        runner = self._runners.get(key)
        if runner is None:
            runner = ProgramRunner(program, feeds + pnames, fetches, [], self.training, wanted)
            self._runners[key] = runner
        outs = run_program(tuple(tensors), runner)
        return outs[0] if len(outs) == 1 else list(outs)

    def program(self, method_name: str = "forward"):
        """The saved Program of `method_name` (without feed/fetch ops, as Paddle's)."""
        if method_name not in self._programs:
            raise ValueError(f"TranslatedLayer.program: no method {method_name!r}; saved: {sorted(self._programs)}")
        return self._programs[method_name][0]

    def _input_spec(self, method_name: str = "forward") -> list:

        program, feeds, _ = self._programs[method_name]
        block = program.global_block()
        return [InputSpec(block.var(n).shape, block.var(n).dtype, n) for n in feeds]

    def _output_spec(self, method_name: str = "forward") -> list:

        program, _, fetches = self._programs[method_name]
        block = program.global_block()
        return [InputSpec(block.var(n).shape, block.var(n).dtype, n) for n in fetches]


class _Method:
    def __init__(self, layer, name: str) -> None:
        self.layer, self.name = layer, name

    def __call__(self, *inputs):
        return self.layer._run(self.name, inputs)


def load(path, **configs) -> TranslatedLayer:
    """Load what paddle.jit.save wrote at the prefix `path` as a TranslatedLayer.

    Args:
        path: the 'directory/prefix' given to jit.save.
        configs: model_filename, params_filename (older directory-style models), keep_name_table (accepted).

    Example:
        >>> loaded = paddle.jit.load("./infer/net")
        >>> y = loaded(x)
    """
    if not isinstance(path, str):
        raise TypeError(f"jit.load: path must be a string, got {type(path).__name__}")
    unknown = set(configs) - {"model_filename", "params_filename", "keep_name_table"}
    if unknown:
        raise ValueError(f"jit.load: unknown configs {sorted(unknown)}")
    if not os.path.isfile(path + ".pdmodel"):
        raise ValueError(f"jit.load: no model at {path!r} (expected the file {path + '.pdmodel'})")
    programs, arrays = {}, {}
    program, feeds, fetches, values = _read(path)
    programs["forward"] = (program, feeds, fetches)
    arrays.update(values)
    directory, base = os.path.split(path)
    for f in sorted(os.listdir(directory or ".")):
        if f.startswith(base + ".") and f.endswith(".pdmodel") and f != base + ".pdmodel":
            method = f[len(base) + 1 : -len(".pdmodel")]
            p, fd, ft, vals = _read(os.path.join(directory, f[: -len(".pdmodel")]))
            programs[method] = (p, fd, ft)
            arrays.update(vals)
    info = {}
    if os.path.isfile(path + INFO_SUFFIX):
        with open(path + INFO_SUFFIX, "rb") as fh:
            data = fh.read()
        if is_pickle(data):  # Paddle's format (and minipaddle's since): read without running code
            info = restricted_loads(data)
        else:  # minipaddle's JSON of earlier saves
            try:
                info = json.loads(data.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                info = {}  # unreadable: the Program's own flags are used
        if not isinstance(info, dict) or not all(isinstance(v, dict) for v in info.values()):
            raise ValueError(f"jit.load: {path + INFO_SUFFIX} is not a dict of per-variable dicts")
    return TranslatedLayer(programs, arrays, info)
