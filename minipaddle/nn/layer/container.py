"""Containers: Sequential, LayerList, LayerDict and ParameterList.

They hold layers (or parameters) under names, so the structured names (`0.weight`, `encoder.layers.1.bias`) and
the Layer scope paths of what they hold follow from their position.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping

from minipaddle.core.tensor import Parameter
from minipaddle.nn.layer.layers import Layer

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList"]


class Sequential(Layer):
    """Run layers one after another, each on the previous one's output.

    Layers are named '0', '1', ... unless given as (name, layer) pairs or as one OrderedDict.

    Example:
        >>> net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
        >>> named = paddle.nn.Sequential(("fc", paddle.nn.Linear(4, 2)), ("act", paddle.nn.Tanh()))
        >>> named.fc  # and named[0]
    """

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], Mapping):
            pairs = list(layers[0].items())
        elif layers and isinstance(layers[0], (list, tuple)):
            pairs = list(layers)
            for pair in pairs:
                if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                    raise TypeError(f"Sequential: expected (name, layer) pairs, got {pair!r}")
        else:
            pairs = [(str(i), layer) for i, layer in enumerate(layers)]
        for name, layer in pairs:
            if not isinstance(layer, Layer):
                raise TypeError(f"Sequential: every element must be a Layer, got {type(layer).__name__} for {name!r}")
            self.add_sublayer(name, layer)

    def __getitem__(self, name):
        if isinstance(name, slice):
            return type(self)(*list(self._sub_layers.values())[name])
        if isinstance(name, str):
            return self._sub_layers[name]
        n = len(self._sub_layers)
        if not -n <= name < n:
            raise IndexError(f"index {name} is out of range")
        return list(self._sub_layers.values())[name]

    def __setitem__(self, name, layer) -> None:
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential: can only hold Layers, got {type(layer).__name__}")
        setattr(self, str(name), layer)

    def __delitem__(self, name) -> None:
        name = str(name)
        if name not in self._sub_layers:
            raise KeyError(f"Sequential has no layer named {name!r}")
        del self._sub_layers[name]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def forward(self, input):
        for layer in self._sub_layers.values():
            input = layer(input)
        return input


class LayerList(Layer):
    """A list of layers, registered as sublayers '0', '1', ... (so their parameters are the model's).

    Example:
        >>> blocks = paddle.nn.LayerList([paddle.nn.Linear(8, 8) for _ in range(3)])
        >>> for block in blocks:
        ...     x = block(x)
    """

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            for i, layer in enumerate(sublayers):
                self.add_sublayer(str(i), layer)

    def _abs_index(self, idx: int) -> int:
        if not isinstance(idx, int):
            raise TypeError(f"LayerList indices must be integers or slices, got {type(idx).__name__}")
        if not -len(self) <= idx < len(self):
            raise IndexError(f"index {idx} is out of range, should be an integer in range [{-len(self)}, {len(self)})")
        return idx + len(self) if idx < 0 else idx

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._sub_layers.values())[idx])
        return self._sub_layers[str(self._abs_index(idx))]

    def __setitem__(self, idx, sublayer) -> None:
        setattr(self, str(self._abs_index(idx)), sublayer)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._sub_layers))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(self._abs_index(idx)))
        self._renumber(list(self._sub_layers.values()))

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, sublayer):
        """Add a layer at the end; returns self."""
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index: int, sublayer) -> None:
        """Insert a layer before position `index`."""
        layers = list(self._sub_layers.values())
        layers.insert(self._abs_index(index), sublayer)
        self._renumber(layers)

    def extend(self, sublayers):
        """Add each of `sublayers` at the end; returns self."""
        for layer in sublayers:
            self.append(layer)
        return self

    def _renumber(self, layers: list) -> None:
        """Re-register the layers as '0', '1', ... after an insert or delete (their scope names follow)."""
        self._sub_layers = OrderedDict((str(i), layer) for i, layer in enumerate(layers))
        for name, layer in self._sub_layers.items():
            layer.__dict__["_scope_name"] = name


class LayerDict(Layer):
    """A dict of layers, registered as sublayers under their keys.

    Example:
        >>> acts = paddle.nn.LayerDict({"relu": paddle.nn.ReLU(), "tanh": paddle.nn.Tanh()})
        >>> y = acts["relu"](x)
    """

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, sublayer):
        return self.add_sublayer(key, sublayer)

    def __delitem__(self, key) -> None:
        del self._sub_layers[key]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key) -> bool:
        return key in self._sub_layers

    def clear(self) -> None:
        self._sub_layers.clear()

    def pop(self, key):
        layer = self[key]
        del self[key]
        return layer

    def keys(self):
        return self._sub_layers.keys()

    def items(self):
        return self._sub_layers.items()

    def values(self):
        return self._sub_layers.values()

    def update(self, sublayers) -> None:
        """Add layers from a dict, a LayerDict or an iterable of (key, layer) pairs."""
        if isinstance(sublayers, (Mapping, LayerDict)):
            for key, layer in sublayers.items():
                self.add_sublayer(key, layer)
            return
        if not isinstance(sublayers, Iterable):
            raise TypeError(f"LayerDict.update: expected a dict or (key, layer) pairs, got {type(sublayers).__name__}")
        for i, pair in enumerate(sublayers):
            if len(pair) != 2:
                raise ValueError(f"LayerDict.update: element {i} has length {len(pair)}, which must be 2")
            self.add_sublayer(pair[0], pair[1])


class ParameterList(Layer):
    """A list of Parameters, registered as '0', '1', ... (so optimizers see them in `parameters()`).

    Example:
        >>> self.weights = paddle.nn.ParameterList([self.create_parameter([4, 4]) for _ in range(3)])
    """

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            for i, param in enumerate(parameters):
                self.add_parameter(str(i), _check_param(param))

    def __getitem__(self, idx):
        return self._parameters[str(idx)]

    def __setitem__(self, idx, param) -> None:
        setattr(self, str(idx), _check_param(param))

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        """Add a Parameter at the end; returns self."""
        self.add_parameter(str(len(self._parameters)), _check_param(parameter))
        return self


def _check_param(param):
    if not isinstance(param, Parameter):
        raise TypeError(f"ParameterList: can only hold Parameters, got {type(param).__name__}")
    return param
