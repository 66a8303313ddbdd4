"""Errors in converted code, told in the user's terms (Paddle 2.6's dy2static error format).

The transformed code runs from a temporary file, so a traceback points at lines the user never wrote. Every
transformed file has an origin map (jit/origin_info.py) from its lines back to the user's file and line; an
error raised while a Program is built is re-raised with the same type and this message:

    In transformed code:

        File "/home/user/model.py", line 8, in forward
    \tz = self.head(y)
        File "/home/user/model.py", line 4, in head
            <two lines above>
            return paddle.reshape(x, [7, 7])
            ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~ <--- HERE
            <two lines below>

        ValueError: reshape: ...

minipaddle's own frames are left out: the user's frames are what the user can change.
"""

from __future__ import annotations

import linecache
import os
import traceback

from minipaddle.jit.origin_info import ORIGINS

SOURCE_CODE_RANGE = 5  # lines shown around the failing line, as Paddle
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # minipaddle/
MAPPED = "_jst_mapped"  # set on an exception whose message is already in the user's terms


class UnsupportedSyntax(NotImplementedError):
    """Raised while transforming: a construct to_static cannot convert. `node` is the AST node (its line)."""

    def __init__(self, what: str, node=None) -> None:
        super().__init__(what)
        self.what = what
        self.node = node


def unsupported_message(what: str, filename: str, line: int, function: str) -> str:
    return (
        f'to_static cannot convert {function}: {what} (File "{filename}", line {line}).\n'
        f"    {linecache.getline(filename, line).strip()}\n"
        f"Run this function as it is with @paddle.jit.not_to_static, or rewrite the construct "
        f"(see the supported syntax in the docstring of paddle.jit.to_static)."
    )


def _user_frames(tb) -> list:
    """(file, line, function) of the frames the user wrote: transformed lines mapped back, minipaddle's own
    frames dropped."""
    frames = []
    for fs in traceback.extract_tb(tb):
        origin = ORIGINS.get(fs.filename)
        if origin is not None:
            where = origin.get(fs.lineno)
            if where is not None:
                frames.append(where)
            continue
        path = os.path.abspath(fs.filename)
        if path.startswith(_PACKAGE_DIR) or fs.filename.startswith("<frozen"):
            continue
        frames.append((fs.filename, fs.lineno, fs.name))
    return [f for i, f in enumerate(frames) if i == 0 or f != frames[i - 1]]  # closures of one line: once


def _frame_line(filename: str, line: int, function: str) -> str:
    code = linecache.getline(filename, line).strip()
    return f'    File "{filename}", line {line}, in {function}\n\t{code}'


def _frame_range(filename: str, line: int, function: str) -> str:
    half = SOURCE_CODE_RANGE // 2
    numbers = [n for n in range(line - half, line + half + 1) if n >= 1 and linecache.getline(filename, n)]
    texts = {n: linecache.getline(filename, n).rstrip("\n") for n in numbers}
    indent = min((len(t) - len(t.lstrip()) for t in texts.values() if t.strip()), default=0)
    out = [f'    File "{filename}", line {line}, in {function}']
    for n in numbers:
        text = texts[n][indent:]
        out.append("        " + text)
        if n == line:
            lead = len(text) - len(text.lstrip())
            out.append("        " + " " * lead + "~" * len(text.strip()) + " <--- HERE")
    return "\n".join(out)


def error_message(error: BaseException, tb) -> str | None:
    """The 'In transformed code' message for `error`, or None when no user frame is involved."""
    frames = _user_frames(tb)
    if not any(ORIGINS.get(fs.filename) for fs in traceback.extract_tb(tb)):
        return None
    parts = ["In transformed code:", ""]
    for f in frames[:-1]:
        parts.append(_frame_line(*f))
    if frames:
        parts.append(_frame_range(*frames[-1]))
    parts.append("")
    parts.append("    " + "".join(traceback.format_exception_only(type(error), error)).strip())
    return "\n".join(parts)


def reraise_in_user_terms(error: BaseException):
    """Raise `error` again, same type, with the message pointing at the user's lines (or unchanged)."""
    if getattr(error, MAPPED, False) or os.environ.get("TRANSLATOR_DISABLE_NEW_ERROR", "0") == "1":
        raise error
    message = error_message(error, error.__traceback__)
    if message is None:
        raise error
    try:
        new = type(error)(message)
    except Exception:  # an exception type whose constructor wants other arguments: keep it as it is
        raise error from None
    setattr(new, MAPPED, True)
    new.original_error = error
    raise new from None


# ---- errors raised when the Program runs ------------------------------------------------------------------------


def stack_origin() -> list:
    """The user's frames of the current stack (outermost first), when it runs transformed code; else []."""
    import sys

    frames, f = [], sys._getframe(1)
    mapped = False
    while f is not None:
        origin = ORIGINS.get(f.f_code.co_filename)
        if origin is not None:
            where = origin.get(f.f_lineno)
            if where is not None:
                frames.append(where)
                mapped = True
        else:
            path = os.path.abspath(f.f_code.co_filename)
            if not path.startswith(_PACKAGE_DIR) and not f.f_code.co_filename.startswith("<"):
                frames.append((f.f_code.co_filename, f.f_lineno, f.f_code.co_name))
        f = f.f_back
    if not mapped:
        return []
    frames.reverse()
    out = [fr for i, fr in enumerate(frames) if i == 0 or fr != frames[i - 1]]
    # keep from the outermost transformed frame on (the caller's own frames, tests, notebooks, come before)
    first = next(i for i, fr in enumerate(out) if any(fr in m.values() for m in ORIGINS.values()))
    return out[first:]


def failing_step(error: BaseException):
    """The Executor step (static/executor.Step) whose kernel raised `error` (following the chain of causes)."""
    step, e = None, error
    while e is not None:
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_name == "run_plan" and "step" in tb.tb_frame.f_locals:
                step = tb.tb_frame.f_locals["step"]
            tb = tb.tb_next
        e = e.__cause__
    return step


def reraise_runtime(error: BaseException, origins: dict):
    """An error from running a converted Program, re-raised pointing at the user's line that built the op."""
    step = failing_step(error)
    frames = None
    if step is not None:
        for name in step.desc.output_names():
            frames = origins.get(name)
            if frames:
                break
    if not frames or getattr(error, MAPPED, False):
        raise error
    parts = ["In transformed code:", ""]
    parts += [_frame_line(*f) for f in frames[:-1]]
    parts += [_frame_range(*frames[-1]), ""]
    parts.append("    " + "".join(traceback.format_exception_only(type(error), error)).strip())
    try:
        new = type(error)("\n".join(parts))
    except Exception:
        raise error from None
    setattr(new, MAPPED, True)
    new.original_error = error
    raise new from None
