"""`paddle.jit.to_static`: StaticFunction, ConcreteProgram and the program cache.

    @paddle.jit.to_static
    def f(x):
        if x.mean() > 0:        # a Tensor condition: becomes a cond op
            x = x * 2
        return x

    f(paddle.rand([4]))         # converts f (once), builds a Program for this input's spec (once), runs it
    print(f.code)               # the transformed source
    print(f.main_program)       # the Program

A call goes: arguments -> InputSpecs (jit/function_spec.py) -> the cache key (specs, Python values, train/eval)
-> on a miss, a ConcreteProgram: the converted function (jit/ast_transform.py) traced in static mode into a new
Program, with the Layers' parameters lent to it (jit/partial_program.py) -> a PartialProgramLayer that runs it as
one run_program op inside dynamic autograd.
"""

from __future__ import annotations

import functools
import inspect
import threading
import types
import warnings
import weakref
from collections import OrderedDict

from minipaddle import ops
from minipaddle.core.state import PER_THREAD, STATE
from minipaddle.core.tensor import Tensor
from minipaddle.jit import logging_utils
from minipaddle.jit.ast_transform import convert_to_static, transform_function
from minipaddle.jit.dy2static.convert_operators import UndefinedVar
from minipaddle.jit.error import reraise_in_user_terms
from minipaddle.jit.function_spec import FunctionSpec, flat_inputs, spec_key
from minipaddle.jit.partial_program import BuildContext, PartialProgramLayer, guard_layer
from minipaddle.nn import Layer
from minipaddle.static.builder import enable_static
from minipaddle.static.framework import BuildStrategy
from minipaddle.static.input import InputSpec
from minipaddle.static.program import Program, Variable, program_guard
from minipaddle.tensor.array import TensorArray

MAX_TRACED_PROGRAM_COUNT = 10
_SWITCH = {"enabled": True}  # paddle.jit.enable_to_static: process-wide, as Paddle's ProgramTranslator singleton
_LOCAL = threading.local()


def enable_to_static(enable_to_static_bool: bool) -> None:
    """Turn to_static on (default) or off: when off, decorated functions run their dynamic-mode code.

    Example:
        >>> paddle.jit.enable_to_static(False)
    """
    if not isinstance(enable_to_static_bool, bool):
        raise TypeError(f"enable_to_static: expected a bool, got {type(enable_to_static_bool).__name__}")
    _SWITCH["enabled"] = enable_to_static_bool


def building() -> bool:
    """Whether a to_static Program is being traced on this thread."""
    return getattr(_LOCAL, "depth", 0) > 0


class _StaticModeOn:
    def __enter__(self):

        self.was = STATE.static_mode
        enable_static()
        _LOCAL.depth = getattr(_LOCAL, "depth", 0) + 1

    def __exit__(self, *exc):
        _LOCAL.depth -= 1
        STATE.static_mode = self.was
        return False


# ---- ConcreteProgram -----------------------------------------------------------------------------------------------


class ConcreteProgram:
    """One traced Program: its main and startup Programs, feed Variables (`inputs`), output Variables (`outputs`,
    flattened), the parameters and buffers it borrowed (`parameters`: [(Tensor, Variable)]) and the function."""

    def __init__(self, main_program, startup_program, inputs, outputs, output_structure, parameters, function):
        self.main_program = main_program
        self.startup_program = startup_program
        self.inputs = inputs
        self.outputs = outputs
        self.output_structure = output_structure
        self.parameters = parameters
        self.parameters_by_name = [(v.name, t) for t, v in parameters]
        self.function = function

    @classmethod
    def from_func_spec(cls, dygraph_function, bound, specs, class_instance, fn_name: str,
                       with_hook: bool = False) -> ConcreteProgram:  # fmt: skip
        main, startup = Program(), Program()
        converted = convert_to_static(dygraph_function)
        with program_guard(main, startup), _StaticModeOn(), BuildContext(main) as ctx:
            if class_instance is not None:
                if isinstance(class_instance, Layer):
                    ctx.guard(class_instance)
            feeds, used = [], set()
            args = {name: _feed(value, specs[name], main, feeds, used) for name, value in bound.arguments.items()}
            call_args, call_kwargs = _call_arguments(bound, args)
            if class_instance is not None:
                call_args = [class_instance] + call_args
            try:
                if with_hook and isinstance(class_instance, Layer):  # (jit.save: the Layer's hooks go in the Program)
                    result = _call_with_hooks(class_instance, converted, call_args[1:], call_kwargs)
                else:
                    result = converted(*call_args, **call_kwargs)
            except Exception as e:
                reraise_in_user_terms(e)
            outputs, structure = _flatten_outputs(result, fn_name)
        params = [(t, v) for t, v in ctx.captured if _used(main, v.name)]
        concrete = cls(main, startup, feeds, outputs, structure, params, dygraph_function)
        concrete.origins = ctx.origins
        return concrete


def _call_with_hooks(layer, converted, args, kwargs):
    """The converted forward between the Layer's forward pre- and post-hooks, as Layer.__call__ runs them."""
    inputs = tuple(args)
    for hook in list(layer._forward_pre_hooks.values()):
        changed = hook(layer, inputs)
        if changed is not None:
            inputs = changed if isinstance(changed, tuple) else (changed,)
    outputs = converted(layer, *inputs, **kwargs)
    for hook in list(layer._forward_post_hooks.values()):
        changed = hook(layer, inputs, outputs)
        if changed is not None:
            outputs = changed
    return outputs


def _feed(value, spec, program, feeds: list, used: set):
    """The argument as the traced function sees it: InputSpec leaves become feed Variables."""
    if isinstance(spec, InputSpec):
        name = spec.name or "feed"
        while name in used:
            name = f"{name}_{len(used)}"
        used.add(name)
        v = program.global_block().create_var(name, spec.shape, spec.dtype, stop_gradient=spec.stop_gradient,
                                              is_data=True)  # fmt: skip
        feeds.append(v)
        return v
    if isinstance(spec, (list, tuple)):
        return type(spec)(_feed(v, s, program, feeds, used) for v, s in zip(value, spec))
    if isinstance(spec, dict):
        return {k: _feed(value[k], spec[k], program, feeds, used) for k in spec}
    return value


def _call_arguments(bound, args: dict) -> tuple:
    pos, kw = [], {}
    for p in bound.signature.parameters.values():
        v = args[p.name]
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            pos.append(v)
        elif p.kind == p.VAR_POSITIONAL:
            pos.extend(v)
        elif p.kind == p.KEYWORD_ONLY:
            kw[p.name] = v
        else:
            kw.update(v)
    return pos, kw


def _flatten_outputs(result, fn_name: str) -> tuple:
    """(output Variables, the result's structure with ("out", i) at each Variable)."""

    outputs: list = []

    def walk(x):
        if isinstance(x, Variable):
            outputs.append(x)
            return ("__out__", len(outputs) - 1)
        if isinstance(x, TensorArray):  # returned as dynamic mode has it: a list, cut from the array's value
            if x.var is None:
                return []
            outputs.append(x.var)
            return ("__array__", len(outputs) - 1)
        if isinstance(x, (list, tuple)):
            return type(x)(walk(i) for i in x)
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, UndefinedVar):
            raise NameError(f"{fn_name}: the returned variable '{x.name}' has no value on every path")
        return x

    return outputs, walk(result)


def _restore(structure, values: list):
    if isinstance(structure, tuple) and len(structure) == 2 and structure[0] == "__out__":
        return values[structure[1]]
    if isinstance(structure, tuple) and len(structure) == 2 and structure[0] == "__array__":
        value = values[structure[1]]
        if isinstance(value, Variable):  # (traced inline into another converted function: still an array)
            return TensorArray(value.dtype, value)
        return list(ops.unstack(value, 0)) if value.shape[0] else []
    if isinstance(structure, (list, tuple)):
        return type(structure)(_restore(s, values) for s in structure)
    if isinstance(structure, dict):
        return {k: _restore(v, values) for k, v in structure.items()}
    return structure


def _used(program, name: str) -> bool:
    return any(name in d.input_names() or name in d.output_names() for b in program.blocks for d in b.ops)


# ---- StaticFunction -------------------------------------------------------------------------------------------------


class StaticFunction:
    """A function (or Layer method) converted by to_static. Call it like the original.

    Attributes: `code` (the transformed source), `main_program`, `concrete_program`, `program_cache`,
    `function_spec`, `dygraph_function`; methods `get_concrete_program(*args)`, `rollback()`, `get_traced_count()`.
    """

    def __init__(self, function, input_spec=None, **kwargs) -> None:
        if isinstance(function, types.MethodType):
            self._dygraph_function, self._class_instance = function.__func__, function.__self__
        else:
            self._dygraph_function, self._class_instance = function, None
        if not inspect.isfunction(self._dygraph_function):
            raise TypeError(f"to_static: expected a function, method or Layer, got {type(function).__name__}")
        self._input_spec = input_spec
        self._kwargs = kwargs
        self._property = kwargs.get("property", False)
        self._function_spec = FunctionSpec(self._dygraph_function, input_spec, self._class_instance is not None)
        self._program_cache: OrderedDict = OrderedDict()
        self._fast_cache: dict = {}
        self._recent_key = None
        self._calls: dict = {}  # cache key -> (bound arguments, specs) it was traced from
        self._descriptor_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._training = True
        functools.update_wrapper(self, self._dygraph_function)

    # -- binding to instances --

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        bound = self._descriptor_cache.get(instance)
        if bound is None:
            bound = StaticFunction(types.MethodType(self._dygraph_function, instance), self._input_spec,
                                   **self._kwargs)  # fmt: skip
            self._descriptor_cache[instance] = bound
        return bound

    # -- calling --

    def __call__(self, *args, **kwargs):
        if self._property or not _SWITCH["enabled"]:
            if not self._property:
                logging_utils.warn("The decorator '@paddle.jit.to_static' does NOT work when enable_to_static is "
                                   "False; the function runs in dynamic mode")  # fmt: skip
            return self._call_dygraph(*args, **kwargs)
        if building():  # called from another function being traced: trace this one inline
            return self._inline_callable()(*args, **kwargs)
        if PER_THREAD.__dict__["state"].static_mode:  # (STATE.static_mode's fast path: this runs every call)
            raise RuntimeError(
                f"Failed to run the callable object {self._dygraph_function.__name__} decorated by "
                "'@paddle.jit.to_static', because it is NOT in dynamic mode. Please disable the static graph mode "
                "to enter dynamic mode with the following API: paddle.disable_static()."
            )
        training = self._is_train_mode()
        fast = self._fast_key(args, kwargs, training)
        entry = self._fast_cache.get(fast) if fast is not None else None
        if entry is not None:  # Tensors only, seen before with these shapes and dtypes: no binding, no specs
            concrete, partial, self._recent_key = entry
            inputs = list(args)
        else:
            bound, specs = self._function_spec.args_to_input_spec(args, kwargs)
            concrete, partial = self._get(bound, specs)
            inputs = []
            for name, value in bound.arguments.items():
                inputs += flat_inputs(value, specs[name])
            if fast is not None:
                self._fast_cache[fast] = (concrete, partial, self._recent_key)
        partial.training = training
        return _restore(concrete.output_structure, partial(inputs))

    def _fast_key(self, args, kwargs, training: bool):
        """For a call with only Tensor positional arguments filling the signature: a key of their shapes, dtypes
        and stop_gradient flags (else None: the general path binds the arguments)."""
        if kwargs or len(args) != self._function_spec.n_positional:
            return None
        key = []
        for a in args:
            if type(a) is not Tensor:
                return None
            key.append((a._data.shape, a._data.dtype, a.stop_gradient))
        return (tuple(key), training)

    def _call_dygraph(self, *args, **kwargs):
        if self._class_instance is not None:
            return self._dygraph_function(self._class_instance, *args, **kwargs)
        return self._dygraph_function(*args, **kwargs)

    def _inline_callable(self):
        converted = convert_to_static(self._dygraph_function)
        if self._class_instance is not None:
            if isinstance(self._class_instance, Layer):
                guard_layer(self._class_instance)
            return types.MethodType(converted, self._class_instance)
        return converted

    def _is_train_mode(self) -> bool:
        if self._class_instance is not None and hasattr(self._class_instance, "training"):
            return bool(self._class_instance.training)
        return self._training

    def _get(self, bound, specs, with_hook: bool = False):
        training = self._is_train_mode()
        key = (tuple((n, spec_key(s)) for n, s in specs.items()), training) + (("with_hook",) if with_hook else ())
        entry = self._program_cache.get(key)
        if entry is None:
            name = self._dygraph_function.__name__
            concrete = ConcreteProgram.from_func_spec(self._dygraph_function, bound, specs, self._class_instance, name,
                                                      with_hook)  # fmt: skip
            entry = (concrete, PartialProgramLayer(concrete))
            self._program_cache[key] = entry
            if len(self._program_cache) > MAX_TRACED_PROGRAM_COUNT:
                logging_utils.warn(
                    f"Current traced program number: {len(self._program_cache)} > `max_tracing_count`:"
                    f"{MAX_TRACED_PROGRAM_COUNT}. Too much cached programs will bring expensive overhead. The reason "
                    "may be: (1) passing tensors with different shapes, (2) passing python objects instead of tensors."
                )
        self._program_cache.move_to_end(key)
        if not with_hook:  # (a program with the hooks is for jit.save only, never the one calls use)
            self._recent_key = key
            self._calls[key] = (bound, specs)
        return entry

    # -- Paddle's introspection --

    def get_concrete_program(self, *args, **kwargs) -> tuple:
        """(ConcreteProgram, PartialProgramLayer) for these arguments (InputSpecs, Tensors or values)."""
        with_hook = bool(kwargs.pop("with_hook", False))
        for k in ("is_train", "is_prim_infer"):
            kwargs.pop(k, None)
        if not args and not kwargs and self._input_spec is not None:
            args = tuple(self._input_spec)
        bound, specs = self._function_spec.args_to_input_spec(args, kwargs)
        return self._get(bound, specs, with_hook)

    def concrete_program_specify_input_spec(self, input_spec=None, with_hook: bool = False, is_prim_infer=False):
        """The ConcreteProgram for `input_spec` (or the decorator's), else the most recently used one (jit.save)."""
        if self._input_spec is not None:
            if input_spec is not None and not _specs_compatible(input_spec, self._input_spec):
                raise ValueError(
                    f"The `input_spec`: {input_spec} used to construct concrete_program is conflict with the "
                    f"`input_spec`: {self._input_spec} in `@paddle.jit.to_static`"
                )
            input_spec = self._input_spec
        if input_spec is not None:
            return self.get_concrete_program(*input_spec, with_hook=with_hook)[0]
        if self._recent_key is None:
            raise ValueError(
                f"No valid transformed program for {self._function_spec}.\n\t    Please specific `input_spec` in "
                "`@paddle.jit.to_static` or feed input tensor to call the decorated function at once.\n"
            )
        if len(self._program_cache) > 1:
            logging_utils.warn("Current function has more than one cached programs; the last traced one is used")
        if with_hook:
            return self._get(*self._calls[self._recent_key], with_hook=True)[0]
        return self._program_cache[self._recent_key][0]

    @property
    def concrete_program(self) -> ConcreteProgram:
        return self.concrete_program_specify_input_spec()

    @property
    def main_program(self) -> Program:
        return self.concrete_program.main_program

    @property
    def inputs(self) -> list:
        return self.concrete_program.inputs

    @property
    def outputs(self) -> list:
        return self.concrete_program.outputs

    @property
    def code(self) -> str:
        """The transformed source code."""
        return transform_function(self._dygraph_function).code

    @property
    def code_stages(self) -> list:
        """The source after each transformer, for reading (and for viz.show_to_static): a list of
        (transformer name, level, what it rewrites, source), starting with the original function (level 0)."""
        return list(transform_function(self._dygraph_function).stages)

    @property
    def dygraph_function(self):
        if self._class_instance is not None:
            return types.MethodType(self._dygraph_function, self._class_instance)
        return self._dygraph_function

    @property
    def program_cache(self):
        return self._program_cache

    @property
    def function_spec(self) -> FunctionSpec:
        return self._function_spec

    def get_traced_count(self) -> int:
        return len(self._program_cache)

    def _forget_traced_programs(self) -> None:
        """Drop every traced Program: the next call or jit.save traces again (the Layer's sublayers changed,
        e.g. quantization's convert swapped its quanters for fixed quantize / dequantize layers)."""
        self._program_cache.clear()
        self._fast_cache.clear()
        self._calls.clear()
        self._recent_key = None
        for bound in list(self._descriptor_cache.values()):
            bound._forget_traced_programs()

    def rollback(self):
        """Undo to_static: the Layer's methods (and its sublayers') are the plain ones again; returns the original."""
        instance = self._class_instance
        if instance is None:
            return self._dygraph_function

        layers = instance.sublayers(include_self=True) if isinstance(instance, Layer) else [instance]
        for layer in layers:
            for name, original in layer.__dict__.pop("_original_funcs", {}).items():
                layer.__dict__.pop(name, None)
                if isinstance(getattr(type(layer), name, None), StaticFunction):
                    layer.__dict__[name] = types.MethodType(original, layer)
        name = self._dygraph_function.__name__
        if isinstance(getattr(type(instance), name, None), StaticFunction):
            instance.__dict__[name] = types.MethodType(self._dygraph_function, instance)
        return getattr(instance, name)

    def train(self) -> None:
        if self._class_instance is not None:
            raise RuntimeError("Failed to switch train mode: call train() on the Layer, not on its to_static method")
        self._training = True

    def eval(self) -> None:
        if self._class_instance is not None:
            raise RuntimeError("Failed to switch eval mode: call eval() on the Layer, not on its to_static method")
        self._training = False

    def __deepcopy__(self, memo):
        return self

    def __repr__(self) -> str:
        return f"<StaticFunction of {self._dygraph_function.__qualname__}>"


def _specs_compatible(a, b) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, InputSpec) and isinstance(y, InputSpec):
            if len(x.shape) != len(y.shape) or x.dtype != y.dtype:
                return False
            if any(p not in (-1, q) and q != -1 for p, q in zip(x.shape, y.shape)):
                return False
    return True


# ---- to_static ------------------------------------------------------------------------------------------------------


def to_static(function=None, input_spec=None, build_strategy=None, backend=None, **kwargs):
    """Convert a dynamic-mode function, method or Layer into one that runs as a static Program.

    minipaddle has one translator, the AST one (Paddle's `full_graph=True`): `full_graph` is accepted and always
    true. The function's Python source is rewritten so that `if`/`while`/`for` on Tensors, `break`, `continue`,
    `return` inside them, `and`/`or`/`not`, `print`, `assert`, `len` and `int()/float()/bool()` casts become ops;
    control flow on Python values stays Python (loops unroll). Called user functions and Layers are converted
    too; `@paddle.jit.not_to_static` keeps one as it is. Not convertible: generators (`yield`), async code,
    writes to `global` variables inside control flow, and control flow on Tensors inside `try`.

    Args:
        function: a function, a Layer's method, or a Layer instance (its forward is converted).
        input_spec: a list of paddle.static.InputSpec (None/-1 dimensions are sizes known only at run time).
        build_strategy: a paddle.static.BuildStrategy (accepted; minipaddle compiles one plan whatever it says).
        backend: None or 'CINN' (accepted; minipaddle runs its numpy kernels).

    Returns:
        A StaticFunction (or the Layer, whose forward is now one).

    Example:
        >>> @paddle.jit.to_static
        ... def f(x):
        ...     return x * 2 if x.mean() > 0 else x - 1
    """
    if backend not in (None, "CINN"):
        raise ValueError(f"to_static: backend must be None or 'CINN', got {backend!r}")
    if build_strategy is not None:
        if not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"to_static: build_strategy must be a paddle.static.BuildStrategy, got "
                            f"{type(build_strategy).__name__}")  # fmt: skip
    unknown = set(kwargs) - {"property", "full_graph"}
    if unknown:
        raise TypeError(f"to_static: unexpected keyword arguments {sorted(unknown)}")
    if kwargs.get("full_graph") is False:
        warnings.warn("to_static: minipaddle has only the AST translator; full_graph=False is treated as True",
                      stacklevel=2)  # fmt: skip
    options = {k: v for k, v in kwargs.items() if k == "property"}

    def decorate(fn):

        if isinstance(fn, Layer):
            current = fn.__dict__.get("forward") or type(fn).forward
            if isinstance(current, StaticFunction):
                logging_utils.warn(f"`{type(fn).__name__}.forward` has already been decorated somewhere. It will be "
                                   "redecorated to replace previous one.")  # fmt: skip
                original = current._dygraph_function
            else:
                original = current
            fn.__dict__.setdefault("_original_funcs", {})["forward"] = original
            fn.__dict__["forward"] = StaticFunction(types.MethodType(original, fn), input_spec, **options)
            return fn
        if isinstance(fn, StaticFunction):
            fn = fn.dygraph_function
        if not callable(fn):
            raise TypeError(f"to_static: expected a function or Layer, got {type(fn).__name__}")
        return StaticFunction(fn, input_spec, **options)

    return decorate if function is None else decorate(function)
