"""Quanter factories: a QuantConfig holds factories (a class plus its arguments), and each layer to quantize gets
its own quanter Layer made from one with `_instance(layer)`, so no two layers share scales.

    @quanter("MyQuanter")              # makes the factory class `MyQuanter` in the decorated class's module
    class MyQuanterLayer(BaseQuanter):
        def __init__(self, layer, bits=8): ...
    config = QuantConfig(activation=MyQuanter(bits=8), weight=None)
"""

from __future__ import annotations

import abc
import sys

__all__ = ["ClassWithArguments", "QuanterFactory", "ObserverFactory", "quanter"]


class ClassWithArguments(metaclass=abc.ABCMeta):
    """A class and the arguments to build it with; printed as `Name(arg,key=value)`, as Paddle prints."""

    def __init__(self, *args, **kwargs):
        self._args = args
        self._kwargs = kwargs

    @property
    def args(self):
        return self._args

    @property
    def kwargs(self):
        return self._kwargs

    @abc.abstractmethod
    def _get_class(self):
        """The Layer class this factory builds."""

    def __str__(self):
        args_str = ",".join([str(a) for a in self.args] + [f"{k}={v}" for k, v in self.kwargs.items()])
        return f"{self.__class__.__name__}({args_str})"

    def __repr__(self):
        return self.__str__()


class QuanterFactory(ClassWithArguments):
    """Builds one quanter Layer per quantized layer: `_get_class()(layer, *args, **kwargs)`."""

    def _instance(self, layer):
        return self._get_class()(layer, *self.args, **self.kwargs)


ObserverFactory = QuanterFactory


def quanter(class_name: str):
    """Class decorator: make a factory class named `class_name` for the decorated BaseQuanter subclass, and put it
    in that class's module (and its `__all__`). The factory takes the quanter's arguments after `layer`.

    Example:
        >>> @quanter("CustomizedQuanter")
        ... class CustomizedQuanterLayer(BaseQuanter):
        ...     def __init__(self, layer, bit_length=8): ...
        >>> factory = CustomizedQuanter(bit_length=4)   # then QuantConfig(activation=factory, weight=None)
    """
    if not isinstance(class_name, str) or not class_name.isidentifier():
        raise ValueError(f"quanter: class_name must be a valid class name, got {class_name!r}")

    def wrapper(target_class):
        def _get_class(self):
            return target_class

        body = {"_get_class": _get_class, "__module__": target_class.__module__,
                "__doc__": f"The factory of {target_class.__name__}."}  # fmt: skip
        factory = type(class_name, (QuanterFactory,), body)
        module = sys.modules.get(target_class.__module__)
        if module is not None:
            setattr(module, class_name, factory)
            if isinstance(getattr(module, "__all__", None), list) and class_name not in module.__all__:
                module.__all__.append(class_name)
        return target_class

    return wrapper
