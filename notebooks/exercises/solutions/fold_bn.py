"""Reference answer of notebook 09's exercise: fold a batch norm into the convolution before it."""

import numpy as np


def fold_bn(w, b, gamma, beta, mean, var, eps):
    """(w', b') with conv(x, w') + b' == batch_norm(conv(x, w) + b) in inference mode."""
    a = gamma / np.sqrt(var + eps)  # one scale per output channel
    return w * a.reshape(-1, 1, 1, 1), (b - mean) * a + beta
