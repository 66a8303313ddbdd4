"""Control flow from to_static (`cond`, `while` with their sub-blocks) as ONNX If and Loop, and the translation of
a block's ops that both use (each sub-block becomes an ONNX subgraph, translated with the same export table).

    cond(pred) {true_block} {false_block}        ->  If(pred) then_branch=<true_block> else_branch=<false_block>
    while(loop_vars) {cond_block} {body_block}   ->  c0 = <cond_block on loop_vars>
                                                     Loop("", c0, loop_vars) body=<body_block; cond_block on its outs>

A subgraph reads the enclosing graph's values by name (ONNX's outer scope), as a sub-block reads its parent's
variables, so weights and inputs need no plumbing. ONNX wants every name assigned once in a graph and its
subgraphs, while the Program reuses names the Executor overwrites: a Loop body's inputs get fresh names (the
loop variables' names stay the enclosing graph's initial values), and the condition block, translated twice
(once before the loop on the initial values, once at the end of the body on the new ones), is renamed in its
first copy. `g.rename` maps a Program name to the ONNX name an op reads or writes in the current subgraph;
`g.alias` maps each new name back, so dtypes and shapes still come from the Program.

Opsets: If from 9 (ONNX If-1 has the same semantics); Loop from 11 (paddle2onnx's while needs 11 too: Loop-1
left the binding of loop-carried values between iterations unspecified, Loop-11 defined it).
"""

from __future__ import annotations

import numpy as np

from minipaddle.onnx.op_table import EXPORTS, Export

__all__ = ["translate_ops", "block_writes"]

LOOP_OPSET = 11


def translate_ops(g, ops) -> None:
    """Add the nodes of `ops` (one block's ops, in order) to the current graph of `g`, names renamed by g.rename."""
    r = g.rename
    for op in ops:
        g.op = op
        ins = [None if n is None else r.get(n, n) for names in op.inputs.values() for n in names]
        outs = [None if n is None else r.get(n, n) for n in op.output_names()]
        EXPORTS[op.type].convert(g, op, ins, outs)
    g.op = None


def _descendants(program, idx: int) -> list:
    out, todo = [], [idx]
    while todo:
        i = todo.pop()
        out.append(i)
        for op in program.blocks[i].ops:
            todo.extend(v for k, v in op.attrs.items() if k.endswith("_block"))
    return out


def block_writes(program, idx: int) -> list:
    """Every name an op of block `idx` or of its sub-blocks writes."""
    return [n for i in _descendants(program, idx) for op in program.blocks[i].ops for n in op.output_names() if n]


class _Subgraph:
    """`with _Subgraph(g, block, rename):` the ops translated inside go to a new node list (the subgraph's),
    with `block` as the Program block names are looked up in and `rename` added to the renames."""

    def __init__(self, g, block, rename: dict) -> None:
        self.g, self.block, self.rename = g, block, rename

    def __enter__(self):
        g = self.g
        self.saved = g.nodes, g.block, g.rename, g.op
        g.nodes, g.block = [], self.block
        g.rename = {**g.rename, **self.rename}
        for name, onnx_name in self.rename.items():  # a new name's dtype and shape: its Program variable's
            if onnx_name not in g.alias and not self.block.has_var(onnx_name):
                g.alias[onnx_name] = g.alias.get(name, name)
        return g.nodes

    def __exit__(self, *exc):
        self.g.nodes, self.g.block, self.g.rename, self.g.op = self.saved
        return False


def _refuse_outer_writes(g, block_idx: int) -> None:
    """A sub-block may only hand values out through the op's outputs (If and Loop have no other way)."""
    program = g.program
    own = set()
    for i in _descendants(program, block_idx):
        own |= set(program.blocks[i].vars)
    outer = sorted({n for n in block_writes(program, block_idx) if n not in own})
    if outer:
        g.refuse(f"its block {block_idx} writes {outer}, variables of an enclosing block")


def _output(g, inner: str, hint: str) -> str:
    """A subgraph output holding `inner`: a fresh name made here (an output may not be an input or outer value)."""
    return g.one("Identity", [inner], g.fresh(hint))


def _info(g, onnx_name: str, program_name: str):
    """A subgraph input or output: its dtype, its shape left open (a loop variable may change shape)."""
    elem = g.helper.np_dtype_to_tensor_dtype(g.dtype(program_name))
    return g.helper.make_tensor_value_info(onnx_name, elem, None)


def _cond(g, op, ins, outs):
    pred = ins[0]
    if not outs:
        return  # a cond with no outputs changes nothing the model returns (its blocks write only their own names)
    program, parent = g.program, g.block
    branches = {}
    for key in ("true", "false"):
        idx = op.attrs[f"{key}_block"]
        _refuse_outer_writes(g, idx)
        with _Subgraph(g, program.blocks[idx], {}) as nodes:
            translate_ops(g, program.blocks[idx].ops)
            results = [_output(g, g.rename.get(n, n), f"{key}_out") for n in op.attrs[f"{key}_outs"]]
            infos = [_info(g, r, n) for r, n in zip(results, op.attrs[f"{key}_outs"])]
        branches[key] = g.helper.make_graph(nodes, f"{outs[0]}.{key}_branch", [], infos)
    g.block = parent
    g.node("If", [_as_bool(g, pred)], outs, then_branch=branches["true"], else_branch=branches["false"])


def _as_bool(g, x):
    return x if g.dtype(x) == np.bool_ else g.one("Cast", [x], to=g.helper.np_dtype_to_tensor_dtype(np.dtype(bool)))


def _while(g, op, ins, outs):
    program = g.program
    a = op.attrs
    cond_block, body_block = program.blocks[a["cond_block"]], program.blocks[a["body_block"]]
    state = op.inputs["loop_vars"]
    here = [n for n in ins[: len(state)]]  # the loop variables' names in the current graph
    after = g.block.ops[g.block.ops.index(op) + 1 :] if op in g.block.ops else []
    late = sorted({n for o in after for n in o.input_names() if n in state})
    if late:
        g.refuse(f"{late} (its loop variables) are read after the loop; ONNX Loop returns only its outputs")
    for idx in (a["cond_block"], a["body_block"]):
        _refuse_outer_writes(g, idx)

    # The condition on the initial values, in the enclosing graph: its names renamed (the body defines them too).
    first = {n: g.fresh(f"{n}@init") for n in block_writes(program, cond_block.idx)}
    with _Subgraph(g, cond_block, first) as nodes:
        translate_ops(g, cond_block.ops)
        c0 = g.one("Reshape", [_as_bool(g, g.rename[a["cond_outs"][0]]), g.ints([])])  # Loop's condition: a scalar
    g.nodes.extend(nodes)

    # The body: inputs (iteration, condition, loop variables), outputs (condition, new loop variables).
    step, cond_in = g.fresh("iteration"), g.fresh("cond_in")
    carried = {n: g.fresh(f"{n}@in") for n in state}
    with _Subgraph(g, body_block, carried) as nodes:
        translate_ops(g, body_block.ops)
        new = [g.rename.get(n, n) for n in a["body_outs"]]
        with _Subgraph(g, cond_block, dict(zip(state, new))) as cond_nodes:
            translate_ops(g, cond_block.ops)
            c = g.rename.get(a["cond_outs"][0], a["cond_outs"][0])
            c_out = g.one("Reshape", [_as_bool(g, c), g.ints([])], g.fresh("cond_out"))
        nodes.extend(cond_nodes)
        results = [_output(g, v, "carried_out") for v in new]
    h = g.helper
    int64, boolean = (h.np_dtype_to_tensor_dtype(np.dtype(t)) for t in (np.int64, np.bool_))
    inputs = [h.make_tensor_value_info(step, int64, []), h.make_tensor_value_info(cond_in, boolean, [])]
    inputs += [_info(g, carried[n], n) for n in state]
    outputs = [h.make_tensor_value_info(c_out, boolean, [])] + [_info(g, r, n) for r, n in zip(results, state)]
    body = g.helper.make_graph(nodes, f"{outs[0]}.body", inputs, outputs)
    g.node("Loop", ["", c0, *here], outs, body=body)


EXPORTS["cond"] = Export(_cond, 9)
EXPORTS["while"] = Export(_while, LOOP_OPSET)
