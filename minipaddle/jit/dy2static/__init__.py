"""`paddle.jit.dy2static`: the helpers that transformed code calls, under the short names Paddle 2.6's generated
code uses (`_jst.IfElse`, `_jst.While`, `_jst.Call`, ...). Read convert_operators.py for what each one does."""

from minipaddle.jit.dy2static.convert_call import convert_call
from minipaddle.jit.dy2static.convert_operators import (
    UndefinedVar,
    convert_assert,
    convert_enumerate,
    convert_ifelse,
    convert_ifexp,
    convert_index,
    convert_indexable,
    convert_len,
    convert_logical_and,
    convert_logical_not,
    convert_logical_or,
    convert_pop,
    convert_print,
    convert_python_only,
    convert_range,
    convert_shape,
    convert_var_dtype,
    convert_while_loop,
    to_static_variable,
)

Call = convert_call
IfElse = convert_ifelse
IfExp = convert_ifexp
While = convert_while_loop
And = convert_logical_and
Or = convert_logical_or
Not = convert_logical_not
AsDtype = convert_var_dtype
Len = convert_len
Shape = convert_shape
Assert = convert_assert
Print = convert_print
Pop = convert_pop
Index = convert_index
Indexable = convert_indexable
Range = convert_range
Enumerate = convert_enumerate
PythonOnly = convert_python_only

__all__ = [
    "And", "AsDtype", "Assert", "Call", "Enumerate", "IfElse", "IfExp", "Index", "Indexable", "Len", "Not", "Or",
    "Pop", "Print", "PythonOnly", "Range", "Shape", "UndefinedVar", "While", "convert_assert", "convert_call",
    "convert_enumerate", "convert_ifelse", "convert_ifexp", "convert_index", "convert_indexable", "convert_len",
    "convert_logical_and", "convert_logical_not", "convert_logical_or", "convert_pop", "convert_print",
    "convert_python_only", "convert_range", "convert_shape", "convert_var_dtype", "convert_while_loop",
    "to_static_variable",
]  # fmt: skip
