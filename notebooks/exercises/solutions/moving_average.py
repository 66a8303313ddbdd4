"""Notebook 08's exercise: one step of the moving-average abs-max scale (FakeQuantMovingAverageAbsMax in training)."""

import numpy as np


def moving_average_update(x, scale, state, accum, rate=0.9):
    state = rate * state + 1
    accum = rate * accum + np.abs(x).max()
    return accum / state, state, accum
