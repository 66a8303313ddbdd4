"""What dtype each creation function and Layer gives under paddle.set_default_dtype('float64'), in dynamic and
static mode, run with either library (`paddle` passed in). make_default_dtype_golden.py records paddle 2.6's answers
into default_dtype.json; tests/tensor/test_default_dtype.py compares. (paddle.assign turns float64 data that is not
a Tensor into float32, and an int tensor times a Python float is float32, whatever the default.)"""

import warnings

import numpy as np


def _makers(paddle):
    static = paddle.static
    return {
        "static.data": lambda: static.data("x", [2]),
        "zeros": lambda: paddle.zeros([2]),
        "ones": lambda: paddle.ones([2]),
        "full float": lambda: paddle.full([2], 1.5),
        "full int": lambda: paddle.full([2], 1),
        "empty": lambda: paddle.empty([2]),
        "eye": lambda: paddle.eye(2),
        "rand": lambda: paddle.rand([2]),
        "randn": lambda: paddle.randn([2]),
        "uniform": lambda: paddle.uniform([2]),
        "normal": lambda: paddle.normal(shape=[2]),
        "standard_normal": lambda: paddle.standard_normal([2]),
        "randint": lambda: paddle.randint(0, 3, [2]),
        "arange float": lambda: paddle.arange(0, 1, 0.5),
        "arange int": lambda: paddle.arange(3),
        "linspace": lambda: paddle.linspace(0, 1, 3),
        "logspace": lambda: paddle.logspace(0, 1, 3),
        "to_tensor float list": lambda: paddle.to_tensor([1.5]),
        "to_tensor float32 array": lambda: paddle.to_tensor(np.ones(2, "float32")),
        "assign float list": lambda: paddle.assign([1.5, 2.0]),
        "assign float64 array": lambda: paddle.assign(np.ones(2)),
        "assign float": lambda: paddle.assign(1.5),
        "assign int list": lambda: paddle.assign([1, 2]),
        "assign float64 tensor": lambda: paddle.assign(paddle.ones([2], "float64")),
        "int64 tensor * 2.5": lambda: paddle.ones([2], "int64") * 2.5,
        "2.5 + int32 tensor": lambda: 2.5 + paddle.ones([2], "int32"),
        "float tensor * 2.5": lambda: paddle.ones([2]) * 2.5,
        "static.nn.fc": lambda: static.nn.fc(static.data("x2", [2, 3]), 2),
        "static.create_global_var": lambda: static.create_global_var([2], 1.0, "float32"),
        "Linear weight": lambda: paddle.nn.Linear(2, 2).weight,
        "create_parameter": lambda: paddle.create_parameter([2], paddle.get_default_dtype()),
    }


def run_all(paddle):
    out = {}
    for mode in ("dynamic", "static"):
        paddle.set_default_dtype("float64")
        if mode == "static":
            paddle.enable_static()
        try:
            for name, make in _makers(paddle).items():
                if mode == "dynamic" and name.startswith("static."):
                    continue
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
                            dtype = make().dtype
                    out[f"{mode} {name}"] = _name(dtype)
                except Exception as e:  # noqa: BLE001  (a refusal is recorded by its kind)
                    out[f"{mode} {name}"] = type(e).__name__
        finally:
            if mode == "static":
                paddle.disable_static()
            paddle.set_default_dtype("float32")
    return out


def _name(dtype) -> str:
    """paddle.float64 and paddle 2.6's static VarType.FP64 alike as 'float64'."""
    text = str(dtype).replace("paddle.", "")
    names = {"VarType.FP64": "float64", "VarType.FP32": "float32", "VarType.INT64": "int64", "VarType.INT32": "int32"}
    return names.get(text, text)
