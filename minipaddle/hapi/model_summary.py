"""`paddle.summary`: a table of a network's layers, their input and output shapes and parameter counts.

It runs the network once on random inputs with a forward post-hook on every sublayer (but not on containers:
Sequential, LayerList), and each hook writes one row. The row's name is the class name and the layer's number
(its full_name `conv2d_1` counts from 0, the row `Conv2D-2` from 1). BatchNorm's running mean and variance are
parameters that are not trained, so they count as non-trainable (as in paddle 2.6). The sizes below the table
assume 4 bytes a number; the forward/backward size is twice the sum of the rows' output sizes.
"""

from __future__ import annotations

import numbers
import warnings
from collections import OrderedDict

import numpy as np

from minipaddle.core.state import STATE, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.nn import LayerList, Sequential
from minipaddle.static.input import InputSpec
from minipaddle.tensor.manipulation import cast
from minipaddle.tensor.random import rand

__all__ = ["summary"]


def summary(net, input_size=None, dtypes=None, input=None) -> dict:
    """Print a table of `net`'s layers and parameter counts, by running it once on inputs of `input_size`.

    Args:
        net: the Layer.
        input_size: the input's shape, e.g. (1, 1, 28, 28) or (-1, 1, 28, 28) (one size may be -1 or None: the
            batch, taken as 1); an InputSpec; or a list of them for a network with several inputs.
        dtypes: the inputs' dtype ('float32' by default), or a list with one per input.
        input: the input Tensor (or a list or dict of them) to use instead of random ones; input_size is then
            taken from it.

    Returns:
        dict: {'total_params': N, 'trainable_params': M}.

    Example:
        >>> paddle.summary(paddle.vision.models.LeNet(), (1, 1, 28, 28))
        ---------------------------------------------------------------------------
         Layer (type)       Input Shape          Output Shape         Param #
        ===========================================================================
           Conv2D-1       [[1, 1, 28, 28]]      [1, 6, 28, 28]          60
        ...
        {'total_params': 61610, 'trainable_params': 61610}
    """
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    if input_size is None:
        input_size = _size_of_input(input)
    sizes = _normalize_size(input_size)
    sizes = _check_input(sizes)
    if STATE.static_mode:
        warnings.warn(
            "Your model was created in static graph mode, this may not get correct summary information!", stacklevel=2
        )
        in_train_mode = False
    else:
        in_train_mode = net.training
    if in_train_mode:
        net.eval()
    try:
        text, params_info = summary_string(net, sizes, dtypes, input)
    finally:
        if in_train_mode:
            net.train()
    print(text)
    return params_info


def _size_of_input(input):
    if isinstance(input, Tensor):
        return tuple(input.shape)
    if isinstance(input, (list, tuple)):
        return [tuple(x.shape) for x in input]
    if isinstance(input, dict):
        return [tuple(x.shape) for x in input.values()]
    raise ValueError(
        "Input is not tensor, list, tuple and dict, unable to determine input_size, please input input_size."
    )


def _normalize_size(input_size):
    """An InputSpec becomes its shape tuple; an int becomes (int,); a list's items are treated the same way."""
    if isinstance(input_size, InputSpec):
        return tuple(input_size.shape)
    if isinstance(input_size, list):
        out = []
        for item in input_size:
            if isinstance(item, int):
                item = (item,)
            if isinstance(item, InputSpec):
                out.append(tuple(item.shape))
            elif isinstance(item, tuple):
                out.append(item)
            else:
                raise TypeError(
                    f"summary: when input_size is a list, each item must be a tuple or InputSpec, got {type(item)}"
                )
        return out
    if isinstance(input_size, int):
        return (input_size,)
    return input_size


def _is_shape(shape) -> bool:
    return not any(isinstance(item, (list, tuple)) for item in shape)


def _check_shape(shape) -> tuple:
    """The shape with its one unknown size (None or -1) set to 1."""
    unknown = 0
    out = []
    for item in shape:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got {item}")
        out.append(item)
    return tuple(out)


def _check_input(input_size):
    if isinstance(input_size, (list, tuple)) and _is_shape(input_size):
        return _check_shape(input_size)
    return [_check_input(i) for i in input_size]


def _all_numbers(items) -> bool:
    return all(isinstance(item, numbers.Number) for item in items)


def _build_dtypes(input_size, dtype):
    dtype = "float32" if dtype is None else dtype
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        return [dtype]
    return [_build_dtypes(i, dtype) for i in input_size]


def _build_input(input_size, dtypes):
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        dtype = dtypes[0] if isinstance(dtypes, (list, tuple)) else dtypes
        return cast(rand(list(input_size)), dtype)
    return [_build_input(i, d) for i, d in zip(input_size, dtypes)]


def _shapes_of(x):
    if isinstance(x, Tensor):
        return list(x.shape)
    if isinstance(x, (list, tuple)):
        return [_shapes_of(xx) for xx in x]
    return None


def _output_shape(output):
    if isinstance(output, (list, tuple)):
        return [_output_shape(o) for o in output]
    return list(output.shape) if hasattr(output, "shape") else []


@no_grad()
def summary_string(model, input_size=None, dtypes=None, input=None) -> tuple:
    """(the table as text, {'total_params', 'trainable_params'}): what `summary` prints and returns."""
    if not isinstance(dtypes, (list, tuple)):
        dtypes = _build_dtypes(input_size, dtypes)
    depth = len(model.sublayers())
    rows = OrderedDict()
    hooks = []

    def hook(layer, inputs, output):
        try:
            index = int(layer._full_name.split("_")[-1])
        except ValueError:
            index = len(rows)
        row = rows[f"{type(layer).__name__}-{index + 1}"] = OrderedDict()
        row["input_shape"] = _shapes_of(inputs)
        row["output_shape"] = _output_shape(output)
        params, row["trainable_params"] = 0, 0
        trainable = False
        for p in layer._parameters.values():
            if p is None:
                continue
            params += int(np.prod(p.shape))
            if p.trainable and not p.stop_gradient:
                row["trainable_params"] += int(np.prod(p.shape))
                row["trainable"] = trainable = True
            elif not trainable:
                row["trainable"] = False
        row["nb_params"] = params

    def register_hook(layer):
        if not isinstance(layer, (Sequential, LayerList)) and (layer is not model or depth < 1):
            hooks.append(layer.register_forward_post_hook(hook))

    if isinstance(input_size, tuple):
        input_size = [input_size]
    model.apply(register_hook)
    try:
        if input is not None:
            model(input)
        else:
            model(*_build_input(input_size, dtypes))
    finally:
        for h in hooks:
            h.remove()
    text, total, trainable = _table(rows)
    input_mb = _input_megabytes(input_size)
    output_mb = abs(2.0 * _output_numbers(rows) * 4.0 / 1024**2.0)
    params_mb = abs(total * 4.0 / 1024**2.0)
    width = _widths(rows)["table_width"]
    text += "=" * width + "\n"
    text += f"Total params: {total:,}\n"
    text += f"Trainable params: {trainable:,}\n"
    text += f"Non-trainable params: {total - trainable:,}\n"
    text += "-" * width + "\n"
    text += f"Input size (MB): {input_mb:0.2f}\n"
    text += f"Forward/backward pass size (MB): {output_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {params_mb + output_mb + input_mb:0.2f}\n"
    text += "-" * width + "\n"
    return text, {"total_params": total, "trainable_params": trainable}


def _widths(rows: dict) -> dict:
    """Column widths: at least 15/20/20/15, widened to the longest entry; the table at least 75 wide."""
    w = {"layer_width": 15, "input_shape_width": 20, "output_shape_width": 20, "params_width": 15, "table_width": 75}
    for name, row in rows.items():
        w["output_shape_width"] = max(w["output_shape_width"], len(str(row["output_shape"])))
        w["input_shape_width"] = max(w["input_shape_width"], len(str(row["input_shape"])))
        w["layer_width"] = max(w["layer_width"], len(str(name)))
        w["params_width"] = max(w["params_width"], len(str(row["nb_params"])))
    columns = w["layer_width"] + w["input_shape_width"] + w["output_shape_width"] + w["params_width"]
    w["table_width"] = max(w["table_width"], columns + 5)
    return w


def _table(rows: dict) -> tuple:
    """(the header and one line per row, total params, trainable params)."""
    w = _widths(rows)

    def line(a, b, c, d) -> str:
        return (
            f"{a:^{w['layer_width']}} {b:^{w['input_shape_width']}} "
            f"{c:^{w['output_shape_width']}} {d:^{w['params_width']}}\n"
        )

    text = "-" * w["table_width"] + "\n"
    text += line("Layer (type)", "Input Shape", "Output Shape", "Param #")
    text += "=" * w["table_width"] + "\n"
    total = trainable = 0
    for name, row in rows.items():
        text += line(name, str(row["input_shape"]), str(row["output_shape"]), f"{row['nb_params']:,}")
        total += row["nb_params"]
        if row.get("trainable"):
            trainable += row["trainable_params"]
    return text, total, trainable


def _output_numbers(rows: dict) -> int:
    """How many numbers all the rows' outputs hold."""
    total = 0
    for row in rows.values():
        try:
            total += np.sum(np.prod(row["output_shape"], axis=-1))
        except ValueError:  # several outputs of different ranks
            for shape in row["output_shape"]:
                total += np.sum(np.prod(shape, axis=-1))
    return int(total)


def _input_megabytes(input_size) -> float:
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        return abs(np.prod(input_size) * 4.0 / 1024**2.0)
    return sum(_input_megabytes(i) for i in input_size)
