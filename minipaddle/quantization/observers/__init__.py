"""paddle.quantization.observers: observer factories for PTQ."""

from minipaddle.quantization.observers.abs_max import AbsmaxObserver, AbsmaxObserverLayer
from minipaddle.quantization.observers.groupwise import GroupWiseWeightObserver, GroupWiseWeightObserverLayer

__all__ = ["AbsmaxObserver", "GroupWiseWeightObserver"]
_ = (AbsmaxObserverLayer, GroupWiseWeightObserverLayer)
