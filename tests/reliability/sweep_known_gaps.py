"""The bad-input sweep's known gaps: (callable, "argument=bad value") -> what happens today.

Each is a case minipaddle still gets wrong (test_bad_input_sweep.py). The full sweep fails when one is fixed, so
this table only shrinks: remove an entry when its case is refused cleanly. Never add one to make a test pass."""

KNOWN_GAPS = {
    "Tensor.argmax": {
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
    },
    "Tensor.argmin": {
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
    },
    "Tensor.crop": {
        "offsets=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
    },
    "Tensor.multigammaln": {
        "p=10**20": "raw text: ValueError: Maximum allowed size exceeded",
    },
    "Tensor.nansum": {
        "dtype=dict": "unnamed: TypeError: unknown dtype {}; expected one of bool, uint",
        "dtype=str": "unnamed: TypeError: unknown dtype 'zzz'; expected one of bool, u",
    },
    "Tensor.put_along_axis": {
        "values=ragged list": "raw text: ValueError: setting an array element with a sequence. ",
    },
    "Tensor.shard_index": {
        "ignore_value=None": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "ignore_value=dict": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "ignore_value=str": "raw text: ValueError: invalid literal for int() with base 10: 'z",
        "index_num=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "index_num=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "index_num=str": "raw text: TypeError: '<=' not supported between instances of 'st",
        "nshards=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "nshards=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "nshards=str": "raw text: TypeError: '<=' not supported between instances of 'st",
        "shard_id=None": "raw text: TypeError: '<=' not supported between instances of 'in",
        "shard_id=dict": "raw text: TypeError: '<=' not supported between instances of 'in",
        "shard_id=str": "raw text: TypeError: '<=' not supported between instances of 'in",
    },
    "Tensor.slice": {
        "axes=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "ends=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "starts=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
    },
    "Tensor.strided_slice": {
        "axes=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "ends=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "starts=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "strides=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
    },
    "Tensor.sum": {
        "dtype=dict": "unnamed: TypeError: unknown dtype {}; expected one of bool, uint",
        "dtype=str": "unnamed: TypeError: unknown dtype 'zzz'; expected one of bool, u",
    },
    "Tensor.unique": {
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
    },
    "nn.BatchNorm": {
        "act=dict": "unnamed: TypeError: attribute name must be string, not 'dict'",
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
        "momentum=dict": "raw text: TypeError: float() argument must be a string or a real",
        "momentum=str": "raw text: ValueError: could not convert string to float: 'zzz'",
    },
    "nn.BatchNorm1D": {
        "momentum=dict": "raw text: TypeError: float() argument must be a string or a real",
        "momentum=str": "raw text: ValueError: could not convert string to float: 'zzz'",
    },
    "nn.BatchNorm2D": {
        "momentum=dict": "raw text: TypeError: float() argument must be a string or a real",
        "momentum=str": "raw text: ValueError: could not convert string to float: 'zzz'",
    },
    "nn.BatchNorm3D": {
        "momentum=dict": "raw text: TypeError: float() argument must be a string or a real",
        "momentum=str": "raw text: ValueError: could not convert string to float: 'zzz'",
    },
    "nn.CrossEntropyLoss": {
        "label_smoothing=Inf": "unnamed: ValueError: label_smooth: epsilon must be in [0, 1], go",
    },
    "nn.Dropout": {
        "axis=str": "raw text: TypeError: '<' not supported between instances of 'str",
    },
    "nn.Embedding": {
        "embedding_dim=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "embedding_dim=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "embedding_dim=str": "raw text: TypeError: '<=' not supported between instances of 'st",
        "num_embeddings=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "num_embeddings=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "num_embeddings=str": "raw text: TypeError: '<=' not supported between instances of 'st",
        "padding_idx=dict": "raw text: TypeError: '<=' not supported between instances of 'in",
        "padding_idx=str": "raw text: TypeError: '<=' not supported between instances of 'in",
    },
    "nn.LayerNorm": {
        "normalized_shape=None": "raw text: TypeError: 'NoneType' object is not iterable",
        "normalized_shape=ragged": "raw text: ValueError: setting an array element with a sequence. ",
        "normalized_shape=str": "raw text: UFuncTypeError: ufunc 'multiply' did not contain a loo",
    },
    "nn.LocalResponseNorm": {
        "size=-10**20": "raw text: ValueError: Maximum allowed dimension exceeded",
        "size=-3": "raw text: ValueError: negative dimensions are not allowed",
        "size=1.5": "raw text: TypeError: 'float' object cannot be interpreted as an ",
        "size=10**20": "raw text: ValueError: Maximum allowed dimension exceeded",
        "size=None": "raw text: TypeError: unsupported operand type(s) for //: 'NoneTy",
        "size=dict": "raw text: TypeError: unsupported operand type(s) for //: 'dict' ",
        "size=str": "raw text: TypeError: unsupported operand type(s) for //: 'str' a",
    },
    "nn.MultiHeadAttention": {
        "dropout=-1.0": "unnamed: ValueError: dropout: p must be between 0 and 1, got -1.",
        "dropout=Inf": "unnamed: ValueError: dropout: p must be between 0 and 1, got inf",
        "dropout=NaN": "unnamed: ValueError: dropout: p must be between 0 and 1, got nan",
        "dropout=str": "unnamed: TypeError: dropout: p must be a number, got str",
        "embed_dim=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "embed_dim=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "embed_dim=str": "raw text: TypeError: '<=' not supported between instances of 'st",
        "num_heads=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "num_heads=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "num_heads=str": "raw text: TypeError: '<=' not supported between instances of 'st",
    },
    "nn.PReLU": {
        "init=dict": "raw text: TypeError: float() argument must be a string or a real",
        "init=str": "raw text: ValueError: could not convert string to float: np.str_",
    },
    "nn.TransformerEncoderLayer": {
        "d_model=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "d_model=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "d_model=str": "raw text: TypeError: '<=' not supported between instances of 'st",
        "nhead=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "nhead=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "nhead=str": "raw text: TypeError: '<=' not supported between instances of 'st",
    },
    "paddle.argmax": {
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
    },
    "paddle.argmin": {
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
    },
    "paddle.atleast_1d": {
        "inputs=ragged list": "unnamed: ValueError: to_tensor: the nested list is ragged (sub-l",
    },
    "paddle.atleast_2d": {
        "inputs=ragged list": "unnamed: ValueError: to_tensor: the nested list is ragged (sub-l",
    },
    "paddle.crop": {
        "offsets=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
    },
    "paddle.cumulative_trapezoid": {
        "y=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.eye": {
        "dtype=dict": "unnamed: TypeError: unknown dtype {}; expected one of bool, uint",
        "dtype=str": "unnamed: TypeError: unknown dtype 'zzz'; expected one of bool, u",
    },
    "paddle.fft.rfft2": {
        "s=huge size": "unnamed: ValueError: pad: an argument is too large: the result w",
    },
    "paddle.index_add": {
        "x=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.linalg.matrix_power": {
        "n=-10**20": "nan",
    },
    "paddle.linalg.solve": {
        "y=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.linspace": {
        "dtype=dict": "unnamed: TypeError: unknown dtype {}; expected one of bool, uint",
        "dtype=str": "unnamed: TypeError: unknown dtype 'zzz'; expected one of bool, u",
    },
    "paddle.moveaxis": {
        "x=0-d tensor": "raw text: IndexError: list assignment index out of range",
    },
    "paddle.multigammaln": {
        "p=10**20": "raw text: ValueError: Maximum allowed size exceeded",
    },
    "paddle.nansum": {
        "dtype=dict": "unnamed: TypeError: unknown dtype {}; expected one of bool, uint",
        "dtype=str": "unnamed: TypeError: unknown dtype 'zzz'; expected one of bool, u",
    },
    "paddle.nn.functional.bilinear": {
        "bias=dict": "raw text: TypeError: float() argument must be a string or a real",
        "bias=ragged list": "raw text: ValueError: setting an array element with a sequence. ",
        "bias=str": "raw text: ValueError: could not convert string to float: 'zzz'",
    },
    "paddle.nn.functional.cross_entropy": {
        "label_smoothing=Inf": "unnamed: ValueError: label_smooth: epsilon must be in [0, 1], go",
    },
    "paddle.nn.functional.ctc_loss": {
        "input_lengths=0-d tensor": "raw text: IndexError: invalid index to scalar variable.",
        "input_lengths=rank+1": "raw text: ValueError: operands could not be broadcast together w",
        "label_lengths=0-d tensor": "raw text: IndexError: invalid index to scalar variable.",
        "label_lengths=rank+1": "raw text: ValueError: operands could not be broadcast together w",
        "label_lengths=rank-1": "raw text: IndexError: boolean index did not match indexed array ",
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
        "input=rank+1": "raw text: ValueError: cannot reshape array of size 4 into shape ",
        "input=rank-1": "raw text: ValueError: cannot reshape array of size 4 into shape ",
        "label=0-d tensor": "raw text: ValueError: cannot reshape array of size 1 into shape ",
        "label=empty tensor": "raw text: ValueError: cannot reshape array of size 0 into shape ",
        "label=rank+1": "raw text: ValueError: cannot reshape array of size 8 into shape ",
        "label=rank-1": "raw text: ValueError: cannot reshape array of size 1 into shape ",
    },
    "paddle.nn.functional.local_response_norm": {
        "size=-10**20": "raw text: ValueError: Maximum allowed dimension exceeded",
        "size=-3": "raw text: ValueError: negative dimensions are not allowed",
        "size=1.5": "raw text: TypeError: 'float' object cannot be interpreted as an ",
        "size=10**20": "raw text: ValueError: Maximum allowed dimension exceeded",
        "size=None": "raw text: TypeError: unsupported operand type(s) for //: 'NoneTy",
        "size=dict": "raw text: TypeError: unsupported operand type(s) for //: 'dict' ",
        "size=str": "raw text: TypeError: unsupported operand type(s) for //: 'str' a",
    },
    "paddle.nn.functional.log_softmax": {
        "dtype=dict": "unnamed: TypeError: unknown dtype {}; expected one of bool, uint",
        "dtype=str": "unnamed: TypeError: unknown dtype 'zzz'; expected one of bool, u",
    },
    "paddle.nn.functional.multi_margin_loss": {
        "input=0-d tensor": "raw text: IndexError: list index out of range",
        "label=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.nn.functional.npair_loss": {
        "labels=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.nn.functional.scaled_dot_product_attention": {
        "dropout_p=Inf": "unnamed: ValueError: dropout: p must be between 0 and 1, got inf",
    },
    "paddle.nn.functional.softmax": {
        "dtype=dict": "unnamed: TypeError: unknown dtype {}; expected one of bool, uint",
        "dtype=str": "unnamed: TypeError: unknown dtype 'zzz'; expected one of bool, u",
    },
    "paddle.nn.functional.triplet_margin_loss": {
        "margin=None": "raw text: TypeError: '<' not supported between instances of 'Non",
        "margin=dict": "raw text: TypeError: '<' not supported between instances of 'dic",
        "margin=str": "raw text: TypeError: '<' not supported between instances of 'str",
        "p=10**20": "nan",
    },
    "paddle.nn.functional.triplet_margin_with_distance_loss": {
        "distance_function=dict": "raw text: TypeError: 'dict' object is not callable",
        "distance_function=str": "raw text: TypeError: 'str' object is not callable",
        "margin=None": "raw text: TypeError: '<' not supported between instances of 'Non",
        "margin=dict": "raw text: TypeError: '<' not supported between instances of 'dic",
        "margin=str": "raw text: TypeError: '<' not supported between instances of 'str",
    },
    "paddle.put_along_axis": {
        "values=ragged list": "raw text: ValueError: setting an array element with a sequence. ",
    },
    "paddle.shard_index": {
        "ignore_value=None": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "ignore_value=dict": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "ignore_value=str": "raw text: ValueError: invalid literal for int() with base 10: 'z",
        "index_num=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "index_num=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "index_num=str": "raw text: TypeError: '<=' not supported between instances of 'st",
        "nshards=None": "raw text: TypeError: '<=' not supported between instances of 'No",
        "nshards=dict": "raw text: TypeError: '<=' not supported between instances of 'di",
        "nshards=str": "raw text: TypeError: '<=' not supported between instances of 'st",
        "shard_id=None": "raw text: TypeError: '<=' not supported between instances of 'in",
        "shard_id=dict": "raw text: TypeError: '<=' not supported between instances of 'in",
        "shard_id=str": "raw text: TypeError: '<=' not supported between instances of 'in",
    },
    "paddle.signal.frame": {
        "axis=-10**20": "unnamed: ValueError: Unexpected axis: -100000000000000000000. It",
        "axis=-99": "unnamed: ValueError: Unexpected axis: -99. It should be 0 or -1.",
        "axis=1.5": "unnamed: ValueError: Unexpected axis: 1.5. It should be 0 or -1.",
        "axis=10**20": "unnamed: ValueError: Unexpected axis: 100000000000000000000. It ",
        "axis=99": "unnamed: ValueError: Unexpected axis: 99. It should be 0 or -1.",
        "axis=None": "unnamed: ValueError: Unexpected axis: None. It should be 0 or -1",
        "axis=dict": "unnamed: ValueError: Unexpected axis: {}. It should be 0 or -1.",
        "axis=str": "unnamed: ValueError: Unexpected axis: zzz. It should be 0 or -1.",
        "frame_length=-10**20": "unnamed: ValueError: Unexpected frame_length: -10000000000000000",
        "frame_length=-3": "unnamed: ValueError: Unexpected frame_length: -3. It should be a",
        "frame_length=1.5": "unnamed: ValueError: Unexpected frame_length: 1.5. It should be ",
        "frame_length=10**20": "unnamed: ValueError: Attribute frame_length should be less equal",
        "frame_length=None": "unnamed: ValueError: Unexpected frame_length: None. It should be",
        "frame_length=dict": "unnamed: ValueError: Unexpected frame_length: {}. It should be a",
        "frame_length=str": "unnamed: ValueError: Unexpected frame_length: zzz. It should be ",
        "hop_length=-10**20": "unnamed: ValueError: Unexpected hop_length: -1000000000000000000",
        "hop_length=-3": "unnamed: ValueError: Unexpected hop_length: -3. It should be an ",
        "hop_length=1.5": "unnamed: ValueError: Unexpected hop_length: 1.5. It should be an",
        "hop_length=None": "unnamed: ValueError: Unexpected hop_length: None. It should be a",
        "hop_length=dict": "unnamed: ValueError: Unexpected hop_length: {}. It should be an ",
        "hop_length=str": "unnamed: ValueError: Unexpected hop_length: zzz. It should be an",
        "x=empty tensor": "unnamed: ValueError: Attribute frame_length should be less equal",
        "x=rank-1": "unnamed: ValueError: Attribute frame_length should be less equal",
    },
    "paddle.signal.overlap_add": {
        "axis=-10**20": "unnamed: ValueError: Unexpected axis: -100000000000000000000. It",
        "axis=-99": "unnamed: ValueError: Unexpected axis: -99. It should be 0 or -1.",
        "axis=1.5": "unnamed: ValueError: Unexpected axis: 1.5. It should be 0 or -1.",
        "axis=10**20": "unnamed: ValueError: Unexpected axis: 100000000000000000000. It ",
        "axis=99": "unnamed: ValueError: Unexpected axis: 99. It should be 0 or -1.",
        "axis=None": "unnamed: ValueError: Unexpected axis: None. It should be 0 or -1",
        "axis=dict": "unnamed: ValueError: Unexpected axis: {}. It should be 0 or -1.",
        "axis=str": "unnamed: ValueError: Unexpected axis: zzz. It should be 0 or -1.",
        "hop_length=-10**20": "unnamed: ValueError: Unexpected hop_length: -1000000000000000000",
        "hop_length=-3": "unnamed: ValueError: Unexpected hop_length: -3. It should be an ",
        "hop_length=1.5": "unnamed: ValueError: Unexpected hop_length: 1.5. It should be an",
        "hop_length=None": "unnamed: ValueError: Unexpected hop_length: None. It should be a",
        "hop_length=dict": "unnamed: ValueError: Unexpected hop_length: {}. It should be an ",
        "hop_length=str": "unnamed: ValueError: Unexpected hop_length: zzz. It should be an",
    },
    "paddle.signal.stft": {
        "n_fft=None": "raw text: TypeError: unsupported operand type(s) for //: 'NoneTy",
        "n_fft=dict": "raw text: TypeError: unsupported operand type(s) for //: 'dict' ",
        "n_fft=str": "raw text: TypeError: unsupported operand type(s) for //: 'str' a",
        "x=empty tensor": "unnamed: IndexError: reshape: inputs of shapes [0] do not have t",
    },
    "paddle.slice": {
        "axes=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "ends=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "starts=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
    },
    "paddle.strided_slice": {
        "axes=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "ends=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "starts=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "strides=ragged": "raw text: TypeError: int() argument must be a string, a bytes-li",
    },
    "paddle.sum": {
        "dtype=dict": "unnamed: TypeError: unknown dtype {}; expected one of bool, uint",
        "dtype=str": "unnamed: TypeError: unknown dtype 'zzz'; expected one of bool, u",
    },
    "paddle.trapezoid": {
        "y=0-d tensor": "raw text: IndexError: list index out of range",
    },
    "paddle.tril_indices": {
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
    },
    "paddle.triu_indices": {
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
    },
    "paddle.unique": {
        "dtype=int": "unnamed: TypeError: unknown dtype 3; expected one of bool, uint8",
        "dtype=unknown str": "unnamed: TypeError: unknown dtype 'zzz_unknown'; expected one of",
    },
    "paddle.vision.ops.box_coder": {
        "axis=None": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "axis=dict": "raw text: TypeError: int() argument must be a string, a bytes-li",
        "axis=str": "raw text: ValueError: invalid literal for int() with base 10: 'z",
    },
}
