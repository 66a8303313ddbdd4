"""What a pass changed, as data: which ops went, which came, which changed, which variables were renamed.

    d = passes.diff(before, after)
    d.removed_ops   # indices into before's global block      d.added_ops    # indices into after's
    d.changed_ops   # (before index, after index) pairs of the same op type with other inputs/outputs/attrs
    d.renamed_vars  # {old name: new name}, from matched ops whose results now go to another name

viz draws `before` with the removed ops highlighted and `after` with the added ones.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field

from minipaddle.static.program import Program
from minipaddle.static.serialize import encode_attr


@dataclass
class ProgramDiff:
    removed_ops: list = field(default_factory=list)
    added_ops: list = field(default_factory=list)
    changed_ops: list = field(default_factory=list)
    renamed_vars: dict = field(default_factory=dict)
    removed_vars: list = field(default_factory=list)
    added_vars: list = field(default_factory=list)

    def summary(self) -> str:
        """One line, e.g. `3 ops removed, 1 added, 0 changed; 2 variables renamed, 2 removed, 0 added`."""
        return (f"{len(self.removed_ops)} ops removed, {len(self.added_ops)} added, {len(self.changed_ops)} changed; "
                f"{len(self.renamed_vars)} variables renamed, {len(self.removed_vars)} removed, "
                f"{len(self.added_vars)} added")  # fmt: skip


def _signature(op) -> str:
    """An op's inputs, outputs and attributes as comparable text (attributes may hold numpy arrays)."""
    try:
        attrs = encode_attr(op.attrs)
    except TypeError:  # an attribute no file can hold (py_func's): its text still compares
        attrs = repr(op.attrs)
    return json.dumps([op.inputs, op.outputs, attrs], sort_keys=True)


def _matcher(a: list, b: list) -> difflib.SequenceMatcher:
    return difflib.SequenceMatcher(None, [repr(x) for x in a], [repr(x) for x in b], autojunk=False)


def diff(before: Program, after: Program) -> ProgramDiff:
    """Compare the global blocks of two Programs (typically a pass's input and output).

    Ops are aligned in order (a longest-common-subsequence match, as `diff` does for lines): first by type and
    outputs, then by type alone; unmatched ops are removed or added, matched ones whose inputs, outputs or
    attributes differ are changed.
    """
    b_ops, a_ops = before.global_block().ops, after.global_block().ops
    result = ProgramDiff()
    matched = set()
    # Ops that kept their type and outputs match first; in the gaps between them, ops of the same type match
    # (a pass that renames results leaves the type).
    exact = _matcher([(op.type, op.output_names()) for op in b_ops], [(op.type, op.output_names()) for op in a_ops])
    for tag, i1, i2, j1, j2 in exact.get_opcodes():
        if tag == "equal":
            matched.update(zip(range(i1, i2), range(j1, j2)))
            continue
        by_type = _matcher([op.type for op in b_ops[i1:i2]], [op.type for op in a_ops[j1:j2]])
        for i, j, n in by_type.get_matching_blocks():
            matched.update((i1 + i + k, j1 + j + k) for k in range(n))
    result.removed_ops = sorted(set(range(len(b_ops))) - {i for i, _ in matched})
    result.added_ops = sorted(set(range(len(a_ops))) - {j for _, j in matched})
    after_vars = after.global_block().vars
    for i, j in sorted(matched):
        old, new = b_ops[i], a_ops[j]
        if _signature(old) != _signature(new):
            result.changed_ops.append((i, j))
        for o, n in zip(old.output_names(), new.output_names()):
            if o != n and o not in after_vars:
                result.renamed_vars[o] = n
    before_vars = before.global_block().vars
    result.removed_vars = [n for n in before_vars if n not in after_vars and n not in result.renamed_vars]
    result.added_vars = [n for n in after_vars if n not in before_vars]
    return result
