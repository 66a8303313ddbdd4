"""Where each line of transformed code came from: {temporary file: {line: (user file, user line, function)}}.

Transformers give the nodes they generate the position of the user's statement they replace. After the tree is
turned back into source and parsed again, the old and new trees are walked side by side (they have the same
shape), pairing each new line with the user line its node carries (Paddle's create_and_update_origin_info_map).
"""

from __future__ import annotations

import ast

ORIGINS: dict[str, dict[int, tuple]] = {}


def map_lines(transformed: ast.AST, reparsed: ast.AST, filename: str, first_line: int, function: str) -> dict:
    """{line in the reparsed source: (filename, user line, function)}; `first_line` is where the user's function
    starts in `filename` (the transformed tree's line 1)."""
    mapping: dict[int, tuple] = {}
    for a, b in zip(ast.walk(transformed), ast.walk(reparsed)):
        if type(a) is not type(b):
            break
        line_a, line_b = getattr(a, "lineno", None), getattr(b, "lineno", None)
        if line_a is None or line_b is None:
            continue
        user_line = line_a + first_line - 1
        if line_b not in mapping or user_line < mapping[line_b][1]:
            mapping[line_b] = (filename, user_line, function)
    return mapping
