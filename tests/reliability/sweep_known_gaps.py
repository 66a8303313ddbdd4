"""The bad-input sweep's known gaps: (callable, "argument=bad value") -> what happens today.

Each is a case minipaddle still gets wrong (test_bad_input_sweep.py). The full sweep fails when one is fixed, so
this table only shrinks: remove an entry when its case is refused cleanly. Never add one to make a test pass."""

KNOWN_GAPS = {
    "Tensor.multigammaln": {
        "p=10**20": "raw text: ValueError: Maximum allowed size exceeded",
    },
    "Tensor.put_along_axis": {
        "values=ragged list": "raw text: ValueError: setting an array element with a sequence. ",
    },
    "nn.Dropout": {
        "axis=str": "raw text: TypeError: '<' not supported between instances of 'str",
    },
    "nn.LayerNorm": {
        "normalized_shape=None": "raw text: TypeError: 'NoneType' object is not iterable",
        "normalized_shape=ragged": "raw text: ValueError: setting an array element with a sequence. ",
        "normalized_shape=str": "raw text: UFuncTypeError: ufunc 'multiply' did not contain a loo",
    },
    "nn.PReLU": {
        "init=dict": "raw text: TypeError: float() argument must be a string or a real",
        "init=str": "raw text: ValueError: could not convert string to float: np.str_",
    },
    "paddle.atleast_1d": {
        "inputs=ragged list": "unnamed: ValueError: to_tensor: the nested list is ragged (sub-l",
    },
    "paddle.atleast_2d": {
        "inputs=ragged list": "unnamed: ValueError: to_tensor: the nested list is ragged (sub-l",
    },
    "paddle.cumulative_trapezoid": {
        "y=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.fft.rfft2": {
        "s=huge size": "unnamed: ValueError: pad: an argument is too large: the result w",
    },
    "paddle.index_add": {
        "x=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.linalg.matrix_power": {
        "n=-10**20": "nan: a valid but huge n; inv(x) ** n under/overflows and inf * 0 is NaN",
    },
    "paddle.linalg.solve": {
        "y=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.moveaxis": {
        "x=0-d tensor": "raw text: IndexError: list assignment index out of range",
    },
    "paddle.multigammaln": {
        "p=10**20": "raw text: ValueError: Maximum allowed size exceeded",
    },
    "paddle.nn.functional.bilinear": {
        "bias=dict": "raw text: TypeError: float() argument must be a string or a real",
        "bias=ragged list": "raw text: ValueError: setting an array element with a sequence. ",
        "bias=str": "raw text: ValueError: could not convert string to float: 'zzz'",
    },
    "paddle.nn.functional.dice_loss": {
        "epsilon=str": "raw text: ValueError: scale: could not convert string to float: ",
    },
    "paddle.nn.functional.embedding": {
        "padding_idx=dict": "raw text: TypeError: '<=' not supported between instances of 'in",
        "padding_idx=str": "raw text: TypeError: '<=' not supported between instances of 'in",
    },
    "paddle.nn.functional.glu": {
        "x=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.nn.functional.hsigmoid_loss": {
        "bias=0-d tensor": "raw text: IndexError: list index out of range",
        "input=0-d tensor": "raw text: IndexError: list index out of range",
        "input=empty tensor": "raw text: ValueError: cannot reshape array of size 4 into shape ",
    },
    "paddle.nn.functional.multi_margin_loss": {
        "input=0-d tensor": "raw text: IndexError: list index out of range",
        "label=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.nn.functional.npair_loss": {
        "labels=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.nn.functional.triplet_margin_loss": {
        "p=10**20": "nan: a valid but huge p; |x|**p overflows and inf / inf is NaN",
    },
    "paddle.nn.functional.triplet_margin_with_distance_loss": {
        "distance_function=dict": "raw text: TypeError: 'dict' object is not callable",
        "distance_function=str": "raw text: TypeError: 'str' object is not callable",
    },
    "paddle.put_along_axis": {
        "values=ragged list": "raw text: ValueError: setting an array element with a sequence. ",
    },
    "paddle.signal.stft": {
        "n_fft=None": "raw text: TypeError: unsupported operand type(s) for //: 'NoneTy",
        "n_fft=dict": "raw text: TypeError: unsupported operand type(s) for //: 'dict' ",
        "n_fft=str": "raw text: TypeError: unsupported operand type(s) for //: 'str' a",
        "x=empty tensor": "unnamed: IndexError: reshape: inputs of shapes [0] do not have t",
    },
    "paddle.trapezoid": {
        "y=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.vision.ops.box_coder": {
        "axis=None": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "axis=dict": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "axis=str": "raw text: ValueError: invalid literal for int() with base 10: 'z",
    },
}
