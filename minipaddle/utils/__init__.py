"""paddle.utils: small helpers for code written against Paddle: deprecated, require_version, run_check,
try_import, and the unique_name submodule."""

from minipaddle.utils import dlpack, download, unique_name  # noqa: F401  (paddle.utils.dlpack, .download, .unique_name)
from minipaddle.utils.deprecated import deprecated  # (the module first, then the decorator under its name)
from minipaddle.utils.install_check import run_check
from minipaddle.utils.layers_utils import (  # noqa: F401  (paddle.utils exports these outside __all__)
    assert_same_structure,
    convert_to_list,
    copy_mutable_vars,
    flatten,
    hold_mutable_vars,
    is_sequence,
    map_structure,
    pack_sequence_as,
    padding_to_same_structure,
    to_sequence,
)
from minipaddle.utils.versions import require_version, try_import

__all__ = ["deprecated", "run_check", "require_version", "try_import"]
