"""Converting one Python function: source -> AST -> the transformers in order -> a new function.

    converted = convert_to_static(fn)     # the same signature; control flow on Tensors goes through _jst helpers

The transformed source is written to a temporary file (removed when the process ends) and compiled from there,
so tracebacks and `pdb.set_trace()` show the transformed code, and jit/origin_info.py maps its lines back to the
user's. The function is rebuilt with the original's globals (live, not a copy), defaults and closure cells, so
it sees the same names the original sees. Conversion runs once per code object.
"""

from __future__ import annotations

import ast
import atexit
import inspect
import shutil
import tempfile
import textwrap
import types
import weakref
from dataclasses import dataclass, field

from minipaddle.jit import logging_utils
from minipaddle.jit.error import UnsupportedSyntax, unsupported_message
from minipaddle.jit.origin_info import ORIGINS, map_lines
from minipaddle.jit.transformers import TRANSFORMERS
from minipaddle.jit.transformers.base import Context

FACTORY = "__jst_factory"


@dataclass
class Transformed:
    """The result of converting one code object."""

    name: str
    source: str  # the user's function, dedented
    code: str  # the transformed function's source (StaticFunction.code)
    stages: list = field(default_factory=list)  # [(transformer name, level, doc, source after it)]
    path: str = ""  # the temporary file it was compiled from
    inner_code: types.CodeType | None = None
    filename: str = ""
    first_line: int = 1


_BY_CODE: dict = {}
_BY_FUNCTION: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_TMP = {"dir": None, "count": 0}


def _tmp_dir() -> str:
    if _TMP["dir"] is None:
        _TMP["dir"] = tempfile.mkdtemp(prefix="minipaddle_to_static_")
        atexit.register(shutil.rmtree, _TMP["dir"], True)
    return _TMP["dir"]


def function_source(fn) -> tuple:
    """(dedented source, file name, first line) of a function (OSError/TypeError when Python has no source)."""
    lines, first = inspect.getsourcelines(fn)
    return textwrap.dedent("".join(lines)), inspect.getsourcefile(fn) or inspect.getfile(fn), first


def transform_function(fn) -> Transformed:
    """Run the transformers over `fn`'s source (cached per code object)."""
    code = fn.__code__
    cached = _BY_CODE.get(code)
    if cached is not None:
        return cached
    source, filename, first = function_source(fn)
    tree = ast.parse(source)
    fdef = tree.body[0]
    if not isinstance(fdef, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise TypeError(f"to_static: {fn.__qualname__} is not defined by a `def` statement (a lambda?)")
    fdef.decorator_list = []  # @to_static and friends are not part of the converted function
    _refuse_unsupported(fdef, filename, first, fn.__qualname__)
    ctx = Context()
    result = Transformed(fn.__name__, source, "", filename=filename, first_line=first)
    result.stages.append(("Original code", 0, "the function as written", ast.unparse(fdef)))
    for cls in TRANSFORMERS:
        try:
            tree = cls(ctx).transform(tree)
        except UnsupportedSyntax as e:
            line = (getattr(e.node, "lineno", 1) or 1) + first - 1
            raise NotImplementedError(unsupported_message(e.what, filename, line, fn.__qualname__)) from None
        text = ast.unparse(tree.body[0])
        result.stages.append((cls.name, cls.level, cls.doc, text))
        logging_utils.log_code(cls.level, cls.name, text)
    fdef = tree.body[0]
    result.code = ast.unparse(fdef) + "\n"
    logging_utils.log_code(logging_utils.LOG_ALL, "All Transformers", result.code)
    _compile(result, fdef, fn, filename, first)
    _BY_CODE[code] = result
    return result


def _refuse_unsupported(fdef, filename: str, first: int, qualname: str) -> None:
    """Constructs that cannot become a Program fail now, naming the line."""
    for node in ast.walk(fdef):
        what = None
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            what = "a generator (`yield`) cannot be turned into a Program"
        elif isinstance(node, (ast.Await, ast.AsyncFor, ast.AsyncWith)) or (
            isinstance(node, ast.AsyncFunctionDef) and node is fdef
        ):
            what = "async code cannot be turned into a Program"
        if what:
            raise NotImplementedError(unsupported_message(what, filename, node.lineno + first - 1, qualname))


def _compile(result: Transformed, fdef, fn, filename: str, first: int) -> None:
    """Write `def __jst_factory(_jst, <free variables>): <fdef>; return <name>` to a file and compile it; the
    inner code object is what converted functions are made of."""
    freevars = ["_jst"] + [v for v in fn.__code__.co_freevars if v != "_jst"]
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=v) for v in freevars], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])  # fmt: skip
    factory = ast.FunctionDef(name=FACTORY, args=args, body=[fdef, ast.Return(value=ast.Name(fdef.name, ast.Load()))],
                              decorator_list=[], returns=None, type_params=[])  # fmt: skip
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    header = f"# to_static: the transformed code of {fn.__qualname__} ({filename}, line {first})\n"
    text = header + ast.unparse(module) + "\n"
    _TMP["count"] += 1
    path = f"{_tmp_dir()}/{fdef.name}_{_TMP['count']}.py"
    with open(path, "w") as f:
        f.write(text)
    reparsed = ast.parse(text)
    ORIGINS[path] = map_lines(fdef, reparsed.body[0].body[0], filename, first, fn.__name__)
    module_code = compile(text, path, "exec")
    factory_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType) and c.co_name == FACTORY)
    result.inner_code = next(c for c in factory_code.co_consts
                             if isinstance(c, types.CodeType) and c.co_name == fdef.name)  # fmt: skip
    result.path = path


def convert_to_static(fn):
    """The converted function of `fn` (a plain function; for a method pass `method.__func__`)."""
    cached = _BY_FUNCTION.get(fn)
    if cached is not None:
        return cached
    t = transform_function(fn)
    from minipaddle.jit import dy2static

    cells = {"_jst": types.CellType(dy2static)}
    if fn.__closure__:
        cells.update(zip(fn.__code__.co_freevars, fn.__closure__))
    closure = tuple(cells[v] for v in t.inner_code.co_freevars)
    new = types.FunctionType(t.inner_code, fn.__globals__, fn.__name__, fn.__defaults__, closure or None)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__doc__ = fn.__doc__
    new.__module__ = fn.__module__
    new.__dict__.update(fn.__dict__)
    new._jst_transformed = t
    _BY_FUNCTION[fn] = new
    return new
