"""`paddle.flops(program)`: the FLOPs of a static Program, counted op by op for one sample (the batch dimension
left out), by Paddle's rules:

    conv2d                        output elements * the filter's elements per output channel
    max_pool, avg_pool            output elements * (the pooling window's elements + 1)
    matmul, fc                    output elements * the weight's first dimension (in_features)
    add, subtract, multiply, ...  the first input's elements
    anything else                 0

The ops of every block are counted (both branches of a `cond` too), as Paddle does. Paddle 2.6 itself misses
the matmul of a Linear layer (its op is `matmul_v2`, which its table of rules does not name); minipaddle counts it.
Batch norm has no op of its own here (it is built from others), so it is counted as the element-wise ops it is.
"""

from __future__ import annotations

import math

__all__ = ["static_flops", "Table"]

_ELEMENTWISE = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "elementwise_pow")


class Table:
    """Paddle's flops table: `+---+` shelves and `|` cells with centred text, each column as wide as its
    widest entry plus 2."""

    def __init__(self, table_heads: list) -> None:
        self.table_heads = table_heads
        self.table_len = [len(head) for head in table_heads]
        self.data = []
        self.col_num = len(table_heads)

    def add_row(self, row: list) -> None:
        if len(row) != self.col_num:
            raise ValueError(f"Table.add_row: expected {self.col_num} cells, got {len(row)}")
        self.table_len = [max(n, len(str(cell))) for n, cell in zip(self.table_len, row)]
        self.data.append(row)

    def _row_text(self, row) -> str:
        return "".join("|" + str(cell).center(n + 2) for cell, n in zip(row, self.table_len)) + "|"

    def _shelf_text(self) -> str:
        return "".join("+" + "-" * (n + 2) for n in self.table_len) + "+"

    def print_table(self) -> None:
        lines = [self._shelf_text(), self._row_text(self.table_heads), self._shelf_text()]
        lines += [self._row_text(row) for row in self.data] + [self._shelf_text()]
        print("\n".join(lines))


def _per_sample(shape) -> int:
    return abs(math.prod(shape[1:]))


def _op_flops(op, var) -> tuple:
    """(flops, the parameter it uses or '') of one OpDesc; `var(name)` finds a Variable in the Program."""
    out = var(op.outputs["Out"][0])
    if op.type == "conv2d":
        w = var(op.inputs["w"][0])
        return _per_sample(out.shape) * math.prod(w.shape[1:]), w.name
    if op.type in ("max_pool", "avg_pool"):
        x = var(op.inputs["x"][0])
        kernel = math.prod(i // o for i, o in zip(x.shape[2:], out.shape[2:]))
        return _per_sample(out.shape) * (kernel + 1), ""
    if op.type in ("matmul", "fc"):
        w = var(op.inputs["y" if op.type == "matmul" else "w"][0])
        return _per_sample(out.shape) * w.shape[0], w.name
    if op.type in _ELEMENTWISE:
        return _per_sample(var(op.inputs["x"][0]).shape), ""
    return 0, ""


def static_flops(program, print_detail: bool = False) -> int:
    """The FLOPs per sample of every op of `program` (see the module docstring); prints the table of the ops that
    count when print_detail."""

    def var(name):
        for block in program.blocks:
            if name in block.vars:
                return block.vars[name]
        raise KeyError(f"flops: the Program has no variable {name!r}")

    table = Table(["OP Type", "Param name", "Flops"])
    total = 0
    for block in program.blocks:
        for op in block.ops:
            flops, param = _op_flops(op, var)
            if flops:
                total += flops
                table.add_row([op.type, param, flops])
    if print_detail:
        table.print_table()
    return total
