"""IfElseTransformer: `if test: A else: B` becomes two closures and one call.

    if x.mean() > 0:                 def true_fn_0():
        y = x * 2                        nonlocal y
    else:                     ->         y = x * 2
        y = x - 1                    def false_fn_0():
                                         nonlocal y
                                         y = x - 1
                                     _jst.IfElse(x.mean() > 0, true_fn_0, false_fn_0, get_args_0, set_args_0, ('y',))

The closures write the variables the branches assign (`nonlocal`); get_args/set_args read and write them all at
once. At run time `IfElse` runs one branch in Python when the test is a Python value, and builds a `cond` op with
both branches as sub-blocks when it is a Variable. `a if test else b` becomes `_jst.IfExp(test, lambda: a,
lambda: b)`.
"""

from __future__ import annotations

import ast

from minipaddle.jit.transformers.base import (
    ControlFlowTransformer,
    assigned_names,
    const,
    getter_setter,
    helper_def,
    jst_call,
    lambda0,
    located,
    mutated_lists,
    name,
    push_pop_names,
)
from minipaddle.jit.transformers.loop import push_pop_keyword


class IfElseTransformer(ControlFlowTransformer):
    name = "IfElseTransformer"
    level = 8
    doc = "if/elif/else -> _jst.IfElse(test, true_fn, false_fn, ...): a cond op when the test is a Variable"

    def visit_If(self, node):
        self.generic_visit(node)
        if self.try_depth:  # control flow inside try stays Python; a Variable condition there is an error
            node.test = located(jst_call("PythonOnly", node.test, const("if")), node.test)
            return node
        names = assigned_names(node.body + node.orelse)
        # lists a branch appends to or pops from: each branch gets its own copy (IfElse merges them after)
        local = getattr(self, "locals", ())
        names += [n for n in mutated_lists(node.body + node.orelse) if n in local and n not in names]
        push_pop = [n for n in push_pop_names(node.body + node.orelse) if n in local]
        t_name, f_name = self.ctx.fresh("true_fn"), self.ctx.fresh("false_fn")
        true_fn = helper_def(t_name, node.body, nonlocals=names)
        false_fn = helper_def(f_name, node.orelse, nonlocals=names)
        getter, setter, names_node = getter_setter(self.ctx, names)
        call = jst_call("IfElse", node.test, name(t_name), name(f_name), name(getter.name), name(setter.name),
                        names_node)  # fmt: skip
        call.keywords = [push_pop_keyword(push_pop)]
        return located([true_fn, false_fn, getter, setter, ast.Expr(call)], node)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return located(jst_call("IfExp", node.test, lambda0(node.body), lambda0(node.orelse)), node)
