"""paddle.save(program, path) / paddle.load(path) of a static Program: paddle 2.6 writes the Program's description
(as paddle.static.serialize_program does, the whole Program, nothing pruned) and reads it back as a Program.

minipaddle writes the same bytes as a `.pdmodel` file (minipaddle/static/serialize.py); paddle.load tells such a
file from its own zip archives by its first bytes, and reads it with paddle.static.deserialize_program.
"""

from __future__ import annotations

import os

from minipaddle.static.files import atomic_write
from minipaddle.static.io import deserialize_program
from minipaddle.static.program import Program
from minipaddle.static.serialize import program_to_bytes


def is_program(obj) -> bool:

    return isinstance(obj, Program)


def save_program(program, path) -> None:

    data = program_to_bytes(program)
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
        return deserialize_program(data)
    except (ValueError, TypeError):
        return None
