"""What every AST transformer of to_static shares: the names it may create, the calls into the runtime helpers
(`_jst.IfElse(...)`), and the name analysis that decides which variables a branch or loop body writes.

Generated nodes take the line numbers of the user's statement they replace (`located`), so an error raised in
the transformed code can be mapped back to the user's file and line (jit/origin_info.py).
"""

from __future__ import annotations

import ast

JST = "_jst"  # the name the transformed code calls the runtime helpers by (minipaddle.jit.dy2static)
HELPER = "_jst_helper"  # attribute set on the FunctionDefs a transformer creates (true_fn_0, while_body_0, ...)


class Context:
    """One conversion: fresh names (`true_fn_0`, `__break_1`) unique within the converted function."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def fresh(self, base: str) -> str:
        n = self.counts.get(base, 0)
        self.counts[base] = n + 1
        return f"{base}_{n}"


class Transformer(ast.NodeTransformer):
    """A to_static AST transformer: `level` orders it (and is the level `set_code_level` prints after)."""

    name = ""
    level = 0
    doc = ""  # one line for the code view (viz.show_to_static)

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def transform(self, tree: ast.Module) -> ast.Module:
        tree = self.visit(tree)
        ast.fix_missing_locations(tree)
        return tree


class ControlFlowTransformer(Transformer):
    """A transformer of `if`/loops: it knows the local names of the user function it is in (`self.locals`, for
    which variables a branch or body may carry) and whether it is inside a `try` (`self.try_depth`: control flow
    there stays Python)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.try_depth = 0

    def visit_FunctionDef(self, node):
        if getattr(node, HELPER, False):
            self.generic_visit(node)
            return node
        outer = getattr(self, "locals", set())
        self.locals = function_locals(node)
        self.generic_visit(node)
        self.locals = outer
        return node

    def visit_Try(self, node):
        self.try_depth += 1
        self.generic_visit(node)
        self.try_depth -= 1
        return node


# ---- building nodes ---------------------------------------------------------------------------------------------


def located(node, origin):
    """Give `node` (and every node inside it without a position) the position of `origin`."""
    nodes = node if isinstance(node, list) else [node]
    for n in nodes:
        for sub in ast.walk(n):
            if "lineno" in sub._attributes and not hasattr(sub, "lineno"):
                ast.copy_location(sub, origin)
            if "lineno" in sub._attributes and getattr(sub, "lineno", None) is None:
                ast.copy_location(sub, origin)
    return node


def name(id: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id, ctx=ast.Store() if store else ast.Load())


def jst(helper: str) -> ast.Attribute:
    """`_jst.<helper>`"""
    return ast.Attribute(value=name(JST), attr=helper, ctx=ast.Load())


def jst_call(helper: str, *args) -> ast.Call:
    """`_jst.<helper>(*args)`"""
    return ast.Call(func=jst(helper), args=list(args), keywords=[])


def const(v) -> ast.Constant:
    return ast.Constant(value=v)


def assign(target: str, value) -> ast.Assign:
    return ast.Assign(targets=[name(target, store=True)], value=value)


def lambda0(body) -> ast.Lambda:
    """`lambda: body`"""
    args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.Lambda(args=args, body=body)


def helper_def(fname: str, body: list, nonlocals=(), params=()) -> ast.FunctionDef:
    """A generated closure `def fname(params): nonlocal ...; body` (marked as a helper)."""
    stmts = ([ast.Nonlocal(names=list(nonlocals))] if nonlocals else []) + (body or [ast.Pass()])
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])  # fmt: skip
    fn = ast.FunctionDef(name=fname, args=args, body=stmts, decorator_list=[], returns=None, type_params=[])
    setattr(fn, HELPER, True)
    return fn


def getter_setter(ctx: Context, names: list) -> tuple:
    """`def get_args_N(): return (a, b,)` and `def set_args_N(__args): nonlocal a, b; (a, b,) = __args`."""
    get_name, set_name = ctx.fresh("get_args"), ctx.fresh("set_args")
    values = ast.Tuple(elts=[name(n) for n in names], ctx=ast.Load())
    getter = helper_def(get_name, [ast.Return(value=values)], nonlocals=names)
    if names:
        targets = ast.Tuple(elts=[name(n, store=True) for n in names], ctx=ast.Store())
        body = [ast.Assign(targets=[targets], value=name("__args"))]
    else:
        body = [ast.Pass()]
    setter = helper_def(set_name, body, nonlocals=names, params=("__args",))
    names_node = ast.Tuple(elts=[const(n) for n in names], ctx=ast.Load())
    return getter, setter, names_node


# ---- name analysis ----------------------------------------------------------------------------------------------


class _Stores(ast.NodeVisitor):
    """The names a list of statements binds in its own scope, in first-seen order: assignment targets, loop targets,
    `with ... as`, imports, user `def`s and classes, and the names that closures inside declare `nonlocal` (those
    belong to this scope too). Comprehensions and lambdas have scopes of their own and are skipped."""

    def __init__(self) -> None:
        self.names: list = []

    def add(self, n: str) -> None:
        if n not in self.names and n != "__args":
            self.names.append(n)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            self.add(node.id)

    def visit_FunctionDef(self, node):
        if not getattr(node, HELPER, False):
            self.add(node.name)
        for n in ast.walk(node):
            if isinstance(n, ast.Nonlocal):
                for v in n.names:
                    self.add(v)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.add(node.name)

    def visit_Lambda(self, node):
        pass

    def visit_ListComp(self, node):
        pass

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    def visit_Import(self, node):
        for a in node.names:
            self.add((a.asname or a.name).split(".")[0])

    visit_ImportFrom = visit_Import


def assigned_names(stmts) -> list:
    v = _Stores()
    for s in stmts if isinstance(stmts, list) else [stmts]:
        v.visit(s)
    return v.names


def walk_own_scope(stmts):
    """Every node of `stmts`, not entering nested functions, lambdas or classes."""
    todo = list(stmts if isinstance(stmts, list) else [stmts])
    while todo:
        node = todo.pop(0)
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                todo.append(child)


def mutated_lists(stmts, methods=("append", "extend", "insert", "pop")) -> list:
    """Names `x` with `x.append(...)` (or another of `methods`) calls in `stmts`, including the closures the
    transformers made of nested control flow (true_fn_0, while_body_0), not the user's own nested functions."""
    out = []
    todo = list(stmts if isinstance(stmts, list) else [stmts])
    while todo:
        n = todo.pop(0)
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in methods
                and isinstance(n.func.value, ast.Name) and n.func.value.id not in out):  # fmt: skip
            out.append(n.func.value.id)
        for child in ast.iter_child_nodes(n):
            user_scope = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and not getattr(child, HELPER, 0)
            if not (user_scope or isinstance(child, (ast.Lambda, ast.ClassDef))):
                todo.append(child)
    return out


def push_pop_names(stmts) -> list:
    """The lists a loop or branch body appends to, extends or pops from (Paddle's push_pop_names, which has
    append and pop only): these become tensor arrays when the body runs under a Tensor condition."""
    return mutated_lists(stmts, ("append", "extend", "pop"))


def function_locals(node) -> set:
    """The names local to a user function: its parameters and the names its body binds."""
    a = node.args
    params = a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x is not None]
    return set(assigned_names(node.body)) | {x.arg for x in params}


def contains(stmts, types, stop=(ast.While, ast.For)) -> bool:
    """Whether `stmts` hold a node of `types` at this loop level (not inside nested loops listed in `stop`, nor
    nested functions)."""
    todo = list(stmts if isinstance(stmts, list) else [stmts])
    while todo:
        node = todo.pop()
        if isinstance(node, types):
            return True
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if stop and isinstance(child, stop):
                continue
            todo.append(child)
    return False
