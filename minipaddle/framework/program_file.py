"""paddle.save(program, path) / paddle.load(path) of a static Program: paddle 2.6 writes the Program's description
(as paddle.static.serialize_program does, the whole Program, nothing pruned) and reads it back as a Program.

minipaddle writes the same: Paddle's ProgramDesc protobuf (static/pdmodel.py write_program_desc), which paddle 2.6's
paddle.load reads as a Program; a Program Paddle's format cannot hold here (the backward and optimizer ops of a
training Program, for one) is written as minipaddle's JSON Program, with a warning naming the op. paddle.load tells
both from its pickles and zip archives by their first bytes, and reads them with paddle.static.deserialize_program
(a ProgramDesc's ops translated into minipaddle's; its backward and optimizer ops left out, with a warning).
"""

from __future__ import annotations

import os

from minipaddle.static.files import atomic_write
from minipaddle.static.io import deserialize_program, program_bytes
from minipaddle.static.pdmodel import is_pdmodel, read_pdmodel
from minipaddle.static.program import Program
from minipaddle.static.serialize import program_to_bytes


def is_program(obj) -> bool:

    return isinstance(obj, Program)


def save_program(program, path, json: bool = False) -> None:
    """Write the Program's ProgramDesc (or, with `json`, minipaddle's JSON Program) to a path or a binary file."""
    data = program_to_bytes(program) if json else program_bytes(program, "paddle.save")
    if hasattr(path, "write"):
        path.write(data)
        return
    path = os.fspath(path)
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, data)


def read_program_file(path):
    """The Program in the file at `path`, or None when the file is not a saved Program (a zip, a pickle, ...)."""

    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"PK" or data[:1] == b"\x80":  # minipaddle's zip archive, or a pickle: not a Program
        return None
    try:
        if is_pdmodel(data):  # Paddle's ProgramDesc: an op outside the table is a NotImplementedError naming it
            return read_pdmodel(data, f"paddle.load: {path}")[0]
        return deserialize_program(data)
    except (ValueError, TypeError):
        return None
