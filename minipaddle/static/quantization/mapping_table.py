"""Paddle 2.6's mapping table: which variable a user function's output stands for, kept on disk between quant_aware
and convert (paddle/static/quantization/quanter.py, VARS_MAPPING_TABLE).

quant_aware with a weight_preprocess_func or act_preprocess_func, for training and in the legacy format
(onnx_format False), writes `./mapping_table_for_saving_inference_model` in the working directory: the JSON text
of {the function's output: the variable it read} (`json.dumps`, as Paddle), one table per sub-graph, each written
over the one before (so the file holds the last block's, as Paddle's). convert reads it back when the file exists.

The file is JSON and read with json.loads into a dict of strings, checked: loading it runs no code (DESIGN.md).
"""

from __future__ import annotations

import json
import os

__all__ = ["VARS_MAPPING_TABLE", "load_dict", "save_dict"]

VARS_MAPPING_TABLE = "./mapping_table_for_saving_inference_model"


def save_dict(table: dict) -> None:
    """Write `table` as Paddle's save_dict does."""
    with open(VARS_MAPPING_TABLE, "w") as fh:
        fh.write(json.dumps(table))


def load_dict() -> dict | None:
    """The table in the working directory (None when there is none), as Paddle's load_dict reads it; a file that is
    not a JSON object of names is a ValueError naming it."""
    if not os.path.exists(VARS_MAPPING_TABLE):
        return None
    with open(VARS_MAPPING_TABLE, "rb") as fh:
        data = fh.read()
    try:
        table = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"convert: {VARS_MAPPING_TABLE} is not JSON ({e})") from None
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise ValueError(f"convert: {VARS_MAPPING_TABLE} must hold a JSON object of variable names "
                         "{function output: the variable it read}")  # fmt: skip
    return table
