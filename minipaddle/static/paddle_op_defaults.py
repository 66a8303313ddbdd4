"""The slots and attributes paddle 2.6.2 gives each op it writes into a .pdmodel, as built with default
arguments (recorded by tests/golden/paddle_models/make_op_defaults.py): one entry per op type in OPS, the
attributes every op has in COMMON_ATTRS. static/pdmodel.py starts every op it writes from `op_defaults(type)`:
Paddle's loaders need every attribute and slot an op has (jit.load builds a backward from them)."""

__all__ = ["COMMON_ATTRS", "OPS", "op_defaults"]

# every op's attributes: {name: (Paddle's AttrType name, value)}
COMMON_ATTRS = {
    "op_device": ("STRING", ""),
    "op_namescope": ("STRING", "/"),
    "op_role": ("INT", 0),
    "op_role_var": ("STRINGS", []),
    "with_quant_attr": ("BOOL", False),
}

# op type: its input and output slots (Paddle writes every slot, an absent input as an empty one), and
# its attributes besides COMMON_ATTRS
OPS = {
    "abs": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "assign_value": {
        "attrs": {
            "bool_values": ("INTS", []),
            "dtype": ("INT", 5),
            "fp32_values": ("FLOATS", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
            "fp64_values": ("FLOAT64S", []),
            "int32_values": ("INTS", []),
            "int64_values": ("LONGS", []),
            "shape": ("INTS", [8]),
        },
        "inputs": [],
        "outputs": ["Out"],
    },
    "batch_norm": {
        "attrs": {
            "data_layout": ("STRING", "NCHW"),
            "epsilon": ("FLOAT", 9.999999747378752e-06),
            "is_test": ("BOOL", False),
            "momentum": ("FLOAT", 0.8999999761581421),
            "trainable_statistics": ("BOOL", False),
            "use_global_stats": ("BOOL", False),
        },
        "inputs": ["Bias", "Mean", "MomentumTensor", "Scale", "Variance", "X"],
        "outputs": ["MeanOut", "ReserveSpace", "SavedMean", "SavedVariance", "VarianceOut", "Y"],
    },
    "broadcast_tensors": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "cast": {
        "attrs": {"in_dtype": ("INT", 5), "out_dtype": ("INT", 6), "use_mkldnn": ("BOOL", False)},
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "clip": {
        "attrs": {"max": ("FLOAT", 1.0), "min": ("FLOAT", -1.0)},
        "inputs": ["Max", "Min", "X"],
        "outputs": ["Out"],
    },
    "concat": {"attrs": {"axis": ("INT", 1)}, "inputs": ["AxisTensor", "X"], "outputs": ["Out"]},
    "conditional_block": {
        "attrs": {"is_scalar_condition": ("BOOL", True)},
        "inputs": ["Cond", "Input"],
        "outputs": ["Out", "Scope"],
    },
    "conv2d": {
        "attrs": {
            "data_format": ("STRING", "NCHW"),
            "dilations": ("INTS", [1, 1]),
            "groups": ("INT", 1),
            "padding_algorithm": ("STRING", "EXPLICIT"),
            "paddings": ("INTS", [1, 1]),
            "strides": ("INTS", [1, 1]),
        },
        "inputs": ["Filter", "Input"],
        "outputs": ["Output"],
    },
    "cos": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "cumsum": {
        "attrs": {
            "axis": ("INT", 1),
            "exclusive": ("BOOL", False),
            "flatten": ("BOOL", False),
            "reverse": ("BOOL", False),
        },
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "depthwise_conv2d": {
        "attrs": {
            "data_format": ("STRING", "NCHW"),
            "dilations": ("INTS", [1, 1]),
            "groups": ("INT", 4),
            "padding_algorithm": ("STRING", "EXPLICIT"),
            "paddings": ("INTS", [1, 1]),
            "strides": ("INTS", [1, 1]),
        },
        "inputs": ["Filter", "Input"],
        "outputs": ["Output"],
    },
    "dropout": {
        "attrs": {
            "dropout_implementation": ("STRING", "upscale_in_train"),
            "dropout_prob": ("FLOAT", 0.5),
            "is_test": ("BOOL", False),
        },
        "inputs": ["Seed", "X"],
        "outputs": ["Mask", "Out"],
    },
    "elementwise_add": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "elementwise_div": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "elementwise_floordiv": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "elementwise_max": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "elementwise_min": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "elementwise_mod": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "elementwise_mul": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "elementwise_sub": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "equal": {"attrs": {"axis": ("INT", -1), "force_cpu": ("BOOL", False)}, "inputs": ["X", "Y"], "outputs": ["Out"]},
    "erf": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "exp": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "fc": {
        "attrs": {
            "Scale_in": ("FLOAT", 1.0),
            "Scale_out": ("FLOAT", 1.0),
            "Scale_weights": ("FLOATS", [1.0]),
            "activation_type": ("STRING", ""),
            "force_fp32_output": ("BOOL", False),
            "in_num_col_dims": ("INT", 1),
            "mkldnn_data_type": ("STRING", "float32"),
            "padding_weights": ("BOOL", False),
            "use_mkldnn": ("BOOL", False),
            "use_quantizer": ("BOOL", False),
        },
        "inputs": ["Bias", "Input", "W"],
        "outputs": ["Out"],
    },
    "fill_any_like": {"attrs": {"dtype": ("INT", 5), "value": ("FLOAT", 1.0)}, "inputs": ["X"], "outputs": ["Out"]},
    "fill_constant": {
        "attrs": {
            "dtype": ("INT", 5),
            "force_cpu": ("BOOL", False),
            "place_type": ("INT", -1),
            "shape": ("LONGS", []),
            "str_value": ("STRING", ""),
            "value": ("FLOAT", 0.0),
        },
        "inputs": [],
        "outputs": ["Out"],
    },
    "fill_constant_batch_size_like": {
        "attrs": {
            "dtype": ("INT", 5),
            "force_cpu": ("BOOL", False),
            "input_dim_idx": ("INT", 0),
            "output_dim_idx": ("INT", 0),
            "shape": ("INTS", [-1, 2]),
            "str_value": ("STRING", ""),
            "value": ("FLOAT", 1.0),
        },
        "inputs": ["Input"],
        "outputs": ["Out"],
    },
    "flatten_contiguous_range": {
        "attrs": {"start_axis": ("INT", 1), "stop_axis": ("INT", 3)},
        "inputs": ["X"],
        "outputs": ["Out", "XShape"],
    },
    "floor": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "gather": {"attrs": {"axis": ("INT", 0)}, "inputs": ["Axis", "Index", "X"], "outputs": ["Out"]},
    "gather_nd": {"attrs": {}, "inputs": ["Index", "X"], "outputs": ["Out"]},
    "gelu": {"attrs": {"approximate": ("BOOL", False)}, "inputs": ["X"], "outputs": ["Out"]},
    "greater_equal": {
        "attrs": {"axis": ("INT", -1), "force_cpu": ("BOOL", False)},
        "inputs": ["X", "Y"],
        "outputs": ["Out"],
    },
    "greater_than": {
        "attrs": {"axis": ("INT", -1), "force_cpu": ("BOOL", False)},
        "inputs": ["X", "Y"],
        "outputs": ["Out"],
    },
    "hard_sigmoid": {
        "attrs": {"offset": ("FLOAT", 0.5), "slope": ("FLOAT", 0.16666670143604279)},
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "hard_swish": {
        "attrs": {"offset": ("FLOAT", 3.0), "scale": ("FLOAT", 6.0), "threshold": ("FLOAT", 6.0)},
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "layer_norm": {
        "attrs": {"begin_norm_axis": ("INT", 1), "epsilon": ("FLOAT", 9.999999747378752e-06)},
        "inputs": ["Bias", "Scale", "X"],
        "outputs": ["Mean", "Variance", "Y"],
    },
    "leaky_relu": {"attrs": {"alpha": ("FLOAT", 0.009999999776482582)}, "inputs": ["X"], "outputs": ["Out"]},
    "less_equal": {
        "attrs": {"axis": ("INT", -1), "force_cpu": ("BOOL", False)},
        "inputs": ["X", "Y"],
        "outputs": ["Out"],
    },
    "less_than": {
        "attrs": {"axis": ("INT", -1), "force_cpu": ("BOOL", False)},
        "inputs": ["X", "Y"],
        "outputs": ["Out"],
    },
    "log": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "logical_not": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "lookup_table_v2": {"attrs": {"padding_idx": ("LONG", -1)}, "inputs": ["Ids", "W"], "outputs": ["Out"]},
    "matmul_v2": {
        "attrs": {"trans_x": ("BOOL", False), "trans_y": ("BOOL", False)},
        "inputs": ["X", "Y"],
        "outputs": ["Out"],
    },
    "max_pool2d_with_index": {
        "attrs": {
            "adaptive": ("BOOL", False),
            "global_pooling": ("BOOL", False),
            "ksize": ("INTS", [2, 2]),
            "paddings": ("INTS", [0, 0]),
            "strides": ("INTS", [2, 2]),
        },
        "inputs": ["X"],
        "outputs": ["Mask", "Out"],
    },
    "max_pool3d_with_index": {
        "attrs": {
            "adaptive": ("BOOL", False),
            "global_pooling": ("BOOL", False),
            "ksize": ("INTS", [1, 1, 1]),
            "paddings": ("INTS", [0, 0, 0]),
            "strides": ("INTS", [1, 1, 1]),
        },
        "inputs": ["X"],
        "outputs": ["Mask", "Out"],
    },
    "not_equal": {
        "attrs": {"axis": ("INT", -1), "force_cpu": ("BOOL", False)},
        "inputs": ["X", "Y"],
        "outputs": ["Out"],
    },
    "pad3d": {
        "attrs": {
            "data_format": ("STRING", "NCDHW"),
            "mode": ("STRING", "constant"),
            "paddings": ("INTS", [0, 1, 0, 1, 0, 0]),
            "value": ("FLOAT", -1.0),
        },
        "inputs": ["Paddings", "X"],
        "outputs": ["Out"],
    },
    "pool2d": {
        "attrs": {
            "adaptive": ("BOOL", False),
            "ceil_mode": ("BOOL", False),
            "data_format": ("STRING", "NCHW"),
            "exclusive": ("BOOL", True),
            "global_pooling": ("BOOL", False),
            "ksize": ("INTS", [2, 2]),
            "padding_algorithm": ("STRING", "EXPLICIT"),
            "paddings": ("INTS", [0, 0]),
            "pooling_type": ("STRING", "max"),
            "strides": ("INTS", [2, 2]),
            "use_cudnn": ("BOOL", True),
        },
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "pool3d": {
        "attrs": {
            "adaptive": ("BOOL", False),
            "ceil_mode": ("BOOL", False),
            "data_format": ("STRING", "NCDHW"),
            "exclusive": ("BOOL", True),
            "global_pooling": ("BOOL", False),
            "ksize": ("INTS", [1, 1, 1]),
            "padding_algorithm": ("STRING", "EXPLICIT"),
            "paddings": ("INTS", [0, 0, 0]),
            "pooling_type": ("STRING", "avg"),
            "strides": ("INTS", [1, 1, 1]),
            "use_cudnn": ("BOOL", True),
        },
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "pow": {"attrs": {"factor": ("FLOAT", 2.0)}, "inputs": ["FactorTensor", "X"], "outputs": ["Out"]},
    "reduce_max": {
        "attrs": {
            "dim": ("INTS", [1]),
            "in_dtype": ("INT", -1),
            "keep_dim": ("BOOL", False),
            "out_dtype": ("INT", -1),
            "reduce_all": ("BOOL", False),
        },
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "reduce_mean": {
        "attrs": {
            "dim": ("INTS", [1]),
            "in_dtype": ("INT", -1),
            "keep_dim": ("BOOL", False),
            "out_dtype": ("INT", -1),
            "reduce_all": ("BOOL", False),
        },
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "reduce_min": {
        "attrs": {
            "dim": ("INTS", [1]),
            "in_dtype": ("INT", -1),
            "keep_dim": ("BOOL", False),
            "out_dtype": ("INT", -1),
            "reduce_all": ("BOOL", False),
        },
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "reduce_sum": {
        "attrs": {
            "dim": ("INTS", [1]),
            "in_dtype": ("INT", -1),
            "keep_dim": ("BOOL", False),
            "out_dtype": ("INT", -1),
            "reduce_all": ("BOOL", False),
        },
        "inputs": ["X"],
        "outputs": ["Out"],
    },
    "relu": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "relu6": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "reshape2": {
        "attrs": {
            "mkldnn_data_type": ("STRING", "float32"),
            "shape": ("INTS", [1, 4, 1, 1]),
            "use_mkldnn": ("BOOL", False),
            "use_quantizer": ("BOOL", False),
        },
        "inputs": ["Shape", "ShapeTensor", "X"],
        "outputs": ["Out", "XShape"],
    },
    "rsqrt": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "scale": {
        "attrs": {"bias": ("FLOAT", 1.0), "bias_after_scale": ("BOOL", True), "scale": ("FLOAT", 1.0)},
        "inputs": ["ScaleTensor", "X"],
        "outputs": ["Out"],
    },
    "select_input": {"attrs": {}, "inputs": ["Mask", "X"], "outputs": ["Out"]},
    "set_value": {
        "attrs": {
            "axes": ("LONGS", [1]),
            "decrease_axes": ("LONGS", [1]),
            "dtype": ("INT", 5),
            "ends": ("LONGS", [1]),
            "none_axes": ("LONGS", []),
            "shape": ("LONGS", [1]),
            "starts": ("LONGS", [0]),
            "steps": ("LONGS", [1]),
            "values": ("SCALARS", []),
        },
        "inputs": ["EndsTensorList", "Input", "StartsTensorList", "StepsTensorList", "ValueTensor"],
        "outputs": ["Out"],
    },
    "sigmoid": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "sin": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "slice": {
        "attrs": {
            "axes": ("INTS", [1]),
            "decrease_axis": ("INTS", []),
            "ends": ("INTS", [3]),
            "infer_flags": ("INTS", [1]),
            "starts": ("INTS", [1]),
        },
        "inputs": ["EndsTensor", "EndsTensorList", "Input", "StartsTensor", "StartsTensorList"],
        "outputs": ["Out"],
    },
    "softmax": {"attrs": {"axis": ("INT", -1)}, "inputs": ["X"], "outputs": ["Out"]},
    "split": {
        "attrs": {
            "axis": ("INT", 0),
            "mkldnn_data_type": ("STRING", "float32"),
            "num": ("INT", 2),
            "sections": ("INTS", []),
            "use_mkldnn": ("BOOL", False),
        },
        "inputs": ["AxisTensor", "SectionsTensorList", "X"],
        "outputs": ["Out"],
    },
    "sqrt": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "square": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "squeeze2": {"attrs": {"axes": ("INTS", [1])}, "inputs": ["X"], "outputs": ["Out", "XShape"]},
    "stack": {"attrs": {"axis": ("INT", 0)}, "inputs": ["X"], "outputs": ["Y"]},
    "strided_slice": {
        "attrs": {
            "axes": ("INTS", [1]),
            "decrease_axis": ("INTS", []),
            "ends": ("INTS", [2147483647]),
            "infer_flags": ("INTS", [1]),
            "starts": ("INTS", [0]),
            "strides": ("INTS", [2]),
        },
        "inputs": [
            "EndsTensor",
            "EndsTensorList",
            "Input",
            "StartsTensor",
            "StartsTensorList",
            "StridesTensor",
            "StridesTensorList",
        ],
        "outputs": ["Out"],
    },
    "tanh": {"attrs": {}, "inputs": ["X"], "outputs": ["Out"]},
    "transpose2": {"attrs": {"axis": ("INTS", [0, 2, 1])}, "inputs": ["X"], "outputs": ["Out", "XShape"]},
    "unsqueeze2": {
        "attrs": {"axes": ("INTS", [1])},
        "inputs": ["AxesTensor", "AxesTensorList", "X"],
        "outputs": ["Out", "XShape"],
    },
    "where_index": {"attrs": {}, "inputs": ["Condition"], "outputs": ["Out"]},
    "while": {"attrs": {"is_test": ("BOOL", False)}, "inputs": ["Condition", "X"], "outputs": ["Out", "StepScopes"]},
}


def op_defaults(kind: str) -> tuple:
    """(attributes {name: (Paddle's AttrType name, value)}, input slots, output slots) of Paddle's op `kind`; an op
    outside the table gets the common attributes and no slots."""
    entry = OPS.get(kind, {})
    attrs = {**COMMON_ATTRS, **entry.get("attrs", {})}
    return attrs, tuple(entry.get("inputs", ())), tuple(entry.get("outputs", ()))
