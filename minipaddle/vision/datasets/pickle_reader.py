"""A reader for the pickled data of the CIFAR files, which never runs code from the file.

The python version of CIFAR-10/100 stores each batch as a pickle of a dict: byte-string keys, lists of ints
and strings, and one numpy uint8 array. Python's `pickle.load` would call whatever function the file names,
so a malicious file could run any code. This reader walks the pickle opcodes itself and knows only the
handful those files use. It accepts exactly four "globals", and calls none of them: `_codecs.encode` (how
Python 3 writes bytes at protocol 2), `numpy.core.multiarray._reconstruct`, `numpy.ndarray` and `numpy.dtype`
(how numpy writes an array); it builds the bytes, dtypes and arrays itself, with numpy's own constructors.
Any other opcode or global raises an UnsafePickleError before anything happens.
"""

from __future__ import annotations

import re
import struct

import numpy as np

__all__ = ["UnsafePickleError", "read_pickled_dict"]


class UnsafePickleError(ValueError):
    """The pickle uses something this reader refuses: an opcode or global outside the data CIFAR needs."""


ALLOWED_GLOBALS = {
    ("_codecs", "encode"): "encode",
    ("numpy.core.multiarray", "_reconstruct"): "reconstruct",
    ("numpy._core.multiarray", "_reconstruct"): "reconstruct",
    ("numpy", "ndarray"): "ndarray",
    ("numpy", "dtype"): "dtype",
}
# Plain numeric dtypes only: bool, signed/unsigned ints and floats of the usual sizes (never objects).
SAFE_DTYPE = re.compile(r"^[<>|=]?(b1|[iu][1248]|f[248])$")


class _Global:
    def __init__(self, name: str) -> None:
        self.name = name


class _ArrayStub:
    """An array named by `_reconstruct`, filled in by the BUILD that follows."""

    array = None


class _Mark:
    pass


MARK = _Mark()


def read_pickled_dict(data: bytes, source: str = "the file") -> dict:
    """Read a pickled dict of plain data (as in the CIFAR batches) without executing anything.

    String keys come back as bytes, as Python's own unpickler gives them for these files with encoding='bytes'.
    """
    result = _Machine(data, source).run()
    if not isinstance(result, dict):
        raise UnsafePickleError(f"{source}: expected a pickled dict, got a {type(result).__name__}")
    return {(k.encode("latin-1") if isinstance(k, str) else k): _finished(v) for k, v in result.items()}


def _finished(value):
    if isinstance(value, _ArrayStub):
        if value.array is None:
            raise UnsafePickleError("an array was named but never filled")
        return value.array
    if isinstance(value, list):
        return [_finished(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_finished(v) for v in value)
    if isinstance(value, dict):
        return {k: _finished(v) for k, v in value.items()}
    return value


class _Machine:
    """The pickle virtual machine, reduced to the data opcodes (see pickletools for their definitions)."""

    def __init__(self, data: bytes, source: str) -> None:
        self.data, self.pos, self.source = data, 0, source
        self.stack: list = []
        self.memo: dict = {}

    def fail(self, what: str):
        raise UnsafePickleError(
            f"{self.source}: refusing to read it: {what} (at byte {self.pos}). Only plain data (dicts, lists, "
            "numbers, strings, numpy arrays) is read; no code is run."
        )

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            self.fail("the pickle ends early")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def unpack(self, fmt: str):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def line(self) -> bytes:
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            self.fail("a text argument has no end")
        text = self.data[self.pos : end]
        self.pos = end + 1
        return text

    def pop_mark(self) -> list:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i] is MARK:
                items = self.stack[i + 1 :]
                del self.stack[i:]
                return items
        self.fail("no MARK on the stack")

    def run(self):
        push = self.stack.append
        while True:
            op = self.take(1)
            if op == b"\x80":  # PROTO
                self.take(1)
            elif op == b"\x95":  # FRAME (protocol 4): a length we do not need
                self.take(8)
            elif op == b".":  # STOP
                if len(self.stack) != 1:
                    self.fail("the stack does not end with one value")
                return self.stack.pop()
            elif op in b"}])":  # EMPTY_DICT, EMPTY_LIST, EMPTY_TUPLE
                push({b"}": dict, b"]": list, b")": tuple}[op]())
            elif op == b"(":  # MARK
                push(MARK)
            elif op == b"d":  # DICT
                items = self.pop_mark()
                push(dict(zip(items[::2], items[1::2])))
            elif op == b"l":  # LIST
                push(self.pop_mark())
            elif op == b"t":  # TUPLE
                push(tuple(self.pop_mark()))
            elif op in (b"\x85", b"\x86", b"\x87"):  # TUPLE1, TUPLE2, TUPLE3
                n = op[0] - 0x84
                items = self.stack[-n:]
                del self.stack[-n:]
                push(tuple(items))
            elif op == b"s":  # SETITEM
                value, key = self.stack.pop(), self.stack.pop()
                self._container(dict)[key] = value
            elif op == b"u":  # SETITEMS
                items = self.pop_mark()
                self._container(dict).update(zip(items[::2], items[1::2]))
            elif op == b"a":  # APPEND
                value = self.stack.pop()
                self._container(list).append(value)
            elif op == b"e":  # APPENDS
                items = self.pop_mark()
                self._container(list).extend(items)
            elif op == b"N":
                push(None)
            elif op in (b"\x88", b"\x89"):  # NEWTRUE, NEWFALSE
                push(op == b"\x88")
            elif op == b"J":
                push(self.unpack("<i"))
            elif op == b"K":
                push(self.unpack("<B"))
            elif op == b"M":
                push(self.unpack("<H"))
            elif op in (b"\x8a", b"\x8b"):  # LONG1, LONG4
                n = self.unpack("<B") if op == b"\x8a" else self.unpack("<i")
                push(int.from_bytes(self.take(n), "little", signed=True))
            elif op == b"I":  # INT (text), also True/False as 01/00
                text = self.line()
                push(True if text == b"01" else False if text == b"00" else int(text))
            elif op == b"L":  # LONG (text)
                push(int(self.line().rstrip(b"L")))
            elif op == b"G":  # BINFLOAT
                push(self.unpack(">d"))
            elif op == b"U":  # SHORT_BINSTRING: a Python 2 str, read as bytes
                push(self.take(self.unpack("<B")))
            elif op == b"T":  # BINSTRING
                push(self.take(self.unpack("<i")))
            elif op == b"C":  # SHORT_BINBYTES
                push(self.take(self.unpack("<B")))
            elif op == b"B":  # BINBYTES
                push(self.take(self.unpack("<I")))
            elif op == b"\x8e":  # BINBYTES8
                push(self.take(self.unpack("<Q")))
            elif op == b"X":  # BINUNICODE
                push(self.take(self.unpack("<I")).decode("utf-8"))
            elif op == b"\x8c":  # SHORT_BINUNICODE
                push(self.take(self.unpack("<B")).decode("utf-8"))
            elif op == b"\x8d":  # BINUNICODE8
                push(self.take(self.unpack("<Q")).decode("utf-8"))
            elif op == b"q":  # BINPUT
                self.memo[self.unpack("<B")] = self.stack[-1]
            elif op == b"r":  # LONG_BINPUT
                self.memo[self.unpack("<I")] = self.stack[-1]
            elif op == b"\x94":  # MEMOIZE
                self.memo[len(self.memo)] = self.stack[-1]
            elif op in (b"h", b"j"):  # BINGET, LONG_BINGET
                key = self.unpack("<B" if op == b"h" else "<I")
                if key not in self.memo:
                    self.fail(f"memo entry {key} is read before it is written")
                push(self.memo[key])
            elif op == b"c":  # GLOBAL module\nname\n
                module, name = self.line().decode("utf-8", "replace"), self.line().decode("utf-8", "replace")
                push(self._global(module, name))
            elif op == b"\x93":  # STACK_GLOBAL
                name, module = self.stack.pop(), self.stack.pop()
                push(self._global(str(module), str(name)))
            elif op == b"R":  # REDUCE: only the four known constructors, carried out here
                args, func = self.stack.pop(), self.stack.pop()
                push(self._reduce(func, args))
            elif op == b"b":  # BUILD
                state = self.stack.pop()
                self._build(self.stack[-1], state)
            else:
                self.fail(f"opcode {op!r} is not plain data")

    def _container(self, kind):
        target = self.stack[-1] if self.stack else None
        if not isinstance(target, kind):
            self.fail(f"expected a {kind.__name__} to fill, found {type(target).__name__}")
        return target

    def _global(self, module: str, name: str) -> _Global:
        known = ALLOWED_GLOBALS.get((module, name))
        if known is None:
            self.fail(f"it names the global {module}.{name}")
        return _Global(known)

    def _reduce(self, func, args):
        if not isinstance(func, _Global) or not isinstance(args, tuple):
            self.fail("REDUCE on something other than a known constructor")
        if func.name == "encode" and len(args) == 2 and isinstance(args[0], str):
            if args[1] not in ("latin1", "latin-1"):
                self.fail(f"bytes encoded as {args[1]!r}")
            return args[0].encode("latin-1")
        if func.name == "dtype" and args and isinstance(args[0], str) and SAFE_DTYPE.match(args[0]):
            return np.dtype(args[0])
        if func.name == "reconstruct" and len(args) == 3 and isinstance(args[0], _Global):
            if args[0].name != "ndarray":
                self.fail("_reconstruct of something other than numpy.ndarray")
            return _ArrayStub()
        self.fail(f"{func.name}{args!r:.80} is not a plain bytes, dtype or array construction")

    def _build(self, target, state) -> None:
        if isinstance(target, np.dtype):
            # (version, byte order, subarray, names, fields, elsize, alignment, flags): plain dtypes only.
            if not isinstance(state, tuple) or len(state) < 5 or any(s is not None for s in state[2:5]):
                self.fail("a structured or sub-array dtype")
            if state[1] not in ("<", ">", "|", "="):
                self.fail(f"byte order {state[1]!r}")
            new = target.newbyteorder(state[1]) if state[1] in "<>" else target
            self.stack[-1] = new
            for key, value in list(self.memo.items()):  # the memo may hold the dtype too
                if value is target:
                    self.memo[key] = new
            return
        if isinstance(target, _ArrayStub):
            if not isinstance(state, tuple) or len(state) != 5:
                self.fail("an array state of unexpected form")
            _, shape, dtype, fortran, raw = state
            if not isinstance(dtype, np.dtype) or not isinstance(raw, bytes):
                self.fail("an array whose data is not raw bytes of a plain dtype")
            if not isinstance(shape, tuple) or not all(isinstance(d, int) and d >= 0 for d in shape):
                self.fail(f"an array shape {shape!r}")
            if len(raw) != int(np.prod(shape)) * dtype.itemsize:
                self.fail(f"an array of shape {shape} with {len(raw)} bytes of data")
            target.array = np.frombuffer(raw, dtype=dtype).reshape(shape, order="F" if fortran else "C").copy()
            return
        self.fail(f"BUILD on a {type(target).__name__}")
