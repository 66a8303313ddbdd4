"""mean's kernel: a full mean of float32/float64 (every loss, every step) skips np.mean's Python frames and must
give np.mean's bits, its numpy scalar type included."""

import numpy as np
import pytest

import minipaddle  # noqa: F401  (registers the ops)
from minipaddle.core.op import OPS


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_full_mean_has_numpy_means_bits(dtype):
    rng = np.random.default_rng(0)
    kernel = OPS["mean"].kernel
    for shape in [(1,), (7,), (128, 1), (33, 7), (1000,), (2, 3, 5)]:
        for scale in (1e-30, 1.0, 1e30):
            x = (rng.standard_normal(shape) * scale).astype(dtype)
            ours, numpys = kernel(x), np.mean(x, dtype=x.dtype)
            assert type(ours) is type(numpys) and ours.tobytes() == numpys.tobytes()
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"), np.errstate(invalid="ignore"):  # np.mean
        assert np.isnan(kernel(np.zeros([0], dtype)))
