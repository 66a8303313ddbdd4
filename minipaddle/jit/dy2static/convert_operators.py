"""The runtime helpers the transformed code calls (`_jst.IfElse`, `_jst.While`, `_jst.And`, ...).

Each helper looks at the values it gets while the Program is built: on Python values (and Tensors that already
hold values) it does what Python would; on a static Variable it builds the op that decides at run time:

    IfElse(pred, ...)   a Python bool runs one branch now; a bool Variable builds a `cond` op with both branches
    While(cond, ...)    a Python bool loops now (unrolled into the Program); a Variable builds one `while` op
    And / Or / Not      Python's and/or/not (short-circuit included), or logical_and/_or/_not ops
    Len, Shape, AsDtype, Assert, Print, Index, Range, Enumerate, Indexable, Pop, IfExp, UndefinedVar

This is why control flow that does not depend on a Tensor stays Python: only a Variable makes an op.

Lists: a list the body of a `while` on a Tensor condition appends to (or pops from) cannot stay a Python list,
since the Program decides how many times the body runs; as in Paddle 2.6 it becomes a tensor array (a
`TensorArray`, minipaddle/tensor/array.py) before the loop, so `append`, `pop`, `x[i]`, `len(x)` and
`manipulation.stack(x)` work on it inside and after the loop, and gradients flow through its writes and reads.
The branches of an `if` on a Tensor each get their own copy of such lists; they stay Python lists when both
branches leave them the same length, and become tensor arrays otherwise.
"""

from __future__ import annotations

import contextlib

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.ops.jit_ops import assert_true
from minipaddle.static.control_flow import _merged_shape, cond, external_reads, while_loop
from minipaddle.static.debug import Print
from minipaddle.static.program import Variable, default_main_program
from minipaddle.tensor import attribute, creation, indexing, logic, manipulation
from minipaddle.tensor import math as tmath
from minipaddle.tensor.array import TensorArray


def is_variable(x) -> bool:
    return isinstance(x, Variable)


class UndefinedVar:
    """A variable that has no value on this path (assigned in only one branch of an `if` on a Tensor, or only
    inside a loop). Using it raises NameError naming it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _fail(self, *args, **kwargs):
        raise NameError(
            f"to_static: the variable '{self.name}' has no value here: it is assigned only in some branches of an "
            "`if` on a Tensor, or only inside a loop; give it a value before the `if` or loop"
        )

    __bool__ = __call__ = __getitem__ = __iter__ = __len__ = __float__ = __int__ = __index__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail
    __neg__ = __lt__ = __le__ = __gt__ = __ge__ = __matmul__ = __pow__ = _fail

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._fail()

    def __repr__(self) -> str:
        return f"UndefinedVar({self.name!r})"


def _undefined(x) -> bool:
    return isinstance(x, UndefinedVar)


# ---- building values into a block ---------------------------------------------------------------------------------


@contextlib.contextmanager
def _in_block(program, idx: int):
    """Append ops to block `idx` (a branch already built) inside the `with`."""
    prev = program.current_block_idx
    program.current_block_idx = idx
    try:
        yield
    finally:
        program.current_block_idx = prev


def _number_dtype(x):
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, (int, np.integer)):
        return "int64"
    return dtypes.get_default_dtype()


def to_static_variable(x, like=None):
    """A Python number, Tensor or None as a Variable of the current block (`like` gives dtype and shape to
    numbers and to None)."""
    if is_variable(x):
        return x
    if isinstance(x, Tensor):
        return manipulation.assign(x)
    if (x is None or _undefined(x)) and is_variable(like):  # a placeholder: only its dtype matters
        return _placeholder(like)
    if isinstance(x, (bool, int, float, np.number)):
        dtype = like.dtype if is_variable(like) else dtypes.to_dtype(_number_dtype(x))
        return manipulation.assign(Tensor(np.asarray(x, dtype=dtype.np)))  # a constant op of the Program
    raise TypeError(f"to_static: cannot make a Tensor of {type(x).__name__} {x!r}")


def _placeholder(like):
    """Zeros of `like`'s dtype and shape (unknown sizes as 1) made in the current block, without reading `like`
    (which may live in another branch)."""
    shape = [d if d >= 0 else 1 for d in like.shape]
    return manipulation.assign(Tensor(np.zeros(shape, like.dtype.np)))


def _as_bool(pred):
    return pred if pred.dtype.name == "bool" else manipulation.cast(pred, "bool")


def _is_data(x) -> bool:
    return is_variable(x) or isinstance(x, Tensor)


def _same_python(a, b) -> bool:
    if a is b:
        return True
    if _is_data(a) or _is_data(b) or _undefined(a) or _undefined(b):
        return False
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):  # (== on Tensors inside would build ops)
        return type(a) is type(b) and len(a) == len(b) and all(_same_python(x, y) for x, y in zip(a, b))
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _leaves(x) -> list:
    if isinstance(x, (list, tuple)):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def _rebuild(x, it):
    if isinstance(x, (list, tuple)):
        return type(x)(_rebuild(item, it) for item in x)
    return next(it)


def _structure(x):
    if isinstance(x, (list, tuple)):
        return (type(x), tuple(_structure(i) for i in x))
    return None


# ---- if / else ----------------------------------------------------------------------------------------------------


def convert_ifelse(pred, true_fn, false_fn, get_args, set_args, return_name_ids, push_pop_names=None):
    """`if pred: true_fn() else: false_fn()`; the branches read and write the variables through get/set_args."""
    if is_variable(pred):
        _run_paddle_cond(pred, true_fn, false_fn, get_args, set_args, return_name_ids, push_pop_names or ())
    elif pred:
        true_fn()
    else:
        false_fn()


def _run_paddle_cond(pred, true_fn, false_fn, get_args, set_args, names, push_pop=()) -> None:
    program = default_main_program()
    parent = program.current_block()
    pred = _as_bool(pred)
    init = get_args()
    branches = []
    for fn in (true_fn, false_fn):
        with program.sub_block() as block:
            set_args(_own_copies(init, names, push_pop))  # a branch's appends must not reach the other branch
            fn()
            branches.append((block, list(get_args())))
    (tb, t_vals), (fb, f_vals) = branches
    for i, n in enumerate(names):
        if n in push_pop:
            t_vals[i], f_vals[i] = _lists_as_arrays(t_vals[i], f_vals[i], program, tb, fb)
    outs = {"true": [], "false": [], "vars": []}
    final = [_merge_branch(n, a, b, program, tb, fb, parent, outs) for n, a, b in zip(names, t_vals, f_vals)]
    final = [_back_into(old, new) if n in push_pop else new for n, old, new in zip(names, init, final)]
    set_args(init)  # the parent's own values (the branches changed them while being traced)
    reads = external_reads(program, tb.idx) + external_reads(program, fb.idx)
    for block, key in ((tb, "true"), (fb, "false")):  # a branch may pass an outer variable on unchanged
        reads += [n for n in outs[key] if n not in block.vars]
    reads = [n for n in dict.fromkeys(reads) if n != pred.name]
    parent.append_op(
        "cond",
        {"pred": [pred.name], "inputs": reads},
        {"Out": [v.name for v in outs["vars"]]},
        {"true_block": tb.idx, "false_block": fb.idx, "true_outs": outs["true"], "false_outs": outs["false"]},
        scope=STATE.scope,
    )
    set_args(tuple(final))


def _own_copies(values, names, push_pop) -> tuple:
    """The values with the lists (and tensor arrays) a branch appends to or pops from copied."""
    out = []
    for n, v in zip(names, values):
        if n in push_pop and isinstance(v, list):
            v = list(v)
        elif isinstance(v, TensorArray):
            v = TensorArray(v.dtype, v.var)
        out.append(v)
    return tuple(out)


def _lists_as_arrays(a, b, program, tb, fb):
    """Lists that the two branches leave with different lengths become tensor arrays, each made in its branch."""
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return a, b
    if not (isinstance(a, (list, TensorArray)) and isinstance(b, (list, TensorArray))):
        return a, b
    element = next((x for x in _array_items(a) + _array_items(b) if _is_data(x)), None)
    out = []
    for v, block in ((a, tb), (b, fb)):
        with _in_block(program, block.idx):
            out.append(_as_array(v, like=element))
    ta, fa = out
    if ta.var is None and fa.var is None:
        return a, b
    for arr, other, block in ((ta, fa, tb), (fa, ta, fb)):
        if arr.var is None:  # empty in this branch: an empty array of the other branch's elements
            with _in_block(program, block.idx):
                arr.var = ops.create_array(other.dtype.np.name, tuple(other.var.shape[1:]))
                arr.dtype = other.dtype
    return ta, fa


def _array_items(v) -> list:
    return list(v) if isinstance(v, list) else []


def _as_array(v, like=None) -> TensorArray:
    """A list as a tensor array of its elements (numbers become Tensors of `like`'s dtype); arrays as they are."""
    if isinstance(v, TensorArray):
        return v
    dtype = like.dtype if like is not None else None
    array = TensorArray(dtype)
    for _k, item in enumerate(v):
        if isinstance(item, (list, tuple, dict)):
            raise TypeError(
                f"to_static: a list of {type(item).__name__}s cannot become a tensor array (as in Paddle, only a "
                "list of Tensors can grow inside control flow on a Tensor)"
            )
        array.append(item if _is_data(item) else to_static_variable(item, like=like))
    return array


def _back_into(old, new):
    """A list's merged content written back into the list object itself, so other references to it see it."""
    if isinstance(old, list) and isinstance(new, list) and old is not new:
        old[:] = new
        return old
    return new


def _merge_branch(name, a, b, program, tb, fb, parent, outs):
    """The value of variable `name` after the `cond`: the same Python value, or a new output Variable."""
    if isinstance(a, TensorArray) and isinstance(b, TensorArray):
        if a.var is b.var:
            return a
        merged = _merge_branch(name, a.var, b.var, program, tb, fb, parent, outs)
        return TensorArray(merged.dtype, merged)
    if _same_python(a, b):
        return a
    if _undefined(a) and _undefined(b):
        return a
    if _undefined(a) or _undefined(b):  # assigned in one branch only: it has no value after the if
        return UndefinedVar(name)
    if a is None or b is None:  # e.g. a return value set in one branch only: a zero placeholder in the other
        a = _placeholder_like(b) if a is None else a
        b = _placeholder_like(a) if b is None else b
    if _structure(a) != _structure(b):
        raise ValueError(
            f"to_static: after the `if` on a Tensor, '{name}' is {_describe(a)} in the true branch but "
            f"{_describe(b)} in the false branch; both branches must give it the same structure"
        )
    merged = []
    for x, y in zip(_leaves(a), _leaves(b)):
        if x is y and (not _is_data(x) or not _from_branch(x, tb, fb)):
            merged.append(x)
            continue
        if _same_python(x, y):
            merged.append(x)
            continue
        with _in_block(program, tb.idx):
            vx = to_static_variable(x, like=y)
        with _in_block(program, fb.idx):
            vy = to_static_variable(y, like=vx)
        if vx.dtype != vy.dtype:
            if not _is_data(x):
                with _in_block(program, tb.idx):
                    vx = manipulation.cast(vx, vy.dtype)
            elif not _is_data(y):
                with _in_block(program, fb.idx):
                    vy = manipulation.cast(vy, vx.dtype)
            else:
                raise TypeError(
                    f"to_static: after the `if` on a Tensor, '{name}' is {vx.dtype.name} in the true branch but "
                    f"{vy.dtype.name} in the false branch; cast one of them"
                )
        out = parent.create_var(f"{unique_name('cond')}.tmp_0", _merged_shape(tuple(vx.shape), tuple(vy.shape)),
                                vx.dtype, stop_gradient=vx.stop_gradient and vy.stop_gradient)  # fmt: skip
        outs["true"].append(vx.name)
        outs["false"].append(vy.name)
        outs["vars"].append(out)
        merged.append(out)
    return _rebuild(a, iter(merged))


def _from_branch(x, tb, fb) -> bool:
    return is_variable(x) and (x.name in tb.vars or x.name in fb.vars)


def _placeholder_like(x):
    """None standing in for `x`'s structure (filled with zeros in its branch by to_static_variable)."""
    if isinstance(x, (list, tuple)):
        return type(x)(_placeholder_like(i) for i in x)
    return None


def _describe(x) -> str:
    if isinstance(x, (list, tuple)):
        return f"a {type(x).__name__} of {len(x)}"
    return "a Tensor" if _is_data(x) else type(x).__name__


def convert_ifexp(pred, true_fn, false_fn):
    """`a if pred else b`."""
    if is_variable(pred):
        return cond(_as_bool(pred), true_fn, false_fn)
    return true_fn() if pred else false_fn()


# ---- while ----------------------------------------------------------------------------------------------------------


def convert_while_loop(cond_fn, body_fn, get_args, set_args, return_name_ids, push_pop_names=None):
    """`while cond_fn(): body_fn()`, in Python until the condition is a Variable, then as one while_loop op (the
    lists named in push_pop_names, which the body appends to or pops from, become tensor arrays then)."""
    block = default_main_program().current_block() if STATE.static_mode else None
    while True:
        n_ops = len(block.ops) if block is not None else 0
        pred = cond_fn()
        if is_variable(pred):
            del block.ops[n_ops:]  # the test is built again, inside the loop's condition block
            _run_paddle_while(cond_fn, body_fn, get_args, set_args, return_name_ids, push_pop_names or ())
            return
        if not pred:
            return
        body_fn()


def _carried(v) -> bool:
    return _is_data(v) or isinstance(v, (bool, int, float, np.number)) or (isinstance(v, TensorArray) and
                                                                            v.var is not None)  # fmt: skip


def _value(v):
    """What a loop variable carries through the while_loop: a tensor array's current value, else itself."""
    return v.var if isinstance(v, TensorArray) else v


def _run_paddle_while(cond_fn, body_fn, get_args, set_args, names, push_pop=()) -> None:

    init = list(get_args())
    for i, n in enumerate(names):
        if n in push_pop and isinstance(init[i], list):
            init[i] = _as_array(init[i])
    set_args(tuple(init))
    if any(v is None or (isinstance(v, TensorArray) and v.var is None) for v in init):
        init = _fill_none_from_trial(init, body_fn, get_args, set_args, names)
    carried = [i for i, v in enumerate(init) if _carried(v)]
    arrays = {i for i in carried if isinstance(init[i], TensorArray)}
    if not carried:
        raise ValueError(
            "to_static: a `while` on a Tensor condition changes none of its variables, so it would never end; "
            f"its body assigns {list(names) or 'nothing'}"
        )
    start = [to_static_variable(_value(init[i])) for i in carried]

    def merged(values) -> list:
        out = list(init)
        for i, v in zip(carried, values):
            out[i] = TensorArray(v.dtype, v) if i in arrays else v  # a fresh handle each trace
        return out

    def cond(*values):
        set_args(tuple(merged(values)))
        pred = cond_fn()
        return _as_bool(pred) if is_variable(pred) else to_static_variable(bool(pred))

    lists = {i: len(v) for i, v in enumerate(init) if isinstance(v, list)}

    def body(*values):
        set_args(tuple(merged(values)))
        body_fn()
        after = list(get_args())
        for i, n in lists.items():
            if len(after[i]) != n:
                del after[i][n:]
                raise NotImplementedError(
                    f"to_static: the list '{names[i]}' changes inside a `while` on a Tensor condition in a way "
                    "to_static does not follow (only `name.append(x)` and `name.pop()` on the list's own name turn "
                    "it into a tensor array); append to it by name, collect the values in a Tensor "
                    "(paddle.concat), or run the function as it is with @paddle.jit.not_to_static"
                )
        for i in arrays:
            if not isinstance(after[i], TensorArray):
                raise TypeError(
                    f"to_static: '{names[i]}' is a list that becomes a tensor array in this `while` on a Tensor "
                    f"condition, but the loop body makes it {_describe(after[i])}; keep it a list of Tensors"
                )
        for i, (n, v) in enumerate(zip(names, after)):
            if i not in carried and _is_data(v) and not _undefined(init[i]) and v is not init[i]:
                raise ValueError(
                    f"to_static: '{n}' is {type(init[i]).__name__} before the `while` on a Tensor condition but a "
                    "Tensor inside it; give it a Tensor value before the loop"
                )
        new = []
        for k, i in enumerate(carried):
            v = to_static_variable(_value(after[i]), like=values[k])
            if v.dtype != values[k].dtype and not _is_data(init[i]):  # the start was a Python number
                v = manipulation.cast(v, values[k].dtype)
            new.append(v)
        return new

    outs = while_loop(cond, body, start)
    set_args(tuple(merged(outs)))


def _fill_none_from_trial(init, body_fn, get_args, set_args, names) -> list:
    """Variables that are None before a while_loop and Tensors inside it (a return value, say) start as zero
    placeholders of the right dtype, and empty tensor arrays as empty arrays of the elements the body writes:
    a trial trace of the body, thrown away, tells which and what dtype and shape."""
    program = default_main_program()
    n_blocks = len(program.blocks)
    with program.sub_block():
        set_args(tuple(TensorArray(v.dtype, v.var) if isinstance(v, TensorArray) else v for v in init))
        body_fn()
        after = list(get_args())
    del program.blocks[n_blocks:]
    out = []
    for n, v, a in zip(names, init, after):
        if v is None and is_variable(a):
            v = _placeholder(a)
        elif isinstance(v, TensorArray) and v.var is None:
            if not isinstance(a, TensorArray):
                raise TypeError(
                    f"to_static: '{n}' is a list that becomes a tensor array in this `while` on a Tensor condition, "
                    f"but the loop body makes it {_describe(a)}; keep it a list of Tensors"
                )
            if a.var is not None:  # (else the body never appends: it stays an empty array)
                v = TensorArray(a.dtype, ops.create_array(a.dtype.np.name, tuple(a.var.shape[1:])))
        out.append(v)
    set_args(tuple(out))
    return out


# ---- and / or / not, casts, len --------------------------------------------------------------------------------


def convert_logical_and(x_fn, y_fn):
    x = x_fn()
    if not is_variable(x):
        return x and y_fn()
    y = y_fn()
    if not is_variable(y):
        return y and x
    return logic.logical_and(_as_bool(x), _as_bool(y))


def convert_logical_or(x_fn, y_fn):
    x = x_fn()
    if not is_variable(x):
        return x or y_fn()
    y = y_fn()
    if not is_variable(y):
        return y or x
    return logic.logical_or(_as_bool(x), _as_bool(y))


def convert_logical_not(x):
    if is_variable(x):
        return logic.logical_not(_as_bool(x))
    return not x


_CASTS = {"int": ("int32", int), "float": ("float32", float), "bool": ("bool", bool)}


def convert_var_dtype(x, dtype: str):
    """`int(x)`, `float(x)`, `bool(x)`: a cast op on a Variable (int32 / float32 / bool, as Paddle), Python's cast
    otherwise."""
    target, py = _CASTS[dtype]
    if is_variable(x):
        return manipulation.cast(x, target)
    return py(x)


def convert_len(x):
    """`len(x)`: a Variable's first dimension (an int when known, else a Tensor); Python's len otherwise."""
    if is_variable(x):
        if x.ndim == 0:
            raise TypeError(f"len() of a 0-d Tensor ({x.name})")
        if x.shape[0] >= 0:
            return x.shape[0]
        return attribute.shape(x)[0]
    if isinstance(x, (TensorRange, TensorEnumerate)):
        return x.length()
    if isinstance(x, TensorArray):  # an int64 Tensor of shape [1], as Paddle's convert_len gives
        return x.length()
    return len(x)


def convert_shape(x):
    """`x.shape`: for a Variable, the list of its sizes with each size known only when the Program runs (-1, e.g.
    an InputSpec's None batch dimension) as a 0-d int32 Tensor, `paddle.shape(x)[i]` (Paddle 2.6's convert_shape);
    anything else's own `.shape`."""
    if not is_variable(x):
        return x.shape
    sizes = list(x.shape)
    if any(d < 0 for d in sizes):
        at_run_time = attribute.shape(x)
        sizes = [at_run_time[i] if d < 0 else d for i, d in enumerate(sizes)]
    return sizes


# ---- loops over things ----------------------------------------------------------------------------------------------


class TensorRange:
    """`range(start, stop, step)` where a bound is a Tensor: its length and items are Tensors."""

    def __init__(self, start, stop, step) -> None:
        if is_variable(step):
            raise TypeError("to_static: range() with a Tensor step is not supported; use a Python int step")
        if step == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start = manipulation.cast(start, "int64") if is_variable(start) else start
        self.stop = manipulation.cast(stop, "int64") if is_variable(stop) else stop
        self.step = step

    def length(self):
        span = tmath.subtract(to_static_variable(self.stop), to_static_variable(self.start))
        if self.step > 0:
            n = tmath.floor_divide(span + (self.step - 1), to_static_variable(self.step))
        else:
            n = tmath.floor_divide(-span + (-self.step - 1), to_static_variable(-self.step))
        return tmath.maximum(n, creation.zeros_like(n))

    def item(self, i):
        return self.start + i * self.step


class TensorEnumerate:
    """`enumerate(x)` over a Tensor (or a TensorRange): items are (index, x[index])."""

    def __init__(self, x, start=0) -> None:
        self.x, self.start = x, start

    def length(self):
        return convert_len(self.x)

    def item(self, i):
        return (i + self.start if not _is_zero(self.start) else i, convert_index(self.x, i))


def _is_zero(v) -> bool:
    return not is_variable(v) and v == 0


def convert_range(*args):
    if any(is_variable(a) for a in args):
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) > 2 else 1)
        return TensorRange(start, stop, step)
    return range(*args)


def convert_enumerate(x, start=0):
    if is_variable(x) or isinstance(x, TensorRange):
        return TensorEnumerate(x, start)
    return list(enumerate(convert_indexable(x), start))


def convert_indexable(x):
    """What a `for` loop indexes: Tensors, lists, tuples, ranges and Layer containers as they are; any other
    iterable (dict keys, zip, generators) as a list."""
    if _is_data(x) or isinstance(x, (list, tuple, range, TensorRange, TensorEnumerate, TensorArray)):
        return x
    if hasattr(x, "__getitem__") and hasattr(x, "__len__") and not isinstance(x, dict):
        return x
    return list(x)


def convert_index(it, i):
    """`it[i]` for the loop index i (a Python int, or an int64 Variable inside a while_loop)."""
    if isinstance(it, (TensorRange, TensorEnumerate)):
        return it.item(i)
    if isinstance(it, TensorArray):
        return it[i]
    if is_variable(i):
        if isinstance(it, range):
            return i * it.step + it.start
        if isinstance(it, (list, tuple)) and it and all(_is_data(v) for v in it):
            it = manipulation.stack(list(it))  # a list of Tensors read at a Tensor index: stacked, then gathered
        if not _is_data(it):
            raise TypeError(
                f"to_static: a loop over a Python {type(it).__name__} became a while_loop on a Tensor condition (a "
                "`break` or `return` under an `if` on a Tensor), and a Python list cannot be read at a Tensor index; "
                "loop over a Tensor instead, or move the break out"
            )
        return manipulation.squeeze(indexing.gather(it, manipulation.reshape(manipulation.cast(i, "int64"), [1])), [0])
    return it[i]


# ---- assert, print, pop, try ---------------------------------------------------------------------------------------


def convert_assert(cond, message=None):
    """`assert cond, message`: an `assert` op on a Variable (checked each time the Program runs)."""
    if is_variable(cond):
        text = "" if message is None else str(message)
        assert_true(_as_bool(cond), text)
        return None
    assert cond, message
    return None


def convert_print(*args, **kwargs):
    """`print(...)`: each Variable through a print op (paddle.static.Print), other values printed now."""

    if not any(is_variable(a) for a in args):
        print(*args, **kwargs)
        return
    for a in args:
        if is_variable(a):
            Print(a)
        else:
            print(a)


def convert_pop(target, *args):
    """`target.pop(...)`: Python's pop on lists and dicts; on a tensor array (a list that a loop on a Tensor
    condition grew) the element is read and the array rebuilt without it, as Paddle's convert_pop does."""
    return target.pop(*args)


def convert_python_only(test, kind: str):
    """The test of an `if`/`while`/`for` inside a `try` block, which stays Python: a Variable there is an error."""
    if is_variable(test):
        raise NotImplementedError(
            f"to_static cannot convert this `{kind}`: its condition is a Tensor and it is inside a `try` block "
            "(exceptions cannot be caught inside a Program); move it out of the `try`, or run the function as it "
            "is with @paddle.jit.not_to_static"
        )
    return test
