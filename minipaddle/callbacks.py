"""paddle.callbacks: what `Model.fit`, `evaluate` and `predict` call around each step and epoch
(minipaddle/hapi/callbacks.py), and History, the record of a run that plots read live (minipaddle/hapi/history.py).
"""

from minipaddle.hapi.callbacks import (
    Callback,
    EarlyStopping,
    LRScheduler,
    ModelCheckpoint,
    ProgBarLogger,
    ReduceLROnPlateau,
    VisualDL,
)
from minipaddle.hapi.history import History

__all__ = [
    "Callback",
    "ProgBarLogger",
    "ModelCheckpoint",
    "VisualDL",
    "LRScheduler",
    "EarlyStopping",
    "ReduceLROnPlateau",
    "History",
]
