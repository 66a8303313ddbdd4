"""ops/half_casts.py: float16/bfloat16 <-> float32 on the bits equal numpy's and ml_dtypes' casts bit for bit, on
every float16 and bfloat16 value (up) and on float32 values at and around every rounding boundary (down): each
float16/bfloat16 value, the midpoints between neighbours and one float32 ulp either side, Inf, NaN payloads of
both signs, subnormals, float16's overflow threshold, and random bit patterns."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from minipaddle.ops.half_casts import astype, from_float32, to_float32

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
LOW = [np.dtype(np.float16), BFLOAT16]
CODES = np.arange(65536, dtype=np.uint32).astype(np.uint16)


def _boundaries(dtype) -> np.ndarray:
    """float32 values where a rounding to `dtype` decides: its values, the midpoints of neighbours, +-1 ulp."""
    values = CODES.view(dtype).astype(np.float32)
    finite = np.sort(values[np.isfinite(values)].astype(np.float64))
    mids = ((finite[:-1] + finite[1:]) / 2).astype(np.float32)
    rng = np.random.default_rng(0)
    random_bits = rng.integers(0, 2**32, 1_000_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    edges = np.array([65504, 65519.996, 65520, 65535.996, 65536, 1e38, 3.4028235e38, 2**-24, 2**-25, 2**-26, 0.0],
                     np.float32)  # fmt: skip
    nans = (np.array([0x7F800001, 0x7FC00000, 0x7F801FFF, 0x7F802000, 0x7FFFFFFF], np.uint32)).view(np.float32)
    base = np.concatenate([values, mids, edges, nans, random_bits])
    base = np.concatenate([base, -base])
    with np.errstate(invalid="ignore"):
        return np.concatenate([base, np.nextafter(base, np.float32(np.inf)), np.nextafter(base, np.float32(-np.inf))])


@pytest.mark.parametrize("dtype", LOW, ids=str)
def test_every_low_precision_value_converts_up_as_numpy(dtype):
    values = CODES.view(dtype).reshape(256, 256)[:, ::2]  # a strided view too
    np.testing.assert_array_equal(to_float32(values).view(np.uint32), values.astype(np.float32).view(np.uint32))
    whole = CODES.view(dtype)
    np.testing.assert_array_equal(to_float32(whole).view(np.uint32), whole.astype(np.float32).view(np.uint32))


@pytest.mark.parametrize("dtype", LOW, ids=str)
def test_float32_rounds_down_as_numpy_at_every_boundary(dtype):
    x = _boundaries(dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        expected = x.astype(dtype).view(np.uint16)
    np.testing.assert_array_equal(from_float32(x, dtype).view(np.uint16), expected)
    n = x.size // 7 * 7  # a strided 2-D view of them too
    strided, expected_strided = x[:n].reshape(-1, 7)[:, 1:5], expected[:n].reshape(-1, 7)[:, 1:5]
    np.testing.assert_array_equal(from_float32(strided, dtype).view(np.uint16), expected_strided)


def test_other_dtypes_and_zero_dimensional_arrays_take_numpys_cast():
    x = np.array(1.5, np.float32)
    assert from_float32(x, np.float16).dtype == np.float16 and from_float32(x, np.float16) == 1.5
    assert to_float32(np.array(2.5, np.float16)) == 2.5
    np.testing.assert_array_equal(astype(np.arange(4, dtype=np.int64), np.float16), np.arange(4, dtype=np.float16))
    assert astype(np.ones(3, np.float64), np.float32).dtype == np.float32
    empty = np.zeros((0, 3), np.float16)
    assert to_float32(empty).shape == (0, 3) and from_float32(empty.astype(np.float32), BFLOAT16).shape == (0, 3)


def test_float16_rounding_across_the_subnormal_seam():
    """_f32_to_f16 takes the smaller of the normal and the subnormal code, without a mask: every 7th float32
    (both signs) from 2**-16 to 2**-12, where the two formulas cross, rounds as numpy does."""
    u = np.arange(0x37800000, 0x39800000, 7, dtype=np.uint32)
    x = np.concatenate([u, u | np.uint32(0x80000000)]).view(np.float32)
    np.testing.assert_array_equal(from_float32(x, np.float16).view(np.uint16), x.astype(np.float16).view(np.uint16))


def test_conversions_down_reuse_their_work_arrays_per_thread_within_a_bound():
    """The two uint32 work arrays of a conversion down are kept per shape and thread (fresh ones were faulted in
    from the OS on every call), never handed out, and the least recently used shapes are dropped past the bound."""
    import threading

    from minipaddle.ops import half_casts

    x = np.linspace(-3, 3, 4096, dtype=np.float32).reshape(64, 64)
    first = from_float32(x, np.float16)
    pair = half_casts._WORK.by_shape[(64, 64)]
    second = from_float32(x * 2, ml_dtypes.bfloat16)
    assert half_casts._WORK.by_shape[(64, 64)] is pair  # reused, by both dtypes
    for out in (first, second):
        assert not any(np.shares_memory(out, a) for a in pair)
    assert np.array_equal(first.view(np.uint16), x.astype(np.float16).view(np.uint16))  # not overwritten after
    seen = {}
    thread = threading.Thread(target=lambda: (from_float32(x, np.float16), seen.update(half_casts._WORK.__dict__)))
    thread.start()
    thread.join()
    assert seen["by_shape"][(64, 64)] is not pair  # another thread has its own
    big = (half_casts._WORK_BYTES // 8 // 4096 + 1, 4096)  # a pair of these alone passes the bound: not kept
    from_float32(np.zeros(big, np.float32), np.float16)
    assert big not in half_casts._WORK.by_shape and (64, 64) in half_casts._WORK.by_shape
    half = (half_casts._WORK_BYTES // 8 // 4096, 4096)  # exactly the bound: kept, and (64, 64) dropped for it
    from_float32(np.zeros(half, np.float32), np.float16)
    assert list(half_casts._WORK.by_shape) == [half]
