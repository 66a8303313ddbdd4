"""paddle.utils.dlpack's behaviour, run with either library (`paddle` passed in): what a round trip gives (values,
dtype, shape, place, stop_gradient), for each dtype and a 0-d tensor, and how each function refuses a wrong argument
or a capsule read twice. make_dlpack_golden.py records paddle 2.6's answers into dlpack.json; tests/utils/test_dlpack.py
compares. Not here on purpose (docs/feature_map.md): a bool tensor (paddle 2.6 exports it as uint8) and a transposed
view (paddle 2.6 exports the storage without its strides, so the values come back in storage order).
"""

import importlib

import numpy as np


def _outcome(fn):
    try:
        return {"value": fn()}
    except Exception as e:  # noqa: BLE001  (the kind and what the message says are compared)
        return {"error": type(e).__name__, "consumed_once": "consumed only once" in str(e), "names_type": (
            "PyCapsule" in str(e) or "paddle.Tensor" in str(e))}  # fmt: skip


def run_all(paddle):
    dlpack = importlib.import_module(f"{paddle.__name__}.utils.dlpack")

    def round_trip(arr):
        y = dlpack.from_dlpack(dlpack.to_dlpack(paddle.to_tensor(arr)))
        arr = y.numpy()
        values = (np.stack([arr.real, arr.imag], -1) if arr.dtype.kind == "c" else arr).tolist()  # JSON has no complex
        return {"values": values, "dtype": str(y.dtype).replace("paddle.", ""), "shape": list(y.shape),
                "place": str(y.place), "stop_gradient": y.stop_gradient}  # fmt: skip

    out = {dtype: _outcome(lambda d=dtype: round_trip(np.array([1, 0, 3]).astype(d)))
           for dtype in ("float16", "float32", "float64", "int8", "uint8", "int32", "int64", "complex64")}  # fmt: skip
    out["0-d"] = _outcome(lambda: round_trip(np.array(3.5, "float32")))
    out["2-d"] = _outcome(lambda: round_trip(np.arange(6.0).reshape(2, 3)))
    out["capsule_type"] = _outcome(lambda: type(dlpack.to_dlpack(paddle.ones([2]))).__name__)
    capsule = dlpack.to_dlpack(paddle.ones([2]))
    dlpack.from_dlpack(capsule)
    out["read_twice"] = _outcome(lambda: dlpack.from_dlpack(capsule).numpy().tolist())
    out["from_numpy_array"] = _outcome(lambda: dlpack.from_dlpack(np.ones(2)).numpy().tolist())
    out["to_from_list"] = _outcome(lambda: type(dlpack.to_dlpack([1.0, 2.0])).__name__)
    grad = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out["of_a_tensor_needing_grad"] = _outcome(lambda: dlpack.from_dlpack(dlpack.to_dlpack(grad)).stop_gradient)
    return out
