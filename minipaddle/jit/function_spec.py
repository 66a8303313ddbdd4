"""From a call's arguments to what a Program is built for: each Tensor or ndarray argument becomes an InputSpec
(given by the user's `input_spec`, or taken from the value), other values stay Python and become part of the
cache key (Paddle's FunctionSpec)."""

from __future__ import annotations

import inspect

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.static.input import InputSpec


class FunctionSpec:
    """The signature of a to_static function (without `self` for methods) and its input_spec."""

    def __init__(self, function, input_spec=None, is_method: bool = False) -> None:
        self.function = function
        sig = inspect.signature(function)
        params = list(sig.parameters.values())
        if is_method and params:
            params = params[1:]
        self.signature = sig.replace(parameters=params)
        if input_spec is not None:
            if not isinstance(input_spec, (list, tuple)):
                raise TypeError(
                    f"to_static: input_spec must be a list or tuple of InputSpec, got {type(input_spec).__name__}"
                )
            input_spec = [InputSpec.from_tensor(s) if isinstance(s, Tensor) else s for s in input_spec]
        self.input_spec = input_spec

    def __repr__(self) -> str:
        return f"function: {self.function.__name__}{self.signature}, input_spec: {self.input_spec}"

    def bind(self, args, kwargs) -> inspect.BoundArguments:
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.function.__name__}() {e}") from None
        bound.apply_defaults()
        return bound

    def args_to_input_spec(self, args, kwargs) -> tuple:
        """(bound arguments, {name: spec structure}) where Tensors/ndarrays are replaced by InputSpecs."""
        bound = self.bind(args, kwargs)
        specs = {}
        given = list(self.input_spec) if self.input_spec is not None else []
        positional = [p.name for p in self.signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]  # fmt: skip
        for name, value in bound.arguments.items():
            spec = None
            if name in positional and positional.index(name) < len(given):
                spec = given[positional.index(name)]
            specs[name] = _to_spec(value, spec, name, self.function.__name__)
        return bound, specs


def _to_spec(value, spec, name: str, fn: str):
    if isinstance(spec, InputSpec):
        if isinstance(value, InputSpec):
            return InputSpec(spec.shape, spec.dtype, spec.name or name, spec.stop_gradient)
        if not isinstance(value, (Tensor, np.ndarray)):
            raise TypeError(f"{fn}: argument '{name}' has the InputSpec {spec}, so it must be a Tensor, got "
                            f"{type(value).__name__}")  # fmt: skip
        check_compatible(value, spec, name, fn)
        return InputSpec(spec.shape, spec.dtype, spec.name or name, spec.stop_gradient)
    if isinstance(value, InputSpec):
        return InputSpec(value.shape, value.dtype, value.name or name, value.stop_gradient)
    if isinstance(value, Tensor):
        return InputSpec(value.shape, value.dtype, name, value.stop_gradient)
    if isinstance(value, np.ndarray):
        return InputSpec.from_numpy(value, name)
    if isinstance(value, (list, tuple)):
        subs = spec if isinstance(spec, (list, tuple)) else [None] * len(value)
        return type(value)(_to_spec(v, s, f"{name}_{i}", fn) for i, (v, s) in enumerate(zip(value, subs)))
    if isinstance(value, dict):
        subs = spec if isinstance(spec, dict) else {}
        return {k: _to_spec(v, subs.get(k), str(k), fn) for k, v in value.items()}
    return value


def check_compatible(value, spec: InputSpec, name: str, fn: str) -> None:
    """A Tensor given for an InputSpec must have its rank, dtype and fixed sizes (ValueError naming the argument)."""
    shape = list(value.shape)
    from minipaddle.core import dtype as dtypes

    dtype = value.dtype if isinstance(value, Tensor) else dtypes.from_numpy(value.dtype)
    fits = len(shape) == len(spec.shape) and all(s in (-1, d) for s, d in zip(spec.shape, shape))
    if not fits or dtype != spec.dtype:
        raise ValueError(
            f"{fn}: argument '{name}' has shape {shape} and dtype {dtype.name}, but its InputSpec expects shape "
            f"{list(spec.shape)} and dtype {spec.dtype.name}"
        )


def spec_key(structure):
    """A hashable form of a spec structure (InputSpec by shape and dtype, as Paddle's hash ignores the name)."""
    if isinstance(structure, InputSpec):
        return ("InputSpec", tuple(structure.shape), structure.dtype.name, structure.stop_gradient)
    if isinstance(structure, (list, tuple)):
        return (type(structure).__name__, tuple(spec_key(s) for s in structure))
    if isinstance(structure, dict):
        return ("dict", tuple((k, spec_key(v)) for k, v in sorted(structure.items(), key=lambda kv: str(kv[0]))))
    try:
        hash(structure)
    except TypeError:
        raise ValueError(
            f"to_static: arguments that are not Tensors must be hashable Python values (they are part of the "
            f"Program's cache key), got {type(structure).__name__}"
        ) from None
    return ("value", type(structure).__name__, structure)


def flat_inputs(values, structure) -> list:
    """The argument values at the InputSpec leaves of `structure`, in order (ndarrays as Tensors)."""
    out = []
    if isinstance(structure, InputSpec):
        out.append(values if isinstance(values, Tensor) else Tensor(np.asarray(values)))
    elif isinstance(structure, (list, tuple)):
        for v, s in zip(values, structure):
            out += flat_inputs(v, s)
    elif isinstance(structure, dict):
        for k in structure:
            out += flat_inputs(values[k], structure[k])
    return out
