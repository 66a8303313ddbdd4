"""minipaddle's converted code (StaticFunction.code) against paddle 2.6.2's, recorded in tests/golden/jit/code.json
by tests/golden/jit/make_golden.py for the functions in tests/golden/jit/functions.py.

The texts are not equal, by these documented differences:
- Paddle wraps every name it reads in `_jst.Ld(...)` (convert_load turns eager Tensors into Variables); minipaddle
  swaps a Layer's parameters for Variables once, before tracing (jit/partial_program.py), so it has no Ld.
- Paddle numbers its closures per process (true_fn_3 in the fourth function converted); minipaddle per function.
  Its loop closures are while_cond_N / while_body_N (Paddle: while_condition_N, for_loop_condition_N, ...), and
  the generated names differ (__for_idx_0 for __for_loop_var_index_0; return flags __return_N).
- minipaddle binds every name a closure writes to `_jst.UndefinedVar(...)` at the top of the function (Paddle only
  the names with no value before the statement), and defines true_fn/false_fn before get_args/set_args.
- A `for` loop over range is `_jst.Range(n)` read with `_jst.Index(it, i)` (Paddle: `_jst.Indexable(range(n))`
  indexed and `_jst.Unpack`ed); a return flag is a Python bool (Paddle: `_jst.create_bool_as_type`).

What must be equal, and is checked: the control flow each library builds (every `_jst.IfElse` / `_jst.While` in
source order, with the user variables it carries and its push_pop_names), and the runtime helpers used, up to
the differences listed per function in HELPER_DIFFERENCES.
"""

import ast
import importlib.util

import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "jit" / "code.json")
_spec = importlib.util.spec_from_file_location("jit_functions", GOLDEN_ROOT / "jit" / "functions.py")
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
FUNCTIONS = {fn.__name__: fn for fn in _module.functions(paddle)}

# function: (helpers only Paddle's code calls, helpers only minipaddle's calls), by the differences above
HELPER_DIFFERENCES = {
    "if_else": (set(), set()),
    "while_loop": (set(), {"UndefinedVar"}),
    "for_range_list": ({"Indexable", "Unpack"}, {"Range", "Index"}),
    "early_return": ({"create_bool_as_type"}, set()),
    "logic_and_cast": (set(), set()),
    "break_loop": (set(), {"Range", "Index", "Len", "UndefinedVar"}),  # (Paddle counts a range with break by hand)
}


def _jst_calls(tree) -> list:
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and isinstance(n.func.value, ast.Name) and n.func.value.id == "_jst"
             and n.func.attr in ("IfElse", "While")]  # fmt: skip
    return sorted(calls, key=lambda n: (n.lineno, n.col_offset))


def _names(node) -> list:
    return [e.value for e in node.elts] if isinstance(node, ast.Tuple) else []


def control_flow(code: str) -> list:
    """[(IfElse | While, user variables carried, push_pop_names)] in source order. Generated names (`__...`) are
    each library's own; Paddle lists a loop's push_pop lists apart from its return_name_ids, minipaddle in both."""
    out = []
    for call in _jst_calls(ast.parse(code)):
        kw = {k.arg: k.value for k in call.keywords}
        position = 5 if call.func.attr == "IfElse" else 4
        names = _names(kw.get("return_name_ids", call.args[position] if len(call.args) > position else None))
        push_pop = _names(kw.get("push_pop_names"))
        out.append((call.func.attr, sorted(n for n in names if not n.startswith("__") and n not in push_pop), push_pop))
    return out


def helpers(code: str) -> set:
    used = {n.attr for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Attribute) and
            isinstance(n.value, ast.Name) and n.value.id == "_jst"}  # fmt: skip
    return used - {"Ld"}


def test_the_golden_file_is_paddle_262s_and_covers_every_function():
    assert GOLDEN["paddle"] == "2.6.2"
    assert set(GOLDEN["code"]) == set(FUNCTIONS) == set(HELPER_DIFFERENCES)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_code_builds_the_same_control_flow_as_paddle(name):
    ours = paddle.jit.to_static(FUNCTIONS[name]).code
    theirs = GOLDEN["code"][name]
    assert control_flow(ours) == control_flow(theirs)
    assert control_flow(ours), "each golden function has converted control flow"
    paddle_only, minipaddle_only = HELPER_DIFFERENCES[name]
    assert helpers(theirs) - helpers(ours) == paddle_only
    assert helpers(ours) - helpers(theirs) == minipaddle_only
    assert ours.splitlines()[0] == theirs.splitlines()[0]  # the same signature line
    assert "_jst.Ld(" not in ours and "_jst.Ld(" in theirs
