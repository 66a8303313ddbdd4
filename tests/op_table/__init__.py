"""The op table: every section's entries in one list. Each section is a module of its own (one per area of the
API, so work on different areas never touches the same file); add a new section to SECTIONS.

tests/ops/test_op_table.py runs every check that applies to all ops over OP_TABLE.
"""

from tests.op_table import core, debug
from tests.op_table.common import OpInfo, Sample

SECTIONS = [core, debug]

OP_TABLE: list[OpInfo] = [entry for section in SECTIONS for entry in section.ENTRIES]

__all__ = ["OP_TABLE", "OpInfo", "Sample"]
