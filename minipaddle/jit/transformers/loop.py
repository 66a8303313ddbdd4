"""LoopTransformer: `while` and `for` become `_jst.While(cond_fn, body_fn, get_args, set_args, names)`.

    while i < n:                     def while_cond_0():
        s = s + x[i]                     return i < n
        i += 1              ->       def while_body_0():
                                         nonlocal i, s
                                         s = s + x[i]
                                         i += 1
                                     _jst.While(while_cond_0, while_body_0, get_args_0, set_args_0, ('i', 's'))

At run time `While` looks at the condition's value: a Python bool runs the loop in Python (unrolled into the
Program), a bool Variable builds one `while_loop` op whose body is traced once. A `for` loop first becomes a
`while` over an index: `for x in xs` reads `xs[i]` for i < len(xs), with `range(...)` (`_jst.Range`),
`enumerate(...)` (`_jst.Enumerate`) and any other iterable (`_jst.Indexable`); so `for x in tensor` with an unknown
first dimension, or `for i in range(n)` with a Tensor n, become while_loops, and a Python list stays Python.
"""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import (
    ControlFlowTransformer,
    assign,
    assigned_names,
    const,
    getter_setter,
    helper_def,
    jst_call,
    located,
    mutated_lists,
    name,
    push_pop_names,
)


def for_to_while(node: ast.For, ctx) -> list:
    """`for target in it: body` as `__for_iter_N = ...; __for_len_N = _jst.Len(...); __for_idx_N = 0; while ...`."""
    it = node.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("range", "enumerate"):
        made = jst_call("Range" if it.func.id == "range" else "Enumerate", *it.args)
        made.keywords = it.keywords
    else:
        made = jst_call("Indexable", it)
    it_name, len_name, idx_name = ctx.fresh("__for_iter"), ctx.fresh("__for_len"), ctx.fresh("__for_idx")
    init = [assign(it_name, made), assign(len_name, jst_call("Len", name(it_name))), assign(idx_name, const(0))]
    target = ast.Assign(targets=[node.target], value=jst_call("Index", name(it_name), name(idx_name)))
    step = ast.AugAssign(target=name(idx_name, store=True), op=ast.Add(), value=const(1))
    test = ast.Compare(left=name(idx_name), ops=[ast.Lt()], comparators=[name(len_name)])
    loop = ast.While(test=test, body=[target, step] + node.body, orelse=[])
    return located(init + [loop], node)


class LoopTransformer(ControlFlowTransformer):
    name = "LoopTransformer"
    level = 7
    doc = "while/for -> _jst.While(cond_fn, body_fn, ...): a while_loop op when the condition is a Variable"

    def visit_For(self, node):
        self.generic_visit(node)
        if node.orelse:  # for/else stays Python
            return node
        if self.try_depth:
            node.iter = located(jst_call("PythonOnly", node.iter, const("for")), node.iter)
            return node
        stmts = for_to_while(node, self.ctx)
        return stmts[:-1] + self._convert(stmts[-1])

    def visit_While(self, node):
        self.generic_visit(node)
        if node.orelse:
            return node
        if self.try_depth:  # control flow inside try stays Python; a Variable condition there is an error
            node.test = located(jst_call("PythonOnly", node.test, const("while")), node.test)
            return node
        return self._convert(node)

    def _convert(self, node: ast.While) -> list:
        names = assigned_names(node.body)
        # lists the body changes travel with the loop's variables: the ones it appends to or pops from become
        # tensor arrays under a Tensor condition (push_pop_names); While refuses any other change of length
        local = getattr(self, "locals", ())
        names += [n for n in mutated_lists(node.body) if n in local and n not in names]
        push_pop = [n for n in push_pop_names(node.body) if n in local]
        cond_name, body_name = self.ctx.fresh("while_cond"), self.ctx.fresh("while_body")
        cond_fn = helper_def(cond_name, [ast.Return(value=node.test)])
        body_fn = helper_def(body_name, node.body, nonlocals=names)
        getter, setter, names_node = getter_setter(self.ctx, names)
        call = jst_call("While", name(cond_name), name(body_name), name(getter.name), name(setter.name), names_node)
        call.keywords = [push_pop_keyword(push_pop)]
        return located([cond_fn, body_fn, getter, setter, ast.Expr(call)], node)


def push_pop_keyword(names: list) -> ast.keyword:
    """`push_pop_names=('outs',)` (None when there are none), as Paddle 2.6 prints it."""
    value = ast.Tuple(elts=[const(n) for n in names], ctx=ast.Load()) if names else const(None)
    return ast.keyword(arg="push_pop_names", value=value)
