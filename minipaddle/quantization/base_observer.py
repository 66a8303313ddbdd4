"""BaseObserver: a quanter that only watches (PTQ calibration) and computes its thresholds afterwards."""

from __future__ import annotations

import abc

from minipaddle.quantization.base_quanter import BaseQuanter

__all__ = ["BaseObserver"]


class BaseObserver(BaseQuanter, metaclass=abc.ABCMeta):
    """The base of observers: forward records statistics and returns the input unchanged; cal_thresholds()
    turns the statistics into scales."""

    @abc.abstractmethod
    def cal_thresholds(self):
        """Compute the thresholds (scales) from what was observed."""
