"""`paddle.nn.Layer`: the base class of every model part.

A Layer owns three ordered tables, filled automatically when you assign attributes in `__init__`:
- `_parameters`: Parameters (`self.weight = self.create_parameter(...)`);
- `_sub_layers`: child Layers (`self.fc = nn.Linear(...)`), which make the tree `named_sublayers` walks;
- `_buffers`: Tensors that are state but not trained (BatchNorm's running statistics, via `register_buffer`).

Structured names come from that tree: the parameter `weight` of the child `0` of the child `features` is
`features.0.weight`, which is its key in `state_dict()`.

Calling a layer runs its forward pre-hooks, `forward`, and its post-hooks, inside `layer_scope(path)`
(core/state.py): every op run meanwhile records the layer's path (`features.0`) on its GradNode, so any graph can
be folded by layer. A layer learns its own name when its parent registers it (`_scope_name`); its path is that
name appended to the path of the layer that is running when it is called.
"""

from __future__ import annotations

import re
import warnings
from collections import OrderedDict

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import PER_THREAD, STATE, layer_scope, no_grad, unique_name
from minipaddle.core.tensor import Parameter, Tensor
from minipaddle.nn.param_attr import make_parameter
from minipaddle.profiler.events import RECORDING, layer_span

__all__ = ["Layer"]


def _camel_to_snake(name: str) -> str:
    """`BatchNorm1D` -> `batch_norm1d`, as Paddle names layers (and so their parameters)."""
    s = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", s).lower()


class HookRemoveHelper:
    """Returned by `register_forward_pre_hook` / `register_forward_post_hook`; `remove()` takes the hook off."""

    def __init__(self, hooks: OrderedDict) -> None:
        self._hooks = hooks
        self._hook_id = next(STATE.name_counters["layer_hook"])  # one counter for all layers, as Paddle's

    def remove(self) -> None:
        self._hooks.pop(self._hook_id, None)


class Layer:
    """The base class of layers and models. Subclass it, create parameters and sublayers in `__init__`, and
    write the computation in `forward`.

    Args:
        name_scope: the prefix of the layer's name and its parameters' names (default: the class name in
            snake case, so `MyNet` gets `my_net_0` and parameters `my_net_0.w_0`, ...).
        dtype: the dtype of the layer's parameters, reported by Linear's repr.

    Example:
        >>> class MLP(paddle.nn.Layer):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.hidden = paddle.nn.Linear(4, 8)
        ...         self.out = paddle.nn.Linear(8, 2)
        ...     def forward(self, x):
        ...         return self.out(paddle.nn.functional.relu(self.hidden(x)))
        >>> net = MLP()
        >>> list(net.state_dict())
        ['hidden.weight', 'hidden.bias', 'out.weight', 'out.bias']
    """

    def __init__(self, name_scope=None, dtype="float32"):
        self.training = True
        if name_scope is None:
            name_scope = _camel_to_snake(type(self).__name__)
        self._full_name = unique_name(name_scope)
        self._dtype = dtype
        self._scope_name = None  # this layer's name in the parent that registered it first
        self._parameters = OrderedDict()
        self._buffers = OrderedDict()
        self._non_persistable_buffer_names_set = set()
        self._sub_layers = OrderedDict()
        self._forward_pre_hooks = OrderedDict()
        self._forward_post_hooks = OrderedDict()
        self._state_dict_hooks = OrderedDict()

    # ---- running ------------------------------------------------------------------------------------------------

    def forward(self, *inputs, **kwargs):
        """The computation; every Layer subclass defines it."""
        raise TypeError(f"{type(self).__name__} does not define forward(); subclasses of Layer must define it")

    def __call__(self, *inputs, **kwargs):
        if RECORDING.recorder is not None:  # a paddle.profiler.Profiler records: time this call as a Forward event
            with layer_span(self):
                return self._call_in_scope(*inputs, **kwargs)
        return self._call_in_scope(*inputs, **kwargs)

    def _call_in_scope(self, *inputs, **kwargs):
        with layer_scope(self._scope_path()):
            if self._forward_pre_hooks:
                for hook in list(self._forward_pre_hooks.values()):
                    result = hook(self, inputs)
                    if result is not None:
                        inputs = result if isinstance(result, tuple) else (result,)
            outputs = self.forward(*inputs, **kwargs)
            if self._forward_post_hooks:
                for hook in list(self._forward_post_hooks.values()):
                    result = hook(self, inputs, outputs)
                    if result is not None:
                        outputs = result
        return outputs

    def _scope_path(self) -> str:
        """The structured path of this call, e.g. `features.0`: the name the parent gave this layer, appended to
        the path of the running layer. The layer called from the top has the path '' (like state_dict keys); a
        layer no parent registered goes by its full name (`linear_3`) inside another layer."""
        state = PER_THREAD.__dict__["state"]  # (thread_state(), inlined: this runs for every layer call)
        if not state.scope_stack:  # called from outside any layer
            return self._scope_name or ""
        name = self._scope_name if self._scope_name is not None else self._full_name
        return f"{state.scope}.{name}" if state.scope else name

    def backward(self, *inputs):
        raise ValueError("Layer shouldn't implement backward")

    def register_forward_pre_hook(self, hook) -> HookRemoveHelper:
        """Call `hook(layer, inputs)` before forward; a returned value (a tuple, or one value) replaces inputs."""
        helper = HookRemoveHelper(self._forward_pre_hooks)
        self._forward_pre_hooks[helper._hook_id] = hook
        return helper

    def register_forward_post_hook(self, hook) -> HookRemoveHelper:
        """Call `hook(layer, inputs, outputs)` after forward; a returned value replaces the outputs."""
        helper = HookRemoveHelper(self._forward_post_hooks)
        self._forward_post_hooks[helper._hook_id] = hook
        return helper

    def train(self) -> None:
        """Put this layer and all sublayers in training mode (Dropout drops, BatchNorm uses batch statistics)."""
        for layer in self.sublayers(include_self=True):
            layer.training = True

    def eval(self) -> None:
        """Put this layer and all sublayers in evaluation mode (Dropout passes through, BatchNorm uses the
        running statistics)."""
        for layer in self.sublayers(include_self=True):
            layer.training = False

    def apply(self, fn):
        """Call `fn(layer)` on every sublayer (children first) and then on this layer; returns self."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    def full_name(self) -> str:
        """The layer's unique name, e.g. `linear_0` (the prefix of its parameters' names)."""
        return self._full_name

    # ---- parameters, buffers, sublayers --------------------------------------------------------------------

    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False, default_initializer=None):
        """Create a Parameter named `<full_name>.w_N` (`.b_N` for a bias) and initialize it.

        Args:
            shape: a list of positive ints.
            attr: a ParamAttr (name, initializer, learning_rate, regularizer, trainable), or False for none.
            dtype: default: paddle.get_default_dtype().
            is_bias: biases default to Constant(0.0), weights to XavierUniform.
            default_initializer: used when `attr` names no initializer.

        Returns:
            The Parameter (assign it to an attribute to register it), or None when attr is False.
        """
        if isinstance(attr, str) and attr == "":
            attr = None
        return make_parameter(self._full_name, shape, attr, dtype, is_bias, default_initializer,
                              fn=f"{type(self).__name__}.create_parameter")  # fmt: skip

    def create_variable(self, name=None, persistable=None, dtype=None) -> Tensor:
        """The old name of create_tensor (deprecated since Paddle 2.0)."""
        return self.create_tensor(name, persistable, dtype)

    def create_tensor(self, name=None, persistable=None, dtype=None) -> Tensor:
        """An empty (0-size) Tensor named after this layer, to be filled later (Paddle's create_tensor)."""
        name = f"{self._full_name}.{name}" if name is not None else unique_name(f"{self._full_name}._generated_var")
        t = Tensor(np.zeros([0], dtype=dtypes.to_dtype(dtype or "float32").np))
        t.name, t.persistable = name, bool(persistable)
        return t

    def add_parameter(self, name: str, parameter):
        """Register `parameter` (a Parameter or None) under `name`; it is then `self.<name>`."""
        if "_parameters" not in self.__dict__:
            raise RuntimeError("add_parameter: call super().__init__() in your Layer's __init__ first")
        self._check_new_name(name, "parameter", self._parameters)
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError(f"add_parameter: the value must be a Parameter, got {type(parameter).__name__}")
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name: str, sublayer):
        """Register `sublayer` (a Layer or None) under `name`; it is then `self.<name>`. Returns the sublayer."""
        if sublayer is not None and not isinstance(sublayer, Layer):
            raise TypeError(f"add_sublayer: the sublayer must be a Layer, got {type(sublayer).__name__}")
        name = str(name)
        self._sub_layers[name] = sublayer
        _adopt(sublayer, name)
        return sublayer

    def register_buffer(self, name: str, tensor, persistable: bool = True) -> None:
        """Register a Tensor that is state but not trained (e.g. running statistics). Persistable buffers are
        saved in `state_dict`; non-persistable ones are not."""
        if "_buffers" not in self.__dict__:
            raise ValueError("register_buffer: call super().__init__() in your Layer's __init__ first")
        self._check_new_name(name, "buffer", self._buffers)
        if tensor is not None and (not isinstance(tensor, Tensor) or isinstance(tensor, Parameter)):
            raise TypeError(f"register_buffer: the buffer must be a Tensor, got {type(tensor).__name__}")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    def _check_new_name(self, name, what: str, table: dict) -> None:
        if not isinstance(name, str):
            raise TypeError(f"the name of a {what} must be a string, got {type(name).__name__}")
        if "." in name:
            raise KeyError(f"the name of a {what} cannot contain '.' (got {name!r}): self.a.b would not find it")
        if name == "":
            raise KeyError(f"the name of a {what} cannot be empty")
        if hasattr(self, name) and name not in table:
            raise KeyError(f"attribute '{name}' already exists")

    def parameters(self, include_sublayers: bool = True) -> list:
        """All Parameters of this layer (and its sublayers), each once."""
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_parameters(self, prefix: str = "", include_sublayers: bool = True):
        """Yield (structured name, Parameter) pairs: `('0.weight', ...)`. A shared parameter comes once."""
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers else [(prefix, self)]
        for layer_prefix, layer in layers:
            for key, param in layer._parameters.items():
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                yield (f"{layer_prefix}.{key}" if layer_prefix else key), param

    def buffers(self, include_sublayers: bool = True) -> list:
        """All buffers of this layer (and its sublayers)."""
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix: str = "", include_sublayers: bool = True):
        """Yield (structured name, buffer) pairs, each buffer once."""
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers else [(prefix, self)]
        for layer_prefix, layer in layers:
            for key, buf in layer._buffers.items():
                if buf is None or id(buf) in seen:
                    continue
                seen.add(id(buf))
                yield (f"{layer_prefix}.{key}" if layer_prefix else key), buf

    def children(self):
        """Yield the direct sublayers."""
        for _, layer in self.named_children():
            yield layer

    def named_children(self):
        """Yield (name, layer) for the direct sublayers, each once."""
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def sublayers(self, include_self: bool = False) -> list:
        """Every layer below this one (depth first), optionally with this one first."""
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_sublayers(self, prefix: str = "", include_self: bool = False, layers_set=None):
        """Yield (structured name, layer) for every layer below this one, depth first, each layer once."""
        if layers_set is None:
            layers_set = set()
        if include_self and id(self) not in layers_set:
            layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            yield from layer.named_sublayers(f"{prefix}.{key}" if prefix else key, True, layers_set)

    def clear_gradients(self) -> None:
        """Set the gradient of every trainable parameter to zeros (as `param.clear_grad()`)."""
        for p in self.parameters():
            if p.trainable:
                p.clear_grad()

    # ---- attribute magic: assigning a Parameter, Layer or Tensor registers it -------------------------------

    def __getattr__(self, name: str):
        # Only called when normal lookup fails: look in the three tables.
        d = self.__dict__
        for table in ("_parameters", "_sub_layers", "_buffers"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
            return
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise ValueError("call super().__init__() in your Layer's __init__ before assigning parameters")
            _remove(name, d, self._buffers, self._sub_layers)
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"assignment to parameter '{name}' should be of type Parameter or None, "
                                f"but got '{type(value).__name__}'")  # fmt: skip
            params[name] = None
        elif isinstance(value, Layer):
            if d.get("_sub_layers") is None:
                raise ValueError("call super().__init__() in your Layer's __init__ before assigning sublayers")
            _remove(name, d, self._parameters, self._buffers)
            self._sub_layers[name] = value
            _adopt(value, name)
        elif "_sub_layers" in d and name in self._sub_layers:
            if value is not None:
                raise TypeError(f"assignment to sublayer '{name}' should be of type Layer or None, "
                                f"but got '{type(value).__name__}'")  # fmt: skip
            self._sub_layers[name] = None
        elif isinstance(value, Tensor):
            if d.get("_buffers") is None:
                raise ValueError("call super().__init__() in your Layer's __init__ before assigning tensors")
            _remove(name, d, self._parameters, self._sub_layers)
            if name not in self._buffers:  # a plain assignment makes a non-persistable buffer, as in Paddle
                self._non_persistable_buffer_names_set.add(name)
            self._buffers[name] = value
        elif "_buffers" in d and name in self._buffers:
            if value is not None:
                raise TypeError(f"assignment to buffer '{name}' should be of type Tensor or None, "
                                f"but got '{type(value).__name__}'")  # fmt: skip
            self._buffers[name] = None
        else:
            object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._sub_layers:
            del self._sub_layers[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistable_buffer_names_set.discard(name)
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        return (
            list(dir(type(self)))
            + list(self.__dict__)
            + list(self._parameters)
            + list(self._sub_layers)
            + list(self._buffers)
        )

    # ---- state_dict ------------------------------------------------------------------------------------------

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="", use_hook=True):
        """An OrderedDict of every parameter and persistable buffer by structured name (`'0.weight'`): this
        layer's own first, then each sublayer's. The values are the live tensors, not copies."""
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix, False, use_hook)

    def to_static_state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                             use_hook=True):  # fmt: skip
        """Like state_dict, but with the non-persistable buffers too."""
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix, True, use_hook)

    def _state_dict_impl(self, destination, include_sublayers, prefix, include_non_persistable, use_hook):
        if destination is None:
            destination = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param
        for name, buf in self._buffers.items():
            if buf is not None and (include_non_persistable or name not in self._non_persistable_buffer_names_set):
                destination[prefix + name] = buf
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    layer._state_dict_impl(destination, True, f"{prefix}{name}.", include_non_persistable, use_hook)
        if use_hook:
            for hook in self._state_dict_hooks.values():
                result = hook(destination)
                if result is not None:
                    destination = result
        return destination

    def register_state_dict_hook(self, hook) -> HookRemoveHelper:
        """Call `hook(state_dict)` at the end of state_dict(); a returned dict replaces it."""
        helper = HookRemoveHelper(self._state_dict_hooks)
        self._state_dict_hooks[helper._hook_id] = hook
        return helper

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Load values (Tensors or numpy arrays) into the parameters and buffers, in place.

        Keys that are missing, or whose shape differs, are skipped with a UserWarning (as Paddle does).
        With use_structured_name=False the keys are parameter names (`linear_0.w_0`) instead.

        Returns:
            (missing_keys, unexpected_keys): the keys of this layer not loaded, and the given keys not used.
        """
        if not hasattr(state_dict, "items"):
            raise TypeError(f"set_state_dict: state_dict must be a dict, got {type(state_dict).__name__}")
        missing, matched, pending = [], set(), []
        for key, target in self._state_dict_impl(None, True, "", False, False).items():
            key_name = key if use_structured_name else target.name
            value = state_dict.get(key_name)
            if value is None:
                missing.append(key_name)
                warnings.warn(f"Skip loading for {key}. {key_name} is not found in the provided dict.", stacklevel=2)
                continue
            shape = list(np.shape(value)) if not isinstance(value, Tensor) else value.shape
            if shape != target.shape:
                missing.append(key_name)
                warnings.warn(f"Skip loading for {key}. {key_name} receives a shape {shape}, but the expected "
                              f"shape is {target.shape}.", stacklevel=2)  # fmt: skip
                continue
            matched.add(key_name)
            pending.append((key, target, value))
        for key, target, value in pending:
            _load_value(target, value, key)
        unexpected = [k for k in state_dict if k not in matched]
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    # ---- dtype --------------------------------------------------------------------------------------------------

    def to(self, device=None, dtype=None, blocking=None):
        """Cast every parameter and buffer to `dtype`, in place (the same Parameter objects keep their names and
        their place in optimizers). `device` may only be the CPU. Returns self."""
        if device is not None and not (str(device).lower().startswith("cpu") or "cpu" in repr(device).lower()):
            raise ValueError(f"Layer.to: minipaddle runs on the CPU only, got device {device!r}")
        if dtype is None:
            return self
        return self._cast_all(dtypes.to_dtype(dtype), floating_only=False)

    def astype(self, dtype=None):
        """Cast every parameter and buffer to `dtype`; returns self."""
        return self._cast_all(dtypes.to_dtype(dtype), floating_only=False)

    def float(self, excluded_layers=None):
        """Cast floating parameters and buffers to float32; returns self."""
        return self._cast_all(dtypes.float32, floating_only=True, excluded=excluded_layers)

    def float16(self, excluded_layers=None):
        """Cast floating parameters and buffers to float16; returns self."""
        return self._cast_all(dtypes.float16, floating_only=True, excluded=excluded_layers)

    def _cast_all(self, dtype, floating_only: bool, excluded=None):
        excluded = tuple(excluded) if isinstance(excluded, (list, tuple)) else ((excluded,) if excluded else ())
        for layer in self.sublayers(include_self=True):
            if excluded and isinstance(layer, excluded):
                continue
            for t in list(layer._parameters.values()) + list(layer._buffers.values()):
                if t is None or (floating_only and not t.dtype.is_floating):
                    continue
                _cast_in_place(t, dtype)
            layer._dtype = dtype.name
        return self

    # ---- printing -----------------------------------------------------------------------------------------------

    def extra_repr(self) -> str:
        """The text inside the parentheses of this layer's repr (e.g. `in_features=2, out_features=3`)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        lines = [f"({name}): {_indent(repr(layer), 2)}" for name, layer in self._sub_layers.items()]
        text = type(self).__name__ + "("
        extra_lines = extra.split("\n")
        if len(extra_lines) > 1:
            text += "\n  " + "\n  ".join(extra_lines) + "\n"
        else:
            text += extra_lines[0]
        if lines:
            text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _indent(text: str, n: int) -> str:
    """Indent every line but the first by n spaces (how nested layers print)."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * n + line for line in rest])


def _remove(name: str, *tables) -> None:
    for table in tables:
        table.pop(name, None)


def _adopt(child, name: str) -> None:
    """Tell a newly registered layer its name, unless an earlier parent already named it."""
    if child is not None and child._scope_name is None:
        child.__dict__["_scope_name"] = name


def _load_value(target: Tensor, value, key: str) -> None:
    """Copy `value` into `target`'s storage (set_state_dict), through the op door, without a gradient."""
    source = value if isinstance(value, Tensor) else Tensor(np.asarray(value))
    if source.dtype != target.dtype:
        raise TypeError(
            f"set_state_dict: {key} has dtype {target.dtype.name} but the provided value has {source.dtype.name}"
        )
    with no_grad():
        apply_inplace(get_op("assign"), target, (source,))


def _cast_in_place(t: Tensor, dtype) -> None:
    """Give `t` (and its gradient) a new dtype, keeping the object: optimizers and names still refer to it.
    The cast runs as an op; the tensor then takes over the result's storage."""
    if t.dtype == dtype:
        return
    with no_grad():
        t._data = ops.cast(t, dtype)._data
        if t.grad is not None:
            t.grad._data = ops.cast(t.grad, dtype)._data
    t._bump_version()
